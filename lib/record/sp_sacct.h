/*
 * sp_sacct.h - sacct's --parsable2 text read right, as job records.
 *
 * The parser is pushed bytes (any chunking) and calls back once per job
 * record: one per allocation attempt, each folded from its allocation
 * row and its step rows (reference-rules.md 1.4), optionally followed by
 * one record per step.  It never exits and never prints: problems with
 * the input are counted in struct sp_sacct_stats, and the few that stop
 * reading (no header) come back as -1 with a message in p->err.
 *
 * Memory holds one allocation group at a time: the adjacent rows of one
 * job id and identity (its requeue attempts under sacct -D, and their
 * steps).  A group is written when the next job's first row arrives.
 * sacct -D orders by submit time, so a requeued job's next attempt may
 * come much later: a job whose last attempt ended in a state Slurm
 * requeues from (REQUEUED, NODE_FAIL, PREEMPTED ...) is remembered, by
 * id and identity, until its next attempt arrives.
 */
#ifndef SP_SACCT_H
#define SP_SACCT_H

#include <stddef.h>
#include "sp_util.h"
#include "sp_record.h"
#include "sp_job.h"
#include "sp_intern.h"

/* The sacct fields slurmpast reads, in the order it asks for them. */
#define SP_SACCT_FIELDS(X) \
	X(JOBID, "JobID", 1) X(JOBIDRAW, "JobIDRaw", 0) \
	X(JOBNAME, "JobName", 1) X(USER, "User", 1) X(UID, "UID", 0) \
	X(ACCOUNT, "Account", 1) X(CLUSTER, "Cluster", 0) \
	X(PARTITION, "Partition", 1) X(QOS, "QOS", 0) \
	X(STATE, "State", 1) X(EXITCODE, "ExitCode", 1) \
	X(DERIVEDEXITCODE, "DerivedExitCode", 0) X(REASON, "Reason", 0) \
	X(FLAGS, "Flags", 0) \
	X(SUBMIT, "Submit", 1) X(ELIGIBLE, "Eligible", 1) \
	X(START, "Start", 1) X(END, "End", 1) X(ELAPSED, "Elapsed", 1) \
	X(ELAPSEDRAW, "ElapsedRaw", 0) X(TIMELIMIT, "Timelimit", 1) \
	X(TIMELIMITRAW, "TimelimitRaw", 0) X(PLANNED, "Planned", 0) \
	X(REQMEM, "ReqMem", 1) X(REQCPUS, "ReqCPUS", 1) \
	X(REQTRES, "ReqTRES", 1) X(CONSTRAINTS, "Constraints", 0) \
	X(ALLOCTRES, "AllocTRES", 1) X(ALLOCCPUS, "AllocCPUS", 0) \
	X(ALLOCNODES, "AllocNodes", 0) X(NCPUS, "NCPUS", 1) \
	X(NNODES, "NNodes", 1) X(NTASKS, "NTasks", 0) \
	X(NODELIST, "NodeList", 1) \
	X(TOTALCPU, "TotalCPU", 1) X(USERCPU, "UserCPU", 0) \
	X(SYSTEMCPU, "SystemCPU", 0) X(CPUTIME, "CPUTime", 1) \
	X(CPUTIMERAW, "CPUTimeRAW", 0) X(AVECPU, "AveCPU", 0) \
	X(MINCPU, "MinCPU", 0) X(MINCPUNODE, "MinCPUNode", 0) \
	X(MINCPUTASK, "MinCPUTask", 0) X(AVECPUFREQ, "AveCPUFreq", 0) \
	X(MAXRSS, "MaxRSS", 1) X(MAXRSSNODE, "MaxRSSNode", 0) \
	X(AVERSS, "AveRSS", 0) X(MAXVMSIZE, "MaxVMSize", 0) \
	X(MAXPAGES, "MaxPages", 0) \
	X(MAXDISKREAD, "MaxDiskRead", 0) X(MAXDISKWRITE, "MaxDiskWrite", 0) \
	X(TRESUSAGEINTOT, "TRESUsageInTot", 0) \
	X(TRESUSAGEOUTTOT, "TRESUsageOutTot", 0) \
	X(TRESUSAGEINMAX, "TRESUsageInMax", 0) \
	X(TRESUSAGEINAVE, "TRESUsageInAve", 0) \
	X(CONSUMEDENERGYRAW, "ConsumedEnergyRaw", 0) \
	X(REQGRES, "ReqGRES", 0) X(ALLOCGRES, "AllocGRES", 0) \
	X(WORKDIR, "WorkDir", 0) X(COMMENT, "Comment", 0) \
	X(STDOUT, "StdOut", 0) X(STDERR, "StdErr", 0) \
	X(SUBMITLINE, "SubmitLine", 0)

enum sp_sf {
#define SP_X(id, name, mandatory) SP_SF_##id,
	SP_SACCT_FIELDS(SP_X)
#undef SP_X
	SP_SF_CONSUMEDENERGY,	/* read from dumps, never asked for */
	SP_SF_COUNT
};

/*
 * A sacct field name (case-insensitive; "Reserved" is Planned's older
 * spelling) to its sp_sf, or -1 for a field slurmpast does not read.
 */
int sp_sacct_field_id(const char *name, size_t n);

/*
 * The --format value for a site, from its "sacct --helpformat" text
 * (NULL when the probe failed: every field under its primary spelling).
 * Optional fields the site lacks are left out; Planned is asked for as
 * Reserved where the site still spells it so.  Returns 0, or -1 with
 * "this sacct has no field 'MaxRSS', which slurmpast needs" in err.
 */
int sp_sacct_format(const char *helpformat, size_t n, struct sp_buf *format,
		    struct sp_buf *err);

/* Job-record columns, as indices (SP_JC_jobid ...). */
enum sp_jc {
#define SP_X(name, kind) SP_JC_##name,
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
	SP_JC_COUNT
};

/* 1 for a number column (written with sp_writer_num), 0 for text. */
int sp_sacct_col_is_num(int jc);

/*
 * One record.  Text columns are raw (unescaped) slices, valid during the
 * callback; number columns are NaN when unknown.
 */
struct sp_sacct_rec {
	struct sp_slice text[SP_JC_COUNT];
	double num[SP_JC_COUNT];
	unsigned cpu_from;	/* SP_CPU_FROM_* bits: where CPU time was
				   read when TotalCPU had none */
	int mem_update;		/* it asked --mem-update: its memory
				   limits written unknown */
};

/*
 * CPU time is TotalCPU's; where that is 0 or empty and another of
 * Slurm's figures is not, it is read from that one (sp-fetch(1),
 * "Folding the steps"), and the record says so.
 */
#define SP_CPU_FROM_USERSYS	1u	/* UserCPU + SystemCPU */
#define SP_CPU_FROM_TRES	2u	/* TRESUsageInTot's cpu= (Slurm 25.05
					   wrote 0 in the others for steps) */

typedef void (*sp_sacct_emit_fn)(void *ctx, const struct sp_sacct_rec *rec);

/*
 * What a group's attempt numbers rest on, for a reader of one part of the
 * input (sp-fetch reads a file in parts at once, and renumbers a requeued
 * job whose earlier attempts were in an earlier part).  Slices are valid
 * during the callback.
 */
struct sp_sacct_group {
	struct sp_slice id;		/* the JobID of its first row */
	struct sp_slice ident;		/* "cluster\x1fuid\x1fuser" of it */
	size_t base;			/* earlier attempts this reader knew */
	size_t attempts;		/* its allocation rows */
	int remembers;			/* its last row was read (not dropped) */
	int requeues;			/* its last attempt may have another */
	struct sp_slice last_ident;	/* the identity of that last row */
};

typedef void (*sp_sacct_group_fn)(void *ctx, const struct sp_sacct_group *g);

/*
 * What the parser met.  Nothing is dropped or read with a gap without
 * being counted here (sp-fetch --stats writes these counts).
 */
struct sp_sacct_stats {
	unsigned long rows;		/* logical rows read (reassembled) */
	unsigned long continued;	/* physical lines joined to a row */
	unsigned long allocations;	/* allocation records written */
	unsigned long steps;		/* step rows folded */
	unsigned long short_rows;	/* rows short of trailing fields: read,
					   those fields unknown */
	unsigned long short_fewest;	/* ... the fewest fields one had */
	unsigned long short_most;	/* ... and the most */
	unsigned long rejoined;		/* rows the delimiter inside one free-
					   text value split too far, rejoined */
	unsigned long shifted;		/* rows with more fields than named
					   that no single text field explains:
					   dropped */
	unsigned long nul_rows;		/* rows holding a NUL byte: dropped */
	unsigned long lost_steps;	/* dropped rows that were steps */
	unsigned long partial;		/* records one of whose steps was
					   dropped: step figures from the
					   allocation row alone */
	unsigned long damaged;		/* attempts left out: their allocation
					   row was dropped */
	unsigned long orphans;		/* steps whose allocation row is absent */
	unsigned long stray;		/* lines before the first record */
	unsigned long headers;		/* header lines skipped */
	unsigned long unknown_states;	/* records in a state slurmpast does
					   not know (written as printed) */
	unsigned long cpu_usersys;	/* records whose CPU time is UserCPU +
					   SystemCPU, TotalCPU having none */
	unsigned long cpu_tres;		/* ... TRESUsageInTot's cpu=, the
					   other two having none */
	unsigned long mem_update;	/* records that asked --mem-update:
					   memory limits unknown */
};

#define SP_SACCT_DETECT	0	/* delimiter from the first line */
#define SP_SACCT_CSV	(-1)	/* a CSV export (libcsv) */

struct sp_sacct_config {
	int delim;		/* '|', 0x1f, SP_SACCT_DETECT or SP_SACCT_CSV */
	const char *fields;	/* "JobID,State,...", NULL: a header line */
	int steps;		/* also a record per step */
	sp_sacct_emit_fn emit;
	sp_sacct_group_fn group;	/* NULL, or before each group's records */
	void *ctx;
};

/* A field's place in a row: offset into the group's text, and length. */
struct sp_sacct_span {
	size_t off;
	size_t len;
};

struct sp_sacct_row;

struct sp_sacct_requeued {
	size_t attempts;	/* attempts seen so far; 0: none expected */
	size_t ident;		/* number in req_idents */
};

struct sp_sacct {
	struct sp_sacct_config cfg;
	int delim;
	int started;		/* the first line was seen */
	int have_cols;
	int *colmap;		/* input position -> sp_sf, or -1 */
	unsigned char *colkind;	/* input position -> enum sp_sacct_kind */
	unsigned long *rejoined_at;	/* input position -> rows rejoined there */
	struct sp_buf colnames;	/* the names, each ended by a NUL */
	size_t *nameoff;	/* input position -> its name in colnames */
	size_t ncols, colcap, kindcap, rejcap, namecap;
	int jobid_pos;		/* input position of JobID */
	int have[SP_SF_COUNT];	/* the input has this field */
	int sfpos[SP_SF_COUNT];	/* sp_sf -> input position, or -1 */
	/* The fields the input has, as (sp_sf, input position), the last
	 * position among them, and the fields it has not: what a row is
	 * viewed through. */
	int named_sf[SP_SF_COUNT], named_pos[SP_SF_COUNT];
	int unnamed_sf[SP_SF_COUNT];
	int nnamed, nunnamed;
	size_t named_last;
	/* The same for the fields a step is read for (sp_sacct_measured). */
	int step_sf[SP_SF_COUNT], step_pos[SP_SF_COUNT];
	int nstep;
	size_t step_last;

	/* physical lines */
	struct sp_buf partial;	/* a line cut by the end of a chunk */
	int pending;		/* a row is open at the arena's tail */
	size_t row_start;
	unsigned long held_blank;

	/* CSV */
	void *csv;
	int csv_row_open;

	/* the current row's fields by position */
	struct sp_sacct_span *pos;
	size_t npos, poscap;
	int row_nul;		/* the row holds a NUL byte */

	/* the allocation group */
	struct sp_buf arena;
	struct sp_sacct_row *rows;
	size_t nrows, rowcap;
	struct sp_sacct_span *rowspans;	/* the rows' fields, as read */
	size_t nrowspans, rowspancap;

	/* jobs that may have another attempt to come (see above) */
	struct sp_intern req_ids;	/* job id -> slot */
	struct sp_intern req_idents;	/* "cluster\x1fuid\x1fuser" */
	struct sp_sacct_requeued *req;	/* per slot */
	size_t reqcap;

	struct sp_intern odd_states;	/* the states of st.unknown_states */

	struct sp_sacct_rec rec;
	struct sp_sacct_stats st;
	struct sp_buf err;
	int failed;
};

void sp_sacct_init(struct sp_sacct *p, const struct sp_sacct_config *cfg);
/* Pushes bytes.  0, or -1 with the reason in p->err (input unusable). */
int sp_sacct_feed(struct sp_sacct *p, const char *buf, size_t n);
/* The input is complete: the last rows are folded and written. */
int sp_sacct_finish(struct sp_sacct *p);
/*
 * The input was cut short (sacct died): the group in progress, which may
 * lack rows, is dropped unwritten.
 */
void sp_sacct_abandon(struct sp_sacct *p);
void sp_sacct_free(struct sp_sacct *p);

/*
 * Whether a physical line starts a record, by the record-start rule (its
 * JobID field starts with a digit and holds no white space), once the
 * columns are known; *id is its JobID.  For finding where a file may be
 * cut between jobs.
 */
int sp_sacct_line_starts(const struct sp_sacct *p, const char *s, size_t n,
			 struct sp_slice *id);

/* The name of the field at input position pos, as the header gave it. */
const char *sp_sacct_column_name(const struct sp_sacct *p, size_t pos);
/* 1 when slurmpast knows the state (COMPLETED, OUT_OF_MEMORY ...). */
int sp_sacct_state_known(struct sp_slice state);

/* Parts exposed for tests. */
/* "OUT_OF_ME+" -> OUT_OF_MEMORY, "CANCELLED by 12" -> CANCELLED and 12. */
void sp_sacct_state(struct sp_slice raw, struct sp_slice *state,
		    struct sp_slice *by);
/* GPUs held from TRES and GRES text; NaN when none of them says. */
double sp_sacct_gpus(struct sp_slice alloc_tres, struct sp_slice req_tres,
		     struct sp_slice alloc_gres, struct sp_slice req_gres);
/* AveCPUFreq to Hz, NaN when no reading is plausible. */
double sp_sacct_cpu_freq(struct sp_slice s);
/*
 * A -j list as sacct takes it: an unexpanded array 12_[1-3%2] is asked
 * for as 12 (its tasks come back), repeats removed.
 */
void sp_sacct_jobs_arg(const char *ids, struct sp_buf *out);

#endif
