/*
 * fetch.c - the window read once and grouped once (sp-fetch | sp-group),
 * the jobs named by id merged in or where each job came from added on
 * the way, and the view: what is shown, and every run of the workloads
 * it shows, which everything said rests on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "front.h"
#include "sp_exec.h"
#include "sp_intern.h"

/*
 * The demo's own clock (sp-fetch --demo-clock): a window given with it
 * is chosen on that clock, and the banner says so.
 */
void
demo_clock(void)
{
	const char *path;
	struct sp_exec x = { 0 };
	struct sp_buf now = { 0 }, why = { 0 };
	char *t, *colon;

	if (!F.demo || !(F.since || F.until))
		return;
	if (!(path = stage_find("sp-fetch", NULL)))
		exit(SP_EXIT_USAGE);
	char *const argv[] = { (char *)path, "--demo-clock", NULL };
	if (sp_exec_capture(&x, argv, SP_EXEC_TIMEOUT_S, &now) != 0) {
		sp_exec_err_line(&x, &why);
		if (!why.len)
			sp_exec_describe(&x, &why);
		sp_die(SP_EXIT_USAGE, "sp-fetch --demo-clock: %s", why.p);
	}
	sp_exec_free(&x);
	while (now.len && now.p[now.len - 1] == '\n')
		now.p[--now.len] = '\0';
	if ((t = strchr(sp_buf_str(&now), 'T')))
		*t = ' ';
	/* minutes: the seconds are the clock's, not the reader's */
	if ((colon = strrchr(sp_buf_str(&now), ':')) && t && colon > t + 3)
		*colon = '\0';
	F.demo_now = now.p;
}

/* The window in words ("since X until Y"), and where the records came
 * from, for the headline and the lines that say nothing matched. */
void
source_words(struct sp_buf *b, struct sp_buf *window)
{
	sp_buf_clear(window);
	if (F.since)
		sp_buf_printf(window, "since %s", F.since);
	if (F.until)
		sp_buf_printf(window, "%suntil %s", F.since ? " " : "",
			      F.until);
	sp_buf_clear(b);
	if (F.input) {
		/* Said once, here: the caveats that rest on them say unknown. */
		sp_buf_printf(b, "read from %s%s", F.input_name, F.site ? "" :
			      " (site facts unknown: not asked of this machine)");
		if (window->len)
			sp_buf_printf(b, ", %s", window->p);
	} else {
		sp_buf_adds(b, sp_buf_str(window));
	}
	while (b->len && b->p[b->len - 1] == '\n')
		b->p[--b->len] = '\0';
}

/* The jobs asked for by id, whatever their window: their records go
 * first, and those of the window they are not already in. */
static void
fetch_ids(const char *input)
{
	struct args a = { 0 };
	const char *asked = tmp_path("asked");

	args_add(&a, "sp-fetch");
	if (F.demo) {
		args_add(&a, "--demo");
	} else if (input) {
		args_addf(&a, "--input=%s", input);
		if (F.fields)
			args_addf(&a, "--fields=%s", F.fields);
	} else {
		/* a job named that still runs: its figures of the moment,
		 * as the report's "Running now" reads them */
		args_add(&a, "--live");
	}
	args_addf(&a, "--jobs=%s", F.ids.p);
	run(asked, "/dev/null", &a);
	args_free(&a);
}

/* The tab-separated fields of a line, without its newline. */
struct fields {
	const char **p;
	size_t *n;
	size_t count, cap, ncap;
};

static void
split(struct fields *f, const char *line, size_t len)
{
	const char *p = line, *end = line + len, *tab;

	f->count = 0;
	for (;;) {
		tab = memchr(p, '\t', (size_t)(end - p));
		f->p = sp_xgrow(f->p, &f->cap, f->count + 1, sizeof *f->p);
		f->n = sp_xgrow(f->n, &f->ncap, f->count + 1, sizeof *f->n);
		f->p[f->count] = p;
		f->n[f->count++] = (size_t)((tab ? tab : end) - p);
		if (!tab)
			break;
		p = tab + 1;
	}
}

static ssize_t
line_of(FILE *in, char **line, size_t *cap)
{
	ssize_t n = getline(line, cap, in);

	if (n > 0 && (*line)[n - 1] == '\n')
		(*line)[--n] = '\0';
	return n;
}

/*
 * One record a job, in the columns of the jobs named (read live, sp-fetch
 * --live's columns at the end): the window's records laid out in them by
 * name, a column they lack empty.  Runs in a process of its own between
 * sp-fetch and sp-group.
 */
static void
merge_asked(FILE *asked, FILE *in, FILE *out)
{
	struct fields f = { 0 };
	struct sp_intern seen = { 0 };
	char *line = NULL;
	size_t cap = 0, ncols = 0, id = 0, *from = NULL;
	struct sp_intern names = { 0 };
	ssize_t n;

	if ((n = line_of(asked, &line, &cap)) < 0)
		return;
	split(&f, line, (size_t)n);
	ncols = f.count;
	for (size_t i = 0; i < f.count; i++) {
		sp_intern(&names, f.p[i], f.n[i]);
		if (f.n[i] == 5 && memcmp(f.p[i], "jobid", 5) == 0)
			id = i;
	}
	fprintf(out, "%s\n", line);
	while ((n = line_of(asked, &line, &cap)) >= 0) {
		split(&f, line, (size_t)n);
		if (id < f.count)
			sp_intern(&seen, f.p[id], f.n[id]);
		fprintf(out, "%s\n", line);
	}
	if ((n = line_of(in, &line, &cap)) < 0)
		goto done;
	/* where each of the asked columns is in the window's: 0 none */
	from = sp_xcalloc(ncols ? ncols : 1, sizeof *from);
	split(&f, line, (size_t)n);
	for (size_t i = f.count; i-- > 0;) {
		long k = sp_intern_find(&names, f.p[i], f.n[i]);
		if (k >= 0)
			from[k] = i + 1;
	}
	while ((n = line_of(in, &line, &cap)) >= 0) {
		const char *key;
		size_t keyn;

		split(&f, line, (size_t)n);
		key = from[id] && from[id] <= f.count ? f.p[from[id] - 1] : "";
		keyn = from[id] && from[id] <= f.count ? f.n[from[id] - 1] : 0;
		if (sp_intern_find(&seen, key, keyn) >= 0)
			continue;
		sp_intern(&seen, key, keyn);
		for (size_t i = 0; i < ncols; i++) {
			if (i)
				putc('\t', out);
			if (from[i] && from[i] <= f.count)
				fwrite(f.p[from[i] - 1], 1, f.n[from[i] - 1], out);
		}
		putc('\n', out);
	}
done:
	free(from);
	free(line);
	free(f.p);
	free(f.n);
	sp_intern_free(&seen);
	sp_intern_free(&names);
}

/* The merge in a process of its own, from fd in to fd out. */
static pid_t
spawn_merge(int in, int out, int close_too)
{
	pid_t pid;
	FILE *asked, *fin, *fout;
	const char *path = tmp_path("asked");

	fflush(NULL);
	if ((pid = fork()) < 0)
		sp_die(SP_EXIT_USAGE, "fork:");
	if (pid == 0) {
		stages_forget();
		close(close_too);
		if (!(asked = fopen(path, "r")) || !(fin = fdopen(in, "r")) ||
		    !(fout = fdopen(out, "w")))
			_exit(2);
		merge_asked(asked, fin, fout);
		_exit(fclose(fout) == 0 ? 0 : 2);
	}
	child_track(pid);
	return pid;
}

/* sp-fetch's arguments for the window, as sacct would choose it. */
static void
fetch_args(struct args *a, const char *input)
{
	args_add(a, "sp-fetch");
	args_addf(a, "--stats=%s/stats", F.tmp);
	args_addf(a, "--site=%s/site", F.tmp);
	if (F.demo) {
		args_add(a, "--demo");
		if (F.attribute)
			args_addf(a, "--transcripts=%s/sources", F.tmp);
	} else if (input) {
		args_addf(a, "--input=%s", input);
		if (F.fields)
			args_addf(a, "--fields=%s", F.fields);
		if (F.site)
			args_add(a, "--local-site");
	}
	/* With job ids a fixed history is read for every user and
	 * cluster: a job's workload is judged on all its runs. */
	if (!F.fixed || !F.ids.len) {
		if (F.user) args_addf(a, "--user=%s", F.user);
		if (F.all_users) args_add(a, "--all-users");
		if (F.clusters) args_addf(a, "--clusters=%s", F.clusters);
	}
	/* From sacct, the jobs running now too, read live; the jobs named
	 * are fetched apart (live too), and merged in by job id. */
	if (!F.fixed && !F.ids.len) {
		F.live = 1;
		args_add(a, "--live");
	}
	if (F.since) args_addf(a, "--since=%s", F.since);
	if (F.until) args_addf(a, "--until=%s", F.until);
}

/* Standard input kept in a file: read twice (the ids, the window). */
static const char *
keep_stdin(void)
{
	static const char *path;
	char buf[65536];
	ssize_t n;
	int fd;

	path = tmp_path("stdin");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		sp_die(SP_EXIT_USAGE, "cannot keep standard input");
	while ((n = read(STDIN_FILENO, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(fd, buf, (size_t)n) != n)
			sp_die(SP_EXIT_USAGE, "cannot keep standard input");
	}
	close(fd);
	return path;
}

/* sp-attr's arguments: the demo's own transcripts, named under their
 * directory (logs/...); the paths given; or the user's own. */
static void
attr_args(struct args *a)
{
	args_add(a, "sp-attr");
	if (F.demo)
		args_add(a, ".");
	for (size_t i = 0; i < F.sources.n; i++)
		args_add(a, F.sources.v[i]);
}

/* The demo's sp-attr runs in its transcripts' directory: its path from
 * here made absolute first. */
static pid_t
spawn_attr(int in, int out, int err, int *status)
{
	struct args a = { 0 };
	const char *path;
	const char *dir = tmp_path("sources");
	char *cwd = NULL;
	struct sp_buf abs = { 0 };
	pid_t pid = 0;

	attr_args(&a);
	if (!(path = stage_find("sp-attr", NULL))) {
		*status = 2;
		goto done;
	}
	if (F.demo && strchr(path, '/') && path[0] != '/') {
		cwd = getcwd(NULL, 0);
		sp_buf_printf(&abs, "%s/%s", cwd ? cwd : ".", path);
		path = abs.p;
	}
	pid = spawn_at(F.demo ? dir : NULL, path, &a, in, out, err);
done:
	args_free(&a);
	sp_buf_free(&abs);
	free(cwd);
	return pid;
}

/*
 * The window read once and grouped once, into grouped; what sp-fetch
 * could not read into stats; the site's facts (asked once, while sacct
 * answers) into site, for every stage.  The records stream from sp-fetch
 * into sp-group, on the other core, never written in between.
 */
void
fetch(void)
{
	struct args a = { 0 }, g = { 0 };
	const char *input = F.input;
	const char *site = tmp_path("site"), *fetched = tmp_path("fetched");
	const char *fetch_err = tmp_path("fetch.err"), *group_err = tmp_path("group.err");
	const char *attr_err = tmp_path("attributed.err"), *grouped = tmp_path("grouped");
	int asked = 0, p1[2], p2[2], in, ferr, gerr, aerr = -1, gout;
	int fetch_status = 0, group_status = 2, attr_status = 0, mid_status = 0;
	pid_t fpid = 0, mid = 0, gpid = 0;
	const char *path;

	setenv("SLURMPAST_SITE", site, 1);
	if (input && strcmp(input, "-") == 0 && F.ids.len &&
	    (F.since || F.until))
		input = keep_stdin();
	fetch_args(&a, input);
	/* From sacct the ids are asked apart; a fixed history is read
	 * whole with them, unless a window chooses among its records. */
	if (F.ids.len && (!F.fixed || F.since || F.until)) {
		fetch_ids(input);
		asked = 1;
	}
	/* The program's own standard input is the dump's for --input -. */
	in = input && strcmp(input, "-") == 0 ? STDIN_FILENO :
		open_or_die("/dev/null", O_RDONLY);
	ferr = open_or_die(fetch_err, O_WRONLY | O_CREAT | O_TRUNC);
	gerr = open_or_die(group_err, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND);
	gout = open_or_die(grouped, O_WRONLY | O_CREAT | O_TRUNC);
	if (F.attribute)
		aerr = open_or_die(attr_err, O_WRONLY | O_CREAT | O_TRUNC);
	if (pipe(p1) < 0)
		sp_die(SP_EXIT_USAGE, "pipe:");
	fcntl(p1[0], F_SETFD, FD_CLOEXEC);
	fcntl(p1[1], F_SETFD, FD_CLOEXEC);
	if (F.attribute && F.demo) {
		/* sp-fetch writes the demo's transcripts as it writes its
		 * records: sp-attr reads them once the records have all
		 * come. */
		int fd = open_or_die(fetched, O_WRONLY | O_CREAT | O_TRUNC);
		fetch_status = stage_fd(in, fd, ferr, &a, fetch_err);
		close(fd);
		fd = open_or_die(fetched, O_RDONLY);
		mid = spawn_attr(fd, p1[1], aerr, &attr_status);
		close(fd);
		close(p1[1]);
		in = p1[0];
	} else {
		if ((path = stage_find("sp-fetch", fetch_err)))
			fpid = spawn(path, &a, in, p1[1], ferr);
		else
			fetch_status = 2;
		close(p1[1]);
		in = p1[0];
		if (asked || F.attribute) {
			if (pipe(p2) < 0)
				sp_die(SP_EXIT_USAGE, "pipe:");
			fcntl(p2[0], F_SETFD, FD_CLOEXEC);
			fcntl(p2[1], F_SETFD, FD_CLOEXEC);
			if (asked)
				mid = spawn_merge(p1[0], p2[1], p2[0]);
			else
				mid = spawn_attr(p1[0], p2[1], aerr,
						 &attr_status);
			close(p1[0]);
			close(p2[1]);
			in = p2[0];
		}
	}
	args_add(&g, "sp-group");
	if ((path = stage_find("sp-group", group_err)))
		gpid = spawn(path, &g, in, gout, gerr);
	else
		group_status = 2;
	close(in);
	if (gpid)
		group_status = wait_status(gpid);
	if (mid)
		mid_status = wait_status(mid);
	if (fpid)
		fetch_status = wait_status(fpid);
	if (F.attribute && mid)
		attr_status = mid_status;
	if (asked && mid_status > 1)
		sp_die(SP_EXIT_USAGE, "cannot merge the jobs named into the window");
	close(ferr);
	close(gerr);
	close(gout);
	if (aerr >= 0)
		close(aerr);
	/* sp-fetch killed by SIGPIPE was cut off by a stage after it that
	 * stopped reading: that stage's own error is the one to say. */
	if (fetch_status != 141)
		settle("sp-fetch", fetch_status, fetch_err);
	if (F.attribute)
		settle("sp-attr", attr_status, attr_err);
	settle("sp-group", group_status, group_err);
	if (fetch_status == 141)
		settle("sp-fetch", fetch_status, fetch_err);
	args_free(&a);
	args_free(&g);
}

/* A window with no record: one line, status 2. */
void
empty_window(void)
{
	const char *grouped = tmp_path("grouped");
	const char *p, *nl;
	int said = 0;

	if (!no_records(grouped)) {
		return;
	}
	if (F.demo)
		sp_die(SP_EXIT_USAGE, "no demo job matches");
	if (F.input)
		sp_die(SP_EXIT_USAGE, "no job in %s matches", F.input_name);
	/* sp-fetch has said what was asked: no jobs for alice since ... */
	for (p = warnings_text(); p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (strncmp(p, "slurmpast: no jobs ", 19) == 0) {
			fwrite(p, 1, (size_t)(nl + 1 - p), stderr);
			said = 1;
		}
	}
	if (!said)
		sp_warn("no jobs in the window");
	exit(SP_EXIT_USAGE);
}

/* Nothing ended in the window, and nothing running is shown. */
void
nothing_said(void)
{
	struct sp_buf source = { 0 }, window = { 0 }, where = { 0 };

	source_words(&source, &window);
	if (F.demo) {
		sp_buf_adds(&where, " of the demo");
		if (F.demo_now)
			sp_buf_printf(&where, " (its clock reads %s)",
				      F.demo_now);
	}
	if (F.input)
		sp_buf_printf(&where, " in %s", F.input_name);
	if (window.len)
		sp_die(SP_EXIT_USAGE, "no job%s ended in the window (%s)",
		       sp_buf_str(&where), window.p);
	sp_die(SP_EXIT_USAGE, "no job%s ended", sp_buf_str(&where));
}

/*
 * The grouped window split in two: shown holds the records the view
 * options choose (what is listed); judged every record of the workloads
 * those belong to, which every finding, verdict and figure rests on, so
 * that what is shown never changes what is said about it.
 */
void
view(void)
{
	struct args a = { 0 };
	const char *grouped = tmp_path("grouped"), *keys = tmp_path("keys");

	if (!F.view) {
		F.judged = F.shown = grouped;
		return;
	}
	F.judged = tmp_path("judged");
	F.shown = tmp_path("shown");
	args_add(&a, "sp-select");
	args_add(&a, "--keys");
	front_view_args(&a);
	run(keys, grouped, &a);
	args_free(&a);
	if (no_records(keys)) {
		if (F.attributed)
			sp_die(SP_EXIT_USAGE, "no job of the window is attributable: nothing read names one (--attribute without --attributed shows them all)");
		if (F.demo)
			sp_die(SP_EXIT_USAGE, "no demo job matches");
		if (F.input)
			sp_die(SP_EXIT_USAGE, "no job in %s matches", F.input);
		sp_die(SP_EXIT_USAGE, "no job in the window matches");
	}
	args_add(&a, "sp-select");
	args_addf(&a, "--workloads=%s", keys);
	run(F.judged, grouped, &a);
	args_free(&a);
	args_add(&a, "sp-select");
	front_view_args(&a);
	run(F.shown, F.judged, &a);
	args_free(&a);
}
