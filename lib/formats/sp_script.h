/*
 * sp_script.h - a batch script as sbatch reads it.
 *
 * sbatch reads the lines that begin with "#SBATCH" (the very first
 * bytes of the line) until the first command: a line that is neither
 * blank nor a comment.  What follows the magic word is split into
 * arguments: whitespace separates them, single or double quotes group,
 * a backslash takes the next byte as it is (inside quotes too), and an
 * unquoted '#' ends the line.  The arguments of every directive line
 * together are one command line for getopt_long (stopping at the first
 * argument that is not an option), so a later option wins over an
 * earlier one, and a long option's value may be the next argument, or
 * the next line's.  Long options may be abbreviated to any unambiguous
 * prefix of the Slurm 22.05 names; short options may be grouped (-Hc4).
 *
 * The module does the same, and keeps where each option and its value
 * lie in the text, so that one value can be rewritten in place and
 * nothing else in the script moves.  It reads any bytes: a NUL ends a
 * line's directive as it does for sbatch, and a script of any length or
 * line length is read in time linear in its size.
 */
#ifndef SP_SCRIPT_H
#define SP_SCRIPT_H

#include <stddef.h>
#include "sp_util.h"

enum sp_eol { SP_EOL_NONE, SP_EOL_LF, SP_EOL_CRLF };

struct sp_sline {
	size_t off, len;	/* in the text, without the line end */
	enum sp_eol eol;
	int directive;		/* an #SBATCH line sbatch reads */
};

/* Bytes of one line: where a value lies. */
struct sp_span {
	size_t line, off, len;	/* off is from the line's start */
};

enum sp_sform {
	SP_SFORM_EQ,		/* --mem=4G */
	SP_SFORM_SEP,		/* --mem 4G, -c 4 */
	SP_SFORM_ATTACHED,	/* -c4 */
	SP_SFORM_NONE		/* --hold, -H: no value */
};

/* One option the directives give, in the order given. */
struct sp_sopt {
	const char *name;	/* the long name, without dashes: "mem" */
	char letter;		/* the short option written; 0 a long one */
	enum sp_sform form;
	size_t line;		/* the line the option is on */
	char *value;		/* unquoted and unescaped; NULL none */
	struct sp_span vat;	/* the value's bytes as written */
};

/* What sbatch would object to in a directive, kept going past. */
struct sp_snote {
	size_t line;		/* 0-based */
	char *text;
};

struct sp_script {
	char *text;		/* a copy, NUL-terminated */
	size_t len;
	struct sp_sline *lines;
	size_t nlines;
	size_t first_cmd;	/* the line sbatch stops at; nlines: none */
	long last_directive;	/* before first_cmd; -1 none */
	int shebang;		/* the first line begins "#!" */
	size_t crlf;		/* lines that end in CR LF */
	struct sp_sopt *opts;
	size_t nopts;
	struct sp_snote *notes;
	size_t nnotes;
	size_t linecap, optcap, notecap;
};

/*
 * Reads a script of len bytes (copied).  Returns 0, or -1 with "LINE:
 * message" in err for what sbatch itself stops at (an unmatched quote,
 * an argument beginning with ':') and for a heterogeneous job (its
 * components are sized apart, so one workload's advice does not apply).
 */
int sp_script_parse(struct sp_script *s, const char *text, size_t len,
		    struct sp_buf *err);
void sp_script_free(struct sp_script *s);

/*
 * sbatch's own command line, argv[0..argc) without the program's name,
 * read into s (no text, no lines) as sbatch reads it: the options up to
 * the first argument that is not one (or "--").  An option's line is its
 * argument's index, its value's span within that argument.  Returns the
 * index of the first argument that is not an option (the script), argc
 * when there is none.  Free s with sp_script_free.
 */
size_t sp_script_cmdline(struct sp_script *s, char *const *argv, size_t argc);
/*
 * The options of a, then b's, into s (copied; no text): sp_script_opt
 * on s gives b's where both set one, as sbatch takes its command line
 * (b) over the script's directives (a).
 */
void sp_script_overlay(struct sp_script *s, const struct sp_script *a,
		       const struct sp_script *b);

/* The option with this long name sbatch would take (the last one given),
 * or NULL. */
const struct sp_sopt *sp_script_opt(const struct sp_script *s,
				    const char *name);
/* The text of line i, without its end. */
const char *sp_script_line(const struct sp_script *s, size_t i, size_t *len);

#endif
