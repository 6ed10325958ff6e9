/*
 * outputs.c - how the answer is shown: one job's post-mortem (sp-show),
 * the table of jobs, the advice written into a batch script, the
 * dashboard, the screen (the sections fitted, painted and paged by
 * sp-report screen), the HTML page (sp-plot page) and JSON Lines; then
 * the stages' warnings, once each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "front.h"

/* A stage writing straight to standard output, reading in; its errors
 * in errfile; its status. */
static int
direct(const char *in, struct args *a, const char *errfile)
{
	int fin = open_or_die(in, O_RDONLY);
	int ferr = open_or_die(errfile, O_WRONLY | O_CREAT | O_TRUNC);
	int status = stage_fd(fin, STDOUT_FILENO, ferr, a, errfile);

	close(fin);
	close(ferr);
	return status;
}

/* A writer that shows everything it is given ends as it said: 0 or 1
 * with its warnings as ours, 141 when its reader left (quietly), else
 * its own last line. */
static void __attribute__((noreturn))
ended(const char *name, int status, const char *errfile)
{
	switch (status) {
	case 0: case 1:
		as_ours_file(errfile, stderr);
		exit(status);
	case 141:
		exit(141);	/* SIGPIPE: the reader has all it wanted */
	}
	failed(name, status, errfile);
}

/* The demo's word on a table of records goes to standard error: a
 * table has no line of text above it. */
static void
demo_word(FILE *out)
{
	if (F.table_records) {
		if (F.demo)
			sp_warn("--demo: a synthetic history, not a real cluster's record");
	} else {
		demo_label(out);
	}
}

static FILE *
open_file(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	return f;
}

/* slurmpast JOBID...: sp-show's post-mortem of each job, over the window
 * as well, so that the node note rests on every run of the workload. */
void
show_jobs(void)
{
	struct args a = { 0 };
	const char *lead = tmp_path("lead"), *err = tmp_path("show.err");
	const char *grouped = tmp_path("grouped");
	struct stat st;
	FILE *f = open_file(lead);

	args_add(&a, "sp-show");
	args_add(&a, "-j");
	args_add(&a, F.ids.p);
	if (F.table) args_add(&a, "--table");
	if (F.csv) args_add(&a, "--csv");
	if (F.json) {
		args_add(&a, "--json");
	} else {
		if (F.plain) args_add(&a, "--plain");
		if (!F.color) args_add(&a, "--no-color");
		if (F.ascii) args_add(&a, "--ascii");
		if (F.no_pager) args_add(&a, "--no-pager");
	}
	demo_word(f);
	/* sp-show's "not read (--no-logs)" under "log" is ours, not the
	 * user's. */
	if (F.demo && !F.json && !F.table)
		fputs("The demo's log files are on no disk: slurmpast passes sp-show --no-logs.\n",
		      f);
	if (fclose(f) != 0)
		sp_die(SP_EXIT_USAGE, "%s:", lead);
	warnings_all();
	if (F.tty && !F.plain && stat(lead, &st) == 0 && st.st_size > 0) {
		/* fitted to the window, as the post-mortem under it is */
		struct args s = { 0 };
		const char *serr = tmp_path("lead.err");
		args_add(&s, "sp-report");
		args_add(&s, "screen");
		args_add(&s, "--no-pager");
		args_add(&s, lead);
		if (direct("/dev/null", &s, serr) != 0)
			sp_die(SP_EXIT_USAGE, "cannot write to the terminal");
		args_free(&s);
	} else {
		put(lead);
	}
	/* Straight to standard output: sp-show draws for the terminal it
	 * sees, and keeps what it shows safe to show. */
	front_log_args(&a);
	ended("sp-show", direct(grouped, &a, err), err);
}

/* slurmpast --table: one row a job (reportseff's table), every job the
 * view shows, by sp-show --table; --csv is that table as CSV. */
void
table_jobs(void)
{
	struct args a = { 0 };
	const char *err = tmp_path("show.err");

	args_add(&a, "sp-show");
	args_add(&a, "--table");
	if (F.json) {
		args_add(&a, "--json");
	} else if (F.csv) {
		args_add(&a, "--csv");
	} else {
		if (F.plain) args_add(&a, "--plain");
		if (F.no_pager || F.plain) args_add(&a, "--no-pager");
	}
	demo_word(stdout);
	if (fflush(stdout) != 0)
		sp_die(SP_EXIT_USAGE, "<stdout>:");
	warnings();
	front_log_args(&a);
	ended("sp-show", direct(F.shown, &a, err), err);
}

/* slurmpast --advise FILE: the window's advice written into the next
 * submission's batch script by sp-size --script, over every run of the
 * window: printed, as a diff, or in place. */
void
advise_script(void)
{
	struct args a = { 0 };
	const char *err = tmp_path("advise.err"), *grouped = tmp_path("grouped");
	int status;

	args_add(&a, "sp-size");
	args_addf(&a, "--script=%s", F.advise);
	if (F.user) args_addf(&a, "--user=%s", F.user);
	if (F.advise_out) args_add(&a, F.advise_out);
	if (F.advise_add) args_add(&a, "--add");
	warnings();
	status = direct(grouped, &a, err);
	as_ours_file(err, stderr);
	exit(status);
}

/*
 * The dashboard (sp-browse) over every run of the workloads the view
 * shows, for a person at a terminal who asked for no one output: the
 * same figures as the report, browsed rather than read.
 */
void
browse_dashboard(void)
{
	struct args a = { 0 };
	struct sp_buf source = { 0 }, window = { 0 }, words = { 0 };
	const char *err = tmp_path("browse.err");
	int status;

	args_add(&a, "sp-browse");
	if (!F.color) args_add(&a, "--no-color");
	if (F.ascii) args_add(&a, "--ascii");
	source_words(&source, &window);
	if (F.demo) {
		sp_buf_clear(&source);
		sp_buf_adds(&source, "the synthetic demo (sp-fetch --demo)");
	}
	if (F.view) {
		front_view_words(&words);
		if (source.len)
			sp_buf_adds(&source, ", ");
		sp_buf_printf(&source, "the workloads of the jobs of %s",
			      words.p);
	}
	if (source.len)
		args_addf(&a, "--source=%s", source.p);
	args_add(&a, F.judged);
	front_log_args(&a);
	status = direct("/dev/null", &a, err);
	warnings();
	switch (status) {
	case 0: case 129: case 130: case 143:
		/* hung up, Ctrl-C, ended: as sp-browse was */
		as_ours_file(err, stderr);
		exit(status);
	}
	failed("sp-browse", status, err);
}

/* A section's file: the stages write into it beside us (O_APPEND). */
static FILE *
section_file(const char *path)
{
	int fd = open_or_die(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND);
	FILE *f = fdopen(fd, "a");

	if (!f)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	return f;
}

static off_t
size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : 0;
}

/*
 * The screen: the sections, a blank line between two, fitted, painted
 * and paged for a terminal by sp-report screen; then the stages'
 * warnings, once each.
 */
void
screen(void)
{
	struct args a = { 0 };
	const char *err = tmp_path("screen.err");
	int i = 0, status;

	args_add(&a, "sp-report");
	args_add(&a, "screen");
	if (F.color) args_add(&a, "--color");
	if (F.no_pager || F.plain) args_add(&a, "--no-pager");
	for (int s = 0; s < SEC_COUNT; s++) {
		struct sp_buf name = { 0 };
		const char *path;
		FILE *f;

		if (!F.sections[s])
			continue;
		sp_buf_printf(&name, "section.%d", ++i);
		path = tmp_path(name.p);
		f = section_file(path);
		if (i == 1)
			demo_label(f);	/* the demo's first line says so */
		section((enum section)s, f);
		if (fclose(f) != 0)
			sp_die(SP_EXIT_USAGE, "%s:", path);
		/* A section with nothing to say (no job running) is left
		 * out. */
		if (size_of(path) > 0)
			args_add(&a, path);
		sp_buf_free(&name);
	}
	status = direct("/dev/null", &a, err);
	warnings();
	switch (status) {
	case 0: exit(F.critical);
	case 141: exit(141);	/* SIGPIPE: the reader has all it wanted */
	}
	failed("sp-report", status, err);
}

/* The file to standard output, then the stages' warnings once; a failed
 * write is one line and status 2, after them. */
static void __attribute__((noreturn))
written(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[65536];
	size_t n;
	int bad = 0, saved = 0;

	if (!f)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	while (!bad && (n = fread(buf, 1, sizeof buf, f)) > 0)
		bad = fwrite(buf, 1, n, stdout) != n;
	fclose(f);
	if (fflush(stdout) != 0 || ferror(stdout))
		bad = 1;
	saved = errno;
	warnings();
	if (bad) {
		errno = saved;
		sp_die(SP_EXIT_USAGE, "<stdout>:");
	}
	exit(F.critical);
}

static void
section_into(const char *name, enum section s, int label)
{
	const char *path = tmp_path(name);
	FILE *f = section_file(path);

	if (label)
		demo_label(f);
	section(s, f);
	if (fclose(f) != 0)
		sp_die(SP_EXIT_USAGE, "%s:", path);
}

/* A file copied whole; the line that says why not. */
static void
copy_to(const char *from, const char *to)
{
	FILE *in = fopen(from, "r"), *out;
	char buf[65536];
	size_t n;
	int bad = 0;

	if (!in)
		sp_die(SP_EXIT_USAGE, "%s:", from);
	if (!(out = fopen(to, "w"))) {
		warnings();
		sp_die(SP_EXIT_USAGE, "cannot create %s:", to);
	}
	while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0)
		bad = fwrite(buf, 1, n, out) != n;
	fclose(in);
	if (fclose(out) != 0)
		bad = 1;
	warnings();
	if (bad)
		sp_die(SP_EXIT_USAGE, "%s:", to);
}

/* --html: one page, each section of the text report with the figures of
 * its numbers beside it (sp-plot page draws them and escapes every
 * line). */
void
html_page(void)
{
	struct args a = { 0 };
	const char *page = tmp_path("page"), *running = tmp_path("p.running");
	const char *judged = F.judged;

	section_into("p.overview", SEC_OVERVIEW, 1);
	section_into("p.running", SEC_RUNNING, 0);
	section_into("p.findings", SEC_PATTERNS, 0);
	section_into("p.problems", SEC_PROBLEMS, 0);
	section_into("p.hangs", SEC_HANGS, 0);
	section_into("p.nodes", SEC_NODES, 0);
	{
		const char *nodes = tmp_path("nodes");
		collect(nodes);
	}
	section_into("p.advice", SEC_ADVICE, 0);
	section_into("p.cost", SEC_COST, 0);
	args_add(&a, "sp-plot");
	args_add(&a, "page");
	args_add(&a, "--title=slurmpast report");
	args_addf(&a, "--findings=%s/findings", F.tmp);
	args_addf(&a, "--text=%s/p.overview", F.tmp);
	args_addf(&a, "--figure=share=%s/rollup", F.tmp);
	args_addf(&a, "--figure=runtime=%s", judged);
	args_addf(&a, "--figure=failures=%s/rollup", F.tmp);
	if (size_of(running) > 0)
		args_addf(&a, "--text=%s", running);
	args_addf(&a, "--text=%s/p.findings", F.tmp);
	args_addf(&a, "--figure=memory-walk=%s", judged);
	args_addf(&a, "--figure=array=%s", judged);
	args_addf(&a, "--text=%s/p.problems", F.tmp);
	args_addf(&a, "--text=%s/p.hangs", F.tmp);
	args_addf(&a, "--figure=idle=%s/hangsum", F.tmp);
	args_addf(&a, "--text=%s/p.nodes", F.tmp);
	args_addf(&a, "--figure=nodes=%s/nodes", F.tmp);
	args_addf(&a, "--text=%s/p.advice", F.tmp);
	args_addf(&a, "--figure=verdicts=%s/advice", F.tmp);
	args_addf(&a, "--figure=advice=%s/advice", F.tmp);
	args_addf(&a, "--text=%s/p.cost", F.tmp);
	args_addf(&a, "--figure=cost=%s/cost", F.tmp);
	run(page, "/dev/null", &a);
	if (!F.html_out)
		written(page);
	copy_to(page, F.html_out);
	exit(F.critical);
}

/* --json: the headline, then every section asked for (all of them by
 * default), one record a line, each tagged with its part. */
void
json(void)
{
	const char *path = tmp_path("json");
	FILE *f;

	demo_label(stderr);
	f = section_file(path);
	section_headline(f);
	for (int s = 0; s < SEC_COUNT; s++)
		if (F.sections[s])
			section((enum section)s, f);
	if (fclose(f) != 0)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	written(path);
}
