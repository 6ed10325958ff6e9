/*
 * sp-browse - the whole history browsed in the terminal: the workloads by
 * compute, one workload's runs, advice, findings and machines, one job's
 * post-mortem, and back; the jobs running now.
 *
 * Reads job records that carry workload_key (sp-group adds it) from the
 * files named, or standard input, all of them before the first screen;
 * the keys come from /dev/tty, so the records may come down a pipe.
 * Every figure is the library's, as the other stages compute it.  Where
 * there is no terminal to browse on (TERM=dumb, no /dev/tty) or with
 * --plain, the first screen is written as text instead.
 */
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp-browse/browse.h"
#include "sp_opt.h"

static const char usage_text[] =
"usage: sp-browse [--plain | --next] [--source text] [--ascii]\n"
"                 [--no-color] [--no-logs] [--log-dir dir] [file ...]\n";

static const char help_text[] =
"\n"
"The dashboard over job records with workload_key (sp-fetch | sp-group):\n"
"the workloads by compute, one workload's runs, advice, findings and\n"
"machines, one job's post-mortem, the jobs running now (sp-fetch --live).\n"
"Keys come from the terminal; ? in the dashboard lists them.\n"
"\n"
"      --plain             the first screen as text, never the dashboard\n"
"      --next              a record a workload, the first screen's order:\n"
"                          its screen's next: line (what y copies)\n"
"      --source text       where the records came from, said in the\n"
"                          headline\n"
"      --ascii             ASCII only\n"
"      --no-color          no colour (NO_COLOR does the same)\n"
"      --no-logs           look for no log file\n"
"      --log-dir dir       look for logs in dir first (repeatable)\n";

/* --help, after the options: the keys, from the key map itself. */
static void
keys_help(void)
{
	fputs("\nKeys in the dashboard:\n", stdout);
	help_keys(stdout);
}

enum { OPT_PLAIN = 0x2000, OPT_SOURCE, OPT_NEXT };

static void
parse_options(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "plain", no_argument, NULL, OPT_PLAIN },
		{ "next", no_argument, NULL, OPT_NEXT },
		{ "source", required_argument, NULL, OPT_SOURCE },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text,
				  .formatless = 1, .logs = &o->logs,
				  .term = &o->term, .help_more = keys_help };
	int c;

	memset(o, 0, sizeof *o);
	while ((c = sp_getopt(argc, argv, "", longopts, NULL,
			      &common)) != -1) {
		switch (c) {
		case OPT_PLAIN:
			o->plain = 1;
			break;
		case OPT_NEXT:
			o->next = 1;
			break;
		case OPT_SOURCE:
			o->source = optarg;
			break;
		}
	}
	/* NO_COLOR, set and not empty, as everywhere. */
	{
		const char *nc = getenv("NO_COLOR");

		if (nc != NULL && *nc != '\0')
			o->term.no_color = 1;
	}
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
}

/* A terminal that can browse: not dumb, and known by name. */
static int
can_browse(void)
{
	const char *term = getenv("TERM");

	return term != NULL && *term != '\0' && strcmp(term, "dumb") != 0;
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct model m;
	int status;

	setlocale(LC_CTYPE, "");
	sp_setprog(argv[0]);
	sp_stdout_init();
	parse_options(argc, argv, &o);

	model_load(&m, &o);
	if (o.next)
		status = next_run(&m, &o);
	else if (o.plain || !can_browse())
		status = plain_run(&m, &o);
	else
		status = ui_run(&m, &o);
	model_free(&m);
	free(o.logs.dirs);
	sp_stdout_close();
	return status;
}
