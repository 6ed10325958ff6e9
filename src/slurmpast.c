/*
 * slurmpast - what happened to your Slurm jobs, and what the next
 * submission should ask for.
 *
 * The front door of the toolkit: it composes the filters, so that anyone
 * can ask each answer by hand:
 *
 *   sp-fetch | sp-group >jobs                the window, read once
 *   sp-select VIEW --keys, --workloads       what a view shows, and every
 *                                            run of the workloads it shows
 *   sp-group --rollup <jobs                  the workloads, by compute
 *   sp-size --findings <jobs                 failures across runs
 *   sp-size --running <jobs                  the jobs running now, judged
 *   sp-hang <jobs                            allocations that computed nothing
 *   sp-nodes <jobs                           machines that fail one workload
 *   sp-size <jobs                            what to request next time
 *   sp-backtest --headline <jobs             that advice, replayed
 *   sp-attr [DIR] <jobs                      where each job came from
 *   sp-report PART ...                       a section laid out
 *   sp-show -j ID <jobs                      one job's post-mortem
 *
 * Every rule, threshold and state list lives in those programs; this one
 * chooses which of them run, runs the independent ones side by side, and
 * puts their sections together (src/slurmpast/front.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "slurmpast/front.h"

static volatile sig_atomic_t got_signal;
static pid_t worker;

/* The run's directory and all below it. */
static void
remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	struct sp_buf b = { 0 };
	struct stat st;

	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		sp_buf_clear(&b);
		sp_buf_printf(&b, "%s/%s", path, e->d_name);
		if (lstat(b.p, &st) == 0 && S_ISDIR(st.st_mode))
			remove_tree(b.p);
		else
			unlink(b.p);
	}
	if (d)
		closedir(d);
	rmdir(path);
	sp_buf_free(&b);
}

/* The supervisor passes a signal on to the worker, which ends its
 * stages and then itself. */
static void
on_signal_supervisor(int sig)
{
	if (!got_signal)
		got_signal = sig;
	kill(worker, SIGTERM);
}

/* The worker ends every stage still running, and waits for each, so that
 * none writes into the directory being removed. */
static void
on_signal_worker(int sig)
{
	stages_stop();
	_exit(128 + sig);
}

static void
catch(int sig, void (*handler)(int))
{
	struct sigaction sa = { .sa_handler = handler };

	sigfillset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/*
 * The run's files live in a directory of their own, removed however the
 * run ends: this process waits for the one that does the work, and
 * removes it after.  Returns in the worker.
 */
static void
supervise(void)
{
	char tmpl[4096];
	const char *tmpdir = getenv("TMPDIR");
	int st;

	snprintf(tmpl, sizeof tmpl, "%s/slurmpast.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(tmpl))
		sp_die(SP_EXIT_USAGE, "cannot make a temporary directory");
	F.tmp = sp_xstrdup(tmpl);
	fflush(NULL);
	if ((worker = fork()) < 0)
		sp_die(SP_EXIT_USAGE, "fork:");
	if (worker == 0) {
		catch(SIGTERM, on_signal_worker);
		catch(SIGINT, on_signal_worker);
		catch(SIGHUP, on_signal_worker);
		atexit(stages_stop);
		return;
	}
	catch(SIGTERM, on_signal_supervisor);
	catch(SIGINT, on_signal_supervisor);
	catch(SIGHUP, on_signal_supervisor);
	while (waitpid(worker, &st, 0) < 0)
		if (errno != EINTR) {
			st = 2 << 8;
			break;
		}
	remove_tree(F.tmp);
	if (got_signal)
		exit(128 + got_signal);
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		exit(128 + WTERMSIG(st));
	}
	exit(WEXITSTATUS(st));
}

/* The sections in one fixed order, whatever the order asked in. */
static void
choose_sections(void)
{
	static const enum section text[] = { SEC_OVERVIEW, SEC_RUNNING,
		SEC_PATTERNS, SEC_PROBLEMS, SEC_ADVICE };
	static const enum section json_all[] = { SEC_OVERVIEW, SEC_RUNNING,
		SEC_PATTERNS, SEC_PROBLEMS, SEC_HANGS, SEC_NODES, SEC_SIZING,
		SEC_COST, SEC_BACKTEST };
	static const enum section page[] = { SEC_OVERVIEW, SEC_RUNNING,
		SEC_PATTERNS, SEC_PROBLEMS, SEC_HANGS, SEC_NODES, SEC_ADVICE,
		SEC_COST };
	const enum section *s = text;
	size_t n = sizeof text / sizeof *text;

	if (F.any_section)
		return;
	F.default_screen = 1;
	if (F.json) {
		s = json_all;
		n = sizeof json_all / sizeof *json_all;
	} else if (F.html) {
		s = page;
		n = sizeof page / sizeof *page;
	}
	for (size_t i = 0; i < n; i++)
		F.sections[s[i]] = 1;
}

/* A person at a terminal who asked for no one output: the dashboard,
 * which shows the running jobs of sacct's answer alone; the rollup's
 * warnings are the dashboard's to give, not ours. */
static void
dashboard(void)
{
	const char *term = getenv("TERM");
	struct args a = { 0 };
	const char *rollup;

	if (!F.tty || F.plain || F.json || F.html || F.no_pager ||
	    F.any_section || !term || !*term || strcmp(term, "dumb") == 0)
		return;
	rollup = tmp_path("rollup");
	if (!F.live) {
		const char *err = tmp_path("rollup.err");
		int fin = open_or_die(F.judged, O_RDONLY), fout, ferr, status;

		fout = open_or_die(rollup, O_WRONLY | O_CREAT | O_TRUNC);
		ferr = open_or_die(err, O_WRONLY | O_CREAT | O_TRUNC);
		args_add(&a, "sp-group");
		args_add(&a, "--rollup");
		status = stage_fd(fin, fout, ferr, &a, err);
		close(fin);
		close(fout);
		close(ferr);
		if (status != 0)
			failed("sp-group", status, err);
		if (no_records(rollup))
			nothing_said();
	}
	browse_dashboard();
}

int
main(int argc, char **argv)
{
	sp_setprog(argv[0]);
	front_parse(argc, argv);
	front_check();
	supervise();
	stages_init(argv[0]);
	front_check_values();
	front_derive();
	demo_clock();
	fetch();
	/* The open records of sacct's answer now, or of the demo at its
	 * clock, are jobs running now; a saved dump's ran when it was
	 * saved. */
	F.running_now = F.live || F.demo;
	if (F.ids.len)
		show_jobs();
	empty_window();
	if (F.advise)
		advise_script();
	view();
	if (F.table)
		table_jobs();
	dashboard();
	choose_sections();
	start_stages();
	nothing_ended();
	if (F.json)
		json();
	if (F.html)
		html_page();
	screen();
}
