/*
 * sp_logs.h - finding a job's output and error files after the fact.
 *
 * The accounting record says where the logs were meant to go only on
 * recent Slurm, and often not at all, so the files are looked for down a
 * ladder (reference-rules.md section 2.7): the StdErr and StdOut fields
 * with their %-patterns expanded; -e/-o in the submit line; absolute
 * paths in the comment; the conventional names in --log-dir folders, the
 * work directory and the current one; any log naming the job; and last a
 * file written while the job ran.  Every file found says which rung
 * found it, and a declared file that is gone says why plainly.  A job
 * that never started wrote no file, so none is looked for; no file
 * named after another job is ever taken for this one.
 */
#ifndef SP_LOGS_H
#define SP_LOGS_H

#include <stddef.h>
#include <stdint.h>
#include "sp_util.h"
#include "sp_job.h"

enum sp_log_status {
	SP_LOG_NOT_LOOKED,	/* --no-logs, or nothing to look at */
	SP_LOG_FOUND,
	SP_LOG_ABSENT,		/* moved or deleted */
	SP_LOG_UNREADABLE,	/* exists, not readable by us */
	SP_LOG_DISCARDED,	/* /dev/null */
	SP_LOG_SPECIAL,		/* not a regular file */
	SP_LOG_UNKNOWN		/* could not be checked */
};

/* Which rung of the ladder named the file. */
enum sp_log_how {
	SP_HOW_STDERR,		/* the StdErr field */
	SP_HOW_STDOUT,		/* the StdOut field */
	SP_HOW_SUBMIT_ERROR,	/* -e/--error in the submit line */
	SP_HOW_SUBMIT_OUTPUT,	/* -o/--output in the submit line */
	SP_HOW_COMMENT,		/* an absolute path in the comment */
	SP_HOW_CONVENTION,	/* slurm-<id>.out and the like */
	SP_HOW_NAME,		/* a log whose name holds the job id */
	SP_HOW_TIME		/* written while the job ran: inferred */
};

enum sp_log_role { SP_ROLE_ERROR, SP_ROLE_OUTPUT, SP_ROLE_LOG };

struct sp_log {
	char *path;
	enum sp_log_status status;
	enum sp_log_how how;
	enum sp_log_role role;
	char *owner;		/* unreadable: who owns it, if known */
	double size_b;		/* NaN unknown */
	struct sp_buf tail;	/* found: the last SP_LOG_TAIL_BYTES, LF ends */
	int cut;		/* the tail starts part-way into the file */
};

struct sp_logs {
	int looked;		/* 0 with --no-logs */
	int not_started;	/* the job never ran: no file looked for */
	struct sp_log *v;	/* files found: error, then output, then log */
	size_t n;
	size_t cap;
	/*
	 * The first file the record declared (rungs 1-3) that could not be
	 * read, with why; path NULL when every declared file was found or
	 * nothing was declared.
	 */
	struct sp_log expected;
};

struct sp_logdir;
struct sp_strset;

/* State shared across the jobs of one run: folders, caches, claims. */
struct sp_logctx {
	char **dirs;		/* --log-dir, in the order given */
	size_t ndirs;
	char *cwd;		/* NULL: the current directory is not searched */
	struct sp_logdir **cache;	/* listings, one per folder read */
	size_t ncache;
	size_t cachecap;
	struct sp_strset *cache_index;
	struct sp_strset *claimed;	/* files already given to a job */
};

void sp_logctx_init(struct sp_logctx *c, int search_cwd);
void sp_logctx_add_dir(struct sp_logctx *c, const char *dir);
void sp_logctx_free(struct sp_logctx *c);

/* Runs the ladder for one allocation.  out is initialised here. */
void sp_logs_find(struct sp_logctx *c, const struct sp_job *j,
		  struct sp_logs *out);
/* The empty result --no-logs reports. */
void sp_logs_none(struct sp_logs *out);
void sp_logs_free(struct sp_logs *l);

/*
 * The last n lines of a found file's tail, trailing blank lines left
 * out: *from points into l->tail, *len bytes long (0 when empty).
 */
void sp_log_last_lines(const struct sp_log *l, size_t n, const char **from,
		       size_t *len);

/* "found", "absent", ... for records and JSON; NULL for NOT_LOOKED. */
const char *sp_log_status_name(enum sp_log_status s);
/* "moved or deleted", ... for people. */
const char *sp_log_status_text(enum sp_log_status s);
/* "stderr", "submit_line", ... and "the StdErr field", ... */
const char *sp_log_how_name(enum sp_log_how h);
const char *sp_log_how_text(enum sp_log_how h);
const char *sp_log_role_name(enum sp_log_role r);

/*
 * Expands a Slurm file pattern (%j %J %A %a %x %u %N %s %n %t %%, with
 * zero-pad widths) for job j and joins a relative result to its work
 * directory.  Returns 0, or -1 when a code cannot be resolved or a
 * relative path has no work directory to sit in.
 */
int sp_log_expand(struct sp_buf *out, const char *pattern,
		  const struct sp_job *j);

/*
 * The -e/--error and -o/--output values of a submit line, read as sbatch
 * read its arguments: the record joins them with spaces (the shell's
 * quotes are gone), options end at the script or at --wrap (whose
 * command runs to the end), the last of each wins, a value starting
 * with '-' is none.  *err and *out are malloc'ed or NULL.
 */
void sp_log_submit_paths(const char *line, char **err, char **out);

#endif
