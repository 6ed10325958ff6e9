/*
 * sp_util.h - errors, allocation and standard output for the slurmpast
 * toolkit (growable strings are in sp_buf.h, included here).  Every
 * program calls sp_setprog() first; every message then reads
 * "prog: message" as err(3) would print it.
 */
#ifndef SP_UTIL_H
#define SP_UTIL_H

#define SP_VERSION "0.1.0"

#include <stddef.h>
#include <stdio.h>
#include <stdarg.h>

#include "sp_buf.h"

/* Exit statuses shared by the whole family (design.md, Conventions). */
enum {
	SP_EXIT_OK = 0,
	SP_EXIT_FAIL = 1,	/* a critical finding */
	SP_EXIT_USAGE = 2	/* any error: usage, input, environment, a
				 * failed write */
};

void sp_setprog(const char *argv0);
/*
 * The user this runs as, as a person's tools name them: $USER (what
 * sudo -u and a batch job set), else the login name of the real uid;
 * NULL when neither is known.
 */
const char *sp_user_name(void);
/* The name sp_setprog() kept, for a file named after the program. */
const char *sp_progname(void);

/*
 * A format ending in ':' appends ": strerror(errno)", as err(3) does.
 * sp_die exits with the given status; sp_warn only prints.
 */
void sp_die(int status, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
void sp_vdie(int status, const char *fmt, va_list ap)
	__attribute__((noreturn));
void sp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * getopt_long refused an option: "prog: unknown option '-x' (see prog
 * --help)", exit 2.  short is getopt's optopt (0 for a long option), arg
 * the word it was read from.
 */
void sp_die_unknown_option(int short_opt, const char *arg)
	__attribute__((noreturn));

/* Allocation that cannot fail: on exhaustion, "prog: out of memory", exit 2. */
void *sp_xmalloc(size_t n);
void *sp_xcalloc(size_t nmemb, size_t size);
void *sp_xrealloc(void *p, size_t n);
/* Grows an array to hold at least need elements, doubling. */
void *sp_xgrow(void *p, size_t *cap, size_t need, size_t elem);
char *sp_xstrdup(const char *s);
char *sp_xstrndup(const char *s, size_t n);

/*
 * Standard output discipline: SIGPIPE keeps its default action (so
 * "sp-x | head" is quiet), and a failed flush or close of stdout is a
 * failed run ("prog: <stdout>: No space left on device", exit 2).
 */
void sp_stdout_init(void);
void sp_stdout_close(void);

/* Parses a whole string as a number; 0 on success, -1 otherwise. */
int sp_strtol_full(const char *s, long *out);
int sp_strtod_full(const char *s, double *out);

/* qsort that accepts an empty (NULL) array, as every caller's list may be. */
void sp_sort(void *base, size_t n, size_t size,
	     int (*cmp)(const void *, const void *));

/* Common option handling: every program prints its version the same way. */
void sp_print_version(void);

#endif
