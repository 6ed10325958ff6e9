/*
 * stages.c - running the stages: found beside this program (a build
 * tree, or where it was installed) before PATH; one now (run), or in the
 * background beside the others (start) and waited for once (collect).
 * A stage's status 1 is a critical finding, never an error (every error
 * is 2); any other status stops the run with the stage's own last line
 * as ours.  Its warnings are kept and said once each, at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "front.h"

extern char **environ;

static char *here;			/* this program's directory, or NULL */
static struct sp_buf warned;		/* the stages' warnings, as ours */

/* The children still running, ended with this process (stages_stop). */
static pid_t *children;
static size_t nchildren, children_cap;

/* A stage started by start(), by its output file. */
struct started {
	char *out, *name;
	pid_t pid;			/* 0 once waited for */
	int status;			/* -1 until known */
};
static struct started *started;
static size_t nstarted, started_cap;

void
args_add(struct args *a, const char *s)
{
	a->v = sp_xgrow(a->v, &a->cap, a->n + 2, sizeof *a->v);
	a->v[a->n++] = sp_xstrdup(s);
	a->v[a->n] = NULL;
}

void
args_addf(struct args *a, const char *fmt, ...)
{
	struct sp_buf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	sp_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	args_add(a, sp_buf_str(&b));
	sp_buf_free(&b);
}

void
args_free(struct args *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	*a = (struct args){ 0 };
}

/* A file of the run's directory, its path kept for the run's length. */
const char *
tmp_path(const char *name)
{
	static struct words kept;
	struct sp_buf b = { 0 };

	sp_buf_printf(&b, "%s/%s", F.tmp, name);
	kept.v = sp_xgrow(kept.v, &kept.cap, kept.n + 1, sizeof *kept.v);
	kept.v[kept.n++] = b.p;
	return b.p;
}

static char *
suffixed(const char *path, const char *suffix)
{
	struct sp_buf b = { 0 };

	sp_buf_printf(&b, "%s%s", path, suffix);
	return b.p;
}

void
stages_init(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	if (slash)
		here = slash == argv0 ? sp_xstrdup("/") :
			sp_xstrndup(argv0, (size_t)(slash - argv0));
}

static int
on_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *colon;
	struct sp_buf b = { 0 };
	int found = 0;

	for (p = path ? path : ""; !found; p = colon + 1) {
		colon = strchr(p, ':');
		sp_buf_clear(&b);
		if (colon == p || !*p)
			sp_buf_adds(&b, ".");
		else
			sp_buf_add(&b, p, colon ? (size_t)(colon - p) : strlen(p));
		sp_buf_printf(&b, "/%s", name);
		found = access(b.p, X_OK) == 0;
		if (!colon)
			break;
	}
	sp_buf_free(&b);
	return found;
}

/*
 * The program to run for a stage, or NULL when there is none: then the
 * one line that says so is in errfile (a stage's own error file), or on
 * standard error.
 */
const char *
stage_find(const char *name, const char *errfile)
{
	static struct sp_buf path;
	FILE *f;

	if (here) {
		sp_buf_clear(&path);
		sp_buf_printf(&path, "%s/%s", here, name);
		if (access(path.p, X_OK) == 0)
			return path.p;
	}
	if (on_path(name))
		return name;
	if (errfile && (f = fopen(errfile, "a"))) {
		fprintf(f, "slurmpast: cannot find %s beside this program or on PATH\n",
			name);
		fclose(f);
	} else {
		sp_warn("cannot find %s beside this program or on PATH", name);
	}
	return NULL;
}

void
child_track(pid_t pid)
{
	sigset_t all, old;

	/* Blocked while the list may move: a signal's handler reads it. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	children = sp_xgrow(children, &children_cap, nchildren + 1,
			    sizeof *children);
	children[nchildren++] = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void
child_remove(pid_t pid)
{
	for (size_t i = 0; i < nchildren; i++)
		if (children[i] == pid) {
			children[i] = children[--nchildren];
			return;
		}
}

/* A process forked to run our own code forgets its parent's children. */
void
stages_forget(void)
{
	nchildren = 0;
}

/* Every stage still running ended, and waited for, so that none writes
 * into the directory being removed. */
void
stages_stop(void)
{
	for (size_t i = 0; i < nchildren; i++)
		kill(children[i], SIGTERM);
	for (size_t i = 0; i < nchildren; i++)
		while (waitpid(children[i], NULL, 0) < 0 && errno == EINTR)
			;
	nchildren = 0;
}

/* The stage started the slow way, when posix_spawn could not: a fork
 * that says why it cannot run on the stage's own standard error. */
static pid_t
spawn_forked(const char *dir, const char *path, struct args *a, int in,
	     int out, int err)
{
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) < 0)
		sp_die(SP_EXIT_USAGE, "cannot start %s:", a->v[0]);
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		if ((in != STDIN_FILENO && dup2(in, STDIN_FILENO) < 0) ||
		    (out != STDOUT_FILENO && dup2(out, STDOUT_FILENO) < 0) ||
		    (err != STDERR_FILENO && dup2(err, STDERR_FILENO) < 0))
			_exit(2);
		if (dir && chdir(dir) < 0) {
			dprintf(STDERR_FILENO, "slurmpast: %s: %s\n", dir,
				strerror(errno));
			_exit(2);
		}
		execvp(path, a->v);
		dprintf(STDERR_FILENO, "slurmpast: cannot run %s: %s\n",
			a->v[0], strerror(errno));
		_exit(2);
	}
	return pid;
}

/*
 * The stage with its standard input, output and error, in dir (NULL:
 * ours); its pid.  posix_spawn, not fork: a report starts a score of
 * stages, and copying this process's page tables for each (many, under
 * the sanitizers) was a good part of its time.
 */
pid_t
spawn_at(const char *dir, const char *path, struct args *a, int in,
	 int out, int err)
{
	posix_spawn_file_actions_t acts;
	posix_spawnattr_t attr;
	sigset_t dfl;
	pid_t pid;
	int bad;

	fflush(NULL);
	posix_spawn_file_actions_init(&acts);
	posix_spawnattr_init(&attr);
	/* A reader that leaves ends a stage as it ends any filter. */
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	bad = posix_spawnattr_setsigdefault(&attr, &dfl) ||
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF) ||
		(in != STDIN_FILENO &&
		 posix_spawn_file_actions_adddup2(&acts, in, STDIN_FILENO)) ||
		(out != STDOUT_FILENO &&
		 posix_spawn_file_actions_adddup2(&acts, out, STDOUT_FILENO)) ||
		(err != STDERR_FILENO &&
		 posix_spawn_file_actions_adddup2(&acts, err, STDERR_FILENO)) ||
		dir ||	/* no portable way to say it to posix_spawn */
		posix_spawnp(&pid, path, &acts, &attr, a->v, environ);
	posix_spawn_file_actions_destroy(&acts);
	posix_spawnattr_destroy(&attr);
	if (bad)
		pid = spawn_forked(dir, path, a, in, out, err);
	child_track(pid);
	return pid;
}

pid_t
spawn(const char *path, struct args *a, int in, int out, int err)
{
	return spawn_at(NULL, path, a, in, out, err);
}

/* The stage's status as the shell says it: 128 + the signal that ended it. */
int
wait_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			sp_die(SP_EXIT_USAGE, "waitpid:");
	child_remove(pid);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

int
open_or_die(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0600);

	if (fd < 0)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	return fd;
}

static int
open_in(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	return fd;
}

static int
open_out(const char *path, int append)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC |
		      (append ? O_APPEND : O_TRUNC), 0600);

	if (fd < 0)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	return fd;
}

/*
 * The stage now, over in/out/err already open; its status, 2 when it
 * was not found (said in errfile).
 */
int
stage_fd(int in, int out, int err, struct args *a, const char *errfile)
{
	const char *path = stage_find(a->v[0], errfile);

	if (!path)
		return 2;
	return wait_status(spawn(path, a, in, out, err));
}

/*
 * One stage now, its output in out, reading in; status 0, or 1 for a
 * critical finding from a stage that judges.  Any other status stops the
 * run.
 */
int
run(const char *out, const char *in, struct args *a)
{
	char *errfile = suffixed(out, ".err");
	int fin = open_in(in), fout = open_out(out, 0),
	    ferr = open_out(errfile, 0);
	int status = stage_fd(fin, fout, ferr, a, errfile);

	close(fin);
	close(fout);
	close(ferr);
	status = settle(a->v[0], status, errfile);
	free(errfile);
	return status;
}

/* The stage over the file in, in the background; collect(out) waits. */
void
start(const char *out, const char *in, struct args *a)
{
	char *errfile = suffixed(out, ".err");
	const char *path;
	struct started *s;
	int fin, fout, ferr;

	started = sp_xgrow(started, &started_cap, nstarted + 1,
			   sizeof *started);
	s = &started[nstarted++];
	*s = (struct started){ sp_xstrdup(out), sp_xstrdup(a->v[0]), 0, -1 };
	ferr = open_out(errfile, 0);
	if (!(path = stage_find(a->v[0], errfile))) {
		s->status = 2;
	} else {
		fin = open_in(in);
		fout = open_out(out, 0);
		s->pid = spawn(path, a, fin, fout, ferr);
		close(fin);
		close(fout);
	}
	close(ferr);
	free(errfile);
}

/* "STATUS NAME" in out.rc: a stage of the problem chain said its own. */
void
chain_record(const char *out, int status, const char *name)
{
	char *rc = suffixed(out, ".rc");
	FILE *f = fopen(rc, "w");

	if (f) {
		fprintf(f, "%d %s\n", status, name);
		fclose(f);
	}
	free(rc);
}

/* A chain stage's status, from out.rc once the chain has ended. */
static int
collect_chain(const char *out, char **name)
{
	char *rc = suffixed(out, ".rc");
	FILE *f;
	int status = 2;
	char word[256] = "";

	if (F.chain_pid) {
		wait_status(F.chain_pid);
		F.chain_pid = 0;
	}
	if ((f = fopen(rc, "r"))) {
		if (fscanf(f, "%d %255s", &status, word) != 2)
			status = 2;
		fclose(f);
	}
	*name = sp_xstrdup(word);
	free(rc);
	return status;
}

/* The stage's status, waited for once, settled as run's. */
int
collect(const char *out)
{
	char *errfile = suffixed(out, ".err"), *name;
	int status;
	size_t i;

	for (i = 0; i < nstarted && strcmp(started[i].out, out) != 0; i++)
		;
	if (i == nstarted) {
		status = collect_chain(out, &name);
	} else {
		if (started[i].pid) {
			started[i].status = wait_status(started[i].pid);
			started[i].pid = 0;
		}
		status = started[i].status;
		name = sp_xstrdup(started[i].name);
	}
	status = settle(name, status, errfile);
	free(name);
	free(errfile);
	return status;
}

/* Another program's message, as ours: "sp-size: ..." is "slurmpast: ...". */
static void
as_ours(struct sp_buf *to, const char *line, size_t n)
{
	const char *colon = NULL, *p = line + 3;

	for (size_t i = 0; i + 1 < n && !colon; i++)
		if (line[i] == ':' && line[i + 1] == ' ')
			colon = line + i;

	if (colon && n >= 3 && strncmp(line, "sp-", 3) == 0) {
		while (p < colon && *p >= 'a' && *p <= 'z')
			p++;
		if (p == colon) {
			sp_buf_adds(to, "slurmpast: ");
			sp_buf_add(to, colon + 2, n - (size_t)(colon + 2 - line));
			sp_buf_addc(to, '\n');
			return;
		}
	}
	sp_buf_add(to, line, n);
	sp_buf_addc(to, '\n');
}

static void
as_ours_into(const char *path, struct sp_buf *to)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			n--;
		as_ours(to, line, (size_t)n);
	}
	free(line);
	fclose(f);
}

void
as_ours_file(const char *path, FILE *to)
{
	struct sp_buf b = { 0 };

	as_ours_into(path, &b);
	fwrite(b.p ? b.p : "", 1, b.len, to);
	fflush(to);
	sp_buf_free(&b);
}

/* The stage's own last line that says something, as ours; status 2. */
void
failed(const char *name, int status, const char *errfile)
{
	struct sp_buf all = { 0 };
	const char *last = NULL, *p;

	if (status > 128)
		sp_die(SP_EXIT_USAGE, "%s was killed by signal %d", name,
		       status - 128);
	as_ours_into(errfile, &all);
	for (p = all.p; p && *p; p = strchr(p, '\n') + 1)
		if (*p != '\n')
			last = p;
	if (!last)
		sp_die(SP_EXIT_USAGE, "%s failed (exit status %d)", name, status);
	fwrite(last, 1, (size_t)(strchr(last, '\n') + 1 - last), stderr);
	exit(SP_EXIT_USAGE);
}

/* A finished stage's status: 1 is a critical finding, never an error. */
int
settle(const char *name, int status, const char *errfile)
{
	if (status > 1)
		failed(name, status, errfile);
	as_ours_into(errfile, &warned);
	return status;
}

/* The stages' warnings, once each, in the order first said. */
void
warnings(void)
{
	const char *p, *nl, *q;

	for (p = warned.p; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		for (q = warned.p; q < p; q = strchr(q, '\n') + 1)
			if (strchr(q, '\n') - q == nl - p &&
			    memcmp(q, p, (size_t)(nl - p)) == 0)
				break;
		if (q == p)
			fwrite(p, 1, (size_t)(nl + 1 - p), stderr);
	}
	fflush(stderr);
}

const char *
warnings_text(void)
{
	return warned.p;
}

/* Every warning kept so far, as it came (the post-mortem's). */
void
warnings_all(void)
{
	fwrite(warned.p ? warned.p : "", 1, warned.len, stderr);
	fflush(stderr);
}

/* True when the file holds a header alone, or nothing. */
int
no_records(const char *path)
{
	FILE *f = fopen(path, "r");
	int c, lines = 0;

	if (!f)
		sp_die(SP_EXIT_USAGE, "cannot read %s", path);
	while ((c = getc(f)) != EOF)
		if (lines == 1 || (c == '\n' && ++lines > 1))
			break;
	fclose(f);
	return c == EOF;
}

/* The file to standard output; a failed write is one line and status 2
 * (a reader that left ends us as it ends any filter). */
void
put(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[65536];
	size_t n;

	if (!f)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			break;
	fclose(f);
	if (fflush(stdout) != 0 || ferror(stdout))
		sp_die(SP_EXIT_USAGE, "<stdout>:");
}
