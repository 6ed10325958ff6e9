/*
 * sp_site.h - facts about the site a stage needs and sacct does not carry:
 * how memory and CPU are gathered (scontrol show config) and the largest
 * node of a partition (sinfo).  When they cannot be had -- a saved dump
 * analysed elsewhere -- they stay unknown and the caveat says so.
 */
#ifndef SP_SITE_H
#define SP_SITE_H

enum sp_gather { SP_GATHER_UNKNOWN, SP_GATHER_LINUX, SP_GATHER_CGROUP,
		 SP_GATHER_NONE };

struct sp_site {
	int known;		/* scontrol answered */
	enum sp_gather gather;	/* JobAcctGatherType */
	double gather_freq_s;	/* JobAcctGatherFrequency task=, NaN unknown */
	int gpuutil_tracked;	/* gres/gpuutil in AccountingStorageTRES */
	char *version;		/* SLURM_VERSION, NULL unknown */
};

/*
 * Asks scontrol once (execvp, bounded in time).  Never fails: an absent
 * or silent scontrol leaves everything unknown.  SLURMPAST_NO_SITE=1 (tests,
 * dumps analysed off-cluster) skips the query.
 */
void sp_site_load(struct sp_site *s);
void sp_site_free(struct sp_site *s);

/*
 * The largest node of a partition from sinfo: cores and memory in bytes.
 * Returns 1 when known, 0 otherwise (no sinfo, no such partition).
 */
int sp_site_partition_ceiling(const char *partition, double *cores,
			      double *mem_b);

#endif
