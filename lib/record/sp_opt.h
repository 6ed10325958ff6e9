/*
 * sp_opt.h - the options every program shares: -h/--help, --version,
 * the output formats --tsv, --plain, --json, --csv, of which one, and
 * for the programs that show a job's logs --no-logs and --log-dir.
 *
 *	static const struct option longopts[] = {
 *		{ "rollup", no_argument, NULL, 'r' },
 *		{ NULL, 0, NULL, 0 }
 *	};
 *	struct sp_opts common = { .usage = usage_text, .help = help_text };
 *
 *	while ((ch = sp_getopt(argc, argv, "r", longopts, NULL,
 *			       &common)) != -1)
 *		switch (ch) { case 'r': ... }
 *
 * A program lists only its own options: sp_getopt adds the shared ones
 * after them, so what a program offers follows from what it sets: the
 * formats unless .formatless (sp-page, sp-plot, sp-browse), the log
 * options when .logs points where they go, the terminal options when
 * .term does.
 *
 * sp_getopt answers the shared options itself and returns only the
 * program's own, so a main holds only what is its own: --help prints
 * the usage, the program's help and the shared options' lines and exits
 * 0; --version the name and version; two different formats are a usage
 * error ("--json and --plain are different outputs: choose one", never
 * the last one wins); a missing value or an unknown option is one line
 * and exit 2.  Their --help lines are the program's own text
 * (SP_PAGER_HELP for --no-pager).
 */
#ifndef SP_OPT_H
#define SP_OPT_H

#include <getopt.h>
#include "sp_record.h"

enum { SP_OPT_VERSION = 0x1010, SP_OPT_NO_LOGS, SP_OPT_LOG_DIR,
	SP_OPT_ASCII, SP_OPT_NO_COLOR, SP_OPT_NO_PAGER };

/* Where the programs that show a job look for its logs (sp-show,
 * sp-browse): --no-logs, and --log-dir dir, repeatable, searched first.
 * --log-dir with --no-logs is said once and dropped. */
struct sp_log_opts {
	int off;		/* --no-logs */
	char **dirs;		/* --log-dir, in the order given; free it */
	size_t ndirs;
};

/* How the programs that draw on a terminal draw (sp-show, sp-browse):
 * --ascii, and --no-color (or --no-colour). */
struct sp_term_opts {
	int ascii;		/* ASCII only */
	int no_color;		/* no colour */
};

struct sp_opts {
	const char *usage;	/* --help: the usage lines */
	const char *help;	/* --help: the program's own options, one a
				 * line; NULL for none */
	void (*help_more)(void);	/* --help: what follows the options
				 * (sp-plot's kinds); NULL for nothing */
	enum sp_format fmt;	/* the format: set the default first */
	int formatless;		/* 1: no format options (one output) */
	struct sp_log_opts *logs;	/* non-NULL: the log options, filled
				 * in here */
	struct sp_term_opts *term;	/* non-NULL: the terminal options,
				 * filled in here */
	int *no_pager;		/* non-NULL: a stage read on a terminal as
				 * slurmpast is: --no-pager, set here, and
				 * with no format asked for, --plain when
				 * standard output is a terminal (the stage
				 * pages it: sp_pager_start) */
	const char *fmt_opt;	/* the option that chose it; NULL: none */
	char *shortopts;	/* ":h" and the program's own, while parsing */
	struct option *longopts;	/* the program's own and the shared */
};

/*
 * getopt_long over the program's own options (own_short, as getopt
 * takes them, and own_long, ending in a zero entry) and the shared
 * ones; returns the next of the program's own, or -1 at the end.
 * longindex as getopt_long's (the program's own come first, so an index
 * into own_long), or NULL.
 */
#define SP_PAGER_HELP \
"      --no-pager          never through a pager, even on a terminal\n"
/* The formats of a stage that pages its --plain on a terminal. */
#define SP_PAGED_FORMATS_HELP \
"      --tsv, --plain, --json, --csv\n" \
"                          records with a header (the default into a pipe),\n" \
"                          aligned text (on a terminal, paged), JSON Lines, CSV\n" \
SP_PAGER_HELP

int sp_getopt(int argc, char *const argv[], const char *own_short,
	      const struct option *own_long, int *longindex,
	      struct sp_opts *o);

#endif
