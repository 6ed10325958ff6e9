#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sp_pager.h"
#include "sp_term.h"
#include "sp_util.h"

#define SP_PAGER_DEFAULT "less -FRX"

/* The pager of this process (one at most), and whether stdout is shut. */
static pid_t pager_pid = -1;
static volatile sig_atomic_t stdout_shut;

/*
 * The pager's command as it would be chosen now, ignoring the terminal:
 * a static or environment string, or NULL for none (empty, "cat").
 */
static const char *
pager_command(void)
{
	const char *cmd = getenv("SLURMPAST_PAGER");

	if (cmd == NULL)
		cmd = getenv("PAGER");
	if (cmd == NULL)
		cmd = SP_PAGER_DEFAULT;
	cmd += strspn(cmd, " \t");
	if (*cmd == '\0' || strcmp(cmd, "cat") == 0)
		return NULL;
	return cmd;
}

/* Waits for the pager; only async-signal-safe calls. */
static void
wait_pager(void)
{
	int status;

	if (pager_pid <= 0)
		return;
	close(STDOUT_FILENO);	/* the pager's end of input */
	while (waitpid(pager_pid, &status, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}

static void
at_exit(void)
{
	/* An exit before sp_pager_end: what stdio holds goes first. */
	if (!stdout_shut)
		fflush(stdout);
	wait_pager();
}

static void
on_signal(int sig)
{
	wait_pager();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The command split at white space, NULL-terminated; free the vector and
 * *copy. */
static char **
split(const char *cmd, char **copy)
{
	char **argv = NULL, *save = NULL, *w;
	size_t n = 0, cap = 0;

	*copy = sp_xstrdup(cmd);
	for (w = strtok_r(*copy, " \t", &save); w != NULL;
	     w = strtok_r(NULL, " \t", &save)) {
		argv = sp_xgrow(argv, &cap, n + 2, sizeof *argv);
		argv[n++] = w;
	}
	argv = sp_xgrow(argv, &cap, n + 1, sizeof *argv);
	argv[n] = NULL;
	return argv;
}

/* In the child: the pipe as stdin, the pager's settings, the exec.  On
 * failure errno goes up the status pipe. */
static void __attribute__((noreturn))
child(int in, int status, char **argv)
{
	int e;

	if (dup2(in, STDIN_FILENO) < 0)
		goto fail;
	close(in);
	setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRX", 1);
	setenv("LV", getenv("LV") ? getenv("LV") : "-c", 1);
	execvp(argv[0], argv);
fail:
	e = errno;
	if (write(status, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

int
sp_pager_start(int off)
{
	const char *cmd = pager_command(), *term = getenv("TERM");
	char **argv, *copy;
	int data[2], status[2], e = 0;
	ssize_t got;
	pid_t pid;

	if (off || cmd == NULL || pager_pid > 0 || !isatty(STDOUT_FILENO) ||
	    (term != NULL && strcmp(term, "dumb") == 0))
		return 0;
	/* From here standard output is the pager's pipe: a width asked for
	 * later (a table fitted as it ends) is still the terminal's. */
	if (getenv("COLUMNS") == NULL) {
		int w = sp_term_width(STDOUT_FILENO);
		char cols[24];

		if (w > 0) {
			snprintf(cols, sizeof cols, "%d", w);
			setenv("COLUMNS", cols, 1);
		}
	}
	argv = split(cmd, &copy);
	if (argv[0] == NULL || pipe(data) != 0) {
		free(argv);
		free(copy);
		return 0;
	}
	if (pipe(status) != 0) {
		close(data[0]);
		close(data[1]);
		free(argv);
		free(copy);
		return 0;
	}
	fcntl(status[1], F_SETFD, FD_CLOEXEC);
	/* Nothing is written yet: the child's copy of stdio holds nothing. */
	pid = fork();
	if (pid == 0) {
		close(data[1]);
		close(status[0]);
		child(data[0], status[1], argv);
	}
	close(data[0]);
	close(status[1]);
	if (pid > 0) {
		/* Nothing comes up the status pipe unless exec failed. */
		while ((got = read(status[0], &e, sizeof e)) < 0 &&
		       errno == EINTR)
			;
		if (got != (ssize_t)sizeof e)
			e = 0;
	}
	close(status[0]);
	if (pid < 0 || e != 0) {
		if (pid > 0)
			waitpid(pid, NULL, 0);
		errno = pid < 0 ? errno : e;
		sp_warn("cannot run the pager '%s' (set SLURMPAST_PAGER, or "
			"--no-pager):", argv[0]);
		close(data[1]);
		free(argv);
		free(copy);
		return 0;
	}
	free(argv);
	free(copy);
	if (dup2(data[1], STDOUT_FILENO) < 0) {
		close(data[1]);
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
		return 0;
	}
	close(data[1]);
	pager_pid = pid;
	/* A pipe now: full buffering, as sp_stdout_init gives a pipe. */
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	atexit(at_exit);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGQUIT, on_signal);
	return 1;
}

/* Whether the pager has ended already: its reader quit it. */
static int
pager_gone(void)
{
	int status;

	if (waitpid(pager_pid, &status, WNOHANG) != pager_pid)
		return 0;
	pager_pid = -1;
	return 1;
}

void
sp_pager_end(void)
{
	stdout_shut = 1;
	if (pager_pid > 0 && pager_gone()) {
		/* What could not be written had no reader left: no error. */
		fclose(stdout);
		return;
	}
	sp_stdout_close();
	wait_pager();
}
