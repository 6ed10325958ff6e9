/*
 * apply.c - sp-submit --apply: the advice written into the submission
 * (sp-size --script's rewriting of the script; sbatch's own options
 * where they set the flag, since sbatch takes them over the script's),
 * the change shown as a diff on standard error, then sbatch.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "sp_rewrite.h"
#include "sp_sbatch.h"
#include "sp_script_fix.h"
#include "submit.h"

void
submit_exec(char *const *args, size_t nargs)
{
	char **argv = sp_xcalloc(nargs + 2, sizeof *argv);

	argv[0] = "sbatch";
	for (size_t i = 0; i < nargs; i++)
		argv[i + 1] = args[i];
	fflush(stdout);
	fflush(stderr);
	execvp("sbatch", argv);
	sp_die(SP_EXIT_USAGE, "cannot run sbatch: %s", strerror(errno));
}

/*
 * The new value of a command-line option for advice a: the same
 * spelling, the advised figure.  0 with the value in out, -1 when the
 * option is not one a figure is written into here (said why in why).
 */
static int
respell(const struct sp_sopt *x, const struct sp_advice *a,
	struct sp_buf *out, const char **why)
{
	struct sp_sbtime t;
	struct sp_sbmem m;

	*why = NULL;
	if (strcmp(x->name, "time") == 0 && a->flag == SP_FLAG_TIME) {
		if (sp_sbatch_time(x->value, &t) != 0)
			return -1;
		if (t.form == SP_TF_UNLIMITED)
			t.form = SP_TF_HMS;
		sp_sbatch_time_spell(out, &t, a->target);
		return 0;
	}
	if (strcmp(x->name, "mem") == 0 && a->flag == SP_FLAG_MEM) {
		if (sp_sbatch_mem(x->value, &m) != 0)
			return -1;
		sp_sbatch_mem_spell(out, &m, a->target);
		return 0;
	}
	if (strcmp(x->name, "cpus-per-task") == 0 &&
	    a->flag == SP_FLAG_CPUS) {
		sp_fmt_num(out, a->target);
		return 0;
	}
	*why = "sp-submit writes a figure into --time, --mem and "
	    "--cpus-per-task on the command line; change it by hand";
	return -1;
}

/* The options of sbatch's command line that set an advised flag. */
static const char *const flag_opts[SP_FLAG_N][4] = {
	[SP_FLAG_TIME] = { "time", NULL },
	[SP_FLAG_MEM] = { "mem", "mem-per-cpu", "mem-per-gpu", NULL },
	[SP_FLAG_CPUS] = { "cpus-per-task", NULL },
	[SP_FLAG_GPUS] = { "gpus", "gres", "gpus-per-node", NULL },
};

/* The command line's option for flag f (the last given), or NULL. */
static const struct sp_sopt *
cmdline_opt(const struct sp_script *cl, enum sp_flag f)
{
	const struct sp_sopt *best = NULL;

	for (const char *const *n = flag_opts[f]; *n; n++) {
		const struct sp_sopt *x = sp_script_opt(cl, *n);

		if (x != NULL && (best == NULL || x > best))
			best = x;
	}
	return best;
}

/* sbatch's arguments with the advice in its own options; changes said. */
static char **
new_args(const struct submission *s,
	 const struct sp_advice *const adv[SP_FLAG_N], size_t *changed)
{
	char **args = sp_xcalloc(s->nargs + 1, sizeof *args);

	*changed = 0;
	for (size_t i = 0; i < s->nargs; i++)
		args[i] = sp_xstrdup(s->args[i]);
	for (int f = 0; f < SP_FLAG_N; f++) {
		const struct sp_advice *a = adv[f];
		const struct sp_sopt *x;
		struct sp_buf v = { 0 }, arg = { 0 };
		const char *why;
		const char *old;

		if (a == NULL || !sp_verdict_actionable(a->verdict) ||
		    !sp_known(a->target) ||
		    (x = cmdline_opt(&s->cmdline, (enum sp_flag)f)) == NULL ||
		    x->value == NULL)
			continue;
		if (respell(x, a, &v, &why) != 0) {
			if (why != NULL)
				sp_warn("the command line's --%s=%s is left: %s",
					x->name, x->value, why);
			sp_buf_free(&v);
			continue;
		}
		/* The value's own argument: the option's, or the next. */
		old = s->args[x->vat.line];
		sp_buf_add(&arg, old, x->vat.off);
		sp_buf_add(&arg, v.p, v.len);
		sp_buf_adds(&arg, old + x->vat.off + x->vat.len);
		free(args[x->vat.line]);
		args[x->vat.line] = sp_xstrdup(sp_buf_str(&arg));
		if (x->vat.line != x->line)
			fprintf(stderr, "-sbatch %s %s\n+sbatch %s %s\n",
				s->args[x->line], old, s->args[x->line],
				args[x->vat.line]);
		else
			fprintf(stderr, "-sbatch %s\n+sbatch %s\n", old,
				args[x->vat.line]);
		(*changed)++;
		sp_buf_free(&v);
		sp_buf_free(&arg);
	}
	return args;
}

/* A copy of the script under its own file name (sbatch names the job
 * after it) in a directory of its own; the directory, or NULL. */
static char *
write_copy(const struct submission *s, const struct sp_buf *text,
	   struct sp_buf *copy)
{
	const char *tmp = getenv("TMPDIR");
	const char *base = strrchr(s->path, '/');
	struct sp_buf d = { 0 };
	FILE *f;

	base = base ? base + 1 : s->path;
	sp_buf_printf(&d, "%s/sp-submit.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(d.p) == NULL)
		sp_die(SP_EXIT_USAGE, "cannot make a directory for the "
		       "script's copy: %s", strerror(errno));
	sp_buf_printf(copy, "%s/%s", d.p, base);
	f = fopen(sp_buf_str(copy), "w");
	if (f == NULL ||
	    (text->len > 0 && fwrite(text->p, 1, text->len, f) != text->len) ||
	    fclose(f) != 0) {
		unlink(sp_buf_str(copy));
		rmdir(d.p);
		sp_die(SP_EXIT_USAGE, "%s: cannot write the script's copy",
		       sp_buf_str(copy));
	}
	return d.p;
}

/* sbatch on args, waited for: its status as this process's. */
static int
run_sbatch(char **args, size_t nargs)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		sp_die(SP_EXIT_USAGE, "cannot run sbatch: %s", strerror(errno));
	if (pid == 0)
		submit_exec(args, nargs);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			sp_die(SP_EXIT_USAGE, "sbatch: %s", strerror(errno));
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int
apply_and_submit(struct submission *s,
		 const struct sp_advice *const adv[SP_FLAG_N],
		 const struct sp_advice *exclude, int in_place)
{
	struct sp_script_fix fx;
	struct sp_buf text = { 0 }, diff = { 0 }, err = { 0 }, copy = { 0 };
	char **args;
	char *dir = NULL;
	size_t changed;
	int rc;

	/* The script's flags first, as sp-size --script --add writes them;
	 * the command line's after, so the diff reads in that order. */
	sp_script_fix(&fx, &s->script, adv, exclude, 0);
	sp_rewrite_text(&fx.rw, &text);
	sp_rewrite_diff(&fx.rw, s->path, &diff);
	fputs(sp_buf_str(&diff), stderr);
	args = new_args(s, adv, &changed);
	if (sp_rewrite_changes(&fx.rw) > 0) {
		if (in_place) {
			if (sp_rewrite_replace(s->path, s->text.p ? s->text.p :
					       "", s->text.len, text.p ? text.p :
					       "", text.len, "~", &err) != 0)
				sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&err));
			sp_warn("%s: rewritten; the original is %s~", s->path,
				s->path);
		} else {
			dir = write_copy(s, &text, &copy);
			free(args[s->script_at]);
			args[s->script_at] = sp_xstrdup(sp_buf_str(&copy));
		}
	} else if (changed == 0) {
		sp_warn("%s: nothing to change: submitted as it is", s->path);
	}
	rc = run_sbatch(args, s->nargs);
	if (dir != NULL) {
		unlink(sp_buf_str(&copy));
		rmdir(dir);
	}
	for (size_t i = 0; i < s->nargs; i++)
		free(args[i]);
	free(args);
	free(dir);
	sp_script_fix_free(&fx);
	sp_buf_free(&text);
	sp_buf_free(&diff);
	sp_buf_free(&err);
	sp_buf_free(&copy);
	return rc;
}
