/*
 * model.c - the input read once into memory, and what the library makes
 * of it: every record kept as read (a browser goes back to any run), the
 * rollup of sp-group, the histories sp-size reads, the node table of
 * sp-nodes and the node history sp-show's findings consult.  A screen
 * asks the model; nothing here draws.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "browse.h"
#include "sp_run.h"

/* Records that ran, with when, for the newest-first sort. */
struct order_of {
	size_t rec;
	int32_t wl;
	struct sp_order o;
};

struct loading {
	struct order_of *ord;
	size_t nord, ordcap;
	struct sp_buf last_id;		/* the jobid of the last record kept */
	struct sp_hang_tally *idle;	/* the hangs of each workload */
	size_t nidle, idlecap;
};

/* The fields of a kept record: one after another, each ending in NUL. */
static void
slice_fields(const struct model *m, size_t off, struct sp_slice *f)
{
	const char *p = m->arena + off;

	for (size_t k = 0; k < m->ncols; k++) {
		size_t n = strlen(p);

		f[k].p = p;
		f[k].n = n;
		p += n + 1;
	}
}

static size_t
kept_end(const struct model *m, size_t off)
{
	const char *p = m->arena + off;

	for (size_t k = 0; k < m->ncols; k++)
		p += strlen(p) + 1;
	return (size_t)(p - m->arena);
}

/* The reader's current record appended to the arena (the reader has
 * already split it: each field ends in a NUL where its TAB was). */
static size_t
keep_bytes(struct model *m, const struct sp_reader *r)
{
	size_t off = m->arenalen, n = 0;

	for (size_t k = 0; k < m->ncols; k++)
		n += r->f[k].n + 1;
	m->arena = sp_xgrow(m->arena, &m->arenacap, m->arenalen + n, 1);
	for (size_t k = 0; k < m->ncols; k++) {
		memcpy(m->arena + m->arenalen, r->f[k].p, r->f[k].n);
		m->arenalen += r->f[k].n;
		m->arena[m->arenalen++] = '\0';
	}
	return off;
}

static void
keep(struct model *m, struct loading *L, const struct sp_reader *r,
     const struct sp_job *j, long wl)
{
	struct rec *x;

	m->recs = sp_xgrow(m->recs, &m->reccap, m->nrecs + 1, sizeof *m->recs);
	x = &m->recs[m->nrecs];
	x->off = keep_bytes(m, r);
	x->nsteps = 0;
	x->wl = (int32_t)wl;
	if (wl >= 0) {
		enum sp_hang_kind k = sp_job_hang_kind(j);

		while (L->nidle <= (size_t)wl) {
			L->idle = sp_xgrow(L->idle, &L->idlecap, L->nidle + 1,
					   sizeof *L->idle);
			sp_hang_tally_init(&L->idle[L->nidle++]);
		}
		/* The hangs sp-hang counts: hung or blocked. */
		if (k == SP_HANG_HUNG || k == SP_HANG_BLOCKED)
			sp_hang_tally_add(&L->idle[wl], sp_job_gpu_hours(j),
					  sp_job_core_hours(j));
		L->ord = sp_xgrow(L->ord, &L->ordcap, L->nord + 1,
				  sizeof *L->ord);
		L->ord[L->nord].rec = m->nrecs;
		L->ord[L->nord].wl = (int32_t)wl;
		sp_order_of(&L->ord[L->nord].o, j);
		L->nord++;
	}
	sp_buf_clear(&L->last_id);
	sp_buf_add(&L->last_id, j->jobid.p, j->jobid.n);
	m->nrecs++;
}

/* A step record goes with the allocation it follows (sp-fetch --steps
 * writes them so); one that follows another job is left out, counted. */
static void
keep_step(struct model *m, struct loading *L, const struct sp_reader *r,
	  const struct sp_job *j)
{
	if (m->nrecs == 0 || j->jobid.n != L->last_id.len ||
	    memcmp(j->jobid.p, L->last_id.p, j->jobid.n) != 0) {
		m->steps_dropped++;
		return;
	}
	keep_bytes(m, r);
	m->recs[m->nrecs - 1].nsteps++;
}

/* Newest first within each workload, workloads in their number's order. */
static int
by_workload_newest(const void *pa, const void *pb)
{
	const struct order_of *a = pa, *b = pb;

	if (a->wl != b->wl)
		return a->wl < b->wl ? -1 : 1;
	return -sp_order_cmp(&a->o, &b->o);
}

static void
index_runs(struct model *m, struct loading *L)
{
	sp_sort(L->ord, L->nord, sizeof *L->ord, by_workload_newest);
	m->runs = sp_xcalloc(L->nord ? L->nord : 1, sizeof *m->runs);
	for (size_t i = 0; i < L->nord; i++) {
		struct wlinfo *w = &m->info[L->ord[i].wl];

		if (w->nruns == 0)
			w->run0 = i;
		w->nruns++;
		m->runs[i] = L->ord[i].rec;
	}
}

/* A part of a key (user, partition), made safe to draw, and numbered. */
static char *
key_part(struct model *m, struct sp_intern *t, const char *p, size_t n,
	 size_t *id, size_t *cells)
{
	struct sp_term plain = { 80, 0, 0, 1 };
	struct sp_buf b = { 0 };

	*id = sp_intern(t, p, n);
	plain.ascii = !sp_term_locale_utf8();
	text_field(&plain, &b, (struct sp_slice){ p, n });
	*cells = text_cells(b.p ? b.p : "", b.len);
	(void)m;
	return b.p ? b.p : sp_xstrdup("");
}

/* The label, user and partition of every workload, and its history. */
static void
describe(struct model *m)
{
	struct sp_buf label = { 0 };
	struct sp_term plain = { 80, 0, 0, 1 };

	plain.ascii = !sp_term_locale_utf8();
	m->info = sp_xcalloc(m->ru.n ? m->ru.n : 1, sizeof *m->info);
	for (size_t i = 0; i < m->ru.n; i++) {
		const struct sp_rollup_wl *w = &m->ru.v[i];
		struct wlinfo *x = &m->info[i];
		const char *key = sp_rollup_key(&m->ru, w);
		const char *wl = sp_rollup_key_workload(key);
		const char *s1 = strchr(key, '/');
		const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
		struct sp_buf safe = { 0 };

		x->hist = -1;
		x->sev = SP_WL_UNKNOWN;	/* no history */
		sp_buf_clear(&label);
		sp_rollup_label(&label, w, wl);
		text_field(&plain, &safe, (struct sp_slice){ label.p,
			   label.len });
		x->label = safe.p ? safe.p : sp_xstrdup("");
		x->label_cells = text_cells(x->label, strlen(x->label));
		if (s1 != NULL && s2 != NULL && wl != key) {
			x->user = key_part(m, &m->users, key,
			    (size_t)(s1 - key), &x->user_id, &x->user_cells);
			x->part = key_part(m, &m->parts, s1 + 1,
			    (size_t)(s2 - s1 - 1), &x->part_id,
			    &x->part_cells);
		} else {
			x->user = key_part(m, &m->users, "", 0, &x->user_id,
					   &x->user_cells);
			x->part = key_part(m, &m->parts, "", 0, &x->part_id,
					   &x->part_cells);
		}
	}
	sp_buf_free(&label);
}

/* The numbers of an intern table, its strings in byte order. */
static size_t *
by_name(const struct sp_intern *t)
{
	size_t *v = sp_xcalloc(t->n ? t->n : 1, sizeof *v);

	/* Few names (users, partitions): an insertion sort does. */
	for (size_t i = 0; i < t->n; i++) {
		size_t k = i;

		while (k > 0 && strcmp(sp_intern_str(t, v[k - 1]),
				       sp_intern_str(t, i)) > 0) {
			v[k] = v[k - 1];
			k--;
		}
		v[k] = i;
	}
	return v;
}

/* Each workload's worst finding across runs: its severity on screen. */
static void
severities(struct model *m)
{
	struct sp_wl_verdict v = { 0 };

	for (size_t i = 0; i < m->set.n; i++) {
		const struct sp_wl *s = &m->set.v[i];
		long ri = sp_intern_find(&m->ru.keys, s->key, s->keylen);
		const struct sp_hist *h;
		struct sp_size_site site;

		if (ri < 0)
			continue;	/* only open records: no row */
		m->info[ri].hist = (long)i;
		h = sp_histset_hist(&m->set, i);
		model_size_site(m, h, &site);
		sp_wl_verdict(h, &site, 0, &v);
		m->info[ri].sev = v.severity;
	}
	sp_wl_verdict_free(&v);
}

/*
 * The headline's figures, as sp-report reads them from the rollup and
 * sp-hang --summary: the users in the order the rollup names them (most
 * compute first), the hangs' GPU-hours, and the workload that held most.
 */
static void
totals(struct model *m, const struct loading *L)
{
	struct sp_headline *h = &m->head;
	struct sp_rollup sorted = m->ru;
	struct sp_intern named = { 0 };
	struct sp_hang_tally idle;
	long most = -1;

	sp_headline_init(h);
	sp_hang_tally_init(&idle);
	h->open = m->ru.open;
	h->workloads = (long)m->ru.n;
	sorted.v = sp_xcalloc(m->ru.n ? m->ru.n : 1, sizeof *sorted.v);
	memcpy(sorted.v, m->ru.v, m->ru.n * sizeof *sorted.v);
	sp_rollup_sort(&sorted, SP_ROLLUP_COST);
	m->head_users = sp_xcalloc(m->ru.n ? m->ru.n : 1,
				   sizeof *m->head_users);
	for (size_t i = 0; i < m->ru.n; i++) {
		const struct sp_rollup_wl *w = &sorted.v[i];
		const struct wlinfo *x = &m->info[w->key];
		size_t before = named.n;

		h->runs += w->runs;
		h->failed += w->failed;
		if (w->gpu_known)
			h->gpu_h = isnan(h->gpu_h) ? w->gpu_h :
				   h->gpu_h + w->gpu_h;
		if (w->first_known && (!m->first_known || w->first < m->first)) {
			m->first = w->first;
			m->first_known = 1;
		}
		if (w->last_known && (!m->last_known || w->last > m->last)) {
			m->last = w->last;
			m->last_known = 1;
		}
		sp_intern(&named, x->user, strlen(x->user));
		if (named.n > before)
			m->head_users[m->nhead_users++] = x->user;
	}
	for (size_t i = 0; i < L->nidle && i < m->ru.n; i++) {
		const struct sp_hang_tally *t = &L->idle[i];

		if (t->count == 0)
			continue;
		sp_hang_tally_add(&idle, t->gpu_h, t->core_h);
		idle.count += t->count - 1;
		if (most < 0 || sp_hang_tally_cmp(t, m->ru.v[i].keystr,
		    &L->idle[most], m->ru.v[most].keystr) < 0)
			most = (long)i;
	}
	h->idle_gpu_h = idle.count ? idle.gpu_h : 0;
	if (most >= 0) {
		h->idle_name = m->info[most].label;
		h->idle_key_gpu_h = L->idle[most].gpu_h;
		h->idle_key_total_h = m->ru.v[most].gpu_known ?
				      m->ru.v[most].gpu_h : NAN;
	}
	h->users = m->head_users;
	h->nusers = m->nhead_users;
	if (m->first_known && m->last_known) {
		sp_fmt_time(&m->head_first, m->first);
		sp_fmt_time(&m->head_last, m->last);
		h->first = sp_buf_str(&m->head_first);
		h->last = sp_buf_str(&m->head_last);
	}
	free(sorted.v);
	sp_intern_free(&named);
}

/*
 * The jobs running now and their warnings, as sp-size --running finds
 * them: after the load, so that the arena the records point into stays.
 */
static void
running_now(struct model *m)
{
	struct kept k = { 0 };

	for (size_t i = 0; i < m->nlive; i++) {
		struct live_job *x = &m->live[i];

		model_parse(m, x->rec, &k);
		x->wl = m->recs[x->rec].wl;
		x->job = k.job;
		sp_live_from_fields(&x->l, m->cols, k.f, m->ncols);
		sp_rules_live_in(&x->warnings, &x->job, &x->l, &m->set,
				 &m->site, 0);
		sp_findings_sort(&x->warnings, 0);
	}
	kept_free(&k);
}

/* Record r runs now: its warnings are worked out once all is read. */
static void
note_running(struct model *m, size_t r)
{
	m->live = sp_xgrow(m->live, &m->livecap, m->nlive + 1,
			   sizeof *m->live);
	memset(&m->live[m->nlive], 0, sizeof *m->live);
	m->live[m->nlive++].rec = r;
}

static void
read_records(struct model *m, struct loading *L, const struct opts *o)
{
	struct sp_reader r;
	struct sp_job j;
	unsigned seen = 0;

	sp_open_or_die(&r, o->files, o->nfiles);
	sp_reader_need(&r, "workload_key", "sp-group");
	sp_jobcols_need(&r, "sp-fetch", "jobid", "state", "elapsed_s", NULL);
	sp_jobcols_resolve(&m->jc, &r);
	m->ncols = r.ncols;
	/* A verdict that needs a column the input lacks says so, as in
	 * sp-size. */
	m->set.missing = sp_cols_missing(&m->jc);	/* and below */
	sp_livecols_resolve(&m->livecols, &r);
	m->cols = sp_xcalloc(r.ncols, sizeof *m->cols);
	for (size_t k = 0; k < r.ncols; k++)
		m->cols[k] = sp_xstrdup(r.cols[k]);
	while (sp_next_or_die(&r)) {
		size_t hi;
		long wl;

		sp_job_parse(&j, &m->jc, &r);
		sp_cols_seen(&m->jc, &r, &seen);
		if (sp_job_is_step(&j)) {
			keep_step(m, L, &r, &j);
			continue;
		}
		sp_node_history_add(m->history, &j);
		sp_nodes_add(m->nodes, &j);
		sp_bt_keep(&m->bt.in, &j);
		hi = sp_histset_find(&m->set, j.workload_key.p,
				     j.workload_key.n);
		sp_histset_add(&m->set, hi, &j);
		wl = sp_rollup_add(&m->ru, j.workload_key.p, j.workload_key.n,
				   &j);
		if (sp_livecols_present(&m->livecols) && sp_live_running(&j))
			note_running(m, m->nrecs);
		keep(m, L, &r, &j, wl);
	}
	/* A column every run has, never filled, is missing too. */
	m->set.missing = sp_cols_unseen(&m->jc, seen);
	m->set.empty = sp_cols_empty(&m->jc, seen);
	sp_reader_close(&r);
}

void
model_load(struct model *m, const struct opts *o)
{
	struct loading L;

	memset(m, 0, sizeof *m);
	memset(&L, 0, sizeof L);
	m->nodes = sp_nodes_new(SP_METRIC_HANG);
	m->history = sp_node_history_new();
	m->no_logs = o->logs.off;
	sp_logctx_init(&m->logctx, 1);
	for (size_t i = 0; i < o->logs.ndirs; i++)
		sp_logctx_add_dir(&m->logctx, o->logs.dirs[i]);

	read_records(m, &L, o);
	sp_site_load(&m->site);
	sp_site_warn(&m->site);
	sp_rollup_finish(&m->ru);
	sp_histset_finish(&m->set);
	sp_bt_risks_run(&m->bt, &m->site, m->set.missing);
	m->set.risks = &m->bt;
	sp_wl_memo_init(&m->memo, &m->set, m->nodes, &m->site);
	describe(m);
	m->users_by_name = by_name(&m->users);
	m->parts_by_name = by_name(&m->parts);
	index_runs(m, &L);
	severities(m);
	totals(m, &L);
	running_now(m);

	m->worst = sp_xmalloc(m->nrecs ? m->nrecs : 1);
	memset(m->worst, -2, m->nrecs ? m->nrecs : 1);
	m->worst_code = sp_xcalloc(m->nrecs ? m->nrecs : 1,
				   sizeof *m->worst_code);
	free(L.ord);
	free(L.idle);
	sp_buf_free(&L.last_id);
}

void
model_free(struct model *m)
{
	for (size_t i = 0; i < m->ru.n; i++) {
		free(m->info[i].label);
		free(m->info[i].user);
		free(m->info[i].part);
	}
	for (size_t k = 0; k < m->ncols; k++)
		free(m->cols[k]);
	free(m->cols);
	free(m->info);
	free(m->runs);
	free(m->recs);
	free(m->arena);
	free(m->worst);
	free(m->worst_code);
	for (size_t i = 0; i < m->nlive; i++)
		sp_findings_free(&m->live[i].warnings);
	free(m->live);
	sp_rollup_free(&m->ru);
	sp_wl_memo_free(&m->memo);
	sp_histset_free(&m->set);
	sp_bt_risks_free(&m->bt);
	sp_nodes_free(m->nodes);
	sp_node_history_free(m->history);
	sp_site_free(&m->site);
	sp_logctx_free(&m->logctx);
	free(m->users_by_name);
	free(m->head_users);
	sp_buf_free(&m->head_first);
	sp_buf_free(&m->head_last);
	free(m->parts_by_name);
	sp_intern_free(&m->users);
	sp_intern_free(&m->parts);
}

const struct sp_rollup_wl *
model_row(const struct model *m, size_t i)
{
	return &m->ru.v[i];
}

const struct sp_hist *
model_hist(struct model *m, size_t i)
{
	if (m->info[i].hist < 0)
		return NULL;
	return sp_histset_hist(&m->set, (size_t)m->info[i].hist);
}

void
model_size_site(struct model *m, const struct sp_hist *h,
		struct sp_size_site *out)
{
	sp_wl_site(&m->site, &m->set, h, out);
}

/* A reader that holds one kept record, for sp_job_parse. */
static void
parse_at(struct model *m, size_t off, struct sp_slice *f, struct sp_job *j)
{
	struct sp_reader r;

	memset(&r, 0, sizeof r);
	r.cols = m->cols;
	r.ncols = m->ncols;
	r.f = f;
	r.name = "<kept>";
	slice_fields(m, off, f);
	/* Every record was parsed once already on the way in. */
	if (sp_job_parse_checked(j, &m->jc, &r) != 0)
		sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&r.err));
	sp_buf_free(&r.err);
}

void
model_parse(struct model *m, size_t ri, struct kept *k)
{
	const struct rec *x = &m->recs[ri];
	size_t off = x->off;

	if (k->f == NULL) {
		k->f = sp_xcalloc(m->ncols ? m->ncols : 1, sizeof *k->f);
		k->scratch = sp_xcalloc(m->ncols ? m->ncols : 1,
					sizeof *k->scratch);
	}
	parse_at(m, off, k->f, &k->job);
	k->nsteps = 0;
	for (uint32_t s = 0; s < x->nsteps; s++) {
		off = kept_end(m, off);
		k->steps = sp_xgrow(k->steps, &k->stepcap, k->nsteps + 1,
				    sizeof *k->steps);
		parse_at(m, off, k->scratch, &k->steps[k->nsteps++]);
	}
}

void
kept_free(struct kept *k)
{
	free(k->f);
	free(k->scratch);
	free(k->steps);
	memset(k, 0, sizeof *k);
}

/* A running job's warnings of the moment with its own, as sp-show. */
void
model_analyse(struct model *m, const struct kept *k, struct sp_analysis *a)
{
	struct sp_live l;
	int live = sp_live_from_fields(&l, m->cols, k->f, m->ncols);

	sp_postmortem_analyse_live(a, &k->job, k->steps, k->nsteps, &m->site,
				   m->no_logs ? NULL : &m->logctx, m->history,
				   &m->memo, live ? &l : NULL);
}

int
model_worst(struct model *m, size_t ri, const char **code)
{
	if (m->worst[ri] == -2) {
		struct kept k = { 0 };
		struct sp_analysis a;

		model_parse(m, ri, &k);
		model_analyse(m, &k, &a);
		m->worst[ri] = (signed char)sp_findings_worst(&a.findings);
		m->worst_code[ri] = a.findings.n > 0 ? a.findings.v[0].code :
				    NULL;
		sp_analysis_free(&a);
		kept_free(&k);
	}
	*code = m->worst_code[ri];
	return m->worst[ri];
}
