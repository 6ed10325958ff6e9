/*
 * test_nodes.c - the node table: judgement on hand-made counts (the
 * reference cases and a figure-11-shaped workload), seeded simulations of
 * innocent and guilty fleets, placements from job records, and the
 * per-job note sp-show prints.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sp.h"
#include "sp_nodes.h"
#include "tap.h"

/* ------------------------------------------------------------ judging */

static void
test_cot_exp(void)
{
	/* reference 2.5 / demo: 12 of 12 hung on one node, 2 of 8 elsewhere */
	struct sp_node_stat s[2] = { { .trials = 12, .bad = 12 },
				     { .trials = 8, .bad = 2 } };

	is_int(1, (long long)sp_node_judge(s, 2), "cot-exp: 1 node tested");
	is_string("worse", sp_node_verdict_name(s[0].verdict),
		  "cot-exp: the 12/12 node is worse");
	is_double(1.0, s[0].rate, 0, "cot-exp: rate 12/12");
	is_double(0.757506, s[0].ci_low, 1e-6, "cot-exp: Wilson low");
	is_double(1.0, s[0].ci_high, 0, "cot-exp: Wilson high");
	is_double(0.25, s[0].comparison, 0,
		  "cot-exp: compared with 2 of 8 on every other node");
	is_double(182.0 / 125970.0, s[0].p, 1e-12,
		  "cot-exp: p = 2 x C(14,12)/C(20,12)");
	is_string("untested", sp_node_verdict_name(s[1].verdict),
		  "cot-exp: 8 placements are too few to test");
	is_int(SP_HOLD_THIN, s[1].hold, "cot-exp: held for thinness");
	ok(isnan(s[1].p), "cot-exp: an untested row has no p");
	is_double(1.0, s[1].comparison, 0,
		  "cot-exp: the thin node still shows its comparison");
}

static void
test_figure11(void)
{
	/*
	 * One workload: a big node that ran a third of the work and hangs
	 * least, three bad nodes, seven ordinary ones (H stands out alone
	 * but not after the correction), eight too thin to test.
	 */
	static const struct { const char *name; long t, b; const char *v;
			      int hold; } want[] = {
		{ "I", 403, 8, "better", SP_HOLD_NONE },
		{ "A", 50, 15, "worse", SP_HOLD_NONE },
		{ "B", 48, 15, "worse", SP_HOLD_NONE },
		{ "C", 52, 15, "worse", SP_HOLD_NONE },
		{ "D", 72, 4, "inconclusive", SP_HOLD_NONE },
		{ "E", 72, 5, "inconclusive", SP_HOLD_NONE },
		{ "F", 70, 3, "inconclusive", SP_HOLD_NONE },
		{ "G", 74, 4, "inconclusive", SP_HOLD_NONE },
		{ "H", 71, 12, "inconclusive", SP_HOLD_CORRECTION },
		{ "J", 72, 4, "inconclusive", SP_HOLD_NONE },
		{ "K", 69, 3, "inconclusive", SP_HOLD_NONE },
		{ "t1", 5, 1, "untested", SP_HOLD_THIN },
		{ "t2", 4, 0, "untested", SP_HOLD_THIN },
		{ "t3", 6, 1, "untested", SP_HOLD_THIN },
		{ "t4", 3, 0, "untested", SP_HOLD_THIN },
		{ "t5", 7, 2, "untested", SP_HOLD_THIN },
		{ "t6", 2, 0, "untested", SP_HOLD_THIN },
		{ "t7", 9, 1, "untested", SP_HOLD_THIN },
		{ "t8", 8, 0, "untested", SP_HOLD_THIN },
	};
	enum { N = sizeof want / sizeof want[0] };
	struct sp_node_stat s[N];

	memset(s, 0, sizeof s);
	for (size_t i = 0; i < N; i++) {
		s[i].trials = want[i].t;
		s[i].bad = want[i].b;
	}
	is_int(11, (long long)sp_node_judge(s, N), "figure 11: 11 rows tested");
	for (size_t i = 0; i < N; i++) {
		is_string(want[i].v, sp_node_verdict_name(s[i].verdict),
			  "figure 11: node %s is %s", want[i].name, want[i].v);
		is_int(want[i].hold, s[i].hold, "figure 11: node %s hold",
		       want[i].name);
	}
	/* Independently computed (exact hypergeometric sums). */
	is_double(2.3741014710e-10, s[0].p, 1e-18, "figure 11: p of the big node");
	is_double(85.0 / 694.0, s[0].comparison, 1e-12,
		  "figure 11: the big node is compared without itself");
	is_double(0.0254959, s[8].p, 1e-7,
		  "figure 11: H alone would pass at 5%%, not among 11");
	ok(s[8].ci_low > s[8].comparison,
	   "figure 11: H's interval clears its comparison on its own");
}

static void
test_edges(void)
{
	struct sp_node_stat one[1] = { { .trials = 30, .bad = 10 } };
	struct sp_node_stat none[3] = { { .trials = 30 }, { .trials = 20 },
					{ .trials = 40 } };
	struct sp_node_stat all[2] = { { .trials = 30, .bad = 30 },
				       { .trials = 20, .bad = 20 } };

	is_int(0, (long long)sp_node_judge(one, 1),
	       "a node alone is not tested");
	is_int(SP_HOLD_ALONE, one[0].hold, "... and says it had no company");
	ok(isnan(one[0].comparison), "... and has no comparison");

	is_int(3, (long long)sp_node_judge(none, 3),
	       "no bad placements: every node still tested");
	for (int i = 0; i < 3; i++)
		ok(none[i].verdict == SP_VERDICT_INCONCLUSIVE &&
		   none[i].p == 1.0,
		   "no bad placements: node %d inconclusive, p = 1", i);
	sp_node_judge(all, 2);
	ok(all[0].verdict == SP_VERDICT_INCONCLUSIVE && all[0].p == 1.0 &&
	   all[1].verdict == SP_VERDICT_INCONCLUSIVE,
	   "every placement bad: nothing to tell apart");
	is_int(0, (long long)sp_node_judge(NULL, 0), "an empty table");
}

/* ------------------------------------------------------- simulations */

/* splitmix64: a fixed seed is a fixed table on every platform. */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
uniform(uint64_t *state)
{
	return (double)(next_random(state) >> 11) * (1.0 / 9007199254740992.0);
}

static void
fill(struct sp_node_stat *s, size_t n, long trials, long spread,
     const double *rate, uint64_t *state)
{
	memset(s, 0, n * sizeof *s);
	for (size_t i = 0; i < n; i++) {
		s[i].trials = trials + (spread ? (long)(next_random(state) %
							(uint64_t)spread) : 0);
		for (long k = 0; k < s[i].trials; k++)
			s[i].bad += uniform(state) < rate[i];
	}
}

static void
test_innocent_fleets(void)
{
	enum { TABLES = 400 };
	static const size_t sizes[] = { 20, 40 };
	static const double rates[] = { 0.05, 0.2, 0.5 };
	struct sp_node_stat s[40];
	double rate[40];

	for (size_t z = 0; z < 2; z++) {
		for (size_t r = 0; r < 3; r++) {
			size_t n = sizes[z], accused = 0;
			uint64_t state = 1000 * z + r + 1;

			for (size_t i = 0; i < n; i++)
				rate[i] = rates[r];
			for (int k = 0; k < TABLES; k++) {
				int any = 0;

				fill(s, n, 10, 60, rate, &state);
				sp_node_judge(s, n);
				for (size_t i = 0; i < n; i++)
					any |= s[i].verdict ==
					       SP_VERDICT_WORSE;
				accused += any;
			}
			ok(accused * 10 < TABLES, "%zu nodes at %.0f%%: an "
			   "innocent node called worse in %zu of %d tables",
			   n, rates[r] * 100, accused, TABLES);
		}
	}
}

static void
test_one_guilty_node(void)
{
	enum { TABLES = 200, N = 41, GUILTY = 17 };
	struct sp_node_stat s[N];
	double rate[N];
	int found = 0, exact = 0;
	uint64_t state = 55;

	for (int i = 0; i < N; i++)
		rate[i] = i == GUILTY ? 0.55 : 0.20;
	for (int k = 0; k < TABLES; k++) {
		int only = 1;

		fill(s, N, 100, 0, rate, &state);
		sp_node_judge(s, N);
		for (int i = 0; i < N; i++)
			if ((s[i].verdict == SP_VERDICT_WORSE) != (i == GUILTY))
				only = 0;
		found += s[GUILTY].verdict == SP_VERDICT_WORSE;
		exact += only;
	}
	is_int(TABLES, found, "one node at 55%% among 40 at 20%%: found in "
	       "every table");
	ok(exact * 100 >= TABLES * 95, "... and it alone in %d of %d tables",
	   exact, TABLES);
}

/* ------------------------------------------------- from job records */

static const char header[] =
	"jobid\tuser\tpartition\tname\tworkload\tworkload_key\tstep\tstate\t"
	"open\telapsed_s\ttotal_cpu_s\talloc_gpus\tread_b\tnodelist\n";

typedef void (*each_fn)(void *ctx, const struct sp_job *j);

/* Feeds every record of header + body to fn. */
static void
feed(const char *hdr, const char *body, each_fn fn, void *ctx)
{
	struct sp_buf text = { 0 };
	struct sp_reader r;
	struct sp_jobcols c;
	struct sp_job j;
	FILE *fp;

	sp_buf_adds(&text, hdr);
	sp_buf_adds(&text, body);
	fp = fmemopen(text.p, text.len, "r");
	if (sp_reader_open_stream(&r, fp, "jobs") < 0)
		sp_die(2, "%s", sp_buf_str(&r.err));
	sp_jobcols_resolve(&c, &r);
	while (sp_next_or_die(&r)) {
		sp_job_parse(&j, &c, &r);
		fn(ctx, &j);
	}
	sp_reader_close(&r);
	fclose(fp);
	sp_buf_free(&text);
}

static void
add_to_nodes(void *ctx, const struct sp_job *j)
{
	sp_nodes_add(ctx, j);
}

static void
add_to_history(void *ctx, const struct sp_job *j)
{
	sp_node_history_add(ctx, j);
}

/* Appends one record of the header above. */
static void
job(struct sp_buf *b, const char *name, const char *key, const char *state,
    double elapsed, double cpu, const char *nodes)
{
	sp_buf_printf(b, "1\talice\tgpu\t%s\t%s\t%s\t\t%s\t0\t%g\t%g\t1\t\t%s\n",
		      name, key[0] ? "w" : "", key, state, elapsed, cpu, nodes);
}

static const struct sp_node_row *
row(const struct sp_node_table *tab, const char *node)
{
	for (size_t i = 0; i < tab->nrows; i++)
		if (strcmp(tab->rows[i].node, node) == 0)
			return &tab->rows[i];
	return NULL;
}

static void
test_placements(void)
{
	struct sp_buf b = { 0 };
	struct sp_nodes *t = sp_nodes_new(SP_METRIC_HANG);
	struct sp_node_table tab;
	const struct sp_node_row *x;

	job(&b, "w1", "k", "TIMEOUT", 1800, 0.5, "n[1-2]");
	job(&b, "w1", "k", "CANCELLED", 1800, 0.5, "n1,n1");	/* once */
	job(&b, "w1", "k", "OUT_OF_MEMORY", 1800, 0.5, "n2");
	job(&b, "w1", "k", "COMPLETED", 1800, 1500, "n3");
	job(&b, "w1", "k", "COMPLETED", 1800, 1500, "None assigned");
	job(&b, "w1", "k", "COMPLETED", 1800, 1500, "");
	sp_buf_adds(&b, "1\talice\tgpu\tw1\tw\tk\tbatch\tCOMPLETED\t0\t1800\t"
		    "0\t1\t\tn9\n");			/* a step: no */
	sp_buf_adds(&b, "1\talice\tgpu\tw1\tw\tk\t\tRUNNING\t1\t1800\t0\t1\t"
		    "\tn9\n");				/* open: no */
	/* 100 GiB read in 10 minutes: idle CPU, but not a hang */
	sp_buf_adds(&b, "1\talice\tgpu\tw1\tw\tk\t\tCOMPLETED\t0\t600\t1\t1\t"
		    "107374182400\tn3\n");
	job(&b, "other", "k2", "TIMEOUT", 1800, 0.5, "n1");
	feed(header, b.p, add_to_nodes, t);

	is_int(8, sp_nodes_usable(t), "placements: 8 usable records");
	is_int(2, (long long)sp_nodes_nworkloads(t), "placements: 2 workloads");
	is_int(0, sp_nodes_dominant(t), "placements: k has the most hangs");
	is_int(1, sp_nodes_find(t, "k2", 2), "placements: find k2");
	is_int(-1, sp_nodes_find(t, "k3", 2), "placements: no k3");
	sp_nodes_table(t, 0, &tab);
	is_int(3, (long long)tab.nrows, "placements: 3 nodes in workload k");
	is_int(5, tab.runs, "placements: 5 runs with a node");
	is_int(2, tab.bad_runs, "placements: 2 hung (OOM says why)");
	is_int(6, tab.trials, "placements: 6 placements");
	x = row(&tab, "n1");
	ok(x && x->s.trials == 2 && x->s.bad == 2,
	   "placements: n1 twice, a repeated name counted once");
	x = row(&tab, "n2");
	ok(x && x->s.trials == 2 && x->s.bad == 1,
	   "placements: the OOM-killed run is no hang, its state says why");
	x = row(&tab, "n3");
	ok(x && x->s.trials == 2 && x->s.bad == 0,
	   "placements: the data mover is a good placement");
	is_double(0.0, x ? x->bad_gpu_h : NAN, 0,
		  "placements: no bad placement held nothing");
	x = row(&tab, "n1");
	is_double(0.25 + 0.5, x ? x->bad_gpu_h : NAN, 1e-12,
		  "placements: a two-node hang's GPU-hours are shared");
	ok(row(&tab, "n9") == NULL, "placements: steps and open records none");
	is_int(3, (long long)tab.untested, "placements: all three thin");
	sp_node_table_free(&tab);

	sp_nodes_table(t, -1, &tab);
	x = row(&tab, "n1");
	ok(x && x->s.trials == 3 && x->s.bad == 3,
	   "pooled: n1 sums both workloads");
	is_int(0, tab.unjudged_runs, "pooled: every run had its CPU time");
	is_int(6, tab.runs, "pooled: 6 runs");
	sp_node_table_free(&tab);
	sp_nodes_free(t);

	/* The failure metric leaves out what says nothing of the node. */
	t = sp_nodes_new(SP_METRIC_FAILURE);
	feed(header, b.p, add_to_nodes, t);
	sp_nodes_table(t, 0, &tab);
	is_int(3, tab.runs, "failure: cancelled and OOM leave");
	x = row(&tab, "n1");
	ok(x && x->s.trials == 1 && x->s.bad == 1,
	   "failure: n1 keeps only the timeout");
	x = row(&tab, "n2");
	ok(x && x->s.trials == 1 && x->s.bad == 1,
	   "failure: n2 keeps only the timeout");
	x = row(&tab, "n3");
	ok(x && x->s.trials == 2 && x->s.bad == 0, "failure: n3 completed");
	sp_node_table_free(&tab);
	sp_nodes_free(t);
	sp_buf_free(&b);
}

/* Runs without total_cpu_s: placed, shown, in no count of the test. */
static void
test_unjudged(void)
{
	struct sp_buf b = { 0 };
	struct sp_nodes *t = sp_nodes_new(SP_METRIC_HANG);
	struct sp_node_table tab;
	const struct sp_node_row *x;

	for (int i = 0; i < 12; i++)
		sp_buf_adds(&b, "1\talice\tgpu\tw\tw\tk\t\tCOMPLETED\t0\t"
			    "1800\t\t1\t\tn1\n");
	sp_buf_adds(&b, "1\talice\tgpu\tw\tw\tk\t\tCOMPLETED\t0\t1800\t"
		    "\t1\t\tn2\n");
	/* NODE_FAIL answers the question without CPU time: not a hang. */
	sp_buf_adds(&b, "1\talice\tgpu\tw\tw\tk\t\tNODE_FAIL\t0\t1800\t"
		    "\t1\t\tn2\n");
	/* Five minutes or less answers it too. */
	sp_buf_adds(&b, "1\talice\tgpu\tw\tw\tk\t\tCOMPLETED\t0\t200\t"
		    "\t1\t\tn2\n");
	feed(header, b.p, add_to_nodes, t);
	sp_nodes_table(t, 0, &tab);
	is_int(2, (long long)tab.nrows, "unjudged: both nodes shown");
	is_int(13, tab.unjudged_runs, "unjudged: 13 runs without CPU time");
	is_int(13, tab.unjudged, "unjudged: 13 placements");
	is_int(2, tab.runs, "unjudged: 2 runs judged");
	is_int(0, tab.bad_runs, "unjudged: none of them a hang");
	is_int(2, tab.trials, "unjudged: 2 placements in the test");
	x = row(&tab, "n1");
	ok(x && x->s.trials == 0 && x->s.bad == 0 && x->unjudged == 12,
	   "unjudged: n1 has 12 placements, none judged");
	ok(x && isnan(x->s.rate), "unjudged: n1 has no rate, not 0%%");
	is_string("untested", x ? sp_node_verdict_name(x->s.verdict) : "",
		  "unjudged: n1 untested, not inconclusive");
	x = row(&tab, "n2");
	ok(x && x->s.trials == 2 && x->unjudged == 1,
	   "unjudged: n2 judged twice, once not");
	ok(tab.nrows == 2 && strcmp(tab.rows[1].node, "n1") == 0,
	   "unjudged: the row without a rate goes last");
	sp_node_table_free(&tab);
	sp_nodes_free(t);
	sp_buf_free(&b);
}

static void
test_dominant(void)
{
	struct sp_buf b = { 0 };
	struct sp_nodes *t = sp_nodes_new(SP_METRIC_HANG);

	job(&b, "a", "ka", "TIMEOUT", 1800, 0.5, "n1");
	job(&b, "b", "kb", "TIMEOUT", 1800, 0.5, "n1");
	job(&b, "b", "kb", "COMPLETED", 1800, 900, "n1");
	job(&b, "c", "kc", "TIMEOUT", 1800, 0.5, "n1");
	job(&b, "c", "kc", "COMPLETED", 1800, 900, "n1");
	feed(header, b.p, add_to_nodes, t);
	is_string("kb", sp_nodes_workload(t, (size_t)sp_nodes_dominant(t))->key,
		  "dominant: a tie in hangs goes to more runs, then the key");
	sp_nodes_free(t);

	t = sp_nodes_new(SP_METRIC_HANG);
	is_int(-1, sp_nodes_dominant(t), "dominant: none in an empty table");
	sp_nodes_free(t);
	sp_buf_free(&b);
}

static void
test_fold_without_group(void)
{
	static const char hdr[] = "user\tpartition\tname\tstate\telapsed_s\t"
		"total_cpu_s\talloc_gpus\tnodelist\n";
	struct sp_nodes *t = sp_nodes_new(SP_METRIC_HANG);
	const struct sp_nodes_workload *w;

	feed(hdr, "bob\tgpu\trun17\tTIMEOUT\t1800\t0\t2\tg1\n"
	     "bob\tgpu\trun18\tTIMEOUT\t1800\t0\t2\tg1\n", add_to_nodes, t);
	is_int(1, (long long)sp_nodes_nworkloads(t),
	       "no workload_key: run17 and run18 fold together");
	w = sp_nodes_workload(t, 0);
	is_string("bob/gpu/gpu/run#", w->key, "no workload_key: folded key");
	is_string("run#", w->workload, "no workload_key: folded name");
	is_int(2, w->trials, "no workload_key: 2 placements");
	sp_nodes_free(t);
}

/* ------------------------------------------------- the per-job note */

static const char note_header[] =
	"jobid\tuser\tpartition\tname\tworkload\tworkload_key\tstate\t"
	"elapsed_s\ttotal_cpu_s\talloc_gpus\tnodelist\n";

static void
history_jobs(struct sp_buf *b, int bad_on_n1, int good_on_n1, int good_n2)
{
	for (int i = 0; i < bad_on_n1; i++)
		sp_buf_adds(b, "1\tal\tgpu\tft\tft\tal/gpu/gpu/ft\tFAILED\t600\t"
			    "500\t1\tn1\n");
	for (int i = 0; i < good_on_n1; i++)
		sp_buf_adds(b, "1\tal\tgpu\tft\tft\tal/gpu/gpu/ft\tCOMPLETED\t"
			    "600\t500\t1\tn1\n");
	for (int i = 0; i < good_n2; i++)
		sp_buf_adds(b, "1\tal\tgpu\tft\tft\tal/gpu/gpu/ft\tCOMPLETED\t"
			    "600\t500\t1\tn2\n");
}

/* The note for one record (the first of body). */
struct probe {
	struct sp_node_history *h;
	struct sp_buf note;
	int rc;
};

static void
note_for(void *ctx, const struct sp_job *j)
{
	struct probe *p = ctx;

	sp_buf_clear(&p->note);
	p->rc = sp_node_history_note(p->h, j, &p->note);
}

static void
test_note(void)
{
	struct sp_buf b = { 0 };
	struct probe p = { 0 };

	/* 10 of 10 failed on n1, none of 10 on n2: 20 records is not enough */
	p.h = sp_node_history_new();
	history_jobs(&b, 10, 0, 10);
	feed(note_header, b.p, add_to_history, p.h);
	feed(note_header, "9\tal\tgpu\tft\tft\tal/gpu/gpu/ft\tFAILED\t600\t"
	     "500\t1\tn1\n", note_for, &p);
	is_int(0, p.rc, "note: silent with 20 records");

	/* the 21st record: now the history speaks */
	sp_buf_clear(&b);
	history_jobs(&b, 0, 0, 1);
	feed(note_header, b.p, add_to_history, p.h);
	feed(note_header, "9\tal\tgpu\tft\tft\tal/gpu/gpu/ft\tFAILED\t600\t"
	     "500\t1\tn[0-1]\n", note_for, &p);
	is_int(1, p.rc, "note: 21 records, n1 is worse");
	is_string("n1 failed 10 of 10 placements there (100.0%, 95% CI "
		  "72.2% to 100.0%) against 0.0% over 11 placements on every other "
		  "node for ft", sp_buf_str(&p.note), "note: the sentence");

	feed(note_header, "9\tal\tgpu\tft\tft\tal/gpu/gpu/ft\tCOMPLETED\t"
	     "600\t500\t1\tn2\n", note_for, &p);
	is_int(0, p.rc, "note: nothing to say of a job on n2");
	feed(note_header, "9\tal\tgpu\tother\tother\tal/gpu/gpu/other\t"
	     "FAILED\t600\t500\t1\tn1\n", note_for, &p);
	is_int(0, p.rc, "note: n1 is only worse for its own workload");
	/* no workload_key: the note folds the name as sp-group would */
	feed("user\tpartition\tname\tstate\telapsed_s\ttotal_cpu_s\t"
	     "alloc_gpus\tnodelist\n", "al\tgpu\tft\tFAILED\t600\t500\t1\t"
	     "n1\n", note_for, &p);
	is_int(1, p.rc, "note: a record without workload_key is folded");
	sp_node_history_free(p.h);
	sp_buf_free(&p.note);
	sp_buf_free(&b);
}

int
main(void)
{
	plan_lazy();
	test_cot_exp();
	test_figure11();
	test_edges();
	test_innocent_fleets();
	test_one_guilty_node();
	test_placements();
	test_unjudged();
	test_dominant();
	test_fold_without_group();
	test_note();
	return done_testing();
}
