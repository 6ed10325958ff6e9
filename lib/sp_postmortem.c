#include <math.h>
#include <string.h>

#include "sp.h"
#include "sp_postmortem.h"

/* What every drawing function reads. */
struct draw {
	const struct sp_term *term;
	const struct sp_site *site;
	char *const *cols;
};

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
clean_slice(const struct draw *D, struct sp_buf *b, struct sp_slice s,
	    int keep_newlines)
{
	struct sp_buf d = { 0 };

	sp_field_decode(&d, s.p, s.n);
	sp_term_clean(D->term, b, sp_buf_str(&d), d.len, keep_newlines);
	sp_buf_free(&d);
}

static void
clean_str(const struct draw *D, struct sp_buf *b, const char *s)
{
	sp_term_clean(D->term, b, s, strlen(s), 1);
}

/* A field's value for people: human units, n/a when unknown. */
static void
view_value(const struct draw *D, struct sp_buf *b, const char *col,
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
		clean_slice(D, b, s, 0);
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
		clean_slice(D, b, s, 0);
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
	const struct draw *D;
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
	sp_term_wrap(w->D->term, w->b, value, 2 + lw, 2 + lw);
	sp_buf_addc(w->b, '\n');
}

static void
heading(const struct draw *D, struct sp_buf *b, const char *title)
{
	sp_term_painted(D->term, b, SP_P_BOLD, title);
	sp_buf_addc(b, '\n');
}

static void
view_fields(const struct draw *D, struct sp_buf *b, const struct sp_slice *f,
	    size_t nf)
{
	struct rows w;
	struct sp_buf v = { 0 };

	memset(&w, 0, sizeof w);
	w.D = D;
	w.b = b;
	w.half = D->term->width >= 2 * (2 + LABEL_W + 16) ?
		 (size_t)D->term->width / 2 : 0;
	for (size_t g = 0; g <= sizeof groups / sizeof groups[0]; g++) {
		int started = 0;

		for (size_t i = 0; i < nf; i++) {
			const char *col = D->cols[i];
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
				heading(D, b, g < sizeof groups /
					sizeof groups[0] ? groups[g].title :
					"other");
				started = 1;
			}
			sp_buf_clear(&v);
			view_value(D, &v, col, f[i]);
			rows_add(&w, col, sp_buf_str(&v));
		}
		rows_flush(&w);
	}
	sp_buf_free(&v);
	sp_buf_free(&w.left);
}

/* The gauge's bar: the ceiling faint, the used part solid. */
static size_t
bar_width(const struct draw *D)
{
	int w = D->term->width - GAUGE_LABEL_W - 2 - 44;

	if (w > 40)
		w = 40;
	if (w < 10)
		w = 10;
	return (size_t)w;
}

static void
bar(const struct draw *D, struct sp_buf *b, double used, double ceiling,
    int draw_used)
{
	size_t width = bar_width(D), solid = 0;

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
		sp_buf_adds(b, sp_term_glyph(D->term, SP_G_SOLID));
	if (solid < width) {
		sp_term_paint(D->term, b, SP_P_FAINT);
		for (size_t i = solid; i < width; i++)
			sp_buf_adds(b, sp_term_glyph(D->term, SP_G_FAINT));
		sp_term_paint(D->term, b, SP_P_NONE);
	}
}

static void
gauge(const struct draw *D, struct sp_buf *b, const char *label, double used,
      double ceiling, int draw_used, const char *text)
{
	size_t at = GAUGE_LABEL_W + bar_width(D) + 2;

	sp_buf_adds(b, label);
	pad(b, GAUGE_LABEL_W - strlen(label));
	bar(D, b, used, ceiling, draw_used);
	pad(b, 2);
	sp_term_wrap(D->term, b, text, at, at);
	sp_buf_addc(b, '\n');
}

static void
dot(const struct draw *D, struct sp_buf *b)
{
	sp_buf_addc(b, ' ');
	sp_buf_adds(b, sp_term_glyph(D->term, SP_G_DOT));
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
view_header(const struct draw *D, struct sp_buf *b, const struct sp_job *j,
	    const struct sp_jobcalc *c)
{
	struct sp_buf t = { 0 }, s = { 0 };

	/* id, name, state and how it ended */
	sp_term_paint(D->term, b, SP_P_BOLD);
	if (j->jobid.n)
		clean_slice(D, b, j->jobid, 0);
	else
		sp_buf_adds(b, "n/a");
	sp_term_paint(D->term, b, SP_P_NONE);
	sp_buf_adds(b, "  ");
	if (j->name.n)
		clean_slice(D, b, j->name, 0);
	else
		sp_buf_adds(b, "(no name)");
	sp_buf_adds(b, "  ");
	if (j->state.n) {
		clean_slice(D, &s, j->state, 0);
		sp_term_painted(D->term, b, state_paint(j), s.p);
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
		clean_slice(D, &t, j->user, 0);
	else
		sp_buf_adds(&t, "n/a");
	if (j->partition.n) {
		sp_buf_adds(&t, ", partition ");
		clean_slice(D, &t, j->partition, 0);
	}
	dot(D, &t);
	if (c->nodes > 1) {
		sp_fmt_num(&t, c->nodes);
		sp_buf_adds(&t, " nodes ");
	} else {
		sp_buf_adds(&t, "node ");
	}
	if (j->nodelist.n)
		clean_slice(D, &t, j->nodelist, 0);
	else
		sp_buf_adds(&t, "n/a");
	sp_term_wrap(D->term, b, sp_buf_str(&t), 0, 2);
	sp_buf_addc(b, '\n');

	/* when, and how long it queued */
	sp_buf_clear(&t);
	if (j->start_known && sp_job_ran(j)) {
		sp_buf_adds(&t, "ran ");
		clean_slice(D, &t, j->start, 0);
		sp_buf_printf(&t, " %s ", sp_term_glyph(D->term, SP_G_ARROW));
		if (j->end_known)
			clean_slice(D, &t, j->end, 0);
		else
			sp_buf_adds(&t, "no end recorded");
		sp_buf_adds(&t, " (");
		sp_fmt_duration(&t, j->elapsed_s);
		sp_buf_adds(&t, ")");
	} else {
		sp_buf_adds(&t, "never started");
		if (j->submit_known) {
			sp_buf_adds(&t, ", submitted ");
			clean_slice(D, &t, j->submit, 0);
		}
	}
	dot(D, &t);
	sp_buf_adds(&t, "queued ");
	sp_fmt_duration(&t, c->wait_s);
	sp_term_wrap(D->term, b, sp_buf_str(&t), 0, 2);
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
	sp_buf_free(&s);
}

static void
view_gauges(const struct draw *D, struct sp_buf *b, const struct sp_job *j,
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
	gauge(D, b, "time", j->elapsed_s, j->timelimit_s, 1, t.p);

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
	gauge(D, b, "CPU", j->total_cpu_s, c->cpu_capacity_s, 1, t.p);

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
		sp_caveat_rss(&why, D->site);
		gauge(D, b, "memory", NAN, c->mem_limit_b, 0, t.p);
		pad(b, GAUGE_LABEL_W);
		sp_term_wrap(D->term, b, why.p, GAUGE_LABEL_W, GAUGE_LABEL_W);
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
		gauge(D, b, "memory", j->max_rss_b, c->mem_limit_b, 1, t.p);
	}

	/* Quantities with no ceiling to draw against. */
	sp_buf_clear(&t);
	sp_buf_adds(&t, "kernel ");
	sp_fmt_percent(&t, c->sys_fraction);
	sp_buf_adds(&t, " of CPU time");
	dot(D, &t);
	sp_buf_adds(&t, "disk read ");
	sp_fmt_bytes(&t, j->read_b);
	sp_buf_adds(&t, ", wrote ");
	sp_fmt_bytes(&t, j->write_b);
	dot(D, &t);
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
	sp_term_wrap(D->term, b, t.p, 0, 2);
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
}

/*
 * The rest of a line from col on: untrusted text, cut with an ellipsis
 * to fit the width.
 */
static void
view_line(const struct draw *D, struct sp_buf *b, const char *s, size_t n,
	  size_t col)
{
	struct sp_buf t = { 0 };
	size_t room = (size_t)D->term->width > col + 1 ?
		      (size_t)D->term->width - col : 1;

	sp_term_clean(D->term, &t, s, n, 0);
	if (sp_term_cells(sp_buf_str(&t), t.len) > room) {
		sp_buf_add(b, t.p, sp_term_fit(t.p, t.len, room - 1));
		sp_buf_adds(b, sp_term_glyph(D->term, SP_G_ELLIPSIS));
	} else {
		sp_buf_add(b, sp_buf_str(&t), t.len);
	}
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
}

static void
view_log_file(const struct draw *D, struct sp_buf *b, const struct sp_log *l)
{
	struct sp_buf t = { 0 };
	const char *from;
	size_t len;

	sp_buf_printf(&t, "%s ", sp_log_role_name(l->role));
	clean_str(D, &t, l->path);
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
			clean_str(D, &t, l->owner);
		}
	}
	pad(b, 2);
	sp_term_wrap(D->term, b, t.p, 2, 4);
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
	if (l->status != SP_LOG_FOUND)
		return;
	sp_log_last_lines(l, SP_SHOW_LOG_LINES, &from, &len);
	if (len == 0) {
		sp_buf_adds(b, "    (empty)\n");
		return;
	}
	while (len > 0) {
		const char *nl = memchr(from, '\n', len);
		size_t n = nl ? (size_t)(nl - from) : len;

		pad(b, 4);
		sp_term_painted(D->term, b, SP_P_FAINT,
				sp_term_glyph(D->term, SP_G_BAR));
		sp_buf_addc(b, ' ');
		view_line(D, b, from, n, 6);
		from += n + (nl ? 1 : 0);
		len -= n + (nl ? 1 : 0);
	}
	sp_buf_free(&t);
}

static void
view_logs(const struct draw *D, struct sp_buf *b, const struct sp_logs *l)
{
	sp_buf_addc(b, '\n');
	heading(D, b, "log");
	if (!l->looked) {
		sp_buf_adds(b, "  not read (--no-logs)\n");
		return;
	}
	if (l->not_started) {
		sp_buf_adds(b, "  none: the job never started, so it wrote "
			    "none\n");
		return;
	}
	if (l->expected.path != NULL)
		view_log_file(D, b, &l->expected);
	for (size_t i = 0; i < l->n; i++)
		view_log_file(D, b, &l->v[i]);
	if (l->n == 0 && l->expected.path == NULL) {
		pad(b, 2);
		sp_term_wrap(D->term, b, "none found: the record names no "
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
view_evidence(const struct draw *D, struct sp_buf *b, const char *ev,
	      size_t indent)
{
	const char *nl = strchr(ev, '\n');
	size_t n = nl ? (size_t)(nl - ev) : strlen(ev);
	struct sp_buf t = { 0 };

	sp_term_clean(D->term, &t, ev, n, 0);
	pad(b, indent);
	sp_term_wrap(D->term, b, sp_buf_str(&t), indent, indent);
	sp_buf_addc(b, '\n');
	sp_buf_free(&t);
	while (nl != NULL) {
		ev = nl + 1;
		nl = strchr(ev, '\n');
		n = nl ? (size_t)(nl - ev) : strlen(ev);
		pad(b, indent + 2);
		view_line(D, b, ev, n, indent + 2);
	}
}

static void
view_findings(const struct draw *D, struct sp_buf *b,
	      const struct sp_findings *f)
{
	struct sp_buf t = { 0 };
	enum { IND = 12 };

	sp_buf_addc(b, '\n');
	heading(D, b, "findings");
	if (f->n == 0)
		sp_buf_adds(b, "  none: nothing in this record needs "
			    "attention\n");
	for (size_t i = 0; i < f->n; i++) {
		const char *label = sp_severity_label(f->v[i].severity);

		pad(b, 2);
		sp_term_painted(D->term, b, severity_paint(f->v[i].severity),
				label);
		pad(b, IND - 2 - strlen(label));
		sp_buf_adds(b, f->v[i].code);
		sp_buf_addc(b, '\n');
		view_evidence(D, b, f->v[i].evidence, IND);
		if (f->v[i].action != NULL) {
			pad(b, IND);
			sp_buf_clear(&t);
			sp_buf_adds(&t, sp_term_glyph(D->term, SP_G_ARROW));
			sp_buf_addc(&t, ' ');
			clean_str(D, &t, f->v[i].action);
			sp_term_wrap(D->term, b, t.p, IND, IND + 2);
			sp_buf_addc(b, '\n');
		}
	}
	sp_buf_free(&t);
}

static void
view_steps(const struct draw *D, struct sp_buf *b, const struct sp_job *steps,
	   size_t nsteps)
{
	struct sp_buf t = { 0 };

	if (nsteps == 0)
		return;
	sp_buf_addc(b, '\n');
	heading(D, b, "steps");
	for (size_t i = 0; i < nsteps; i++) {
		const struct sp_job *s = &steps[i];

		sp_buf_clear(&t);
		clean_slice(D, &t, s->step, 0);
		sp_buf_adds(&t, ": ");
		clean_slice(D, &t, s->state, 0);
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
		sp_term_wrap(D->term, b, t.p, 2, 4);
		sp_buf_addc(b, '\n');
	}
	sp_buf_free(&t);
}

void
sp_postmortem_draw(const struct sp_term *t, const struct sp_postmortem *pm,
		   struct sp_buf *out)
{
	struct draw D;
	struct sp_logs none;
	struct sp_findings nothing = { 0 };

	D.term = t;
	D.site = pm->site;
	D.cols = pm->cols;
	sp_logs_none(&none);
	view_header(&D, out, pm->job, pm->calc);
	view_gauges(&D, out, pm->job, pm->calc);
	view_fields(&D, out, pm->fields, pm->nfields);
	view_steps(&D, out, pm->steps, pm->nsteps);
	view_logs(&D, out, pm->logs != NULL ? pm->logs : &none);
	view_findings(&D, out, pm->findings != NULL ? pm->findings : &nothing);
}
