/*
 * sp-plot - one stage's records as one SVG figure, or the whole report as
 * one HTML page.
 *
 * sp-plot KIND reads the records of the stage that already computed the
 * figure's numbers (sp-fetch's jobs, sp-group --rollup's workloads,
 * sp-size's advice, ...) and writes one self-contained SVG figure to
 * standard output: the article's figures, drawn from the user's own
 * history.  sp-plot page puts the text report's sections and the figures
 * beside them into one HTML page that needs nothing from elsewhere.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp-plot/plot.h"
#include "sp_opt.h"

static const char usage_text[] =
	"usage: sp-plot KIND [--workload KEY] [--job ID] [--findings FILE]\n"
	"               [--probes ID,...] [file ...]\n"
	"       sp-plot page [--title TEXT] [--findings FILE] [--text FILE]\n"
	"               [--figure KIND=FILE] ...\n";

static const char help_text[] =
	"\n"
	"      --workload KEY      memory-walk, array: the workload_key to draw\n"
	"      --job ID            job: the job (jobid or jobid_raw) to draw\n"
	"      --findings FILE     memory-walk, array: the workload (and the\n"
	"                          probes) of the memory-search or\n"
	"                          array-probes finding in FILE (sp-size\n"
	"                          --findings); page: the same for its\n"
	"                          figures\n"
	"      --probes ID,...     array: the single runs to mark as probes\n"
	"      --title TEXT        page: the page's title\n"
	"      --text FILE         page: a section of the text report (lines\n"
	"                          starting with 0x1e are headings)\n"
	"      --figure KIND=FILE  page: a figure of KIND from the records in\n"
	"                          FILE\n";

struct options {
	const struct plot_kind *kind;	/* NULL: the page */
	struct plot_opts plot;
	struct page page;
	int page_only;			/* an option only the page takes */
	char **files;
	size_t nfiles;
};

enum { OPT_WORKLOAD = 0x2000, OPT_JOB, OPT_FINDINGS, OPT_PROBES, OPT_TITLE,
       OPT_TEXT, OPT_FIGURE };

/* After the options: the kinds, from the table that draws them. */
static void
kinds_help(void)
{
	fputs("\nEach KIND and the records it reads:\n", stdout);
	for (const struct plot_kind *k = plot_kinds; k->name; k++)
		printf("  %-12s %s\n", k->name, k->reads);
	printf("  %-12s sections of the text report and figures\n", "page");
}

static void
add_block(struct page *p, enum block_kind kind, const char *path,
	  const struct plot_kind *figure)
{
	p->blocks = sp_xgrow(p->blocks, &p->cap, p->n + 1, sizeof *p->blocks);
	p->blocks[p->n].kind = kind;
	p->blocks[p->n].path = path;
	p->blocks[p->n].figure = figure;
	p->n++;
}

/* --figure KIND=FILE */
static void
add_figure(struct page *p, char *arg)
{
	char *eq = strchr(arg, '=');
	const struct plot_kind *k;

	if (!eq || eq[1] == '\0')
		sp_die(SP_EXIT_USAGE, "--figure takes KIND=FILE, not '%s'",
		       arg);
	*eq = '\0';
	k = plot_kind(arg);
	if (!k)
		sp_die(SP_EXIT_USAGE, "--figure: no figure kind '%s' (see "
		       "sp-plot --help)", arg);
	add_block(p, BLOCK_FIGURE, eq + 1, k);
}

static void
check_kind_options(const struct options *o)
{
	const char *name = o->kind->name;

	if (o->page_only)
		sp_die(SP_EXIT_USAGE, "--title, --text and --figure are for "
		       "sp-plot page");
	if (o->plot.job && strcmp(name, "job") != 0)
		sp_die(SP_EXIT_USAGE, "--job is for the job figure");
	if (o->plot.probes && strcmp(name, "array") != 0)
		sp_die(SP_EXIT_USAGE, "--probes is for the array figure");
	if ((o->plot.workload || o->plot.findings) &&
	    strcmp(name, "memory-walk") != 0 && strcmp(name, "array") != 0)
		sp_die(SP_EXIT_USAGE, "--workload and --findings are for the "
		       "memory-walk and array figures");
	if (o->plot.workload && o->plot.findings)
		sp_die(SP_EXIT_USAGE, "--workload and --findings both choose "
		       "the workload: give one");
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "workload", required_argument, NULL, OPT_WORKLOAD },
		{ "job", required_argument, NULL, OPT_JOB },
		{ "findings", required_argument, NULL, OPT_FINDINGS },
		{ "probes", required_argument, NULL, OPT_PROBES },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "text", required_argument, NULL, OPT_TEXT },
		{ "figure", required_argument, NULL, OPT_FIGURE },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text,
				  .formatless = 1, .help_more = kinds_help };
	const char *kind;
	int c;

	memset(o, 0, sizeof *o);
	while ((c = sp_getopt(argc, argv, "", longopts, NULL,
			      &common)) != -1) {
		switch (c) {
		case OPT_WORKLOAD:
			o->plot.workload = optarg;
			break;
		case OPT_JOB:
			o->plot.job = optarg;
			break;
		case OPT_FINDINGS:
			o->plot.findings = optarg;
			break;
		case OPT_PROBES:
			o->plot.probes = optarg;
			break;
		case OPT_TITLE:
			o->page.title = optarg;
			o->page_only = 1;
			break;
		case OPT_TEXT:
			add_block(&o->page, BLOCK_TEXT, optarg, NULL);
			o->page_only = 1;
			break;
		case OPT_FIGURE:
			add_figure(&o->page, optarg);
			o->page_only = 1;
			break;
		}
	}
	if (optind >= argc)
		sp_die(SP_EXIT_USAGE, "no figure named: sp-plot KIND (see "
		       "sp-plot --help)");
	kind = argv[optind++];
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
	if (strcmp(kind, "page") == 0) {
		if (o->plot.workload || o->plot.job || o->plot.probes)
			sp_die(SP_EXIT_USAGE, "--workload, --job and --probes "
			       "are for one figure, not the page");
		if (o->nfiles > 0)
			sp_die(SP_EXIT_USAGE, "the page reads --text and "
			       "--figure files, not '%s'", o->files[0]);
		if (o->page.n == 0)
			sp_die(SP_EXIT_USAGE, "an empty page: give --text or "
			       "--figure");
		o->page.findings = o->plot.findings;
		return;
	}
	o->kind = plot_kind(kind);
	if (!o->kind)
		sp_die(SP_EXIT_USAGE, "no figure kind '%s' (see sp-plot "
		       "--help)", kind);
	check_kind_options(o);
}

/*
 * Options; then the page, or one kind: its stage's header checked by
 * name, its records read, the figure drawn; the output written whole at
 * the end, so that an input error never leaves half a figure.
 */
int
main(int argc, char **argv)
{
	struct options o;
	struct sp_buf out = { 0 }, why = { 0 };
	int status = SP_EXIT_OK;

	sp_setprog(argv[0]);
	sp_stdout_init();
	parse_options(argc, argv, &o);

	if (!o.kind) {
		page_write(&o.page, &out);
	} else if (!plot_draw(o.kind, o.files, o.nfiles, &o.plot, &out,
			      &why)) {
		sp_warn("nothing to draw: %s", sp_buf_str(&why));
		status = SP_EXIT_FAIL;
	}
	if (out.len)
		fwrite(out.p, 1, out.len, stdout);
	sp_buf_free(&out);
	sp_buf_free(&why);
	free(o.page.blocks);
	sp_stdout_close();
	return status;
}
