/*
 * sp_exec.h - running a Slurm command the safe way: execvp with an
 * argument vector (never a shell), an environment that makes Slurm print
 * one stable format, a deadline after which the child is killed, standard
 * output read as a stream and standard error kept for the message.
 *
 * Each child runs in a process group of its own: a deadline, or a
 * SIGINT, SIGTERM or SIGHUP to this process, ends the whole group (what
 * the command started too), never leaving a grandchild under init.
 *
 * The child's environment: SLURM_TIME_FORMAT=standard and LC_ALL=C are
 * set; SACCT_FORMAT, SQUEUE_FORMAT and SQUEUE_FORMAT2 are removed (a
 * user's own defaults would change what the columns hold).  HOME and
 * SLURM_CONF pass through.
 */
#ifndef SP_EXEC_H
#define SP_EXEC_H

#include <stdio.h>
#include <sys/types.h>
#include "sp_util.h"

/* The default deadline when SLURMPAST_TIMEOUT is unset or blank. */
#define SP_EXEC_TIMEOUT_S	300.0
/* How much of a child's standard error is kept for the message. */
#define SP_EXEC_ERR_KEEP	65536

struct sp_exec {
	pid_t pid;
	int out;		/* read end of the child's stdout, -1 at its end */
	int errfd;		/* read end of the child's stderr, -1 at its end */
	double timeout_s;
	double deadline;	/* CLOCK_MONOTONIC seconds */
	int timed_out;		/* the deadline passed and the child was killed */
	int exec_errno;		/* why the command could not start, 0 if it did */
	int reaped;
	int exit_code;		/* after sp_exec_finish: the exit status ... */
	int term_signal;	/* ... or the signal that ended the child, 0 */
	const char *name;	/* argv[0], for messages */
	struct sp_buf err;	/* the child's stderr (first SP_EXEC_ERR_KEEP) */
	struct sp_exec *next;	/* the children not yet reaped (sp_exec.c) */
};

/*
 * Reads SLURMPAST_TIMEOUT: unset or blank is SP_EXEC_TIMEOUT_S.  Returns
 * 0, or -1 with a one-line message in msg for a value that is not a
 * positive finite number of seconds.
 */
int sp_exec_timeout(double *seconds, struct sp_buf *msg);

/*
 * Starts argv[0] (found on PATH) with the edited environment and stdin
 * from /dev/null.  Returns 0, or -1 with x->exec_errno set when the
 * command could not be started (ENOENT: not on PATH).
 */
int sp_exec_start(struct sp_exec *x, char *const argv[], double timeout_s);

/*
 * Starts a child process that runs fn(out, arg) with out its standard
 * output, then exits 0 if fn returned 0 and out flushed, else 1.  The
 * parent reads it exactly like a command (a generator behind a pipe).
 */
int sp_exec_start_fn(struct sp_exec *x, const char *name,
		     int (*fn)(FILE *out, void *arg), void *arg,
		     double timeout_s);

/*
 * Reads the child's stdout: >0 bytes, 0 at its end, -1 when the deadline
 * passed (the child is killed, x->timed_out set) or a read failed.
 * Standard error is collected meanwhile, so neither pipe can fill up.
 */
ssize_t sp_exec_read(struct sp_exec *x, char *buf, size_t n);

/*
 * Reads stdout to its end and discards it, collects stderr, reaps the
 * child.  Returns 0 when it exited with status 0 within the deadline.
 */
int sp_exec_finish(struct sp_exec *x);

/* Frees the buffers and closes what is still open (kills a live child). */
void sp_exec_free(struct sp_exec *x);

/* "exit status 1", "killed by signal 9", "no answer within 0.5s". */
void sp_exec_describe(const struct sp_exec *x, struct sp_buf *b);

/* The first line of the child's stderr that says something, or "". */
void sp_exec_err_line(const struct sp_exec *x, struct sp_buf *b);

/*
 * Runs a command to its end, its whole stdout in out.  For small answers
 * (sacct --helpformat, scontrol show config, sinfo).  Returns 0 when the
 * command exited 0; x holds the details either way (free it).
 */
int sp_exec_capture(struct sp_exec *x, char *const argv[], double timeout_s,
		    struct sp_buf *out);

/*
 * Runs n commands at once, each to its end (or the deadline, the same
 * for all), the stdout of argv[i] in out[i]: the time of the slowest,
 * not the sum.  Returns 0 when every one exited 0; x[i] holds each one's
 * details either way (free each).
 */
int sp_exec_capture_all(struct sp_exec *x, char *const *const argv[],
			size_t n, double timeout_s, struct sp_buf *out);

/* Seconds as a message shows them: "300s", "0.5s", "0.05s". */
void sp_exec_fmt_seconds(struct sp_buf *b, double s);

#endif
