/*
 * sp_nodes.h - which machines fail one workload (design.md, "Hangs and
 * machines"; reference-rules.md 2.5).
 *
 * Every usable job record gives one placement to every node of its
 * expanded NodeList.  Placements are counted per (workload, node), so a
 * node is only ever compared with the same work run elsewhere: a machine
 * that simply ran more of a flaky workload is not thereby worse.  Each
 * node is tested against every other placement of its workload (leave one
 * out) with a doubled one-sided Fisher exact test, Benjamini-Hochberg
 * across every tested row, and the Wilson interval as a second gate.
 */
#ifndef SP_NODES_H
#define SP_NODES_H

#include <stddef.h>
#include "sp_job.h"
#include "sp_util.h"

/* What counts as a bad placement. */
enum sp_node_metric {
	/* A hang (sp_job_hang: computed nothing, and the state does not
	 * say why) and not moving data.  A placement whose run cannot be
	 * judged (sp_job_hang_known: no CPU time recorded) is unjudged:
	 * out of the numerator and the denominator, counted apart. */
	SP_METRIC_HANG,
	/* Failed (sp_job_failed) against COMPLETED; placements whose end
	 * says nothing about the node (CANCELLED, OUT_OF_MEMORY, PREEMPTED,
	 * REQUEUED, a state slurmpast does not know) leave the numerator
	 * and the denominator. */
	SP_METRIC_FAILURE
};

enum sp_node_verdict {
	SP_VERDICT_UNTESTED,	/* too few placements, or nothing to compare */
	SP_VERDICT_INCONCLUSIVE,
	SP_VERDICT_WORSE,
	SP_VERDICT_BETTER
};

/* Why a row is not worse/better although something about it stands out. */
enum sp_node_hold {
	SP_HOLD_NONE,
	SP_HOLD_THIN,		/* untested: under SP_NODES_MIN_TRIALS */
	SP_HOLD_ALONE,		/* untested: no other placement to compare */
	SP_HOLD_CORRECTION,	/* the interval clears the comparison, but
				 * the p does not survive Benjamini-Hochberg */
	SP_HOLD_INTERVAL	/* BH rejects, but the interval still reaches
				 * the comparison */
};

const char *sp_node_verdict_name(enum sp_node_verdict v);
const char *sp_node_metric_name(enum sp_node_metric m);

/*
 * How one record counts under a metric: 1 bad, 0 good, -1 not at all
 * (not usable, no node, or a state the metric leaves out), or
 * SP_NODE_UNJUDGED when the metric cannot tell (hang, no CPU time).
 */
#define SP_NODE_UNJUDGED	(-2)
int sp_node_outcome(const struct sp_job *j, enum sp_node_metric m);

/* One node of one table: counts in, judgement out. */
struct sp_node_stat {
	long trials;
	long bad;
	double rate;		/* bad / trials */
	double ci_low;		/* Wilson 95% */
	double ci_high;
	double comparison;	/* every other placement; NaN if none */
	double p;		/* doubled one-sided Fisher; NaN untested */
	enum sp_node_verdict verdict;
	enum sp_node_hold hold;
};

/*
 * Judges the n nodes of one table together: rates, intervals,
 * leave-one-out comparisons, p, and Benjamini-Hochberg at SP_NODES_FDR
 * across the rows with at least SP_NODES_MIN_TRIALS placements.  The
 * comparison pool is the sum of all n rows.  Returns the rows tested.
 */
size_t sp_node_judge(struct sp_node_stat *s, size_t n);

/* ------------------------------------------------------------ the table */

struct sp_nodes;

struct sp_nodes_workload {
	const char *key;	/* workload_key, in record form */
	char *user;
	const char *workload;
	long runs;		/* records that counted under the metric */
	long bad_runs;
	long unjudged_runs;	/* placed, but the metric cannot tell */
	long trials;		/* placements */
	long bad;
	size_t nnodes;
};

struct sp_node_row {
	const char *node;	/* owned by the struct sp_nodes */
	size_t node_id;
	/* GPU-hours of the bad placements here (a run on several nodes
	 * shares its hours evenly among them); NaN when none is known. */
	double bad_gpu_h;
	long unjudged;		/* placements left out of s: unjudged */
	struct sp_node_stat s;
};

struct sp_node_table {
	struct sp_node_row *rows;	/* tested first, then by rate */
	size_t nrows;
	long runs, bad_runs, trials, bad;
	long unjudged_runs, unjudged;	/* out of every count above */
	size_t tested, untested, worse, better, held_back;
};

struct sp_nodes *sp_nodes_new(enum sp_node_metric m);
enum sp_node_metric sp_nodes_metric(const struct sp_nodes *t);
void sp_nodes_free(struct sp_nodes *t);

/*
 * Adds one record's placements (each node once, however often the list
 * names it).  The workload is workload_key when the record has one, else
 * it is folded from user, partition, GPUs and name as sp-group does.
 * Returns 1 when the record counted, 0 when the metric left it out.
 */
int sp_nodes_add(struct sp_nodes *t, const struct sp_job *j);
/* Records that were usable at all (whatever the metric made of them). */
long sp_nodes_usable(const struct sp_nodes *t);
/* Records whose node list named more than SP_HOSTLIST_MAX nodes (or
 * bytes): only the names that fit were placed. */
long sp_nodes_cut(const struct sp_nodes *t);

size_t sp_nodes_nworkloads(const struct sp_nodes *t);
const struct sp_nodes_workload *sp_nodes_workload(const struct sp_nodes *t,
						  size_t i);
/* The index of a workload_key, or -1. */
long sp_nodes_find(const struct sp_nodes *t, const char *key, size_t n);
/*
 * The workload the table controls for unless told otherwise: the most
 * bad runs, then the most runs (unjudged ones too), then the smallest
 * key.  -1 when empty.
 */
long sp_nodes_dominant(const struct sp_nodes *t);

/*
 * The judged table of one workload (wi >= 0), or of every workload
 * pooled into one (wi = -1: confounded by the mix of work per node).
 */
void sp_nodes_table(const struct sp_nodes *t, long wi,
		    struct sp_node_table *out);
void sp_node_table_free(struct sp_node_table *tab);

/* ------------------------------------------------- the note for sp-show */

struct sp_node_history;

struct sp_node_history *sp_node_history_new(void);
/* Copies what it needs; the job's slices may be gone after the call. */
void sp_node_history_add(struct sp_node_history *h, const struct sp_job *j);
/*
 * 1 and a sentence appended to out when one of the job's nodes is
 * significantly worse than every other node for the job's workload
 * (failure metric), judged over the whole history; 0 otherwise, and
 * always 0 with SP_NODES_NOTE_MIN_HISTORY usable records or fewer.
 */
int sp_node_history_note(struct sp_node_history *h, const struct sp_job *j,
			 struct sp_buf *out);
void sp_node_history_free(struct sp_node_history *h);

#endif
