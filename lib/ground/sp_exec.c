#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "sp_exec.h"

/*
 * The children not yet reaped.  Each runs in a process group of its own,
 * so that a deadline ends whatever it started too (sacct's helpers, a
 * shell's pipeline); the price is that a terminal's ^C no longer reaches
 * them, so a SIGINT, SIGTERM or SIGHUP to this process, or its exit,
 * ends every one of their groups first.  A signal handler can only find
 * them through a global: this list, changed with those signals blocked.
 */
static struct sp_exec *volatile live;
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP };

static void
end_all(void)
{
	struct sp_exec *x;

	for (x = live; x != NULL; x = x->next)
		if (x->pid > 0 && !x->reaped)
			kill(-x->pid, SIGKILL);
}

static void
end_groups(int sig)
{
	end_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* A handler only where the program left the default (not an ignore). */
static void
install_once(void)
{
	static int done;
	struct sigaction sa, cur;
	size_t i;

	if (done)
		return;
	done = 1;
	/* A program that exits on an error ends its children too. */
	atexit(end_all);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = end_groups;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		if (sigaction(forwarded[i], NULL, &cur) == 0 &&
		    cur.sa_handler == SIG_DFL)
			sigaction(forwarded[i], &sa, NULL);
}

static void
track(struct sp_exec *x)
{
	sigset_t old;

	install_once();
	block(&old);
	x->next = live;
	live = x;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void
untrack(struct sp_exec *x)
{
	struct sp_exec *volatile *pp;
	sigset_t old;

	block(&old);
	for (pp = &live; *pp != NULL; pp = &(*pp)->next)
		if (*pp == x) {
			*pp = x->next;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The child's whole process group; the child alone if it has none yet. */
static void
kill_group(struct sp_exec *x)
{
	if (kill(-x->pid, SIGKILL) != 0)
		kill(x->pid, SIGKILL);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
sp_exec_fmt_seconds(struct sp_buf *b, double s)
{
	sp_buf_printf(b, "%gs", s);
}

int
sp_exec_timeout(double *seconds, struct sp_buf *msg)
{
	const char *v = getenv("SLURMPAST_TIMEOUT");
	const char *p;
	char *end;
	double d;

	*seconds = SP_EXEC_TIMEOUT_S;
	if (v == NULL)
		return 0;
	for (p = v; *p == ' ' || *p == '\t'; p++)
		;
	if (*p == '\0')
		return 0;
	/* strtod, not sp_strtod_full: 1e999 is a number, an infinite one. */
	errno = 0;
	d = strtod(p, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == p || *end != '\0' || isnan(d)) {
		sp_buf_printf(msg, "SLURMPAST_TIMEOUT is not a number of "
		    "seconds: '%s'", v);
		return -1;
	}
	if (!(d > 0) || isinf(d)) {
		sp_buf_printf(msg, "SLURMPAST_TIMEOUT must be a positive, "
		    "finite number of seconds: '%s'", v);
		return -1;
	}
	*seconds = d;
	return 0;
}

/* In the child, before exec: the environment that makes Slurm's output stable. */
static void
child_environment(void)
{
	setenv("SLURM_TIME_FORMAT", "standard", 1);
	setenv("LC_ALL", "C", 1);
	unsetenv("SACCT_FORMAT");
	unsetenv("SQUEUE_FORMAT");
	unsetenv("SQUEUE_FORMAT2");
}

static void
init(struct sp_exec *x, const char *name, double timeout_s)
{
	memset(x, 0, sizeof *x);
	x->pid = -1;
	x->out = -1;
	x->errfd = -1;
	x->name = name;
	x->timeout_s = timeout_s;
	x->deadline = now_s() + timeout_s;
}

/* Kills a child that is still running and reaps it. */
static void stop(struct sp_exec *x);

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Forks with stdout and stderr on pipes.  In the child it returns 0 with
 * the descriptors in place; in the parent the child's pid.  -1 when the
 * pipes or the fork failed (errno set).
 */
static pid_t
fork_piped(struct sp_exec *x)
{
	int outp[2], errp[2];
	pid_t pid;

	if (pipe(outp) != 0)
		return -1;
	if (pipe(errp) != 0) {
		close(outp[0]);
		close(outp[1]);
		return -1;
	}
	/* Nothing buffered may be written twice, once by each process. */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(outp[0]);
		close(outp[1]);
		close(errp[0]);
		close(errp[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		/* The parent's other children are not this process's. */
		live = NULL;

		if (devnull >= 0) {
			dup2(devnull, 0);
			if (devnull != 0)
				close(devnull);
		}
		dup2(outp[1], 1);
		dup2(errp[1], 2);
		close(outp[0]);
		close(outp[1]);
		close(errp[0]);
		close(errp[1]);
		/* A parent that stops reading must end the child, quietly. */
		signal(SIGPIPE, SIG_DFL);
		return 0;
	}
	/* Both sides set the group, whichever runs first. */
	setpgid(pid, pid);
	close(outp[1]);
	close(errp[1]);
	x->out = outp[0];
	x->errfd = errp[0];
	x->pid = pid;
	track(x);
	return pid;
}

int
sp_exec_start(struct sp_exec *x, char *const argv[], double timeout_s)
{
	int report[2];
	pid_t pid;
	ssize_t n;
	int e;

	init(x, argv[0], timeout_s);
	/* The child tells why execvp failed through a pipe closed on exec. */
	if (pipe(report) != 0) {
		x->exec_errno = errno;
		return -1;
	}
	fcntl(report[1], F_SETFD, FD_CLOEXEC);
	pid = fork_piped(x);
	if (pid < 0) {
		x->exec_errno = errno;
		close(report[0]);
		close(report[1]);
		return -1;
	}
	if (pid == 0) {
		close(report[0]);
		child_environment();
		execvp(argv[0], argv);
		e = errno;
		if (write(report[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	close(report[1]);
	do
		n = read(report[0], &e, sizeof e);
	while (n < 0 && errno == EINTR);
	close(report[0]);
	if (n == (ssize_t)sizeof e) {
		x->exec_errno = e;
		stop(x);
		return -1;
	}
	return 0;
}

int
sp_exec_start_fn(struct sp_exec *x, const char *name,
		 int (*fn)(FILE *out, void *arg), void *arg, double timeout_s)
{
	pid_t pid;
	FILE *out;
	int rc;

	init(x, name, timeout_s);
	pid = fork_piped(x);
	if (pid < 0) {
		x->exec_errno = errno;
		return -1;
	}
	if (pid == 0) {
		out = fdopen(1, "w");
		if (out == NULL)
			_exit(1);
		rc = fn(out, arg);
		if (fclose(out) != 0)
			rc = -1;
		/* _exit: the parent's stdio buffers are not ours to flush. */
		_exit(rc == 0 ? 0 : 1);
	}
	return 0;
}

/* Appends what stderr has for us; closes it at its end. */
static void
drain_err(struct sp_exec *x)
{
	char buf[4096];
	ssize_t n;

	n = read(x->errfd, buf, sizeof buf);
	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		close_fd(&x->errfd);
		return;
	}
	if (x->err.len < SP_EXEC_ERR_KEEP) {
		size_t room = SP_EXEC_ERR_KEEP - x->err.len;

		sp_buf_add(&x->err, buf, (size_t)n < room ? (size_t)n : room);
	}
}

static void
expire(struct sp_exec *x)
{
	x->timed_out = 1;
	if (x->pid > 0 && !x->reaped)
		kill_group(x);
	close_fd(&x->out);
	close_fd(&x->errfd);
}

/*
 * Waits until stdout (want_out) or stderr has something, or the
 * deadline.  Returns 1 when stdout is readable, 0 when only stderr was
 * served, -1 at the deadline.
 */
static int
wait_io(struct sp_exec *x, int want_out)
{
	struct pollfd pfd[2];
	nfds_t nfd = 0;
	int iout = -1, ierr = -1;
	double left;
	int ms, rc;

	if (want_out && x->out >= 0) {
		pfd[nfd].fd = x->out;
		pfd[nfd].events = POLLIN;
		iout = (int)nfd++;
	}
	if (x->errfd >= 0) {
		pfd[nfd].fd = x->errfd;
		pfd[nfd].events = POLLIN;
		ierr = (int)nfd++;
	}
	if (nfd == 0)
		return 1;
	left = x->deadline - now_s();
	if (left <= 0) {
		expire(x);
		return -1;
	}
	ms = left > 1e6 ? 1000000000 : (int)ceil(left * 1000.0);
	rc = poll(pfd, nfd, ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -1;
	if (rc == 0) {
		expire(x);
		return -1;
	}
	if (ierr >= 0 && pfd[ierr].revents)
		drain_err(x);
	if (iout >= 0 && pfd[iout].revents)
		return 1;
	return 0;
}

ssize_t
sp_exec_read(struct sp_exec *x, char *buf, size_t n)
{
	ssize_t got;
	int rc;

	for (;;) {
		if (x->out < 0)
			return x->timed_out ? -1 : 0;
		rc = wait_io(x, 1);
		if (rc < 0)
			return -1;
		if (rc == 0)
			continue;
		got = read(x->out, buf, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			close_fd(&x->out);
			return got < 0 ? -1 : 0;
		}
		return got;
	}
}

static void
reap(struct sp_exec *x, int flags)
{
	int st;
	pid_t r;

	if (x->pid <= 0 || x->reaped)
		return;
	do
		r = waitpid(x->pid, &st, flags);
	while (r < 0 && errno == EINTR);
	if (r != x->pid)
		return;
	x->reaped = 1;
	untrack(x);
	if (WIFEXITED(st))
		x->exit_code = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		x->term_signal = WTERMSIG(st);
}

int
sp_exec_finish(struct sp_exec *x)
{
	struct timespec tick = { 0, 10000000 };
	char buf[65536];

	while (x->out >= 0)
		if (sp_exec_read(x, buf, sizeof buf) < 0)
			break;
	while (x->errfd >= 0)
		if (wait_io(x, 0) < 0)
			break;
	/* The pipes are closed; a child that lingers past the deadline dies. */
	while (!x->reaped && x->pid > 0) {
		reap(x, WNOHANG);
		if (x->reaped)
			break;
		if (now_s() >= x->deadline) {
			expire(x);
			reap(x, 0);
			break;
		}
		nanosleep(&tick, NULL);
	}
	return !x->timed_out && x->exec_errno == 0 && x->term_signal == 0 &&
	    x->exit_code == 0 ? 0 : -1;
}

static void
stop(struct sp_exec *x)
{
	close_fd(&x->out);
	close_fd(&x->errfd);
	if (x->pid > 0 && !x->reaped) {
		reap(x, WNOHANG);
		if (!x->reaped) {
			kill_group(x);
			reap(x, 0);
		}
	}
}

void
sp_exec_free(struct sp_exec *x)
{
	stop(x);
	untrack(x);
	sp_buf_free(&x->err);
}

void
sp_exec_describe(const struct sp_exec *x, struct sp_buf *b)
{
	if (x->timed_out) {
		sp_buf_adds(b, "no answer within ");
		sp_exec_fmt_seconds(b, x->timeout_s);
	} else if (x->exec_errno)
		sp_buf_adds(b, strerror(x->exec_errno));
	else if (x->term_signal)
		sp_buf_printf(b, "killed by signal %d", x->term_signal);
	else
		sp_buf_printf(b, "exit status %d", x->exit_code);
}

void
sp_exec_err_line(const struct sp_exec *x, struct sp_buf *b)
{
	const char *p = sp_buf_str(&x->err);
	const char *end = p + x->err.len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *s = p;

		while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' ||
		    e[-1] == '\r'))
			e--;
		if (e > s) {
			sp_buf_add(b, s, (size_t)(e - s));
			return;
		}
		p = nl ? nl + 1 : end;
	}
}

int
sp_exec_capture(struct sp_exec *x, char *const argv[], double timeout_s,
		struct sp_buf *out)
{
	char buf[65536];
	ssize_t n;

	if (sp_exec_start(x, argv, timeout_s) != 0)
		return -1;
	while ((n = sp_exec_read(x, buf, sizeof buf)) > 0)
		sp_buf_add(out, buf, (size_t)n);
	return sp_exec_finish(x);
}

/* One poll over every pipe still open; each answer read into its place. */
static void
serve_all(struct sp_exec *x, struct sp_buf *out, size_t n)
{
	struct pollfd *pfd = sp_xmalloc(2 * n * sizeof *pfd);
	size_t *who = sp_xmalloc(2 * n * sizeof *who);
	char buf[65536];

	for (;;) {
		nfds_t nfd = 0;
		double first = 0, now = now_s();
		size_t i;
		int ms, rc;

		for (i = 0; i < n; i++) {
			if (x[i].out < 0 && x[i].errfd < 0)
				continue;
			if (x[i].deadline <= now) {
				expire(&x[i]);
				continue;
			}
			if (nfd == 0 || x[i].deadline < first)
				first = x[i].deadline;
			if (x[i].out >= 0) {
				pfd[nfd].fd = x[i].out;
				pfd[nfd].events = POLLIN;
				who[nfd++] = 2 * i;
			}
			if (x[i].errfd >= 0) {
				pfd[nfd].fd = x[i].errfd;
				pfd[nfd].events = POLLIN;
				who[nfd++] = 2 * i + 1;
			}
		}
		if (nfd == 0)
			break;
		ms = (int)ceil((first - now) * 1000.0);
		rc = poll(pfd, nfd, ms > 0 ? ms : 1);
		if (rc < 0 && errno != EINTR)
			break;
		for (i = 0; rc > 0 && i < nfd; i++) {
			struct sp_exec *c = &x[who[i] / 2];
			ssize_t got;

			if (pfd[i].revents == 0)
				continue;
			if (who[i] % 2) {
				drain_err(c);
				continue;
			}
			got = read(c->out, buf, sizeof buf);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				close_fd(&c->out);
			else
				sp_buf_add(&out[who[i] / 2], buf, (size_t)got);
		}
	}
	free(pfd);
	free(who);
}

int
sp_exec_capture_all(struct sp_exec *x, char *const *const argv[],
		    size_t n, double timeout_s, struct sp_buf *out)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < n; i++)
		if (sp_exec_start(&x[i], argv[i], timeout_s) != 0)
			rc = -1;
	serve_all(x, out, n);
	for (i = 0; i < n; i++)
		if (x[i].exec_errno == 0 && sp_exec_finish(&x[i]) != 0)
			rc = -1;
	return rc;
}
