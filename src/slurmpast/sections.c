/*
 * sections.c - the stages a section reads, started as soon as the
 * records are there and each once, side by side; and the sections, each
 * collecting what it reads and writing its text (a title marked with RS,
 * which the screen makes bold), or with --json its records, each tagged
 * with its part's name.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include "front.h"

static const char clock_words[] =
	"now, today and now-N count back from there";

static int
want(enum section s)
{
	return F.sections[s];
}

static void
nodes_args(struct args *a)
{
	if (F.metric) args_addf(a, "--metric=%s", F.metric);
	if (F.all_workloads) args_add(a, "--all-workloads");
}

static void
problems_args(struct args *a)
{
	args_addf(a, "--hangs=%s", tmp_path("hangs"));
	args_addf(a, "--failed=%s", tmp_path("failed"));
	if (F.top) args_addf(a, "--top=%s", F.top);
	if (F.failed) args_add(a, "--failed-only");
}

/* start, over a list of words: start_words(OUT, IN, NAME, ARG..., NULL). */
static void
start_words(const char *out, const char *in, const char *first, ...)
{
	struct args a = { 0 };
	va_list ap;
	const char *w;

	args_add(&a, first);
	va_start(ap, first);
	while ((w = va_arg(ap, const char *)))
		args_add(&a, w);
	va_end(ap);
	start(tmp_path(out), in, &a);
	args_free(&a);
}

/*
 * A stage of the problem chain, in the chain's own process: its status,
 * said in OUT.rc as "STATUS NAME" for collect (2 until it says its own);
 * true for 0 and 1, as run's.
 */
static pid_t
chain_start(const char *out, const char *in, struct args *a, int *status)
{
	const char *path;
	char *err;
	int fin, fout, ferr;
	pid_t pid;

	chain_record(out, 2, a->v[0]);
	err = sp_xmalloc(strlen(out) + 5);
	sprintf(err, "%s.err", out);
	ferr = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (!(path = stage_find(a->v[0], err))) {
		*status = 2;
		pid = 0;
	} else {
		fin = open(in, O_RDONLY | O_CLOEXEC);
		fout = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			    0600);
		pid = fin < 0 || fout < 0 ? 0 : spawn(path, a, fin, fout, ferr);
		*status = pid ? -1 : 2;
		close(fin);
		close(fout);
	}
	close(ferr);
	free(err);
	return pid;
}

static int
chain_wait(const char *out, const char *name, pid_t pid, int status)
{
	if (pid)
		status = wait_status(pid);
	chain_record(out, status, name);
	return status <= 1;
}

static int
chain_one(const char *out, const char *in, struct args *a)
{
	int status;
	pid_t pid = chain_start(out, in, a, &status);
	int ok = chain_wait(out, a->v[0], pid, status);

	args_free(a);
	return ok;
}

/*
 * The problem jobs: the hangs and the failures, then each listed job
 * judged alone.  The second half waits for the first: one chain in a
 * process of its own, which the section collects stage by stage.
 */
static void
problems_chain(void)
{
	struct args h = { 0 }, f = { 0 }, a = { 0 };
	const char *hangs = tmp_path("hangs"), *failed_jobs = tmp_path("failed");
	const char *ids = tmp_path("ids"), *jobruns = tmp_path("jobruns");
	struct stat st;
	int hs, fs;
	pid_t hp, fp;

	args_add(&h, "sp-hang");
	args_add(&f, "sp-select");
	args_add(&f, "--failed");
	hp = chain_start(hangs, F.shown, &h, &hs);
	fp = chain_start(failed_jobs, F.shown, &f, &fs);
	if (!chain_wait(hangs, "sp-hang", hp, hs) ||
	    !chain_wait(failed_jobs, "sp-select", fp, fs))
		return;
	/* The listed jobs' workloads from the same reading (--keys-to);
	 * with --plain every job, as the text folds them all. */
	args_add(&a, "sp-report");
	args_add(&a, "problems");
	args_add(&a, "--ids");
	args_add(&a, F.out);
	args_addf(&a, "--keys-to=%s", tmp_path("jobkeys"));
	problems_args(&a);
	if (!chain_one(ids, "/dev/null", &a) || stat(ids, &st) != 0 ||
	    st.st_size == 0)
		return;
	args_add(&a, "sp-select");
	args_addf(&a, "--workloads=%s", tmp_path("jobkeys"));
	if (!chain_one(jobruns, F.judged, &a))
		return;
	/* A file, not an argument: every listed job at --top 0 is more
	 * than one argument may hold. */
	args_add(&a, "sp-show");
	args_add(&a, "--findings");
	args_addf(&a, "--jobs-from=%s", ids);
	front_log_args(&a);
	chain_one(tmp_path("jobfindings"), jobruns, &a);
}

static void
start_problems(void)
{
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) < 0)
		sp_die(SP_EXIT_USAGE, "fork:");
	if (pid == 0) {
		stages_forget();
		problems_chain();
		_exit(0);
	}
	child_track(pid);
	F.chain_pid = pid;
}

void
start_stages(void)
{
	struct args a = { 0 };

	args_add(&a, "sp-group");
	args_add(&a, "--rollup");
	if (F.sort)
		args_addf(&a, "--sort=%s", F.sort);
	start(tmp_path("rollup"), F.judged, &a);
	args_free(&a);
	/* The advice and the findings are made of the same histories: one
	 * sp-size reads them for both when both are wanted. */
	if (want(SEC_ADVICE) || want(SEC_SIZING)) {
		args_add(&a, "sp-size");
		args_addf(&a, "--findings-to=%s", tmp_path("findings"));
		start(tmp_path("advice"), F.judged, &a);
		args_free(&a);
		F.findings_stage = tmp_path("advice");
	} else {
		start_words("findings", F.judged, "sp-size", "--findings", NULL);
		F.findings_stage = tmp_path("findings");
	}
	/* the running jobs' warnings: their section, and the headline's */
	if (F.running_now &&
	    (want(SEC_RUNNING) || want(SEC_OVERVIEW) || F.json)) {
		start_words("running", F.judged, "sp-size", "--running", NULL);
		F.running_started = 1;
	}
	/* the headline leads every JSON answer */
	if (want(SEC_OVERVIEW) || F.json)
		start_words("hangsum", F.judged, "sp-hang", "--summary", NULL);
	if (want(SEC_PROBLEMS))
		start_problems();
	if (want(SEC_NODES)) {
		if (F.html) {
			args_add(&a, "sp-nodes");
			nodes_args(&a);
			start(tmp_path("nodes"), F.judged, &a);
			args_free(&a);
		}
		args_add(&a, "sp-nodes");
		args_add(&a, "--exclude");
		nodes_args(&a);
		start(tmp_path("exclude"), F.judged, &a);
		args_free(&a);
	}
	if (want(SEC_COST))
		start_words("cost", F.judged, "sp-size", "--cost", NULL);
	/* the advice's one line out of sample, under the report's advice */
	if (!F.json && (want(SEC_ADVICE) || want(SEC_SIZING)))
		start_words("headline", F.judged, "sp-backtest", "--headline",
			    NULL);
	if (F.attribute)
		start_words("bysource", F.judged, "sp-group", "--rollup",
			    "--by", "source,source_dir", NULL);
}

/*
 * A window in which no job ended, and none running shown (sections
 * without them), has nothing to report: one line, status 2, as an empty
 * window.
 */
void
nothing_ended(void)
{
	collect(tmp_path("rollup"));
	if (!no_records(tmp_path("rollup")))
		return;
	if (F.running_started && want(SEC_RUNNING)) {
		collect(tmp_path("running"));
		if (!no_records(tmp_path("running")))
			return;
	}
	nothing_said();
}

void
demo_label(FILE *out)
{
	if (!F.demo)
		return;
	if (F.json) {
		sp_warn("--demo: a synthetic history, not a real cluster's record");
		if (F.since || F.until)
			sp_warn("--demo: its clock reads %s: %s", F.demo_now,
				clock_words);
		return;
	}
	fputs("Demo: a synthetic history (sp-fetch --demo), not a real cluster's record.\n",
	      out);
	if (F.since || F.until)
		fprintf(out, "Its clock reads %s: %s.\n", F.demo_now,
			clock_words);
}

static void
title(FILE *out, const char *text)
{
	if (!F.json)
		fprintf(out, "\036%s\n", text);
}

static void
blank(FILE *out)
{
	if (!F.json)
		putc('\n', out);
}

/* Each record of the part tagged with its name (sp-hang's own
 * "section" is its row). */
static void
tag(FILE *out, const char *name, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	static const char hang_row[] = "{\"section\":";

	if (!f)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	while ((n = getline(&line, &cap, f)) > 0) {
		if (strcmp(name, "hangs") == 0 &&
		    strncmp(line, hang_row, sizeof hang_row - 1) == 0)
			fprintf(out, "{\"section\":\"hangs\",\"row\":%s",
				line + sizeof hang_row - 1);
		else if (strcmp(name, "hangs") != 0 && line[0] == '{')
			fprintf(out, "{\"section\":\"%s\",%s", name, line + 1);
		else
			fwrite(line, 1, (size_t)n, out);
	}
	free(line);
	fclose(f);
}

/*
 * One part of a section: the stage's text, or its records tagged with
 * name; a 1 from the stage is a critical finding shown.  The stage's
 * failure stops the run before any section is shown.
 */
static void
part(FILE *out, const char *name, const char *in, struct args *a)
{
	static const char *err, *file;	/* one pair for every part */
	int fin, ferr, fout, status;

	if (!err) {
		err = tmp_path("part.err");
		file = tmp_path("part");
	}
	fin = open(in ? in : "/dev/null", O_RDONLY | O_CLOEXEC);
	ferr = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fin < 0 || ferr < 0)
		sp_die(SP_EXIT_USAGE, "%s:", fin < 0 ? in : err);
	fflush(out);
	fout = F.json ? open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0600) : fileno(out);
	status = stage_fd(fin, fout, ferr, a, err);
	close(fin);
	close(ferr);
	if (F.json)
		close(fout);
	if (settle(a->v[0], status, err))
		F.critical = 1;
	if (F.json)
		tag(out, name, file);
	args_free(a);
}

/* A part of sp-report: sp-report PART OUT, then the arguments. */
static void
report_args(struct args *a, const char *part_name)
{
	args_add(a, "sp-report");
	args_add(a, part_name);
	args_add(a, F.out);
}

void
section_headline(FILE *out)
{
	struct args a = { 0 };
	struct sp_buf source = { 0 }, window = { 0 }, words = { 0 };

	collect(tmp_path("rollup"));
	collect(tmp_path("hangsum"));
	source_words(&source, &window);
	report_args(&a, "headline");
	args_addf(&a, "--rollup=%s", tmp_path("rollup"));
	args_addf(&a, "--hang-summary=%s", tmp_path("hangsum"));
	args_addf(&a, "--fetch-stats=%s", tmp_path("stats"));
	args_addf(&a, "--source=%s", sp_buf_str(&source));
	if (F.view) {
		front_view_words(&words);
		args_addf(&a, "--shown=%s", F.shown);
		args_addf(&a, "--view=%s", sp_buf_str(&words));
	}
	if (F.attribute) {
		collect(tmp_path("bysource"));
		args_addf(&a, "--sources=%s", tmp_path("bysource"));
	}
	if (F.running_started) {
		collect(tmp_path("running"));
		args_addf(&a, "--running=%s", tmp_path("running"));
	}
	part(out, "headline", NULL, &a);
	sp_buf_free(&source);
	sp_buf_free(&window);
	sp_buf_free(&words);
}

static void
section_overview(FILE *out)
{
	struct args a = { 0 };

	/* Every JSON answer begins with the headline, asked or not. */
	if (!F.json) {
		section_headline(out);
		blank(out);
	}
	collect(F.findings_stage);
	title(out, "Workloads by compute");
	report_args(&a, "workloads");
	args_addf(&a, "--rollup=%s", tmp_path("rollup"));
	args_addf(&a, "--findings=%s", tmp_path("findings"));
	part(out, "overview", NULL, &a);
	if (!F.attribute)
		return;
	collect(tmp_path("bysource"));
	blank(out);
	title(out, "Workloads by session");
	report_args(&a, "sources");
	args_addf(&a, "--sources=%s", tmp_path("bysource"));
	part(out, "sources", NULL, &a);
}

/* The jobs running now, when the history is sacct's of now or the
 * demo's (running at its own clock); on the screen only when some job
 * runs. */
static void
section_running(FILE *out)
{
	struct args a = { 0 };

	if (!F.running_now)
		return;
	collect(tmp_path("rollup"));
	collect(tmp_path("running"));
	if (!F.json && no_records(tmp_path("running")))
		return;
	title(out, "Running now");
	report_args(&a, "running");
	args_addf(&a, "--running=%s", tmp_path("running"));
	args_addf(&a, "--rollup=%s", tmp_path("rollup"));
	part(out, "running", NULL, &a);
}

static void
section_patterns(FILE *out)
{
	struct args a = { 0 };

	collect(tmp_path("rollup"));
	collect(F.findings_stage);
	title(out, "Findings across runs");
	report_args(&a, "findings");
	if (!F.default_screen || F.json)
		args_add(&a, "--top=0");
	args_addf(&a, "--rollup=%s", tmp_path("rollup"));
	args_addf(&a, "--findings=%s", tmp_path("findings"));
	args_add(&a, "--more=slurmpast --patterns");
	part(out, "patterns", NULL, &a);
}

static void
section_problems(FILE *out)
{
	struct args a = { 0 };
	struct stat st;

	collect(tmp_path("hangs"));
	collect(tmp_path("failed"));
	collect(tmp_path("ids"));
	if (stat(tmp_path("ids"), &st) == 0 && st.st_size > 0) {
		/* Each listed job judged alone, its node against every run
		 * of its workload: sp-show reads those workloads only. */
		collect(tmp_path("jobruns"));
		collect(tmp_path("jobfindings"));
	}
	report_args(&a, "problems");
	args_add(&a, F.json ? "--more=slurmpast --json --top 0 gives every one"
		 : "--more=slurmpast --top 0 lists every one");
	/* sp-show failed (said above): the jobs are listed without theirs. */
	if (stat(tmp_path("jobfindings"), &st) == 0 && st.st_size > 0)
		args_addf(&a, "--job-findings=%s", tmp_path("jobfindings"));
	problems_args(&a);
	title(out, "Problem jobs, newest first");
	part(out, "problems", NULL, &a);
}

static void
section_hangs(FILE *out)
{
	struct args a = { 0 };

	title(out, "Allocations that computed nothing");
	args_add(&a, "sp-hang");
	args_add(&a, "--summary");
	args_add(&a, F.out);
	part(out, "hangs", F.judged, &a);
}

static void
section_nodes(FILE *out)
{
	struct args a = { 0 };

	collect(tmp_path("exclude"));
	title(out, "Machines that fail one workload");
	args_add(&a, "sp-nodes");
	args_add(&a, F.out);
	nodes_args(&a);
	part(out, "nodes", F.judged, &a);
	if (F.json) {
		args_add(&a, "sp-nodes");
		args_add(&a, "--exclude");
		args_add(&a, "--json");
		nodes_args(&a);
		part(out, "exclude", F.judged, &a);
	} else {
		report_args(&a, "exclude");
		args_addf(&a, "--exclude=%s", tmp_path("exclude"));
		args_add(&a, "--all");
		part(out, "exclude", NULL, &a);
	}
}

/* The advice replayed out of sample, in one line (sp-backtest
 * --headline), under the advice it judges. */
static void
backtest_line(FILE *out)
{
	FILE *f;
	int c;

	collect(tmp_path("headline"));
	putc('\n', out);
	if (!(f = fopen(tmp_path("headline"), "r")))
		sp_die(SP_EXIT_USAGE, "%s:", tmp_path("headline"));
	while ((c = getc(f)) != EOF)
		putc(c, out);
	fclose(f);
}

static void
section_sizing(FILE *out)
{
	struct args a = { 0 };

	collect(tmp_path("rollup"));
	collect(tmp_path("advice"));	/* 1: a critical finding (--findings-to) */
	title(out, "What to request next time");
	if (F.json) {
		args_add(&a, "sp-select");
		args_add(&a, "--json");
		part(out, "sizing", tmp_path("advice"), &a);
		return;
	}
	report_args(&a, "advice");
	args_addf(&a, "--rollup=%s", tmp_path("rollup"));
	args_addf(&a, "--advice=%s", tmp_path("advice"));
	args_add(&a, "--all");
	part(out, "advice", NULL, &a);
	backtest_line(out);
}

/* The default screen's advice: the changes, the machines to leave out
 * among them (sp-size's --exclude records). */
static void
section_advice(FILE *out)
{
	struct args a = { 0 };

	collect(tmp_path("rollup"));
	collect(tmp_path("advice"));
	title(out, "What the next submission should ask for");
	report_args(&a, "advice");
	args_addf(&a, "--rollup=%s", tmp_path("rollup"));
	args_addf(&a, "--advice=%s", tmp_path("advice"));
	args_add(&a, "--more=slurmpast --sizing");
	part(out, "advice", NULL, &a);
	backtest_line(out);
}

static void
section_cost(FILE *out)
{
	struct args a = { 0 };

	collect(tmp_path("cost"));
	title(out, "The value of following the advice");
	args_add(&a, "sp-size");
	args_add(&a, "--cost");
	args_add(&a, F.out);
	part(out, "cost", F.judged, &a);
	if (!F.attribute)
		return;
	blank(out);
	title(out, "The value of following the advice, in the attributable part");
	args_add(&a, "sp-size");
	args_add(&a, "--cost");
	args_add(&a, "--attributed");
	args_add(&a, F.out);
	part(out, "cost_attributed", F.judged, &a);
}

/* The advice replayed out of sample (sp-backtest --summary): by flag,
 * policy and evidence, what it would have cut off and killed again.  In
 * --json; the report's one line is sp-backtest --headline's. */
static void
section_backtest(FILE *out)
{
	struct args a = { 0 };

	title(out, "The advice replayed out of sample");
	args_add(&a, "sp-backtest");
	args_add(&a, "--summary");
	args_add(&a, F.out);
	part(out, "backtest", F.judged, &a);
}

void
section(enum section s, FILE *out)
{
	static void (*const draw[SEC_COUNT])(FILE *) = {
		[SEC_OVERVIEW] = section_overview,
		[SEC_RUNNING] = section_running,
		[SEC_PATTERNS] = section_patterns,
		[SEC_PROBLEMS] = section_problems,
		[SEC_HANGS] = section_hangs,
		[SEC_NODES] = section_nodes,
		[SEC_SIZING] = section_sizing,
		[SEC_COST] = section_cost,
		[SEC_BACKTEST] = section_backtest,
		[SEC_ADVICE] = section_advice,
	};

	draw[s](out);
	fflush(out);
}
