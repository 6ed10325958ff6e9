/*
 * submit.h - sp-submit's own parts beside its main: the history read
 * through sp-fetch (history.c), the advice written into the submission
 * (apply.c), and the agents' hook (hook.c).
 */
#ifndef SUBMIT_H
#define SUBMIT_H

#include "sp.h"
#include "sp_advice.h"
#include "sp_histset.h"
#include "sp_nodes.h"
#include "sp_script.h"
#include "sp_site.h"

/*
 * The finished runs of user's workloads whose folded name is workload,
 * into set (finished) and their placements into nodes, read from
 * sp-fetch (the one beside this program, else on PATH) from since
 * (sacct's form) on, with the site's facts into site.
 * Waits budget seconds at most.  Returns 0, or -1 with one line in why
 * (set and site then hold nothing to free).
 */
int history_read(const char *user, const char *since, const char *workload,
		 double budget, struct sp_histset *set, struct sp_nodes *nodes,
		 struct sp_site *site, struct sp_buf *why);

/* The program beside this one called name, else name (found on PATH). */
char *submit_beside(const char *name);

/* The submission: sbatch's arguments and what they ask. */
struct submission {
	char **args;		/* sbatch's arguments, as given */
	size_t nargs;
	size_t script_at;	/* the script's index; nargs: none */
	const char *path;	/* the script, NULL none (standard input,
				 * --wrap) */
	struct sp_buf text;	/* the script as read */
	struct sp_script script;	/* its directives */
	struct sp_script cmdline;	/* sbatch's options before it */
	struct sp_script eff;	/* both, the command line winning */
	int script_ok;		/* the script was read and parsed */
};

/*
 * --apply: the advice (adv[f], NULL none; exclude, the node rule's
 * --exclude, merged into the script's as sp-size --script does) written
 * into a copy of the script, or into the script itself (in_place, the
 * original kept as script~), and into sbatch's own options where they
 * set the flag; the change said on standard error as a diff; then
 * sbatch run on it.  Returns sbatch's status (or exits 2 when it cannot
 * be done).
 */
int apply_and_submit(struct submission *s,
		     const struct sp_advice *const adv[SP_FLAG_N],
		     const struct sp_advice *exclude, int in_place);

/* Runs sbatch with args in place of this process; returns only when it
 * could not (exit 2 then). */
void submit_exec(char *const *args, size_t nargs);

/* --hook: a PreToolUse call on standard input; the exit status. */
int hook_main(const char *self);

#endif
