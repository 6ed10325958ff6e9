/*
 * sp_site.h - facts about the site a stage needs and sacct does not carry:
 * how memory and CPU are gathered (scontrol show config) and the largest
 * node of each partition (sinfo).  When they cannot be had -- a saved dump
 * analysed elsewhere, a controller that does not answer -- they stay
 * unknown and the caveat says so.
 *
 * They are asked once per run: both commands at once, under one deadline
 * (SLURMPAST_TIMEOUT, at most SP_SITE_TIMEOUT_S), and kept in a small file
 * every stage of the run reads (SLURMPAST_SITE), so a report with a dead
 * controller waits one deadline, not one per stage and query.
 */
#ifndef SP_SITE_H
#define SP_SITE_H

#include <stddef.h>
#include "sp_util.h"

enum sp_gather { SP_GATHER_UNKNOWN, SP_GATHER_LINUX, SP_GATHER_CGROUP,
		 SP_GATHER_NONE };

/* A partition's largest node. */
struct sp_site_part {
	char *name;
	double cores;		/* NaN unknown */
	double mem_b;		/* NaN unknown */
};

struct sp_site {
	int known;		/* scontrol answered */
	enum sp_gather gather;	/* JobAcctGatherType */
	double gather_freq_s;	/* JobAcctGatherFrequency task=, NaN unknown */
	int gpuutil_tracked;	/* gres/gpuutil in AccountingStorageTRES */
	char *version;		/* SLURM_VERSION, NULL unknown */
	int parts_known;	/* sinfo answered */
	struct sp_site_part *parts;
	size_t nparts, partcap;
	char *cluster;		/* the cluster asked (-M), NULL: this one */
	/* Which facts were not had, and why, when this process asked:
	 * "the gather type (scontrol: no answer within 15s) and ...". */
	struct sp_buf missing;
};

/*
 * The facts for a stage.  SLURMPAST_NO_SITE=1 asks nothing (tests, dumps
 * analysed off-cluster).  SLURMPAST_SITE=FILE reads FILE when it is there
 * (written by sp-fetch --site, or by an earlier stage); when it is not,
 * asks and writes FILE for the stages after.  Otherwise asks, for this
 * stage alone.  Never fails: what cannot be had stays unknown
 * (s->missing says what, when this call asked for the run).
 */
void sp_site_load(struct sp_site *s);
/* One line on standard error naming the facts not had, if any. */
void sp_site_warn(const struct sp_site *s);
void sp_site_free(struct sp_site *s);

/* Everything unknown, nothing asked. */
void sp_site_unknown(struct sp_site *s);
/*
 * Asks scontrol show config and sinfo at once, each bounded by
 * timeout_s; cluster (NULL: this one) is passed as -M.
 */
void sp_site_ask(struct sp_site *s, const char *cluster, double timeout_s);
/* The deadline for asking: SLURMPAST_TIMEOUT, at most SP_SITE_TIMEOUT_S. */
double sp_site_timeout(void);

/*
 * The facts as a small text file, written whole under a temporary name
 * and renamed into place (readers never see half of one).  Returns 0, or
 * -1 with the reason in err.
 */
int sp_site_write(const struct sp_site *s, const char *path,
		  struct sp_buf *err);
/* Reads such a file: 0, or -1 with the reason in err (s all unknown). */
int sp_site_read(struct sp_site *s, const char *path, struct sp_buf *err);

/*
 * The largest node of the partition named by the n bytes at partition:
 * cores and memory in bytes.  Returns 1 when sinfo named the partition,
 * 0 otherwise (cores, mem_b NaN).
 */
int sp_site_partition_ceiling(const struct sp_site *s, const char *partition,
			      size_t n, double *cores, double *mem_b);

#endif
