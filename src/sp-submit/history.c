/*
 * history.c - the submitting user's history, read from sp-fetch (and so
 * through its store: a warm store asks sacct only for what is new), the
 * runs of one workload name kept.
 *
 * sp-fetch's records stream in through a pipe and are read as they
 * come; a timer ends sp-fetch's whole process group at the budget, so a
 * submission waits at most that long whatever sacct does.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/time.h>

#include "sp_exec.h"
#include "sp_workload.h"
#include "submit.h"

static volatile sig_atomic_t expired;
static volatile pid_t fetch_pid;

static void
on_alarm(int sig)
{
	(void)sig;
	expired = 1;
	if (fetch_pid > 0)
		kill(-fetch_pid, SIGKILL);
}

static void
arm(double seconds)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	/* A read cut by the timer goes on, and finds the pipe's end. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	if (seconds > 1e6)
		seconds = 1e6;
	it.it_value.tv_sec = (time_t)seconds;
	it.it_value.tv_usec = (suseconds_t)((seconds - floor(seconds)) * 1e6);
	if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
		it.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &it, NULL);
}

static void
disarm(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &it, NULL);
	fetch_pid = 0;
	signal(SIGALRM, SIG_DFL);
}

char *
submit_beside(const char *name)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	struct sp_buf p = { 0 };
	char *slash;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash != NULL) {
			sp_buf_add(&p, self, (size_t)(slash - self) + 1);
			sp_buf_adds(&p, name);
			if (access(sp_buf_str(&p), X_OK) == 0)
				return p.p;
		}
	}
	sp_buf_free(&p);
	return sp_xstrdup(name);
}

/* The records into set: the runs of the workload name alone. */
static int
read_records(FILE *fp, const char *workload, struct sp_histset *set,
	     struct sp_nodes *nodes, struct sp_buf *why)
{
	struct sp_reader r;
	struct sp_jobcols c;
	struct sp_job j;
	struct sp_buf wl = { 0 }, key = { 0 }, fold = { 0 };
	size_t wlen = strlen(workload);
	int rc;

	if (sp_reader_open_stream(&r, fp, "sp-fetch") != 0) {
		sp_buf_adds(why, sp_buf_str(&r.err));
		sp_reader_close(&r);
		return -1;
	}
	sp_jobcols_only(&c, &r, "jobid", "jobid_raw", "array_job",
	    "array_task", "step", "attempt", "name", "user", "partition",
	    "state", "submit", "start", "end", "open", "elapsed_s",
	    "timelimit_s", "req_cpus", "alloc_cpus", "ntasks", "alloc_gpus",
	    "nnodes", "mem_limit_node_b", "mem_limit_total_b", "max_rss_b",
	    "total_cpu_s", "cpu_time_s", "read_b", "write_b", "gpu_util",
	    "nodelist", NULL);
	sp_jobcols_want(&r, &c);
	set->missing = sp_cols_missing(&c);
	while ((rc = sp_reader_next(&r)) == 1) {
		struct sp_slice name = sp_reader_field(&r, c.name);

		/* Most of a user's runs are other workloads: the name
		 * first, the record only for this one's. */
		sp_buf_clear(&fold);
		sp_workload_fold(&fold, name.p, name.n);
		if (fold.len != wlen || memcmp(fold.p, workload, wlen) != 0)
			continue;
		if (sp_job_parse_checked(&j, &c, &r) != 0) {
			rc = -1;
			break;
		}
		sp_workload_of(&wl, &key, j.name.p, j.name.n, j.user.p,
			       j.user.n, j.partition.p, j.partition.n,
			       isnan(j.alloc_gpus) ? -1 : j.alloc_gpus > 0);
		j.workload = (struct sp_slice){ wl.p, wl.len };
		j.workload_key = (struct sp_slice){ key.p, key.len };
		sp_histset_add(set, sp_histset_find(set, key.p, key.len), &j);
		sp_nodes_add(nodes, &j);
	}
	if (rc < 0)
		sp_buf_adds(why, sp_buf_str(&r.err));
	sp_buf_free(&wl);
	sp_buf_free(&key);
	sp_buf_free(&fold);
	sp_reader_close(&r);
	return rc < 0 ? -1 : 0;
}

/* A directory of our own for the site's facts; NULL when none can be. */
static char *
scratch_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	struct sp_buf d = { 0 };

	sp_buf_printf(&d, "%s/sp-submit.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(d.p) == NULL) {
		sp_buf_free(&d);
		return NULL;
	}
	return d.p;
}

int
history_read(const char *user, const char *since, const char *workload,
	     double budget, struct sp_histset *set, struct sp_nodes *nodes,
	     struct sp_site *site, struct sp_buf *why)
{
	char *fetch = submit_beside("sp-fetch");
	char *dir = getenv("SLURMPAST_SITE") ? NULL : scratch_dir();
	struct sp_buf site_path = { 0 }, site_arg = { 0 }, line = { 0 };
	char *argv[] = { fetch, "--user", (char *)user, "--starttime",
		(char *)since, NULL, NULL };
	struct sp_exec x;
	FILE *fp;
	int rc = -1, read_rc;

	memset(set, 0, sizeof *set);
	sp_site_unknown(site);
	if (dir != NULL) {
		sp_buf_printf(&site_path, "%s/site", dir);
		sp_buf_printf(&site_arg, "--site=%s", sp_buf_str(&site_path));
		argv[5] = site_arg.p;
	}
	expired = 0;
	if (sp_exec_start(&x, argv, budget) != 0) {
		sp_buf_printf(why, "cannot run %s: %s", fetch,
			      strerror(x.exec_errno));
		goto out;
	}
	fetch_pid = x.pid;
	arm(budget);
	fp = fdopen(x.out, "r");
	if (fp == NULL) {
		sp_buf_printf(why, "cannot read sp-fetch: %s", strerror(errno));
		disarm();
		goto out;
	}
	x.out = -1;
	read_rc = read_records(fp, workload, set, nodes, &line);
	fclose(fp);
	disarm();
	/* Its standard error, and its end, within what is left. */
	if (sp_exec_finish(&x) != 0 || expired || read_rc != 0) {
		if (expired || x.timed_out) {
			sp_buf_adds(why, "no answer within ");
			sp_exec_fmt_seconds(why, budget);
		} else if (x.exit_code == 0 && x.term_signal == 0) {
			/* sp-fetch answered; its records could not be read. */
			sp_buf_printf(why, "sp-fetch's records: %s",
				      sp_buf_str(&line));
		} else {
			sp_buf_clear(&line);
			sp_exec_err_line(&x, &line);
			if (line.len == 0)
				sp_exec_describe(&x, &line);
			sp_buf_add(why, line.p, line.len);
		}
		sp_histset_free(set);
		memset(set, 0, sizeof *set);
		goto out;
	}
	sp_histset_finish(set);
	if (dir != NULL) {
		struct sp_buf err = { 0 };

		/* Facts not had stay unknown: the advice says so. */
		if (sp_site_read(site, sp_buf_str(&site_path), &err) != 0)
			sp_site_unknown(site);
		sp_buf_free(&err);
	} else {
		sp_site_load(site);
	}
	rc = 0;
out:
	sp_exec_free(&x);
	if (dir != NULL) {
		unlink(sp_buf_str(&site_path));
		rmdir(dir);
	}
	free(dir);
	free(fetch);
	sp_buf_free(&site_path);
	sp_buf_free(&site_arg);
	sp_buf_free(&line);
	return rc;
}
