/*
 * sp_const.h - every threshold of the toolkit, in one place.  They are
 * heuristics calibrated on real clusters; recalibrating means editing a
 * number here, never a literal in a program.
 */
#ifndef SP_CONST_H
#define SP_CONST_H

/* An allocation computed nothing: ran longer than this ... */
#define SP_NOOP_MIN_ELAPSED_S	300.0
/* ... while its work steps used less CPU than this. */
#define SP_NOOP_MAX_CPU_S	10.0
/* A hang killed this soon was already noticed. */
#define SP_NOOP_NOTICED_S	900.0
/* Idle CPU is explained by I/O at this volume and rate. */
#define SP_IO_MIN_BYTES		(10.0 * 1024 * 1024 * 1024)
#define SP_IO_MIN_RATE		(100.0 * 1024 * 1024)

/* Compute = GPU-hours x this + core-hours. */
#define SP_GPU_CORE_RATIO	16.0

/*
 * sp-hang: the worst allocations --summary lists one by one.
 */
#define SP_HANG_WORST		10

/*
 * sp-nodes: which machines fail one workload.  A node is tested once it
 * holds this many placements of the workload; fewer are listed untested.
 */
#define SP_NODES_MIN_TRIALS	10
/* Benjamini-Hochberg false discovery rate across every tested row. */
#define SP_NODES_FDR		0.05
/* Wilson intervals at 95% (SP_Z95 is in sp_stats.h). */
#define SP_NODES_Z		SP_Z95
/* --exclude names at most this many worse nodes; the rest are counted. */
#define SP_NODES_EXCLUDE_MAX	8
/* The per-job node note needs more usable records than this. */
#define SP_NODES_NOTE_MIN_HISTORY 20

/*
 * One job (sp_findings, sp-show; reference-rules.md section 2.2).  A
 * single run is judged against its own request; none of these looks at
 * other runs.  The figures its actions suggest follow the sizing rules
 * below (sp_suggest).
 */
/* walltime-slack: a completed run used less than this share of --time. */
#define SP_FIND_WALLTIME_SLACK		0.5
/* memory-slack: peak under this share of the limit, and at least this
 * much never used (small jobs are not worth a finding). */
#define SP_FIND_MEM_SLACK		0.35
#define SP_FIND_MEM_SLACK_MIN_B		(32.0 * 1024 * 1024 * 1024)
/* cpu-overrequest: over this long, more than one core, under this use. */
#define SP_FIND_CPU_MIN_ELAPSED_S	120.0
#define SP_FIND_CPU_OVERREQUEST		0.15
/* system-cpu-heavy: the kernel's share of CPU, over this much CPU. */
#define SP_FIND_SYS_FRACTION		0.30
#define SP_FIND_SYS_MIN_CPU_S		60.0
/* straggler: (AveCPU - MinCPU) / AveCPU across tasks. */
#define SP_FIND_STRAGGLER_SPREAD	0.25
/* task-memory-imbalance: one task's peak over the tasks' mean. */
#define SP_FIND_TASK_MEM_IMBALANCE	2.0
/* paging: major page faults, at least this many and this many a second
 * of the run; only a peak at this share of the limit or above points at
 * memory (below it the faults are files read through memory). */
#define SP_FIND_PAGING_MIN_PAGES	1000.0
#define SP_FIND_PAGING_MIN_RATE		1.0
#define SP_FIND_PAGING_NEAR_LIMIT	0.8
/* GPU utilisation (0..1): idle, underused; with no GPU figure, a CPU
 * this idle suggests the cards idled too. */
#define SP_FIND_GPU_IDLE		0.05
#define SP_FIND_GPU_UNDERUSED		0.40
#define SP_FIND_GPU_SUSPECT_CPU		0.02
/* A traceback longer than this is shown as its header, an ellipsis
 * and its last SP_FIND_TRACEBACK_TAIL lines; log-tail shows this many. */
#define SP_FIND_TRACEBACK_MAX_LINES	6
#define SP_FIND_TRACEBACK_TAIL		4
#define SP_FIND_LOG_TAIL_LINES		6

/* The log ladder (sp_logs; reference-rules.md section 2.7). */
/* Only the end of a log is read. */
#define SP_LOG_TAIL_BYTES		(256 * 1024)
/* Zero-pad widths in %j-style patterns are capped here. */
#define SP_LOG_PAD_MAX			64
/* Matching by time: a log's mtime within [start - before, end + after]. */
#define SP_LOG_MTIME_BEFORE_S		60
#define SP_LOG_MTIME_AFTER_S		600
/* A job name shorter than this is too common to match a file by. */
#define SP_LOG_NAME_MIN			3

/* The sp-show view. */
/* A log's last lines: with --all and in --json; the view's excerpt. */
#define SP_SHOW_LOG_LINES		20
#define SP_SHOW_LOG_EXCERPT		8
#define SP_SHOW_DEFAULT_WIDTH		80
/* --width below this is refused: a gauge and its figures need it. */
#define SP_SHOW_MIN_WIDTH		40
/* An array's elapsed times and peaks are drawn as a histogram of this
 * many cells. */
#define SP_SHOW_HIST_BINS		12
/* ... from this many tasks with the figure known. */
#define SP_SHOW_HIST_MIN		5
/* A signal number above this is no signal (OOM's 0:125 is Slurm's). */
#define SP_SIGNAL_MAX			64

/*
 * Sizing (sp-size; reference-rules.md 2.6).  A verdict needs this many
 * runs the flag's rule can read, and a target beyond the newest request
 * x (1 +- SP_SIZE_CHANGE); inside that band the request is kept.
 */
#define SP_SIZE_MIN_RUNS		3
#define SP_SIZE_CHANGE			0.20
/* The hang veto: this many timeouts that computed nothing, and at least
 * these shares of the timeouts and of all runs, make --time a hold. */
#define SP_TIME_VETO_MIN_HUNG		3
#define SP_TIME_VETO_TIMEOUT_SHARE	0.5
#define SP_TIME_VETO_RUN_SHARE		0.2
/* The p95 (nearest rank) is shown when it differs from the longest run by
 * more than the larger of these. */
#define SP_TIME_P95			0.95
#define SP_TIME_P95_SHOW_S		1.0
#define SP_TIME_P95_SHOW_SHARE		0.01
/* near-limit: a completed run that left less than this share of its
 * --time unused. */
#define SP_NEAR_LIMIT_SHARE		0.10
/* MaxRSS above the limit dominates (refuse) from this share of the runs
 * with a reading. */
#define SP_MEM_UNTRUSTED_DOMINATE	0.5

/*
 * The suggestion rules (sp_suggest): what every figure for --time,
 * --mem, --cpus-per-task and --gpus is made of, whoever suggests it
 * (sp-size's advice, the findings across runs, one job's findings).
 *
 * --time and --mem from a history of n >= SP_SIZE_MIN_RUNS runs (its
 * completed computing runs' elapsed times; its peaks within the limit
 * of runs not killed): the largest x
 *	max(minimum, min(MARGIN_MAX,
 *	    exp(s x max(0, Z + FEW / n - MAX_SHARE x sqrt(2 ln n)))))
 * where s is the sample standard deviation of the figures' natural
 * logarithms, counted as at least PRIOR_SD x sqrt(PRIOR_RUNS /
 * (n - 1 + PRIOR_RUNS)).  Calibrated with sp-backtest on t/bench/history
 * (seed 1; tested on seeds 2 and 3): at most 0.5% of later runs cut off
 * at every evidence level, with less over-asked and less memory left
 * unused than the fixed margins below, which remain for one number (one
 * run, a floor from a kill or a computing timeout).
 */
#define SP_SPREAD_Z			2.5
#define SP_SPREAD_FEW			6.0
#define SP_SPREAD_MAX_SHARE		0.8
#define SP_SPREAD_PRIOR_SD		0.25
#define SP_SPREAD_PRIOR_RUNS		3.0
#define SP_SPREAD_MARGIN_MAX		3.0
#define SP_TIME_MARGIN_MIN		1.10
#define SP_MEM_MARGIN_MIN		1.00
/*
 * --time: longest completed run x margin, rounded up to the short step
 * under SP_TIME_STEP_SWITCH_S, else to the long step; a timeout that
 * was computing, the same way, is a floor.
 */
#define SP_TIME_MARGIN			1.25
#define SP_TIME_STEP_SWITCH_S		3600.0
#define SP_TIME_STEP_SHORT_S		300.0
#define SP_TIME_STEP_LONG_S		900.0
/* --mem: largest trustworthy peak x margin, whole GiB up; the largest
 * limit killed for memory x margin is a floor.  Under a GiB the figure
 * is rounded up to this step instead (a whole GiB can be five times a
 * small job's need). */
#define SP_MEM_MARGIN			1.30
#define SP_MEM_SMALL_STEP		(50.0 * 1024 * 1024)
/* A peak read from this few samples or fewer may be low (sp_thin). */
#define SP_MEM_THIN_SAMPLES		5
/* --cpus-per-task: busiest run's busy cores per task x margin, at least
 * one.  Below SP_CPU_RAISE_MIN_BUSY busy cores no margin is added (one
 * core x 1.2 rounds up to two: the article's inversion) and no raise is
 * advised; SP_CPU_NOISE of a core is not counted when rounding up there. */
#define SP_CPU_MARGIN			1.20
#define SP_CPU_RAISE_MIN_BUSY		2.0
#define SP_CPU_NOISE			0.1
/* --gpus: the same shape as --cpus-per-task, over busy GPUs (gpu_util x
 * GPUs held); it is never raised. */
#define SP_GPU_MARGIN			1.20
#define SP_GPU_NOISE			0.1
/* A figure this close above a step (in steps: minutes of time, whole
 * cores) or a whole GiB is that step: the margin's rounding error must
 * not add a step. */
#define SP_SUGGEST_STEP_SLACK		1e-9
#define SP_SUGGEST_GIB_SLACK		1e-12
/* Busy cores or GPUs in advice text: a count below SP_BUSY_SHOWN_MIN is
 * "under" it, one below SP_BUSY_FINE_BELOW has two decimals, others one
 * (a hundredth of a core is noise once there is a tenth). */
#define SP_BUSY_SHOWN_MIN		0.05
#define SP_BUSY_FINE_BELOW		0.1

/*
 * The replay (sp-backtest): a run is judged once this many usable runs
 * of its workload had ended before it was submitted (the advice refuses
 * below SP_SIZE_MIN_RUNS anyway).  The naive policy it is compared with
 * is the largest figure seen times these: what users and most sizing
 * scripts do.
 */
#define SP_BACKTEST_MIN_BEFORE		3
#define SP_BACKTEST_RULE_TIME		1.25
#define SP_BACKTEST_RULE_MEM		1.30
/*
 * The risk beside an advice (sp_bt_risk_of) is its workload's own replay
 * from this many judged runs with a figure; below, a count like 0 of 4
 * says little, so the whole history's at the same evidence level speaks.
 */
#define SP_BACKTEST_RISK_MIN_JUDGED	10

/*
 * Findings across runs (sp-size --findings; reference-rules.md 2.4).
 */
/* A finding lists at most this many job ids (its evidence counts all). */
#define SP_FINDING_MAX_IDS		10
/* repeat-failure: runs, failures and their share; critical above. */
#define SP_REPEAT_MIN_RUNS		5
#define SP_REPEAT_MIN_FAILURES		5
#define SP_REPEAT_MIN_SHARE		0.5
#define SP_REPEAT_CRIT_SHARE		0.8
/* memory-search / memory-unchanged: submissions killed for memory (an
 * array's tasks are one submission).  A walk longer than the maximum shows
 * its first SP_MEMWALK_HEAD and last SP_MEMWALK_TAIL steps. */
#define SP_MEMSEARCH_MIN_KILLS		3
#define SP_MEMWALK_MAX			8
#define SP_MEMWALK_HEAD			4
#define SP_MEMWALK_TAIL			3
/* requeue-repeat: requeued jobs, and their share of the jobs. */
#define SP_REQUEUE_MIN_JOBS		3
#define SP_REQUEUE_MIN_SHARE		0.10
/*
 * array-probes (the article's figure 5): an array with at least
 * SP_PROBE_MIN_KILLS tasks killed for memory, sized after single runs
 * (probes) whose highest peak is at or above no more than
 * SP_PROBE_LOW_SHARE of the workload's array-task population (at least
 * SP_PROBE_MIN_POPULATION tasks).  The probes are the SP_PROBE_MAX
 * newest single runs before the array among the SP_PROBE_KEEP newest
 * single runs of the workload.
 */
#define SP_PROBE_MIN_KILLS		1
#define SP_PROBE_LOW_SHARE		0.25
#define SP_PROBE_MIN_POPULATION		10
#define SP_PROBE_MAX			5
#define SP_PROBE_KEEP			64
/*
 * The follow-up of a changed request (sp_change.h): a raise is said to
 * have held, and a change to have done nothing for a failure that
 * repeats, only after this many runs at the new request.
 */
#define SP_CHANGE_MIN_SINCE		2

/*
 * The headline (sp_headline: the report's and the dashboard's).  It leads
 * with the GPU-hours held by
 * allocations that computed nothing when they are this share of every
 * GPU-hour, or this many; it names the workload that held most of them
 * when that workload's own idle GPU-hours are at least
 * SP_IDLE_NAMED_MIN_GPU_H and pass the same test against its GPU-hours.
 */
#define SP_IDLE_LEAD_SHARE		0.10
#define SP_IDLE_LEAD_GPU_H		100.0
#define SP_IDLE_NAMED_MIN_GPU_H		1.0
/* The users it names before it only counts them. */
#define SP_HEADLINE_NAMED_USERS		3
/* What one screen holds before "N more": workloads by name, findings
 * across runs, problem jobs, changes of advice, and holds (advice to
 * leave a request as it is) counted apart so that raises never hide them. */
#define SP_REPORT_WORKLOADS		10
/* The sources (sessions, logs) listed by the report's source view. */
#define SP_REPORT_SOURCES		10
#define SP_REPORT_FINDINGS		15
#define SP_REPORT_PROBLEMS		25
#define SP_REPORT_CHANGES		12
#define SP_REPORT_HOLDS			5
/* Problem jobs that say the same thing are one line: the job ids it
 * names on screen before "and N more" (the records keep every one). */
#define SP_REPORT_FOLD_IDS		5

/*
 * sp-fetch: an AveCPUFreq reading is a CPU clock only inside this range;
 * outside it the value x1000 is tried (sacct prints kHz as if Hz on some
 * versions), and a value that fits neither way is unknown.
 */
#define SP_CPU_FREQ_MIN_HZ		400e6
#define SP_CPU_FREQ_MAX_HZ		6e9
/* Site facts (scontrol, sinfo) are small answers: never wait longer. */
#define SP_SITE_TIMEOUT_S		15.0
/*
 * sp-fetch --live: sstat's answer is small too, but asks each job's
 * nodes in turn, 18 s a job when the controller is down; it is given up
 * on after this (or SLURMPAST_TIMEOUT, when shorter).  A task's CPU
 * time past a year is an overflow some versions print, not a figure.
 */
#define SP_LIVE_TIMEOUT_S		15.0
/* One argument holds at most 128 KiB on Linux (MAX_ARG_STRLEN): running
 * jobs' ids go to sstat in lists of at most this many bytes each. */
#define SP_SSTAT_IDS_BYTES		65536
#define SP_LIVE_CPU_MAX_S		(366.0 * 86400)
/*
 * A running job (sp-size --running): near its memory limit once its
 * live peak reaches this share of the limit; the hang rule's floor and
 * CPU threshold (SP_NOOP_*) say it computes nothing now.
 */
#define SP_LIVE_NEAR_MEM_SHARE		0.90
/*
 * sp-fetch's store: a job that ended this long before the last query is
 * settled; one that ended later is asked of sacct again, as the
 * controller may still rewrite it (after a restart, say).
 */
#define SP_FETCH_CACHE_OVERLAP_S	(6 * 3600)
/*
 * A job sacct says ended less than this long ago, with no CPU time in
 * its record, has its usage not yet recorded rather than none: a step's
 * usage reaches the database from its node through the controller and
 * slurmdbd's queue, after the job's end is written, and on a busy
 * cluster that can take minutes.  Its CPU time is read as unknown.
 */
#define SP_USAGE_SETTLE_S		300

/*
 * sp-attr: a claim on a job id ("Submitted batch job N" at a time) is
 * taken for a record only when it was made within this long of the
 * record's submit time, either way: sbatch answers at once, and a day
 * either side covers a transcript's time zone and an output read late.
 * Beyond it the id is another cluster's or a recycled one.
 */
#define SP_ATTR_WINDOW_S		(2 * 86400)

/*
 * sp-size --script: a script whose workload has no history names the
 * nearest that have one, at most this many: the same name elsewhere, then
 * the user's workloads within this many edits (insertions, deletions,
 * substitutions) of its name -- fewer than the name's own length, so a
 * short name is not near every other.
 */
#define SP_NEAR_NAMES			3
#define SP_NEAR_MAX_EDITS		3
/* The partitions a name ran in, named when one is chosen for it. */
#define SP_NEAR_PARTITIONS		4

/*
 * sp_parse_mem reads a value of at most this many digits and a unit
 * letter at once (exact: below 2^53, times a power of two); longer or
 * odder ones take the general path.
 */
#define SP_MEM_FAST_DIGITS	15

/*
 * sp_parse_duration reads D-HH:MM:SS at once with at most this many
 * digits of days (exact: every term an integer below 2^53).
 */
#define SP_DURATION_FAST_DAYS	6

/*
 * sp-submit: the window of history a submission is judged on, as sacct
 * takes it: long enough to hold the last attempts at a workload, and the
 * one sp-fetch's store then covers for the next submission.
 */
#define SP_SUBMIT_SINCE			"now-30days"
/*
 * sp-submit --hook: a tool call nested deeper than this is refused as
 * not one (a PreToolUse call is three levels deep), so no input can
 * take the parser's stack.
 */
#define SP_HOOK_JSON_DEPTH		256

/*
 * No byte count or duration sacct prints comes near this (it is 888 PiB,
 * or 31 billion years); a value past it, or negative, is bad (SP_VAL_BAD), so
 * no caller converts an absurd double to an integer.
 */
#define SP_UNITS_MAX 1e18

#endif
