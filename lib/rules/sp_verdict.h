/*
 * sp_verdict.h - one workload's verdict, computed once (design.md "One
 * workload, one verdict"): its findings across runs, its severity (the
 * most severe of them, one scale wherever the word appears) and the
 * advice for every flag, from its whole history.  Every screen renders
 * this record; none recomputes, re-selects or re-words it.  sp-backtest
 * calls the same function over the runs before each one.
 */
#ifndef SP_VERDICT_H
#define SP_VERDICT_H

#include "sp_advice.h"
#include "sp_finding.h"
#include "sp_hist.h"
#include "sp_histset.h"
#include "sp_nodes.h"

struct sp_bt_risks;

/*
 * A workload's severity: SP_SEV_INFO .. SP_SEV_CRITICAL from its findings
 * across runs; SP_WL_OK when it has none; SP_WL_UNKNOWN when it has none
 * but a run's state, or whether a run computed, is not in the record (a
 * rule could not read what might have been a failure or a hang), and
 * below critical wherever the input lacks a column the rules read.
 */
#define SP_WL_OK	(-1)
#define SP_WL_UNKNOWN	(-2)

struct sp_wl_verdict {
	int severity;			/* SP_WL_OK or an sp_severity */
	struct sp_findings findings;	/* across runs, in found order */
	/* The advice of each flag; has[f] 0 where it does not apply
	 * (--gpus for a workload that holds no GPUs). */
	struct sp_advice adv[SP_FLAG_N];
	int has[SP_FLAG_N];
};

/*
 * The verdict of workload h under site into *v, which is zeroed ({ 0 })
 * or holds an earlier verdict (reused); sp_wl_verdict_free when done.
 * With advice 0 only the findings and the severity are made.
 */
void sp_wl_verdict(const struct sp_hist *h, const struct sp_size_site *site,
		   int advice, struct sp_wl_verdict *v);
void sp_wl_verdict_free(struct sp_wl_verdict *v);

/*
 * The --exclude advice of a workload into *a (zeroed, or an earlier
 * answer), as the other flags' advice reads: flag SP_FLAG_EXCLUDE,
 * verdict raise (machines added to the list), the runs the table judged,
 * the line to paste, the nodes (observed) and why; target the number of
 * worse nodes.  tab is the judged table of that workload alone (never a
 * pooled one) under metric m.  Returns 1 when the node rule names
 * machines, else 0 (a is then no advice).
 */
int sp_wl_exclude(const struct sp_node_table *tab, enum sp_node_metric m,
		  struct sp_advice *a);

/*
 * The --exclude advice of workload i of set, from the placements in
 * nodes (every record of set added, the hang metric, as sp-nodes and
 * slurmpast judge machines): none for a workload with no bad placement,
 * no node placed often enough, or runs that cannot be told apart.
 */
int sp_wl_exclude_of(const struct sp_nodes *nodes, struct sp_histset *set,
		     size_t i, struct sp_advice *a);

/*
 * One job's post-mortem carries its workload's verdict (design.md): when
 * the verdict of workload h gives a line to paste (a raise or a lower, or
 * a figure where the runs asked for none), one
 * info finding, workload-advice, naming the workload's severity, each
 * change and why (with what the replay risks measured, when not NULL,
 * as sp-size's risk column), and as its action the same #SBATCH lines
 * the report and sp-size give.  Appended to out; nothing when nothing changes.
 */
void sp_wl_verdict_finding(const struct sp_hist *h,
			   const struct sp_size_site *site,
			   const struct sp_advice *exclude,
			   const struct sp_bt_risks *risks,
			   struct sp_findings *out);

/*
 * Each workload's workload-advice of a set, made once however many of
 * its jobs a post-mortem is drawn for (linear in the jobs shown): the
 * --exclude among its lines when nodes holds every record of set (the
 * hang metric, as sp-size judges machines), none when nodes is NULL.
 */
struct sp_wl_memo {
	struct sp_histset *set;
	const struct sp_nodes *nodes;
	const struct sp_site *site;	/* NULL: unknown */
	struct sp_findings *v;		/* per workload of set, once made */
	unsigned char *made;
	size_t n;
};

/* set, nodes and site outlive m; set is finished (sp_histset_finish). */
void sp_wl_memo_init(struct sp_wl_memo *m, struct sp_histset *set,
		     const struct sp_nodes *nodes, const struct sp_site *site);
/* The workload-advice finding of workload i of the set (none or one). */
const struct sp_findings *sp_wl_memo_get(struct sp_wl_memo *m, size_t i);
void sp_wl_memo_free(struct sp_wl_memo *m);

/* "ok", "info", "warning", "critical": the word on every screen; ""
 * (unknown) for SP_WL_UNKNOWN. */
const char *sp_wl_severity_name(int severity);
/* The rank of a word above (SP_WL_OK for "ok"), -2 for any other. */
int sp_wl_severity_rank(const char *word, size_t n);

/*
 * What the site s (NULL: unknown) and the input's columns (set->missing)
 * tell the rules about workload h of set: the one site every caller
 * gives sp_wl_verdict.
 */
void sp_wl_site(const struct sp_site *s, const struct sp_histset *set,
		const struct sp_hist *h, struct sp_size_site *out);

#endif
