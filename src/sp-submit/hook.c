/*
 * hook.c - sp-submit --hook: a coding agent's PreToolUse call (Claude
 * Code's and Codex's protocol: the call as JSON on standard input, the
 * shell command in tool_input.command; exit 2 blocks it, standard error
 * being the reason given to the agent; exit 0 lets it run).
 *
 * Each sbatch the command would run is checked (sp-submit --check, in
 * the directory it would run in); the call is blocked only when one
 * repeats a failure, with the sentences that say what to ask instead.
 * Anything that goes wrong here lets the call run, with a note: a hook
 * that cannot answer must never stand between an agent and its work.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "hook.h"
#include "submit.h"

#define NOTE "slurmpast hook: "

/* Standard input, whole: 0, or -1. */
static int
slurp(struct sp_buf *b)
{
	char chunk[65536];
	ssize_t n;

	for (;;) {
		n = read(0, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		sp_buf_add(b, chunk, (size_t)n);
	}
}

/* This program, to run it again with --check. */
static char *
self_path(const char *argv0)
{
	char p[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", p, sizeof p - 1);

	if (n > 0) {
		p[n] = '\0';
		return sp_xstrdup(p);
	}
	return sp_xstrdup(argv0);
}

/*
 * sp-submit --check on one sbatch, in its directory: its status (-1 when
 * it could not be run), its standard error in err.
 */
static int
check(const char *self, const struct hook_sbatch *sb, struct sp_buf *err)
{
	char **argv = sp_xcalloc(sb->nargs + 3, sizeof *argv);
	char chunk[4096];
	int pfd[2], st;
	pid_t pid;
	ssize_t n;

	argv[0] = (char *)self;
	argv[1] = "--check";
	for (size_t i = 0; i < sb->nargs; i++)
		argv[i + 2] = sb->args[i];
	if (pipe(pfd) != 0) {
		free(argv);
		sp_buf_printf(err, "cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(argv);
		close(pfd[0]);
		close(pfd[1]);
		sp_buf_printf(err, "cannot fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		/* --check writes nothing on standard output; the hook's own
		 * standard output is the agent's to read. */
		dup2(2, 1);
		if (sb->dir != NULL && chdir(sb->dir) != 0) {
			fprintf(stderr, "sp-submit: cannot go to %s: %s\n",
				sb->dir, strerror(errno));
			_exit(2);
		}
		execv(self, argv);
		fprintf(stderr, "sp-submit: cannot run %s: %s\n", self,
			strerror(errno));
		_exit(2);
	}
	free(argv);
	close(pfd[1]);
	for (;;) {
		n = read(pfd[0], chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sp_buf_add(err, chunk, (size_t)n);
	}
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The last line that says something: why a check could not answer. */
static void
last_line(const struct sp_buf *b, struct sp_buf *out)
{
	const char *s = sp_buf_str(b), *end = s + b->len, *start;

	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	sp_buf_add(out, start, (size_t)(end - start));
}

static int
is_shell(const char *s)
{
	static const char *const shells[] = { "sh", "bash", "dash", "zsh",
		"ksh", NULL };
	const char *b = strrchr(s, '/');

	b = b ? b + 1 : s;
	for (const char *const *x = shells; *x; x++)
		if (strcmp(b, *x) == 0)
			return 1;
	return 0;
}

/* The sbatch commands a call would run. */
static int
find(struct hook_call *c, struct hook_found *found)
{
	const char *cwd = c->have_cwd && !c->cwd_nul && c->cwd.len > 0 ?
	    sp_buf_str(&c->cwd) : NULL;
	struct hook_argv *a = &c->argv;

	if (!c->is_argv) {
		if (c->command_nul)
			return -1;
		hook_shell(sp_buf_str(&c->command), cwd, found);
		return 0;
	}
	if (a->nul || a->other)
		return -1;
	/* ["bash", "-lc", "the command"]: the command is a shell's. */
	if (a->n >= 3 && is_shell(a->v[0]) && a->v[1][0] == '-' &&
	    strchr(a->v[1], 'c') != NULL) {
		hook_shell(a->v[2], cwd, found);
		return 0;
	}
	if (a->n == 0)
		return 0;
	{
		const char *b = strrchr(a->v[0], '/');
		struct hook_sbatch *sb;

		if (strcmp(b ? b + 1 : a->v[0], "sbatch") != 0)
			return 0;
		found->v = sp_xgrow(found->v, &found->cap, found->n + 1,
				    sizeof *found->v);
		sb = &found->v[found->n++];
		memset(sb, 0, sizeof *sb);
		sb->args = sp_xcalloc(a->n, sizeof *sb->args);
		for (size_t i = 1; i < a->n; i++)
			sb->args[sb->nargs++] = sp_xstrdup(a->v[i]);
		sb->dir = cwd ? sp_xstrdup(cwd) : NULL;
	}
	return 0;
}

int
hook_main(const char *argv0)
{
	struct sp_buf in = { 0 }, reasons = { 0 }, err = { 0 }, line = { 0 };
	struct hook_call call = { 0 };
	struct hook_found found = { 0 };
	char *self = self_path(argv0);
	int blocked = 0;

	if (slurp(&in) != 0) {
		fprintf(stderr, NOTE "cannot read the call (%s): let through\n",
			strerror(errno));
		goto out;
	}
	if (hook_json(in.p ? in.p : "", in.len, &call) != 0) {
		fputs(NOTE "the call is not JSON: let through\n", stderr);
		goto out;
	}
	if (!call.have_command)
		goto out;
	if (find(&call, &found) != 0) {
		fputs(NOTE "the command holds what no shell runs (a NUL, a "
		      "value that is not text): let through\n", stderr);
		goto out;
	}
	for (size_t i = 0; i < found.n; i++) {
		const struct hook_sbatch *sb = &found.v[i];
		int rc;

		if (sb->unknown != NULL) {
			fprintf(stderr, NOTE "an sbatch not checked (%s): let "
				"through\n", sb->unknown);
			continue;
		}
		sp_buf_clear(&err);
		rc = check(self, sb, &err);
		if (rc == 1) {
			blocked = 1;
			sp_buf_add(&reasons, err.p, err.len);
		} else if (rc == 0) {
			fputs(sp_buf_str(&err), stderr);
		} else {
			sp_buf_clear(&line);
			last_line(&err, &line);
			fprintf(stderr, NOTE "an sbatch not checked (%s): let "
				"through\n", line.len ? sp_buf_str(&line) :
				"sp-submit --check failed");
		}
	}
	if (blocked) {
		fputs(sp_buf_str(&reasons), stderr);
		fputs("This sbatch repeats a failure of its workload: submit "
		      "it with what is advised above (sp-submit --apply "
		      "writes it in), or find what else must change.\n",
		      stderr);
	}
out:
	hook_found_free(&found);
	hook_call_free(&call);
	sp_buf_free(&in);
	sp_buf_free(&reasons);
	sp_buf_free(&err);
	sp_buf_free(&line);
	free(self);
	return blocked ? 2 : 0;
}
