/*
 * sp-attr - where each job was submitted from.
 *
 * The accounting record does not know who typed sbatch; the place that
 * saw sbatch's answer does.  sp-attr reads the files named (directories
 * walked), by default the user's Claude Code transcripts, for "Submitted
 * batch job N" (and --parsable's bare "N" after an sbatch command), then
 * passes the job records on standard input through with three columns on
 * their right: source (claude-code:<session>, or the file's path),
 * source_at (when the answer was seen) and source_dir (the session's
 * working directory).  An array task or a heterogeneous component takes
 * its job's source.  Only job ids, session ids, times and directories
 * leave the files read; no message text.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sp.h"
#include "sp_opt.h"
#include "sp-attr/attr.h"

static const char usage_text[] =
"usage: sp-attr [--tsv | --plain | --json | --csv] [file | dir ...]\n"
"       sp-attr --claims [--tsv | --plain | --json | --csv] [file | dir ...]\n";

static const char help_text[] =
"\n"
"Job records (sp-fetch) on standard input, each with source, source_at\n"
"and source_dir: where sbatch's answer for it was seen, in the files and\n"
"directories named (default: the Claude Code transcripts):\n"
"      --claims            read no records: what the files claim, one\n"
"                          record per job, cluster and source\n"
"      --tsv, --plain, --json, --csv\n"
"                          records with a header (the default),\n"
"                          aligned text, JSON Lines, CSV\n";

static const char *const new_cols[] = { "source", "source_at", "source_dir",
	NULL };

struct options {
	int claims;
	enum sp_format fmt;
};

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "claims", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text };
	int ch;

	memset(o, 0, sizeof *o);
	while ((ch = sp_getopt(argc, argv, "", longopts, NULL,
			       &common)) != -1)
		if (ch == 'c')
			o->claims = 1;
	o->fmt = common.fmt;
}

/* ----------------------------------------------------------- sources */

/*
 * With nothing named, the user's Claude Code transcripts: under
 * $CLAUDE_CONFIG_DIR, else ~/.claude, the directory projects.  None is
 * no error: every source is then unknown, and one line says why.
 */
static void
scan_default(struct attr_claims *c, struct attr_stats *st)
{
	const char *conf = getenv("CLAUDE_CONFIG_DIR");
	const char *home = getenv("HOME");
	struct sp_buf dir = { 0 };
	struct stat sb;
	char *path;

	if (conf != NULL && *conf != '\0') {
		sp_buf_adds(&dir, conf);
	} else if (home != NULL && *home != '\0') {
		sp_buf_adds(&dir, home);
		sp_buf_adds(&dir, "/.claude");
	} else {
		sp_warn("no Claude Code transcripts: neither CLAUDE_CONFIG_DIR "
			"nor HOME is set (name the files to read)");
		return;
	}
	sp_buf_adds(&dir, "/projects");
	if (stat(dir.p, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		sp_warn("no Claude Code transcripts in %s (name the files or "
			"directories to read)", dir.p);
	} else {
		path = dir.p;
		attr_walk(c, &path, 1, 0, st);
	}
	sp_buf_free(&dir);
}

static void
scan_sources(struct attr_claims *c, char **paths, size_t n,
	     struct attr_stats *st)
{
	if (n == 0)
		scan_default(c, st);
	else
		attr_walk(c, paths, n, 0, st);
	if (st->cut > 0)
		sp_warn("%s%s ends in a line cut short (read as far as it "
			"goes)", sp_buf_str(&st->cut_first),
			st->cut > 1 ? " and other transcripts" : "");
}

/* ----------------------------------------------------------- writing */

static void
write_claim(struct sp_writer *w, const struct attr_claims *c,
	    const struct attr_claim *x, struct sp_buf *b)
{
	if (x == NULL) {
		sp_writer_empty(w);
		sp_writer_empty(w);
		sp_writer_empty(w);
		return;
	}
	sp_writer_raw(w, sp_intern_str(&c->sources, x->source),
		      strlen(sp_intern_str(&c->sources, x->source)));
	if (x->at_known) {
		sp_buf_clear(b);
		sp_fmt_time(b, x->at);
		sp_writer_field(w, b->p, b->len);
	} else {
		sp_writer_empty(w);
	}
	if (x->dir >= 0) {
		const char *d = sp_intern_str(&c->dirs, (size_t)x->dir);

		sp_writer_raw(w, d, strlen(d));
	} else {
		sp_writer_empty(w);
	}
}

/* --claims: what the files say, one line per job, cluster and source. */
static void
write_claims(const struct attr_claims *c, struct sp_writer *w)
{
	static const char *const cols[] = { "jobid", "cluster", NULL };
	size_t *order = attr_claims_sorted(c);
	struct sp_buf b = { 0 };

	for (const char *const *k = cols; *k; k++)
		sp_writer_column(w, *k);
	for (const char *const *k = new_cols; *k; k++)
		sp_writer_column(w, *k);
	sp_writer_header(w);
	for (size_t i = 0; i < c->n; i++) {
		const struct attr_claim *x = &c->v[order[i]];

		sp_writer_printf(w, "%lu", (unsigned long)x->job);
		if (x->cluster >= 0)
			sp_writer_str(w, sp_intern_str(&c->clusters,
						       (size_t)x->cluster));
		else
			sp_writer_empty(w);
		write_claim(w, c, x, &b);
		sp_writer_end(w);
	}
	free(order);
	sp_buf_free(&b);
}

/* ----------------------------------------------------------- records */

struct cols {
	int jobid, cluster, submit;
	int out[3];		/* source, source_at, source_dir, or -1 */
};

/* What was said once at the end: rivals, and claims too far away. */
struct notes {
	struct sp_intern contested, far;
	uint32_t contested_job;
	size_t won, lost;
};

/* The job a record belongs to: its id's leading digits (123_4, 123+1). */
static int
record_job(struct sp_slice id, uint32_t *job)
{
	uint64_t v = 0;
	size_t i = 0;

	while (i < id.n && id.p[i] >= '0' && id.p[i] <= '9') {
		if (i == ATTR_ID_DIGITS)
			return 0;
		v = v * 10 + (uint64_t)(id.p[i] - '0');
		i++;
	}
	if (i == 0 || v == 0 || v > UINT32_MAX)
		return 0;
	*job = (uint32_t)v;
	return 1;
}

static void
note(struct sp_intern *set, uint32_t job)
{
	char key[sizeof job];

	memcpy(key, &job, sizeof job);
	sp_intern(set, key, sizeof key);
}

static void
attribute(struct sp_reader *r, const struct cols *k,
	  const struct attr_claims *c, struct sp_writer *w, struct notes *nt)
{
	struct sp_buf b = { 0 };

	while (sp_next_or_die(r)) {
		struct attr_found f = { 0 };
		uint32_t job = 0;
		int64_t submit = 0;
		int submit_known = 0;

		if (k->submit >= 0)
			submit_known = sp_parse_time(r->f[k->submit].p,
			    r->f[k->submit].n, &submit) == SP_VAL_OK;
		if (record_job(r->f[k->jobid], &job)) {
			struct sp_slice cl = sp_reader_field(r, k->cluster);

			attr_claims_find(c, job, cl.p, cl.n, submit,
					 submit_known, &f);
		}
		if (f.rival) {
			size_t before = nt->contested.n;

			note(&nt->contested, job);
			if (before == 0) {
				nt->contested_job = job;
				nt->won = f.claim->source;
				nt->lost = f.rival->source;
			}
		}
		if (f.far)
			note(&nt->far, job);
		for (size_t i = 0; i < r->ncols; i++) {
			if ((int)i == k->out[0] || (int)i == k->out[1] ||
			    (int)i == k->out[2]) {
				/* an earlier run's columns, replaced in place */
				if ((int)i == k->out[0])
					write_claim(w, c, f.claim, &b);
				continue;
			}
			sp_writer_slice(w, r->f[i]);
		}
		if (k->out[0] < 0)
			write_claim(w, c, f.claim, &b);
		sp_writer_end(w);
	}
	sp_buf_free(&b);
}

static void
say_notes(const struct notes *nt, const struct attr_claims *c)
{
	if (nt->contested.n > 0)
		sp_warn("%zu %s claimed by more than one source went to the "
			"earliest claim (job %lu: %s, not %s)",
			nt->contested.n, nt->contested.n == 1 ? "job" : "jobs",
			(unsigned long)nt->contested_job,
			sp_intern_str(&c->sources, nt->won),
			sp_intern_str(&c->sources, nt->lost));
	if (nt->far.n > 0)
		sp_warn("%zu %s claimed only more than %d days from %s submit "
			"time (another cluster's or a reused id): no source",
			nt->far.n, nt->far.n == 1 ? "job was" : "jobs were",
			(int)(SP_ATTR_WINDOW_S / 86400),
			nt->far.n == 1 ? "its" : "their");
}

/*
 * The three columns go where an earlier sp-attr put them, as a group:
 * all three present, or none.
 */
static void
resolve(const struct sp_reader *r, struct cols *k)
{
	int have = 0;

	k->jobid = sp_reader_need(r, "jobid", "sp-fetch");
	k->cluster = sp_reader_col(r, "cluster");
	k->submit = sp_reader_col(r, "submit");
	for (int i = 0; i < 3; i++) {
		k->out[i] = sp_reader_col(r, new_cols[i]);
		have += k->out[i] >= 0;
	}
	if (have != 0 && (have != 3 || k->out[1] != k->out[0] + 1 ||
			  k->out[2] != k->out[0] + 2))
		sp_die(SP_EXIT_USAGE, "%s: the columns source, source_at and "
		       "source_dir must be all present, side by side, or none",
		       r->name ? r->name : "<stdin>");
}

int
main(int argc, char **argv)
{
	struct options o;
	struct attr_claims claims;
	struct attr_stats st;
	struct sp_writer w;

	sp_setprog(argv[0]);
	sp_stdout_init();
	parse_options(argc, argv, &o);
	attr_claims_init(&claims);
	memset(&st, 0, sizeof st);
	sp_writer_init(&w, stdout, o.fmt);

	if (o.claims) {
		scan_sources(&claims, argv + optind, (size_t)(argc - optind),
			     &st);
		write_claims(&claims, &w);
		sp_writer_finish(&w);
	} else {
		struct sp_reader r;
		struct notes nt;
		struct cols k;

		/* The records' header first: a wrong input fails before
		 * gigabytes are read. */
		sp_open_or_die(&r, NULL, 0);
		resolve(&r, &k);
		scan_sources(&claims, argv + optind, (size_t)(argc - optind),
			     &st);
		sp_writer_columns_from(&w, &r);
		if (k.out[0] < 0)
			for (const char *const *c = new_cols; *c; c++)
				sp_writer_column(&w, *c);
		sp_writer_header(&w);
		memset(&nt, 0, sizeof nt);
		attribute(&r, &k, &claims, &w, &nt);
		sp_writer_finish(&w);
		say_notes(&nt, &claims);
		sp_intern_free(&nt.contested);
		sp_intern_free(&nt.far);
		sp_reader_close(&r);
	}
	sp_buf_free(&st.cut_first);
	attr_claims_free(&claims);
	sp_stdout_close();
	return SP_EXIT_OK;
}
