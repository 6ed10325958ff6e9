/*
 * hook.h - sp-submit --hook's parts: the call read from its JSON
 * (json.c), the sbatch commands found in a shell command (shell.c).
 */
#ifndef HOOK_H
#define HOOK_H

#include <stddef.h>
#include "sp_util.h"

struct hook_argv {
	char **v;
	size_t n, cap;
	int nul;		/* an element held U+0000 */
	int other;		/* an element was not a string */
};

/* What a PreToolUse call says that sp-submit reads. */
struct hook_call {
	int have_command, is_argv;
	struct sp_buf command;	/* tool_input.command, a string */
	int command_nul;
	struct hook_argv argv;	/* tool_input.command, an array */
	int have_cwd, cwd_nul;
	struct sp_buf cwd;
};

/* Reads the call: 0, or -1 when the text is not JSON (or not an
 * object).  Free with hook_call_free, either way. */
int hook_json(const char *text, size_t len, struct hook_call *call);
void hook_call_free(struct hook_call *c);

/* One sbatch the command runs: its arguments and where it runs. */
struct hook_sbatch {
	char **args;
	size_t nargs;
	char *dir;		/* NULL: the call's own directory */
	const char *unknown;	/* why it cannot be checked; NULL: it can */
};

struct hook_found {
	struct hook_sbatch *v;
	size_t n, cap;
};

/*
 * The sbatch commands of a shell command line, in order: plain, after
 * assignments and env/command/exec/nohup/time, after `cd dir &&` (dir
 * then carried), several in one line.  Nothing is expanded: a word with
 * an expansion ($, `) makes its sbatch unknown, and a cd that cannot be
 * followed makes the ones after it unknown.
 */
void hook_shell(const char *cmd, const char *cwd, struct hook_found *out);
void hook_found_free(struct hook_found *f);

#endif
