/*
 * sp-show - one job's post-mortem: the record drawn against its own
 * limits, every field it holds, the tail of its logs, and what went
 * wrong with what to do next.  With --json every value of the job; with
 * --findings the finding records of every job in the input.
 *
 * The input is read twice (through a spool, so standard input works):
 * once to learn the history of every node, once to show the jobs.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp.h"
#include "sp_findings.h"
#include "sp_logs.h"
#include "sp_nodes.h"
#include "sp_site.h"
#include "sp_term.h"
#include "sp_workload.h"

static const char usage_text[] =
"usage: sp-show [--plain | --json | --findings] [--ascii] [--no-color]\n"
"               [--no-logs] [--log-dir dir] [--width n]\n"
"               [-j jobid[,jobid ...]] [file ...]\n";

enum mode { MODE_VIEW, MODE_JSON, MODE_FINDINGS };

enum {
	OPT_JSON = 0x2000, OPT_PLAIN, OPT_FINDINGS, OPT_ASCII, OPT_NO_COLOR,
	OPT_NO_LOGS, OPT_LOG_DIR, OPT_WIDTH, OPT_VERSION
};

struct opts {
	enum mode mode;
	int mode_set;
	char **ids;		/* job ids asked for, none: every job */
	size_t nids;
	unsigned char *id_seen;
	int no_logs;
	int no_color;
	int ascii;
	int width;
	char **log_dirs;
	size_t nlog_dirs;
};

/* A record held past the reader's next line: its own copy of each field. */
struct rec {
	struct sp_buf arena;
	size_t *off;
	struct sp_slice *f;
	size_t nf;
	struct sp_job j;
};

/* An allocation with the step records that followed it. */
struct held {
	struct rec alloc;
	struct rec *steps;
	size_t nsteps;
	size_t cap;
	int active;
};

/* Everything that lives for the whole run. */
struct run {
	struct opts *o;
	struct sp_reader r;
	struct sp_jobcols cols;
	struct sp_site site;
	struct sp_logctx logctx;
	struct sp_node_history *history;
	struct sp_term term;
	struct sp_writer w;	/* --findings */
	size_t shown;
	int worst;
	struct sp_buf out;	/* one job's rendering */
};

static void __attribute__((noreturn))
usage(int status)
{
	fputs(usage_text, status == 0 ? stdout : stderr);
	exit(status);
}

/* ------------------------------------------------------------------ */
/* Options                                                            */

static void
add_ids(struct opts *o, const char *list)
{
	char *copy = sp_xstrdup(list), *save = NULL, *tok;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		o->ids = sp_xrealloc(o->ids, (o->nids + 1) * sizeof *o->ids);
		o->ids[o->nids++] = sp_xstrdup(tok);
	}
	free(copy);
	if (o->nids == 0)
		sp_die(SP_EXIT_USAGE, "-j: no job id in '%s'", list);
}

static void
set_mode(struct opts *o, enum mode m)
{
	if (o->mode_set && o->mode != m)
		sp_die(SP_EXIT_USAGE, "--plain, --json and --findings are "
		       "different outputs: choose one");
	o->mode = m;
	o->mode_set = 1;
}

static int
parse_options(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "job", required_argument, NULL, 'j' },
		{ "plain", no_argument, NULL, OPT_PLAIN },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "findings", no_argument, NULL, OPT_FINDINGS },
		{ "ascii", no_argument, NULL, OPT_ASCII },
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ "no-colour", no_argument, NULL, OPT_NO_COLOR },
		{ "no-logs", no_argument, NULL, OPT_NO_LOGS },
		{ "log-dir", required_argument, NULL, OPT_LOG_DIR },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ NULL, 0, NULL, 0 }
	};
	int c;
	long v;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(SP_EXIT_OK);
		case OPT_VERSION:
			sp_print_version();
			exit(SP_EXIT_OK);
		case 'j':
			add_ids(o, optarg);
			break;
		case OPT_PLAIN:
			set_mode(o, MODE_VIEW);
			break;
		case OPT_JSON:
			set_mode(o, MODE_JSON);
			break;
		case OPT_FINDINGS:
			set_mode(o, MODE_FINDINGS);
			break;
		case OPT_ASCII:
			o->ascii = 1;
			break;
		case OPT_NO_COLOR:
			o->no_color = 1;
			break;
		case OPT_NO_LOGS:
			o->no_logs = 1;
			break;
		case OPT_LOG_DIR:
			o->log_dirs = sp_xrealloc(o->log_dirs,
				(o->nlog_dirs + 1) * sizeof *o->log_dirs);
			o->log_dirs[o->nlog_dirs++] = optarg;
			break;
		case OPT_WIDTH:
			if (sp_strtol_full(optarg, &v) != 0 || v <= 0 ||
			    v > 10000)
				sp_die(SP_EXIT_USAGE, "--width: not a width in "
				       "columns: '%s'", optarg);
			o->width = (int)v;
			break;
		case ':':
			sp_die(SP_EXIT_USAGE, "option '%s' needs a value",
			       argv[optind - 1]);
		default:
			sp_die_unknown_option(optopt, argv[optind - 1]);
		}
	}
	if (o->no_logs && o->nlog_dirs > 0) {
		sp_warn("--log-dir has no effect with --no-logs");
		o->nlog_dirs = 0;
	}
	o->id_seen = sp_xcalloc(o->nids ? o->nids : 1, 1);
	return optind;
}

/* ------------------------------------------------------------------ */
/* Held records                                                       */

static void
rec_take(struct rec *dst, const struct sp_reader *r,
	 const struct sp_jobcols *cols)
{
	struct sp_reader shim;

	sp_buf_clear(&dst->arena);
	dst->nf = r->ncols;
	dst->off = sp_xrealloc(dst->off, (r->ncols + 1) * sizeof *dst->off);
	dst->f = sp_xrealloc(dst->f, (r->ncols + 1) * sizeof *dst->f);
	for (size_t i = 0; i < r->ncols; i++) {
		dst->off[i] = dst->arena.len;
		sp_buf_add(&dst->arena, r->f[i].p, r->f[i].n);
		sp_buf_addc(&dst->arena, '\0');
	}
	/* The arena is complete: slices into it stay put from here. */
	for (size_t i = 0; i < r->ncols; i++) {
		dst->f[i].p = dst->arena.p + dst->off[i];
		dst->f[i].n = r->f[i].n;
	}
	/* The record was checked on the first pass; parse the copy. */
	memset(&shim, 0, sizeof shim);
	shim.f = dst->f;
	shim.ncols = dst->nf;
	shim.name = r->name;
	shim.line = r->line;
	sp_job_parse(&dst->j, cols, &shim);
	sp_buf_free(&shim.err);
}

static void
rec_free(struct rec *r)
{
	sp_buf_free(&r->arena);
	free(r->off);
	free(r->f);
	memset(r, 0, sizeof *r);
}

static void
held_free(struct held *h)
{
	rec_free(&h->alloc);
	for (size_t i = 0; i < h->cap; i++)
		rec_free(&h->steps[i]);
	free(h->steps);
	memset(h, 0, sizeof *h);
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                      */

static int
slice_is(struct sp_slice s, const char *lit, size_t n)
{
	return s.n == n && memcmp(s.p, lit, n) == 0;
}

/* -j 123 names job 123, its array tasks 123_N, its het parts 123+N. */
static int
id_matches(const char *id, const struct sp_job *j)
{
	size_t n = strlen(id);

	return slice_is(j->jobid, id, n) || slice_is(j->jobid_raw, id, n) ||
	       slice_is(j->array_job, id, n) ||
	       (j->jobid.n > n && memcmp(j->jobid.p, id, n) == 0 &&
		j->jobid.p[n] == '+');
}

static int
wanted(struct opts *o, const struct sp_job *j)
{
	int any = 0;

	if (o->nids == 0)
		return 1;
	for (size_t i = 0; i < o->nids; i++) {
		if (id_matches(o->ids[i], j)) {
			o->id_seen[i] = 1;
			any = 1;
		}
	}
	return any;
}

static int
same_job(const struct sp_job *step, const struct sp_job *alloc)
{
	return (step->jobid.n > 0 && step->jobid.n == alloc->jobid.n &&
		memcmp(step->jobid.p, alloc->jobid.p, step->jobid.n) == 0) ||
	       (step->jobid_raw.n > 0 && step->jobid_raw.n ==
		alloc->jobid_raw.n && memcmp(step->jobid_raw.p,
		alloc->jobid_raw.p, step->jobid_raw.n) == 0);
}

/* ------------------------------------------------------------------ */
/* JSON                                                               */

static void
json_str(struct sp_buf *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, len;
	unsigned long cp;

	sp_buf_addc(b, '"');
	while (i < n) {
		unsigned char c = u[i];

		if (c == '"' || c == '\\') {
			sp_buf_addc(b, '\\');
			sp_buf_addc(b, (char)c);
			i++;
		} else if (c == '\n') {
			sp_buf_adds(b, "\\n");
			i++;
		} else if (c == '\t') {
			sp_buf_adds(b, "\\t");
			i++;
		} else if (c == '\r') {
			sp_buf_adds(b, "\\r");
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			sp_buf_printf(b, "\\u%04x", c);
			i++;
		} else if (c < 0x80) {
			sp_buf_addc(b, (char)c);
			i++;
		} else if ((len = sp_term_utf8(s + i, n - i, &cp)) == 0) {
			/* One invalid byte would void the whole document. */
			sp_buf_adds(b, "\\ufffd");
			i++;
		} else if (cp <= 0x9f) {
			sp_buf_printf(b, "\\u%04lx", cp);
			i += len;
		} else {
			sp_buf_add(b, s + i, len);
			i += len;
		}
	}
	sp_buf_addc(b, '"');
}

static void
json_cstr(struct sp_buf *b, const char *s)
{
	if (s == NULL)
		sp_buf_adds(b, "null");
	else
		json_str(b, s, strlen(s));
}

static void
json_num(struct sp_buf *b, double v)
{
	if (!isfinite(v))
		sp_buf_adds(b, "null");
	else
		sp_fmt_num(b, v);
}

static void
json_key(struct sp_buf *b, const char *key, int *first)
{
	if (!*first)
		sp_buf_addc(b, ',');
	*first = 0;
	json_str(b, key, strlen(key));
	sp_buf_addc(b, ':');
}

/* A field in record form: null when empty, a number for numeric kinds. */
static void
json_field(struct sp_buf *b, const char *col, struct sp_slice s)
{
	double v;

	if (s.n == 0) {
		sp_buf_adds(b, "null");
		return;
	}
	if (sp_column_kind(col) != SP_KIND_TEXT &&
	    sp_field_num(s, &v) == 1 && isfinite(v)) {
		sp_fmt_num(b, v);
		return;
	}
	{
		struct sp_buf d = { 0 };

		sp_field_decode(&d, s.p, s.n);
		json_str(b, sp_buf_str(&d), d.len);
		sp_buf_free(&d);
	}
}

static void
json_record(struct sp_buf *b, const struct run *R, const struct rec *r,
	    int *first)
{
	for (size_t i = 0; i < r->nf; i++) {
		json_key(b, R->r.cols[i], first);
		json_field(b, R->r.cols[i], r->f[i]);
	}
}

static const char *
gather_name(const struct sp_site *s)
{
	if (!s->known)
		return NULL;
	switch (s->gather) {
	case SP_GATHER_LINUX:
		return "linux";
	case SP_GATHER_CGROUP:
		return "cgroup";
	case SP_GATHER_NONE:
		return "none";
	default:
		return NULL;
	}
}

/* The last n lines of a tail, without trailing blank lines. */
static void
last_lines(const struct sp_buf *tail, size_t n, const char **from,
	   size_t *len)
{
	const char *s = sp_buf_str(tail);
	size_t end = tail->len, start;

	while (end > 0 && (s[end - 1] == '\n' || s[end - 1] == ' ' ||
			   s[end - 1] == '\t'))
		end--;
	start = end;
	while (start > 0 && n > 0) {
		start--;
		if (s[start] == '\n' && --n == 0) {
			start++;
			break;
		}
	}
	*from = s + start;
	*len = end - start;
}

static void
json_log(struct sp_buf *b, const struct sp_log *l, int with_tail)
{
	int first = 1;

	sp_buf_addc(b, '{');
	json_key(b, "path", &first);
	json_cstr(b, l->path);
	json_key(b, "status", &first);
	json_cstr(b, sp_log_status_name(l->status));
	json_key(b, "how", &first);
	json_cstr(b, l->path ? sp_log_how_name(l->how) : NULL);
	json_key(b, "role", &first);
	json_cstr(b, l->path ? sp_log_role_name(l->role) : NULL);
	json_key(b, "owner", &first);
	json_cstr(b, l->owner);
	if (with_tail) {
		const char *from;
		size_t len;

		json_key(b, "size_b", &first);
		json_num(b, l->size_b);
		json_key(b, "tail", &first);
		last_lines(&l->tail, SP_SHOW_LOG_LINES, &from, &len);
		json_str(b, from, len);
	}
	sp_buf_addc(b, '}');
}

static void
json_derived(struct sp_buf *b, const struct sp_jobcalc *c,
	     const struct sp_job *j)
{
	int first = 1;

#define D(name, v) json_key(b, name, &first); json_num(b, v);
	sp_buf_addc(b, '{');
	D("cores", c->cores)
	D("gpus", c->gpus)
	D("tasks", c->tasks)
	D("cpus_per_task", c->cpus_per_task)
	D("cpu_capacity_s", c->cpu_capacity_s)
	D("cpu_util", c->cpu_util)
	D("busy_cores", c->busy_cores)
	D("sys_fraction", c->sys_fraction)
	D("walltime_used", c->walltime_used)
	D("mem_limit_b", c->mem_limit_b)
	D("mem_used", c->mem_used)
	json_key(b, "peak_trustworthy", &first);
	sp_buf_adds(b, isnan(c->mem_limit_b) || isnan(j->max_rss_b) ? "null" :
		    c->rss_above_limit ? "false" : "true");
	D("io_b", c->io_b)
	D("io_rate", c->io_rate)
	D("straggler", c->straggler)
	D("imbalance", c->imbalance)
	D("wait_s", c->wait_s)
	D("samples", c->samples)
	D("core_h", c->core_hours)
	D("gpu_h", c->gpu_hours)
	json_key(b, "noop", &first);
	sp_buf_adds(b, c->noop ? "true" : "false");
	sp_buf_addc(b, '}');
#undef D
}

/* ------------------------------------------------------------------ */
/* The view                                                           */

static const char *const g_identity[] = { "jobid", "jobid_raw", "array_job",
	"array_task", "step", "attempt", "name", "user", "uid", "account",
	"partition", "qos", "cluster", "workload", "workload_key", NULL };
static const char *const g_outcome[] = { "state", "exit_code", "signal",
	"derived_exit_code", "cancelled_by", "reason", "flags", NULL };
static const char *const g_timing[] = { "submit", "eligible", "start",
	"end", "wait_s", "elapsed_s", "timelimit_s", "open", NULL };
static const char *const g_request[] = { "req_cpus", "req_mem",
	"mem_limit_node_b", "mem_limit_total_b", "req_tres", "constraints",
	NULL };
static const char *const g_alloc[] = { "alloc_cpus", "nnodes", "ntasks",
	"nodelist", "alloc_tres", NULL };
static const char *const g_cpu[] = { "total_cpu_s", "user_cpu_s",
	"sys_cpu_s", "cpu_time_s", "ave_cpu_s", "min_cpu_s", "min_cpu_node",
	"min_cpu_task", "ave_cpu_freq_hz", "energy_j", NULL };
static const char *const g_memory[] = { "max_rss_b", "max_rss_step",
	"max_rss_node", "ave_rss_b", "rss_imbalance", "max_vmsize_b",
	"max_pages", NULL };
static const char *const g_disk[] = { "read_b", "write_b", NULL };
static const char *const g_gpu[] = { "alloc_gpus", "gpu_util", "gpu_mem_b",
	NULL };
static const char *const g_prov[] = { "workdir", "stdout", "stderr",
	"submit_line", "comment", NULL };

static const struct {
	const char *title;
	const char *const *cols;
} groups[] = {
	{ "identity", g_identity }, { "outcome", g_outcome },
	{ "timing", g_timing }, { "request", g_request },
	{ "allocation", g_alloc }, { "CPU", g_cpu }, { "memory", g_memory },
	{ "disk", g_disk }, { "GPU", g_gpu }, { "provenance", g_prov }
};

enum { LABEL_W = 18, GAUGE_LABEL_W = 8 };

static void
pad(struct sp_buf *b, size_t n)
{
	while (n-- > 0)
		sp_buf_addc(b, ' ');
}

/* Untrusted text made safe (escapes decoded first, then cleaned). */
static void
clean_slice(const struct run *R, struct sp_buf *b, struct sp_slice s,
	    int keep_newlines)
{
	struct sp_buf d = { 0 };

	sp_field_decode(&d, s.p, s.n);
	sp_term_clean(&R->term, b, sp_buf_str(&d), d.len, keep_newlines);
	sp_buf_free(&d);
}

static void
clean_str(const struct run *R, struct sp_buf *b, const char *s)
{
	sp_term_clean(&R->term, b, s, strlen(s), 1);
}

/* A field's value for people: human units, n/a when unknown. */
static void
view_value(const struct run *R, struct sp_buf *b, const char *col,
	   struct sp_slice s)
{
	enum sp_kind kind = sp_column_kind(col);
	double v;
	size_t n = strlen(col);

	if (s.n == 0) {
		sp_buf_adds(b, "n/a");
		return;
	}
	if (kind == SP_KIND_TEXT || sp_field_num(s, &v) != 1 ||
	    !isfinite(v)) {
		clean_slice(R, b, s, 0);
		return;
	}
	if (n > 3 && strcmp(col + n - 3, "_hz") == 0) {
		sp_buf_printf(b, "%.2f GHz", v / 1e9);
		return;
	}
	switch (kind) {
	case SP_KIND_SECONDS:
		sp_fmt_duration(b, v);
		break;
	case SP_KIND_BYTES:
		sp_fmt_bytes(b, v);
		break;
	case SP_KIND_FRACTION:
		sp_fmt_percent(b, v);
		break;
	case SP_KIND_HOURS:
		sp_fmt_num(b, v);
		sp_buf_adds(b, " h");
		break;
	default:
		clean_slice(R, b, s, 0);
		break;
	}
}

static int
listed(const char *col)
{
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
		for (const char *const *c = groups[g].cols; *c; c++)
			if (strcmp(*c, col) == 0)
				return 1;
	return 0;
}

/*
 * Rows of one group: short values two to a line when the width allows,
 * long ones on a line of their own, wrapped under their value column.
 */
struct rows {
	const struct run *R;
	struct sp_buf *b;
	struct sp_buf left;	/* a half row waiting for its partner */
	size_t half;
	int any;
};

static void
rows_flush(struct rows *w)
{
	if (w->left.len == 0)
		return;
	while (w->left.len > 0 && w->left.p[w->left.len - 1] == ' ')
		w->left.p[--w->left.len] = '\0';
	sp_buf_add(w->b, w->left.p, w->left.len);
	sp_buf_addc(w->b, '\n');
	sp_buf_clear(&w->left);
}

static void
rows_add(struct rows *w, const char *label, const char *value)
{
	size_t cells = sp_term_cells(value, strlen(value));
	size_t lw = strlen(label) < LABEL_W ? LABEL_W : strlen(label) + 1;

	w->any = 1;
	if (w->half > 0 && strchr(value, '\n') == NULL &&
	    2 + lw + cells + 2 <= w->half) {
		if (w->left.len == 0) {
			sp_buf_adds(&w->left, "  ");
			sp_buf_adds(&w->left, label);
			pad(&w->left, lw - strlen(label));
			sp_buf_adds(&w->left, value);
			pad(&w->left, w->half - (2 + lw + cells));
		} else {
			sp_buf_adds(&w->left, label);
			pad(&w->left, lw - strlen(label));
			sp_buf_adds(&w->left, value);
			rows_flush(w);
		}
		return;
	}
	rows_flush(w);
	sp_buf_adds(w->b, "  ");
	sp_buf_adds(w->b, label);
	pad(w->b, lw - strlen(label));
	sp_term_wrap(&w->R->term, w->b, value, 2 + lw, 2 + lw);
	sp_buf_addc(w->b, '\n');
}

static void
heading(const struct run *R, struct sp_buf *b, const char *title)
{
	sp_term_painted(&R->term, b, SP_P_BOLD, title);
	sp_buf_addc(b, '\n');
}

static void
view_fields(const struct run *R, struct sp_buf *b, const struct rec *rec)
{
	struct rows w;
	struct sp_buf v = { 0 };

	memset(&w, 0, sizeof w);
	w.R = R;
	w.b = b;
	w.half = R->term.width >= 2 * (2 + LABEL_W + 16) ?
		 (size_t)R->term.width / 2 : 0;
	for (size_t g = 0; g <= sizeof groups / sizeof groups[0]; g++) {
		int started = 0;

		for (size_t i = 0; i < rec->nf; i++) {
			const char *col = R->r.cols[i];
			int in = 0;

			if (g < sizeof groups / sizeof groups[0]) {
				for (const char *const *c = groups[g].cols;
				     *c && !in; c++)
					in = strcmp(*c, col) == 0;
			} else {
				in = !listed(col);
			}
			if (!in)
				continue;
			if (!started) {
				sp_buf_addc(b, '\n');
				heading(R, b, g < sizeof groups /
					sizeof groups[0] ? groups[g].title :
					"other");
				started = 1;
			}
			sp_buf_clear(&v);
			view_value(R, &v, col, rec->f[i]);
			rows_add(&w, col, sp_buf_str(&v));
		}
		rows_flush(&w);
	}
	sp_buf_free(&v);
	sp_buf_free(&w.left);
}

/* The gauge's bar: the ceiling faint, the used part solid. */
static size_t
bar_width(const struct run *R)
{
	int w = R->term.width - GAUGE_LABEL_W - 2 - 44;

	if (w > 40)
		w = 40;
	if (w < 10)
		w = 10;
	return (size_t)w;
}

static void
bar(const struct run *R, struct sp_buf *b, double used, double ceiling,
    int draw_used)
{
	size_t width = bar_width(R), solid = 0;

	if (!(ceiling > 0)) {
		pad(b, width);
		return;
	}
	if (draw_used && used > 0) {
		double f = used / ceiling;

		solid = (size_t)lround((f > 1 ? 1 : f) * (double)width);
		if (solid == 0)
			solid = 1;	/* something was used: show it */
	}
	for (size_t i = 0; i < solid; i++)
		sp_buf_adds(b, sp_term_glyph(&R->term, SP_G_SOLID));
	if (solid < width) {
		sp_term_paint(&R->term, b, SP_P_FAINT);
		for (size_t i = solid; i < width; i++)
			sp_buf_adds(b, sp_term_glyph(&R->term, SP_G_FAINT));
		sp_term_paint(&R->term, b, SP_P_NONE);
	}
}

static void
gauge(const struct run *R, struct sp_buf *b, const char *label, double used,
      double ceiling, int draw_used, const char *text)
{
	size_t at = GAUGE_LABEL_W + bar_width(R) + 2;

	sp_buf_adds(b, label);
	pad(b, GAUGE_LABEL_W - strlen(label));
	bar(R, b, used, ceiling, draw_used);
	pad(b, 2);
	sp_term_wrap(&R->term, b, text, at, at);
	sp_buf_addc(b, '\n');
}

static void
dot(const struct run *R, struct sp_buf *b)
{
	sp_buf_addc(b, ' ');
	sp_buf_adds(b, sp_term_glyph(&R->term, SP_G_DOT));
	sp_buf_addc(b, ' ');
}

static enum sp_paint
state_paint(const struct sp_job *j)
{
	if (sp_job_state_is(j, "COMPLETED"))
		return SP_P_GOOD;
	if (sp_job_failed(j))
		return SP_P_CRITICAL;
	return SP_P_WARNING;
}

static void
view_header(const struct run *R, struct sp_buf *b, const struct sp_job *j,
	    const struct sp_jobcalc *c)
{
	struct sp_buf t = { 0 }, s = { 0 };

	/* id, name, state and how it ended */
	sp_term_paint(&R->term, b, SP_P_BOLD);
	if (j->jobid.n)
		clean_slice(R, b, j->jobid, 0);
	else
		sp_buf_adds(b, "n/a");
	sp_term_paint(&R->term, b, SP_P_NONE);
	sp_buf_adds(b, "  ");
	if (j->name.n)
		clean_slice(R, b, j->name, 0);
	else
		sp_buf_adds(b, "(no name)");
	sp_buf_adds(b, "  ");
	if (j->state.n) {
		clean_slice(R, &s, j->state, 0);
		sp_term_painted(&R->term, b, state_paint(j), s.p);
	} else {
		sp_buf_adds(b, "state n/a");
	}
	sp_buf_adds(b, "  exit ");
	if (isnan(j->exit_code))
		sp_buf_adds(b, "n/a");
	else
		sp_fmt_num(b, j->exit_code);
	if (j->signal > 0) {
		const char *name = sp_signal_name((int)j->signal);

		sp_buf_adds(b, ", signal ");
		sp_fmt_num(b, j->signal);
		if (name)
			sp_buf_printf(b, " (%s)", name);
	}
	sp_buf_addc(b, '\n');

	/* who and where */
	sp_buf_adds(&t, "user ");
	if (j->user.n)
		clean_slice(R, &t, j->user, 0);
	else
		sp_buf_adds(&t, "n/a");
	if (j->partition.n) {
		sp_buf_adds(&t, ", partition ");
		clean_slice(R, &t, j->partition, 0);
	}
	dot(R, &t);
	if (c->nodes > 1) {
		sp_fmt_num(&t, c->nodes);
		sp_buf_adds(&t, " nodes ");
	} else {
		sp_buf_adds(&t, "node ");
	}
	if (j->nodelist.n)
		clean_slice(R, &t, j->nodelist, 0);
	else
		sp_buf_adds(&t, "n/a");
	sp_term_wrap(&R->term, b, sp_buf_str(&t), 0, 2);
	sp_buf_addc(b, '\n');

	/* when, and how long it queued */
	sp_buf_clear(&t);
	if (j->start_known) {
		sp_buf_adds(&t, "ran ");
		clean_slice(R, &t, j->start, 0);
		sp_buf_printf(&t, " %s ", sp_term_glyph(&R->term, SP_G_ARROW));
		if (j->end_known)
			clean_slice(R, &t, j->end, 0);
		else
			sp_buf_adds(&t, "no end recorded");
		sp_buf_adds(&t, " (");
		sp_fmt_duration(&t, j->elapsed_s);
		sp_buf_adds(&t, ")");
	} else {
		sp_buf_adds(&t, "never started");
		if (j->submit_known) {
			sp_buf_adds(&t, ", submitted ");
			clean_slice(R, &t, j->submit, 0);
		}
	}
	dot(R, &t);
	sp_buf_adds(&t, "queued ");
	sp_fmt_duration(&t, c->wait_s);
	sp_term_wrap(&R->term, b, sp_buf_str(&t), 0, 2);
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
	sp_buf_free(&s);
}

static void
view_gauges(const struct run *R, struct sp_buf *b, const struct sp_job *j,
	    const struct sp_jobcalc *c)
{
	struct sp_buf t = { 0 };

	sp_buf_addc(b, '\n');
	sp_fmt_duration(&t, j->elapsed_s);
	sp_buf_adds(&t, " of ");
	if (j->timelimit_s > 0) {
		sp_fmt_duration(&t, j->timelimit_s);
		sp_buf_adds(&t, " (");
		sp_fmt_percent(&t, c->walltime_used);
		sp_buf_adds(&t, ")");
	} else {
		sp_buf_adds(&t, "no recorded limit");
	}
	gauge(R, b, "time", j->elapsed_s, j->timelimit_s, 1, t.p);

	sp_buf_clear(&t);
	sp_fmt_duration(&t, j->total_cpu_s);
	sp_buf_adds(&t, " of ");
	sp_fmt_duration(&t, c->cpu_capacity_s);
	sp_buf_adds(&t, " (");
	sp_fmt_percent(&t, c->cpu_util);
	sp_buf_adds(&t, "), ");
	if (isnan(c->busy_cores))
		sp_buf_adds(&t, "n/a");
	else
		sp_buf_printf(&t, "%.1f", c->busy_cores);
	sp_buf_adds(&t, " of ");
	if (isnan(c->cores))
		sp_buf_adds(&t, "n/a");
	else
		sp_fmt_num(&t, c->cores);
	sp_buf_adds(&t, c->cores == 1 ? " core" : " cores");
	gauge(R, b, "CPU", j->total_cpu_s, c->cpu_capacity_s, 1, t.p);

	sp_buf_clear(&t);
	if (c->rss_above_limit) {
		struct sp_buf why = { 0 };

		/* No percentage: the figure is not this job's footprint. */
		sp_buf_adds(&t, "MaxRSS ");
		sp_fmt_bytes(&t, j->max_rss_b);
		sp_buf_adds(&t, ", above the ");
		sp_fmt_bytes(&t, c->mem_limit_b);
		sp_buf_adds(&t, c->nodes > 1 ? " limit per node" : " limit");
		if (sp_job_state_is(j, "OUT_OF_MEMORY"))
			sp_buf_adds(&why, "No working set reads above its limit, "
				    "so the figure is not a footprint and no "
				    "percentage is drawn. ");
		else
			sp_buf_adds(&why, "The job was not killed, so the figure "
				    "cannot be its footprint and no percentage "
				    "is drawn. ");
		sp_caveat_rss(&why, &R->site);
		gauge(R, b, "memory", NAN, c->mem_limit_b, 0, t.p);
		pad(b, GAUGE_LABEL_W);
		sp_term_wrap(&R->term, b, why.p, GAUGE_LABEL_W, GAUGE_LABEL_W);
		sp_buf_addc(b, '\n');
		sp_buf_free(&why);
	} else {
		sp_buf_adds(&t, "MaxRSS ");
		sp_fmt_bytes(&t, j->max_rss_b);
		sp_buf_adds(&t, " of ");
		if (c->mem_limit_b > 0) {
			sp_fmt_bytes(&t, c->mem_limit_b);
			if (c->nodes > 1)
				sp_buf_adds(&t, " per node");
			sp_buf_adds(&t, " (");
			sp_fmt_percent(&t, c->mem_used);
			sp_buf_adds(&t, ")");
		} else {
			sp_buf_adds(&t, "no recorded limit");
		}
		gauge(R, b, "memory", j->max_rss_b, c->mem_limit_b, 1, t.p);
	}

	/* Quantities with no ceiling to draw against. */
	sp_buf_clear(&t);
	sp_buf_adds(&t, "kernel ");
	sp_fmt_percent(&t, c->sys_fraction);
	sp_buf_adds(&t, " of CPU time");
	dot(R, &t);
	sp_buf_adds(&t, "disk read ");
	sp_fmt_bytes(&t, j->read_b);
	sp_buf_adds(&t, ", wrote ");
	sp_fmt_bytes(&t, j->write_b);
	dot(R, &t);
	sp_buf_adds(&t, "GPUs ");
	if (isnan(j->alloc_gpus))
		sp_buf_adds(&t, "n/a");
	else
		sp_fmt_num(&t, j->alloc_gpus);
	if (j->alloc_gpus > 0) {
		sp_buf_adds(&t, ", busy ");
		sp_fmt_percent(&t, j->gpu_util);
		sp_buf_adds(&t, ", memory ");
		sp_fmt_bytes(&t, j->gpu_mem_b);
	}
	sp_term_wrap(&R->term, b, t.p, 0, 2);
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
}

/*
 * The rest of a line from col on: untrusted text, cut with an ellipsis
 * to fit the width.
 */
static void
view_line(const struct run *R, struct sp_buf *b, const char *s, size_t n,
	  size_t col)
{
	struct sp_buf t = { 0 };
	size_t room = (size_t)R->term.width > col + 1 ?
		      (size_t)R->term.width - col : 1;

	sp_term_clean(&R->term, &t, s, n, 0);
	if (sp_term_cells(sp_buf_str(&t), t.len) > room) {
		sp_buf_add(b, t.p, sp_term_fit(t.p, t.len, room - 1));
		sp_buf_adds(b, sp_term_glyph(&R->term, SP_G_ELLIPSIS));
	} else {
		sp_buf_add(b, sp_buf_str(&t), t.len);
	}
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
}

static void
view_log_file(const struct run *R, struct sp_buf *b, const struct sp_log *l)
{
	struct sp_buf t = { 0 };
	const char *from;
	size_t len;

	sp_buf_printf(&t, "%s ", sp_log_role_name(l->role));
	clean_str(R, &t, l->path);
	sp_buf_printf(&t, " (%s)", sp_log_how_text(l->how));
	if (l->status == SP_LOG_FOUND) {
		sp_buf_adds(&t, ", ");
		sp_fmt_bytes(&t, l->size_b);
		if (l->cut)
			sp_buf_adds(&t, ", the end of it");
	} else {
		sp_buf_adds(&t, ": ");
		sp_buf_adds(&t, sp_log_status_text(l->status));
		if (l->owner) {
			sp_buf_adds(&t, ", owned by ");
			clean_str(R, &t, l->owner);
		}
	}
	pad(b, 2);
	sp_term_wrap(&R->term, b, t.p, 2, 4);
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
	if (l->status != SP_LOG_FOUND)
		return;
	last_lines(&l->tail, SP_SHOW_LOG_LINES, &from, &len);
	if (len == 0) {
		sp_buf_adds(b, "    (empty)\n");
		return;
	}
	while (len > 0) {
		const char *nl = memchr(from, '\n', len);
		size_t n = nl ? (size_t)(nl - from) : len;

		pad(b, 4);
		sp_term_painted(&R->term, b, SP_P_FAINT,
				sp_term_glyph(&R->term, SP_G_BAR));
		sp_buf_addc(b, ' ');
		view_line(R, b, from, n, 6);
		from += n + (nl ? 1 : 0);
		len -= n + (nl ? 1 : 0);
	}
	sp_buf_free(&t);
}

static void
view_logs(const struct run *R, struct sp_buf *b, const struct sp_logs *l)
{
	sp_buf_addc(b, '\n');
	heading(R, b, "log");
	if (!l->looked) {
		sp_buf_adds(b, "  not read (--no-logs)\n");
		return;
	}
	if (l->expected.path != NULL)
		view_log_file(R, b, &l->expected);
	for (size_t i = 0; i < l->n; i++)
		view_log_file(R, b, &l->v[i]);
	if (l->n == 0 && l->expected.path == NULL) {
		pad(b, 2);
		sp_term_wrap(&R->term, b, "none found: the record names no "
			     "log, and none of the usual places holds one "
			     "(point --log-dir at the logs)", 2, 4);
		sp_buf_addc(b, '\n');
	}
}

static enum sp_paint
severity_paint(enum sp_severity s)
{
	switch (s) {
	case SP_SEV_CRITICAL:
		return SP_P_CRITICAL;
	case SP_SEV_WARNING:
		return SP_P_WARNING;
	default:
		return SP_P_INFO;
	}
}

/*
 * Evidence: its first line is prose and wraps; any further lines are
 * quoted from a log (a traceback keeps its indentation) and are cut.
 */
static void
view_evidence(const struct run *R, struct sp_buf *b, const char *ev,
	      size_t indent)
{
	const char *nl = strchr(ev, '\n');
	size_t n = nl ? (size_t)(nl - ev) : strlen(ev);
	struct sp_buf t = { 0 };

	sp_term_clean(&R->term, &t, ev, n, 0);
	pad(b, indent);
	sp_term_wrap(&R->term, b, sp_buf_str(&t), indent, indent);
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
	while (nl != NULL) {
		ev = nl + 1;
		nl = strchr(ev, '\n');
		n = nl ? (size_t)(nl - ev) : strlen(ev);
		pad(b, indent + 2);
		view_line(R, b, ev, n, indent + 2);
	}
}

static void
view_findings(const struct run *R, struct sp_buf *b,
	      const struct sp_findings *f)
{
	struct sp_buf t = { 0 };
	enum { IND = 12 };

	sp_buf_addc(b, '\n');
	heading(R, b, "findings");
	if (f->n == 0)
		sp_buf_adds(b, "  none: nothing in this record needs "
			    "attention\n");
	for (size_t i = 0; i < f->n; i++) {
		const char *label = sp_severity_label(f->v[i].severity);

		pad(b, 2);
		sp_term_painted(&R->term, b, severity_paint(f->v[i].severity),
				label);
		pad(b, IND - 2 - strlen(label));
		sp_buf_adds(b, f->v[i].code);
		sp_buf_addc(b, '\n');
		view_evidence(R, b, f->v[i].evidence, IND);
		if (f->v[i].action != NULL) {
			pad(b, IND);
			sp_buf_clear(&t);
			sp_buf_adds(&t, sp_term_glyph(&R->term, SP_G_ARROW));
			sp_buf_addc(&t, ' ');
			clean_str(R, &t, f->v[i].action);
			sp_term_wrap(&R->term, b, t.p, IND, IND + 2);
			sp_buf_addc(b, '\n');
		}
	}
	sp_buf_free(&t);
}

static void
view_job(struct run *R, const struct held *h, const struct sp_jobcalc *c,
	 const struct sp_logs *logs, const struct sp_findings *f)
{
	struct sp_buf *b = &R->out;

	if (R->shown > 0) {
		sp_buf_addc(b, '\n');
		for (int i = 0; i < R->term.width; i++)
			sp_buf_adds(b, sp_term_glyph(&R->term, SP_G_RULE));
		sp_buf_adds(b, "\n\n");
	}
	view_header(R, b, &h->alloc.j, c);
	view_gauges(R, b, &h->alloc.j, c);
	view_fields(R, b, &h->alloc);
	if (h->nsteps > 0) {
		sp_buf_addc(b, '\n');
		heading(R, b, "steps");
		for (size_t i = 0; i < h->nsteps; i++) {
			const struct sp_job *s = &h->steps[i].j;
			struct sp_buf t = { 0 };

			clean_slice(R, &t, s->step, 0);
			sp_buf_adds(&t, ": ");
			clean_slice(R, &t, s->state, 0);
			sp_buf_adds(&t, ", elapsed ");
			sp_fmt_duration(&t, s->elapsed_s);
			sp_buf_adds(&t, ", CPU ");
			sp_fmt_duration(&t, s->total_cpu_s);
			sp_buf_adds(&t, ", MaxRSS ");
			sp_fmt_bytes(&t, s->max_rss_b);
			sp_buf_adds(&t, ", tasks ");
			if (isnan(s->ntasks))
				sp_buf_adds(&t, "n/a");
			else
				sp_fmt_num(&t, s->ntasks);
			pad(b, 2);
			sp_term_wrap(&R->term, b, t.p, 2, 4);
			sp_buf_addc(b, '\n');
			sp_buf_free(&t);
		}
	}
	view_logs(R, b, logs);
	view_findings(R, b, f);
}

/* ------------------------------------------------------------------ */
/* --json and --findings                                              */

static void
json_job(struct run *R, const struct held *h, const struct sp_jobcalc *c,
	 const struct sp_logs *logs, const struct sp_findings *f)
{
	struct sp_buf *b = &R->out;
	int first = 1;

	sp_buf_addc(b, '{');
	json_key(b, "slurmpast", &first);
	json_cstr(b, SP_VERSION);
	json_record(b, R, &h->alloc, &first);
	json_key(b, "derived", &first);
	json_derived(b, c, &h->alloc.j);
	json_key(b, "site", &first);
	{
		int f2 = 1;

		sp_buf_addc(b, '{');
		json_key(b, "gather", &f2);
		json_cstr(b, gather_name(&R->site));
		json_key(b, "gather_freq_s", &f2);
		json_num(b, R->site.known ? R->site.gather_freq_s : NAN);
		sp_buf_addc(b, '}');
	}
	json_key(b, "steps", &first);
	sp_buf_addc(b, '[');
	for (size_t i = 0; i < h->nsteps; i++) {
		int f2 = 1;

		if (i)
			sp_buf_addc(b, ',');
		sp_buf_addc(b, '{');
		json_record(b, R, &h->steps[i], &f2);
		sp_buf_addc(b, '}');
	}
	sp_buf_addc(b, ']');
	json_key(b, "log", &first);
	{
		int f2 = 1;
		const char *status = NULL;

		if (logs->n > 0)
			status = "found";
		else if (logs->expected.path != NULL)
			status = sp_log_status_name(logs->expected.status);
		else if (logs->looked)
			status = "absent";
		sp_buf_addc(b, '{');
		json_key(b, "status", &f2);
		json_cstr(b, status);
		json_key(b, "files", &f2);
		sp_buf_addc(b, '[');
		for (size_t i = 0; i < logs->n; i++) {
			if (i)
				sp_buf_addc(b, ',');
			json_log(b, &logs->v[i], 1);
		}
		sp_buf_addc(b, ']');
		json_key(b, "expected", &f2);
		json_log(b, &logs->expected, 0);
		sp_buf_addc(b, '}');
	}
	json_key(b, "findings", &first);
	sp_buf_addc(b, '[');
	for (size_t i = 0; i < f->n; i++) {
		int f2 = 1;

		if (i)
			sp_buf_addc(b, ',');
		sp_buf_addc(b, '{');
		json_key(b, "code", &f2);
		json_cstr(b, f->v[i].code);
		json_key(b, "severity", &f2);
		json_cstr(b, sp_severity_name(f->v[i].severity));
		json_key(b, "evidence", &f2);
		json_cstr(b, f->v[i].evidence);
		json_key(b, "action", &f2);
		json_cstr(b, f->v[i].action);
		sp_buf_addc(b, '}');
	}
	sp_buf_adds(b, "]}\n");
}

static void
findings_rows(struct run *R, const struct sp_job *j,
	      const struct sp_findings *f, const struct sp_jobcalc *c)
{
	struct sp_buf workload = { 0 }, key = { 0 };

	if (f->n == 0)
		return;
	/* Fields stay in record form: the fold of escaped text is exact. */
	if (R->cols.workload >= 0)
		sp_buf_add(&workload, j->workload.p, j->workload.n);
	else
		sp_workload_fold(&workload, j->name.p, j->name.n);
	if (R->cols.workload_key >= 0)
		sp_buf_add(&key, j->workload_key.p, j->workload_key.n);
	else
		sp_workload_key(&key, j->user.p, j->user.n, j->partition.p,
				j->partition.n, c->gpus > 0,
				sp_buf_str(&workload), workload.len);
	for (size_t i = 0; i < f->n; i++) {
		sp_writer_slice(&R->w, j->user);
		sp_writer_field(&R->w, sp_buf_str(&workload), workload.len);
		sp_writer_field(&R->w, sp_buf_str(&key), key.len);
		sp_writer_slice(&R->w, j->jobid);
		sp_writer_str(&R->w, f->v[i].code);
		sp_writer_str(&R->w, sp_severity_name(f->v[i].severity));
		sp_writer_raw(&R->w, f->v[i].evidence,
			      strlen(f->v[i].evidence));
		if (f->v[i].action != NULL)
			sp_writer_raw(&R->w, f->v[i].action,
				      strlen(f->v[i].action));
		else
			sp_writer_empty(&R->w);
		sp_writer_end(&R->w);
	}
	sp_buf_free(&workload);
	sp_buf_free(&key);
}

/* ------------------------------------------------------------------ */
/* One job, start to end                                              */

static void
show(struct run *R, struct held *h)
{
	const struct sp_job *j = &h->alloc.j;
	struct sp_job *steps = NULL;
	struct sp_logs logs;
	struct sp_findings f = { 0 };
	struct sp_buf note = { 0 };
	struct sp_jobcalc c;
	struct sp_diag d;
	int worst;

	if (h->nsteps > 0) {
		steps = sp_xcalloc(h->nsteps, sizeof *steps);
		for (size_t i = 0; i < h->nsteps; i++)
			steps[i] = h->steps[i].j;
	}
	if (R->o->no_logs)
		sp_logs_none(&logs);
	else
		sp_logs_find(&R->logctx, j, &logs);
	memset(&d, 0, sizeof d);
	d.job = j;
	d.steps = steps;
	d.nsteps = h->nsteps;
	d.site = &R->site;
	d.logs = &logs;
	if (sp_node_history_note(R->history, j, &note) == 1) {
		/* The note is a clause; the finding makes it a sentence. */
		while (note.len > 0 && note.p[note.len - 1] == '.')
			note.p[--note.len] = '\0';
		d.node_note = note.p;
	}
	sp_diagnose(&d, &f);
	sp_jobcalc(&c, j, steps, h->nsteps, &R->site);

	sp_buf_clear(&R->out);
	switch (R->o->mode) {
	case MODE_VIEW:
		view_job(R, h, &c, &logs, &f);
		break;
	case MODE_JSON:
		json_job(R, h, &c, &logs, &f);
		break;
	case MODE_FINDINGS:
		findings_rows(R, j, &f, &c);
		break;
	}
	if (R->out.len > 0)
		fwrite(R->out.p, 1, R->out.len, stdout);
	worst = sp_findings_worst(&f);
	if (worst > R->worst)
		R->worst = worst;
	R->shown++;

	sp_findings_free(&f);
	sp_logs_free(&logs);
	sp_buf_free(&note);
	free(steps);
}

static void
finish_held(struct run *R, struct held *h)
{
	if (h->active)
		show(R, h);
	h->active = 0;
	h->nsteps = 0;
}

/* ------------------------------------------------------------------ */
/* The two passes                                                     */

static void
spool_write(FILE *spool, const char *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, spool) != n)
		sp_die(SP_EXIT_USAGE, "spool file:");
}

/*
 * The inputs as the first pass found them, for the second to read again:
 * each file's identity, size and time (standard input's for "-"), and
 * where standard input stood (-1 when it is not read).
 */
struct reread {
	struct stat *st;
	size_t n;
	off_t stdin_at;
};

static int
input_stat(const char *path, struct stat *st)
{
	if (strcmp(path, "-") == 0)
		return fstat(STDIN_FILENO, st);
	return stat(path, st);
}

/*
 * Whether the second pass can read the inputs again where they lie:
 * regular files only (a pipe is gone once read).  Standard input, when
 * it is one of them, is read again from where it stood.
 */
static int
rereadable(char **files, size_t nfiles, struct reread *rr)
{
	static char *only_stdin[] = { "-" };

	if (nfiles == 0) {
		files = only_stdin;
		nfiles = 1;
	}
	rr->st = sp_xcalloc(nfiles, sizeof *rr->st);
	rr->n = nfiles;
	rr->stdin_at = -1;
	for (size_t i = 0; i < nfiles; i++) {
		if (input_stat(files[i], &rr->st[i]) != 0 ||
		    !S_ISREG(rr->st[i].st_mode))
			return 0;
		if (strcmp(files[i], "-") == 0) {
			rr->stdin_at = lseek(STDIN_FILENO, 0, SEEK_CUR);
			if (rr->stdin_at < 0)
				return 0;
		}
	}
	return 1;
}

/* A file that changed between the passes would give records unchecked. */
static void
same_inputs_or_die(char **files, size_t nfiles, const struct reread *rr)
{
	static char *only_stdin[] = { "-" };
	struct stat now;

	if (nfiles == 0)
		files = only_stdin;
	for (size_t i = 0; i < rr->n; i++) {
		const struct stat *then = &rr->st[i];
		const char *name = strcmp(files[i], "-") == 0 ? "<stdin>" :
		    files[i];

		if (input_stat(files[i], &now) != 0 ||
		    now.st_dev != then->st_dev || now.st_ino != then->st_ino ||
		    now.st_size != then->st_size ||
		    now.st_mtim.tv_sec != then->st_mtim.tv_sec ||
		    now.st_mtim.tv_nsec != then->st_mtim.tv_nsec)
			sp_die(SP_EXIT_USAGE, "%s: changed while it was read "
			       "(read a copy, or through a pipe)", name);
	}
}

/*
 * An unlinked file in $TMPDIR (tmpfile() would ignore it), where a
 * cluster's login nodes keep the room that /tmp lacks.
 */
static FILE *
spool_open(void)
{
	const char *dir = getenv("TMPDIR");
	struct sp_buf path = { 0 };
	FILE *spool;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	sp_buf_printf(&path, "%s/sp-show.XXXXXX", dir);
	fd = mkstemp(path.p);
	if (fd < 0)
		sp_die(SP_EXIT_USAGE, "cannot make a spool file in %s:", dir);
	unlink(path.p);
	sp_buf_free(&path);
	spool = fdopen(fd, "w+");
	if (spool == NULL)
		sp_die(SP_EXIT_USAGE, "spool file:");
	return spool;
}

/* The current record, whole, as one write to the spool. */
static void
spool_record(FILE *spool, struct sp_buf *line, char *const *f_or_cols,
	     const struct sp_slice *f, size_t n)
{
	sp_buf_clear(line);
	for (size_t i = 0; i < n; i++) {
		if (i)
			sp_buf_addc(line, '\t');
		if (f != NULL)
			sp_buf_add(line, f[i].p, f[i].n);
		else
			sp_buf_adds(line, f_or_cols[i]);
	}
	sp_buf_addc(line, '\n');
	spool_write(spool, line->p, line->len);
}

/*
 * First pass: every record is checked and every allocation feeds the
 * node history (the note needs the whole window before the first job).
 * When the inputs cannot be read twice, the records also go to a spool
 * the second pass reads back; spool is NULL otherwise.
 */
static void
first_pass(struct run *R, char **files, size_t nfiles, FILE *spool)
{
	struct sp_reader r;
	struct sp_jobcols cols;
	struct sp_job j;
	struct sp_buf line = { 0 };

	sp_open_or_die(&r, files, nfiles);
	sp_jobcols_need(&r, "sp-fetch", "jobid", "state", NULL);
	sp_jobcols_resolve(&cols, &r);
	if (spool != NULL)
		spool_record(spool, &line, r.cols, NULL, r.ncols);
	while (sp_next_or_die(&r)) {
		sp_job_parse(&j, &cols, &r);
		if (!sp_job_is_step(&j))
			sp_node_history_add(R->history, &j);
		if (spool != NULL)
			spool_record(spool, &line, NULL, r.f, r.ncols);
	}
	sp_reader_close(&r);
	sp_buf_free(&line);
	if (spool == NULL)
		return;
	if (fflush(spool) != 0 || ferror(spool))
		sp_die(SP_EXIT_USAGE, "spool file:");
	rewind(spool);
}

/* The second pass's reader: the spool, or the inputs once more. */
static void
reopen(struct run *R, char **files, size_t nfiles, FILE *spool,
       const struct reread *rr)
{
	if (spool != NULL) {
		if (sp_reader_open_stream(&R->r, spool, "<spool>") != 0)
			sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&R->r.err));
		return;
	}
	same_inputs_or_die(files, nfiles, rr);
	if (rr->stdin_at >= 0 &&
	    lseek(STDIN_FILENO, rr->stdin_at, SEEK_SET) < 0)
		sp_die(SP_EXIT_USAGE, "<stdin>: cannot read it again:");
	sp_open_or_die(&R->r, files, nfiles);
}

static void
second_pass(struct run *R)
{
	struct held h;
	struct sp_job j;

	memset(&h, 0, sizeof h);
	sp_jobcols_resolve(&R->cols, &R->r);
	while (sp_next_or_die(&R->r)) {
		sp_job_parse(&j, &R->cols, &R->r);
		if (!sp_job_is_step(&j)) {
			finish_held(R, &h);
			if (!wanted(R->o, &j))
				continue;
			rec_take(&h.alloc, &R->r, &R->cols);
			h.active = 1;
		} else if (h.active && same_job(&j, &h.alloc.j)) {
			if (h.nsteps == h.cap) {
				size_t old = h.cap;

				h.steps = sp_xgrow(h.steps, &h.cap,
						   h.nsteps + 1,
						   sizeof *h.steps);
				memset(h.steps + old, 0,
				       (h.cap - old) * sizeof *h.steps);
			}
			rec_take(&h.steps[h.nsteps++], &R->r, &R->cols);
		}
	}
	finish_held(R, &h);
	held_free(&h);
}

/* The ids asked for that no record matched, or NULL. */
static char *
missing_ids(const struct opts *o)
{
	struct sp_buf missing = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < o->nids; i++) {
		if (o->id_seen[i])
			continue;
		if (n++)
			sp_buf_adds(&missing, ", ");
		sp_buf_adds(&missing, o->ids[i]);
	}
	return missing.p;
}

static void
findings_header(struct run *R)
{
	static const char *const cols[] = { "user", "workload",
		"workload_key", "jobid", "code", "severity", "evidence",
		"action", NULL };

	sp_writer_init(&R->w, stdout, SP_FMT_TSV);
	for (const char *const *c = cols; *c; c++)
		sp_writer_column(&R->w, *c);
	sp_writer_header(&R->w);
}

static void
free_opts(struct opts *o)
{
	for (size_t i = 0; i < o->nids; i++)
		free(o->ids[i]);
	free(o->ids);
	free(o->id_seen);
	free(o->log_dirs);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct run R;
	FILE *spool;
	char **files, *missing;
	size_t nfiles;
	struct reread rr;
	int first, status;

	setlocale(LC_CTYPE, "");
	sp_setprog(argv[0]);
	sp_stdout_init();
	memset(&o, 0, sizeof o);
	first = parse_options(&o, argc, argv);

	memset(&R, 0, sizeof R);
	R.o = &o;
	R.worst = -1;
	sp_term_setup(&R.term, STDOUT_FILENO, o.width, o.no_color, o.ascii);
	sp_site_load(&R.site);
	sp_logctx_init(&R.logctx, 1);
	for (size_t i = 0; i < o.nlog_dirs; i++)
		sp_logctx_add_dir(&R.logctx, o.log_dirs[i]);
	R.history = sp_node_history_new();

	files = argv + first;
	nfiles = (size_t)(argc - first);
	spool = NULL;
	if (!rereadable(files, nfiles, &rr))
		spool = spool_open();
	first_pass(&R, files, nfiles, spool);
	reopen(&R, files, nfiles, spool, &rr);
	free(rr.st);
	if (o.mode == MODE_FINDINGS)
		findings_header(&R);
	second_pass(&R);
	if (o.mode == MODE_FINDINGS)
		sp_writer_finish(&R.w);
	if (spool != NULL)
		fclose(spool);

	status = R.worst == SP_SEV_CRITICAL ? SP_EXIT_FAIL : SP_EXIT_OK;
	sp_reader_close(&R.r);
	sp_node_history_free(R.history);
	sp_logctx_free(&R.logctx);
	sp_site_free(&R.site);
	sp_buf_free(&R.out);
	missing = missing_ids(&o);
	free_opts(&o);
	sp_stdout_close();
	if (missing != NULL) {
		sp_warn("no job %s in the input", missing);
		free(missing);
		return SP_EXIT_USAGE;
	}
	return status;
}
