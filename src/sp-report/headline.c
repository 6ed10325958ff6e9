/*
 * headline.c - the report's first lines: what leads (the GPU-hours that
 * computed nothing, else the failures, else that nothing was flagged),
 * then the window: how many jobs, whose, when, in how many workloads,
 * what a view shows, and what was left out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sp_headline.h"

struct head {
	long runs, failed, workloads, open;
	double gpu_h;			/* every closed allocation's */
	double idle_gpu_h;		/* of those that computed nothing */
	struct sp_buf idle_key;		/* the workload that held most */
	double idle_key_gpu_h;		/* ... of them */
	double idle_key_total_h;	/* ... of all its GPU-hours */
	struct sp_buf idle_name;
	struct sp_intern users;
	struct sp_buf first, last;
	long rows, unknown_states;	/* NAN-free: -1 when not known */
	long shown;			/* records a view shows, or -1 */
	long running_critical;		/* sp-size --running's, or -1 */
	struct sp_buf read;		/* what sp-fetch could not read */
	struct sp_buf habits;		/* Slurm's habits it read around */
};

static void
read_hang_summary(struct head *h, const struct opts *o)
{
	struct sp_reader r;
	int section, held, count, key;
	int have_key = 0;

	input_open(&r, o, IN_HANGSUM);
	section = sp_reader_need(&r, "section", "sp-hang --summary");
	held = sp_reader_need(&r, "held_gpu_h", "sp-hang --summary");
	count = sp_reader_need(&r, "count", "sp-hang --summary");
	key = sp_reader_need(&r, "workload_key", "sp-hang --summary");
	while (sp_next_or_die(&r)) {
		struct sp_slice s = r.f[section];
		double v = field_num(r.f[held]);

		if (sp_slice_eq(s, "record"))
			h->gpu_h = v;
		else if (sp_slice_eq(s, "hangs"))
			h->idle_gpu_h = v;
		else if (sp_slice_eq(s, "open"))
			h->open = (long)field_num(r.f[count]);
		else if (sp_slice_eq(s, "workload") && !have_key) {
			/* Most idle GPU-hours first. */
			sp_buf_add(&h->idle_key, r.f[key].p, r.f[key].n);
			h->idle_key_gpu_h = v;
			have_key = 1;
		}
	}
	sp_reader_close(&r);
}

/*
 * What sp-fetch read and could not (sp-fetch --stats): every count but
 * the rows and the records written is a gap, said in its own words.
 */
static void
read_fetch_stats(struct head *h, const struct opts *o)
{
	struct sp_reader r;
	int key, count, message;

	h->rows = h->unknown_states = -1;
	if (o->in[IN_FETCHSTATS] == NULL)
		return;
	input_open(&r, o, IN_FETCHSTATS);
	key = sp_reader_need(&r, "key", "sp-fetch --stats");
	count = sp_reader_need(&r, "count", "sp-fetch --stats");
	message = sp_reader_need(&r, "message", "sp-fetch --stats");
	while (sp_next_or_die(&r)) {
		double n = field_num(r.f[count]);

		if (sp_slice_eq(r.f[key], "rows")) {
			h->rows = isnan(n) ? -1 : (long)n;
		} else if (sp_slice_eq(r.f[key], "records")) {
			continue;
		} else if (r.f[message].n > 0 && n > 0 &&
		    r.f[key].n > 9 && memcmp(r.f[key].p, "cpu_from_", 9) == 0) {
			/* Read whole, from another of Slurm's figures. */
			sp_buf_adds(&h->habits, h->habits.len ? "; " : "");
			field_text(&h->habits, r.f[message]);
		} else if (r.f[message].n > 0 && n > 0) {
			if (sp_slice_eq(r.f[key], "unknown_states"))
				h->unknown_states = (long)n;
			sp_buf_adds(&h->read, h->read.len ? "; " : "");
			field_text(&h->read, r.f[message]);
		}
	}
	sp_reader_close(&r);
}

/*
 * The running jobs with a critical warning of the moment (sp-size
 * --running, when given): each job once, whatever its warnings.
 */
static void
count_running_critical(struct head *h, const struct opts *o)
{
	struct sp_reader r;
	int id, sev;
	struct sp_buf last = { 0 };

	h->running_critical = -1;
	if (o->in[IN_RUNNING] == NULL)
		return;
	input_open(&r, o, IN_RUNNING);
	id = sp_reader_need(&r, "jobid", "sp-size --running");
	sev = sp_reader_need(&r, "severity", "sp-size --running");
	h->running_critical = 0;
	while (sp_next_or_die(&r)) {
		struct sp_slice j = r.f[id];

		if (!sp_slice_eq(r.f[sev], "critical"))
			continue;
		/* A job's warnings come together, one after another. */
		if (last.len == j.n && memcmp(last.p, j.p, j.n) == 0)
			continue;
		sp_buf_clear(&last);
		sp_buf_add(&last, j.p, j.n);
		h->running_critical++;
	}
	sp_buf_free(&last);
	sp_reader_close(&r);
}

/* The jobs a view shows: its records that ended. */
static void
count_shown(struct head *h, const struct opts *o)
{
	struct sp_reader r;
	int open;

	h->shown = -1;
	if (o->in[IN_SHOWN] == NULL)
		return;
	input_open(&r, o, IN_SHOWN);
	open = sp_reader_col(&r, "open");
	h->shown = 0;
	while (sp_next_or_die(&r))
		h->shown += !(open >= 0 && sp_slice_eq(r.f[open], "1"));
	sp_reader_close(&r);
}

static void
read_rollup(struct head *h, const struct opts *o)
{
	struct sp_reader r;
	int runs, failed, user, first, last, key, gpu, label;

	input_open(&r, o, IN_ROLLUP);
	runs = sp_reader_need(&r, "runs", "sp-group --rollup");
	failed = sp_reader_need(&r, "failed", "sp-group --rollup");
	key = sp_reader_need(&r, "workload_key", "sp-group --rollup");
	gpu = sp_reader_need(&r, "gpu_h", "sp-group --rollup");
	label = sp_reader_need(&r, "label", "sp-group --rollup");
	user = sp_reader_col(&r, "user");
	first = sp_reader_col(&r, "first");
	last = sp_reader_col(&r, "last");
	while (sp_next_or_die(&r)) {
		double n = field_num(r.f[runs]), f = field_num(r.f[failed]);

		h->workloads++;
		h->runs += isnan(n) ? 0 : (long)n;
		h->failed += isnan(f) ? 0 : (long)f;
		if (user >= 0)
			sp_intern(&h->users, r.f[user].p, r.f[user].n);
		/* ISO 8601 times order as text. */
		if (first >= 0 && r.f[first].n > 0 &&
		    (h->first.len == 0 ||
		     strcmp(r.f[first].p, sp_buf_str(&h->first)) < 0)) {
			sp_buf_clear(&h->first);
			sp_buf_add(&h->first, r.f[first].p, r.f[first].n);
		}
		if (last >= 0 && r.f[last].n > 0 &&
		    strcmp(r.f[last].p, sp_buf_str(&h->last)) > 0) {
			sp_buf_clear(&h->last);
			sp_buf_add(&h->last, r.f[last].p, r.f[last].n);
		}
		if (h->idle_key.len > 0 && r.f[key].n == h->idle_key.len &&
		    memcmp(r.f[key].p, h->idle_key.p, h->idle_key.len) == 0) {
			h->idle_key_total_h = field_num(r.f[gpu]);
			field_text(&h->idle_name, r.f[label]);
		}
	}
	sp_reader_close(&r);
}

/*
 * What the library's headline reads, from what the inputs said; users
 * holds their names made safe (freed by the caller).
 */
static void
headline_of(const struct head *h, const struct opts *o,
	    struct sp_headline *hl, char ***users)
{
	sp_headline_init(hl);
	hl->runs = h->runs;
	hl->failed = h->failed;
	hl->workloads = h->workloads;
	hl->open = h->open;
	hl->unknown_states = h->unknown_states;
	hl->shown = h->shown;
	hl->running_critical = h->running_critical;
	hl->gpu_h = h->gpu_h;
	hl->idle_gpu_h = h->idle_gpu_h;
	hl->idle_name = h->idle_name.len > 0 ? sp_buf_str(&h->idle_name) :
			NULL;
	hl->idle_key_gpu_h = h->idle_key_gpu_h;
	hl->idle_key_total_h = h->idle_key_total_h;
	*users = sp_xcalloc(h->users.n ? h->users.n : 1, sizeof **users);
	for (size_t i = 0; i < h->users.n; i++) {
		const char *u = sp_intern_str(&h->users, i);
		struct sp_buf b = { 0 };

		field_text(&b, (struct sp_slice){ u, strlen(u) });
		(*users)[i] = b.p ? b.p : sp_xstrdup("");
	}
	hl->users = (const char *const *)*users;
	hl->nusers = h->users.n;
	hl->first = h->first.len > 0 ? sp_buf_str(&h->first) : NULL;
	hl->last = h->first.len > 0 ? sp_buf_str(&h->last) : NULL;
	hl->source = o->source;
	hl->view = o->view;
}

/*
 * The headline as one record; with split (--sources), where the runs
 * came from as well.
 */
static void
write_record(struct head *h, const struct opts *o, const char *kind,
	     const struct sp_buf *text, const struct sp_buf *more,
	     const struct sp_buf *win, const struct split *split,
	     const struct sp_buf *said)
{
	struct sp_writer w;
	struct sp_buf users = { 0 };

	sp_writer_init(&w, stdout, o->fmt);
	sp_writer_column(&w, "lead");
	sp_writer_column_kind(&w, "jobs", SP_KIND_NUMBER);
	sp_writer_column(&w, "failed");
	sp_writer_column(&w, "users");
	sp_writer_column_kind(&w, "workloads", SP_KIND_NUMBER);
	sp_writer_column(&w, "first");
	sp_writer_column(&w, "last");
	sp_writer_column(&w, "open");
	sp_writer_column(&w, "gpu_h");
	sp_writer_column(&w, "idle_gpu_h");
	sp_writer_column(&w, "idle_workload_key");
	sp_writer_column(&w, "idle_workload_gpu_h");
	sp_writer_column_kind(&w, "shown", SP_KIND_NUMBER);
	sp_writer_column(&w, "text");
	sp_writer_column(&w, "detail");
	sp_writer_column(&w, "window");
	sp_writer_column_kind(&w, "rows", SP_KIND_NUMBER);
	sp_writer_column_kind(&w, "unknown_states", SP_KIND_NUMBER);
	sp_writer_column(&w, "unread");
	sp_writer_column_kind(&w, "running_critical", SP_KIND_NUMBER);
	sp_writer_column(&w, "read_around");
	if (split != NULL) {
		static const char *const cols[] = { "attributed",
			"session_runs", "sessions", "file_runs", "files", NULL };

		for (const char *const *c = cols; *c; c++)
			sp_writer_column_kind(&w, *c, SP_KIND_NUMBER);
		sp_writer_column(&w, "attribution");
	}
	sp_writer_header(&w);
	sp_writer_str(&w, kind);
	sp_writer_int(&w, h->runs);
	sp_writer_int(&w, h->failed);
	for (size_t i = 0; i < h->users.n; i++) {
		if (i)
			sp_buf_addc(&users, ',');
		sp_buf_adds(&users, sp_intern_str(&h->users, i));
	}
	sp_writer_field(&w, users.p ? users.p : "", users.len);
	sp_writer_int(&w, h->workloads);
	sp_writer_field(&w, h->first.p ? h->first.p : "", h->first.len);
	sp_writer_field(&w, h->last.p ? h->last.p : "", h->last.len);
	sp_writer_int(&w, h->open);
	sp_writer_num(&w, h->gpu_h);
	sp_writer_num(&w, h->idle_gpu_h);
	sp_writer_field(&w, h->idle_key.p ? h->idle_key.p : "",
			h->idle_key.len);
	sp_writer_num(&w, h->idle_key.len ? h->idle_key_gpu_h : NAN);
	if (h->shown >= 0)
		sp_writer_int(&w, h->shown);
	else
		sp_writer_empty(&w);
	sp_writer_raw(&w, sp_buf_str(text), text->len);
	sp_writer_raw(&w, sp_buf_str(more), more->len);
	sp_writer_raw(&w, sp_buf_str(win), win->len);
	if (h->rows >= 0)
		sp_writer_int(&w, h->rows);
	else
		sp_writer_empty(&w);
	sp_writer_int(&w, h->unknown_states > 0 ? h->unknown_states : 0);
	sp_writer_raw(&w, sp_buf_str(&h->read), h->read.len);
	if (h->running_critical >= 0)
		sp_writer_int(&w, h->running_critical);
	else
		sp_writer_empty(&w);
	sp_writer_raw(&w, sp_buf_str(&h->habits), h->habits.len);
	if (split != NULL) {
		sp_writer_int(&w, split->attributed);
		sp_writer_int(&w, split->session_runs);
		sp_writer_int(&w, split->sessions);
		sp_writer_int(&w, split->file_runs);
		sp_writer_int(&w, split->files);
		sp_writer_raw(&w, sp_buf_str(said), said->len);
	}
	sp_writer_end(&w);
	sp_writer_finish(&w);
	sp_buf_free(&users);
}

int
part_headline(const struct opts *o)
{
	struct head h;
	struct sp_headline hl;
	struct sp_buf text = { 0 }, more = { 0 }, win = { 0 }, said = { 0 };
	struct split split;
	const char *kind;
	char **users;

	memset(&h, 0, sizeof h);
	h.gpu_h = h.idle_gpu_h = NAN;
	read_hang_summary(&h, o);
	read_fetch_stats(&h, o);
	count_shown(&h, o);
	count_running_critical(&h, o);
	read_rollup(&h, o);
	headline_of(&h, o, &hl, &users);
	kind = sp_headline_lead(&hl, &text, &more);
	sp_headline_window(&hl, &win);
	for (size_t i = 0; i < h.users.n; i++)
		free(users[i]);
	free(users);
	if (o->in[IN_SOURCES] != NULL) {
		split_load(&split, o);
		split_text(&said, &split);
	}
	if (o->fmt == SP_FMT_PLAIN) {
		/* The first line is the screen's title: RS marks it. */
		printf("\036%s\n", sp_buf_str(&text));
		if (more.len > 0)
			printf("%s\n", sp_buf_str(&more));
		printf("%s\n", sp_buf_str(&win));
		if (said.len > 0)
			printf("%s\n", sp_buf_str(&said));
		if (h.read.len > 0)
			printf("Not all of the input was read: %s.\n",
			       sp_buf_str(&h.read));
		if (h.habits.len > 0)
			printf("A habit of Slurm met: %s.\n",
			       sp_buf_str(&h.habits));
	} else {
		write_record(&h, o, kind, &text, &more, &win,
			     o->in[IN_SOURCES] ? &split : NULL, &said);
	}
	sp_buf_free(&said);
	sp_buf_free(&text);
	sp_buf_free(&more);
	sp_buf_free(&win);
	sp_buf_free(&h.idle_key);
	sp_buf_free(&h.idle_name);
	sp_buf_free(&h.first);
	sp_buf_free(&h.last);
	sp_buf_free(&h.read);
	sp_buf_free(&h.habits);
	sp_intern_free(&h.users);
	return SP_EXIT_OK;
}
