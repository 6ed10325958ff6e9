/*
 * The log ladder: pattern expansion, the submit line, and every rung
 * with real files in a temporary directory.
 */
/* nftw with FTW_PHYS, to remove the temporary tree. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "sp.h"
#include "sp_logs.h"
#include "tap.h"
#include "testjob.h"

static char tmp[] = "/tmp/test_logs.XXXXXX";

static const char *
at(const char *rel)
{
	static char path[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof path[i], "%s/%s", tmp, rel);
	return path[i];
}

static void
write_file(const char *rel, const char *text)
{
	FILE *f = fopen(at(rel), "w");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(rel);
		exit(1);
	}
}

static void
mkdir_rel(const char *rel)
{
	if (mkdir(at(rel), 0755) != 0 && errno != EEXIST) {
		perror(rel);
		exit(1);
	}
}

/* Sets a file's mtime to the civil time given (TZ=UTC in main). */
static void
touch_at(const char *rel, const char *civil)
{
	int64_t t;
	struct timeval tv[2];

	sp_parse_time(civil, strlen(civil), &t);
	tv[0].tv_sec = tv[1].tv_sec = (time_t)t;
	tv[0].tv_usec = tv[1].tv_usec = 0;
	utimes(at(rel), tv);
}

static int
remove_entry(const char *path, const struct stat *st, int flag,
	     struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
base_job(struct sp_job *j)
{
	tj_init(j);
	tj_set(j, "jobid", "4242");
	tj_set(j, "jobid_raw", "4242");
	tj_set(j, "name", "train");
	tj_set(j, "user", "alice");
	tj_set(j, "nodelist", "node[07-09]");
	tj_set(j, "workdir", tmp);
	tj_set(j, "start", "2026-11-12T10:00:00");
	tj_set(j, "end", "2026-11-12T11:00:00");
}

static void
test_expand(void)
{
	struct sp_buf b = { 0 };
	struct sp_job j;
	char want[600];

	base_job(&j);
#define EXPAND(pat) (sp_buf_clear(&b), sp_log_expand(&b, pat, &j))
	EXPAND("/logs/%x-%j.out");
	is_string("/logs/train-4242.out", b.p, "%%x and %%j");
	EXPAND("/l/%u/%N.%%.err");
	is_string("/l/alice/node07.%.err", b.p, "%%u, %%N is the first node, "
		  "%%%% is a percent sign");
	EXPAND("/l/%8j.out");
	is_string("/l/00004242.out", b.p, "a width pads with zeros");
	EXPAND("/l/%100j");
	ok(b.len == strlen("/l/") + 64, "a width is capped at 64");
	EXPAND("/l/%A_%a.out");
	is_string("/l/4242_0.out", b.p, "outside an array %%A is the job, "
		  "%%a is 0");
	tj_set(&j, "array_job", "4240");
	tj_set(&j, "array_task", "2");
	EXPAND("/l/%A_%a-%s.out");
	is_string("/l/4240_2-batch.out", b.p, "%%A and %%a of an array task; "
		  "%%s is batch");
	is_int(-1, EXPAND("/l/%q.out"), "an unknown code makes the pattern "
	       "unusable");
	is_int(-1, EXPAND("/l/out%"), "a trailing %% is unusable");
	EXPAND("slurm-%j.out");
	snprintf(want, sizeof want, "%s/slurm-4242.out", tmp);
	is_string(want, b.p, "a relative path sits in the work directory");
	tj_set(&j, "workdir", "");
	is_int(-1, EXPAND("slurm-%j.out"), "a relative path without a work "
	       "directory is unusable");
	EXPAND("/l/a\\%j.out");
	is_string("/l/a%j.out", b.p, "a backslash turns the codes off");
	tj_set(&j, "name", "");
	is_int(-1, EXPAND("/l/%x.out"), "a code whose value is unknown is "
	       "unusable");
#undef EXPAND
	sp_buf_free(&b);
}

static void
submit(const char *line, const char *want_err, const char *want_out,
       const char *what)
{
	char *err, *out;

	sp_log_submit_paths(line, &err, &out);
	is_string(want_err, err, "%s: error", what);
	is_string(want_out, out, "%s: output", what);
	free(err);
	free(out);
}

/*
 * Submit lines as Slurm records them: the arguments joined by spaces,
 * the shell's quotes gone (t/cluster's mix shows it).
 */
static void
test_submit_line(void)
{
	submit("sbatch -o out.log -e err.log job.sh", "err.log", "out.log",
	       "short options apart");
	submit("sbatch --output=o/%j.out --error e/%j.err job.sh",
	       "e/%j.err", "o/%j.out", "long options, = and apart");
	submit("sbatch -ologs/a.out job.sh", NULL, "logs/a.out",
	       "a short option glued to its value");
	submit("sbatch -Hv -oa.out x.sh", NULL, "a.out",
	       "flags clustered before it");
	submit("sbatch -o first.out -o second.out x.sh", NULL, "second.out",
	       "the last occurrence wins");
	submit("sbatch -o -N 2 x.sh", NULL, NULL,
	       "a value starting with - is not a value");
	submit("sbatch --parsable -J oom_array -t 5 --mem=200M --array=1-4 "
	       "--wrap=perl -e 'my @a; for (1..8) { push @a, 1 } sleep 2'",
	       NULL, NULL, "perl -e inside --wrap is not sbatch's --error");
	submit("sbatch -e real.err --wrap python t.py -o inner.out",
	       "real.err", NULL, "--wrap's command runs to the end");
	submit("sbatch -o out.log job.sh -e args.err", NULL, "out.log",
	       "the script's own arguments are not sbatch's");
	submit("sbatch -J -e -p gpu -o o.out x.sh", NULL, "o.out",
	       "the values of other options are skipped");
	submit("sbatch --job-name -e --export ALL -o o.out x.sh", NULL,
	       "o.out", "so are long ones given apart");
	submit("sbatch -- -o x.sh", NULL, NULL, "-- ends the options");
	submit("sbatch --export=ALL --exclusive -e e.err job.sh", "e.err",
	       NULL, "options that merely start with e or o are not -e, "
	       "and a flag takes no value");
	submit("srun -o 'my.out' x", NULL, "'my.out'",
	       "a quote in the record is part of the argument");
	submit("", NULL, NULL, "an empty line");
}

static const struct sp_log *
found(const struct sp_logs *l, size_t i)
{
	return i < l->n ? &l->v[i] : NULL;
}

static void
test_fields_rung(void)
{
	struct sp_logctx c;
	struct sp_logs l;
	struct sp_job j;

	sp_logctx_init(&c, 0);
	base_job(&j);
	mkdir_rel("f");
	write_file("f/train-4242.out", "step 1\nstep 2\r\nloss 0.1\rloss 0.05\n");
	write_file("f/train-4242.err", "Traceback\n");
	tj_set(&j, "stdout", "f/%x-%j.out");
	tj_set(&j, "stderr", "f/%x-%j.err");
	sp_logs_find(&c, &j, &l);
	is_int(2, (long long)l.n, "StdErr and StdOut both found");
	ok(found(&l, 0) && found(&l, 0)->role == SP_ROLE_ERROR &&
	   found(&l, 0)->how == SP_HOW_STDERR, "the error file comes first, "
	   "from the StdErr field");
	ok(found(&l, 1) && found(&l, 1)->how == SP_HOW_STDOUT,
	   "the output file from the StdOut field");
	is_string("step 1\nstep 2\nloss 0.1\nloss 0.05\n",
		  found(&l, 1) ? found(&l, 1)->tail.p : NULL,
		  "CR LF and a lone CR become LF");
	ok(l.expected.path == NULL, "nothing declared is missing");
	sp_logs_free(&l);

	tj_set(&j, "stderr", "f/%x-%j.out");
	sp_logs_find(&c, &j, &l);
	ok(l.n == 1 && found(&l, 0)->role == SP_ROLE_LOG &&
	   found(&l, 0)->how == SP_HOW_STDOUT, "StdErr and StdOut the same "
	   "file: one log holding both streams");
	sp_logs_free(&l);

	tj_set(&j, "stderr", "/dev/null");
	sp_logs_find(&c, &j, &l);
	is_int(1, (long long)l.n, "StdErr to /dev/null: only the output");
	is_int(SP_LOG_DISCARDED, l.expected.status, "/dev/null is discarded");
	sp_logs_free(&l);

	tj_set(&j, "stderr", "");
	tj_set(&j, "stdout", "f");
	sp_logs_find(&c, &j, &l);
	is_int(SP_LOG_SPECIAL, l.expected.status, "a directory is not a "
	       "regular file");
	sp_logs_free(&l);

	if (mkfifo(at("f/pipe.out"), 0644) == 0) {
		tj_set(&j, "stdout", "f/pipe.out");
		sp_logs_find(&c, &j, &l);
		is_int(SP_LOG_SPECIAL, l.expected.status, "a FIFO is special, "
		       "and reading it does not hang");
		sp_logs_free(&l);
	} else {
		ok(1, "# SKIP no FIFOs here");
	}
	sp_logctx_free(&c);
}

static void
test_absent_falls_through(void)
{
	struct sp_logctx c;
	struct sp_logs l;
	struct sp_job j;

	sp_logctx_init(&c, 0);
	base_job(&j);
	tj_set(&j, "stdout", "gone/%j.out");
	write_file("slurm-4242.out", "hello\n");
	sp_logs_find(&c, &j, &l);
	is_int(SP_LOG_ABSENT, l.expected.status, "the declared file is "
	       "absent");
	ok(l.expected.path && strstr(l.expected.path, "gone/4242.out"),
	   "and its expanded path is kept");
	ok(found(&l, 0) && found(&l, 0)->how == SP_HOW_CONVENTION,
	   "slurm-<id>.out in the work directory is found instead");
	sp_logs_free(&l);
	unlink(at("slurm-4242.out"));
	sp_logctx_free(&c);
}

static void
test_submit_and_comment_rungs(void)
{
	struct sp_logctx c;
	struct sp_logs l;
	struct sp_job j;

	sp_logctx_init(&c, 0);
	base_job(&j);
	mkdir_rel("s");
	write_file("s/e-4242.txt", "boom\n");
	tj_set(&j, "submit_line", "sbatch -e s/e-%j.txt --wrap 'x -o y'");
	sp_logs_find(&c, &j, &l);
	ok(found(&l, 0) && found(&l, 0)->how == SP_HOW_SUBMIT_ERROR &&
	   found(&l, 0)->role == SP_ROLE_ERROR, "-e in the submit line");
	sp_logs_free(&l);

	base_job(&j);
	tj_set(&j, "comment", "run=7 log=/nonexistent/a.log");
	sp_logs_find(&c, &j, &l);
	is_int(SP_LOG_ABSENT, l.expected.status, "an absolute path in the "
	       "comment is probed");
	sp_logs_free(&l);
	sp_logctx_free(&c);
}

static void
test_log_dir_and_names(void)
{
	struct sp_logctx c;
	struct sp_logs l;
	struct sp_job j;

	sp_logctx_init(&c, 0);
	mkdir_rel("ld");
	mkdir_rel("ld/logs");
	sp_logctx_add_dir(&c, at("ld"));
	base_job(&j);
	tj_set(&j, "workdir", "/nonexistent");
	write_file("ld/logs/4242.err", "e\n");
	write_file("ld/logs/4242.out", "o\n");
	sp_logs_find(&c, &j, &l);
	is_int(2, (long long)l.n, "conventional names in --log-dir/logs");
	ok(found(&l, 0) && found(&l, 0)->role == SP_ROLE_ERROR &&
	   found(&l, 1) && found(&l, 1)->role == SP_ROLE_OUTPUT,
	   "error first, then output");
	sp_logs_free(&l);
	unlink(at("ld/logs/4242.err"));
	unlink(at("ld/logs/4242.out"));

	write_file("ld/train-14242.out", "not ours\n");
	write_file("ld/run.4242-x.log", "ours\n");
	/* Listings are read once per run: a new run sees the new files. */
	sp_logctx_free(&c);
	sp_logctx_init(&c, 0);
	sp_logctx_add_dir(&c, at("ld"));
	sp_logs_find(&c, &j, &l);
	is_int(1, (long long)l.n, "one file names the job");
	ok(found(&l, 0) && strstr(found(&l, 0)->path, "run.4242-x.log") &&
	   found(&l, 0)->how == SP_HOW_NAME, "the id between non-digits "
	   "matches; 14242 does not");
	sp_logs_free(&l);
	unlink(at("ld/run.4242-x.log"));
	unlink(at("ld/train-14242.out"));
	sp_logctx_free(&c);
}

static void
test_time_rung(void)
{
	struct sp_logctx c;
	struct sp_logs l;
	struct sp_job j, k;

	sp_logctx_init(&c, 0);
	mkdir_rel("tm");
	sp_logctx_add_dir(&c, at("tm"));
	base_job(&j);
	tj_set(&j, "workdir", "/nonexistent");
	write_file("tm/early.out", "before\n");
	touch_at("tm/early.out", "2026-11-12T09:58:00");
	write_file("tm/late.out", "after\n");
	touch_at("tm/late.out", "2026-11-12T11:20:00");
	sp_logs_find(&c, &j, &l);
	is_int(0, (long long)l.n, "files outside [start-60s, end+600s] are "
	       "not the job's");
	sp_logs_free(&l);

	write_file("tm/a.out", "a\n");
	touch_at("tm/a.out", "2026-11-12T11:09:00");
	write_file("tm/b.err", "b\n");
	touch_at("tm/b.err", "2026-11-12T11:01:00");
	sp_logctx_free(&c);
	sp_logctx_init(&c, 0);
	sp_logctx_add_dir(&c, at("tm"));
	sp_logs_find(&c, &j, &l);
	ok(found(&l, 0) && strstr(found(&l, 0)->path, "b.err") &&
	   found(&l, 0)->how == SP_HOW_TIME, "the file closest to the end "
	   "is inferred");
	sp_logs_free(&l);

	/* Another job of the same hour may not take the claimed file. */
	base_job(&k);
	tj_set(&k, "jobid", "4243");
	tj_set(&k, "jobid_raw", "4243");
	tj_set(&k, "workdir", "/nonexistent");
	sp_logs_find(&c, &k, &l);
	ok(found(&l, 0) && strstr(found(&l, 0)->path, "a.out"),
	   "a file already given to a job goes to no other");
	sp_logs_free(&l);
	/* The same job asked again gets its own file again. */
	sp_logs_find(&c, &j, &l);
	ok(found(&l, 0) && strstr(found(&l, 0)->path, "b.err") &&
	   found(&l, 0)->how == SP_HOW_TIME, "a job asked twice gets the "
	   "same file");
	sp_logs_free(&l);
	sp_logctx_free(&c);

	/* The bare work directory is untrusted: a loose name needs a hint. */
	sp_logctx_init(&c, 0);
	mkdir_rel("wd");
	base_job(&j);
	tj_set(&j, "workdir", at("wd"));
	write_file("wd/notes.log", "n\n");
	touch_at("wd/notes.log", "2026-11-12T11:00:30");
	sp_logs_find(&c, &j, &l);
	is_int(0, (long long)l.n, "an unrelated name in the work directory "
	       "is not taken");
	sp_logs_free(&l);
	write_file("wd/train-eval.log", "t\n");
	touch_at("wd/train-eval.log", "2026-11-12T11:00:30");
	sp_logctx_free(&c);
	sp_logctx_init(&c, 0);
	sp_logs_find(&c, &j, &l);
	ok(found(&l, 0) && strstr(found(&l, 0)->path, "train-eval.log"),
	   "a name holding the job name is");
	sp_logs_free(&l);
	sp_logctx_free(&c);
}

/*
 * The real cluster showed a job cancelled while pending given another
 * job's slurm-14_3.out, inferred: a job that never ran wrote no file,
 * and a file named after another job is never this one's.
 */
static void
test_not_ours(void)
{
	struct sp_logctx c;
	struct sp_logs l;
	struct sp_job j;

	mkdir_rel("no");
	write_file("no/slurm-57.out", "one\ntwo\n");
	touch_at("no/slurm-57.out", "2026-11-12T10:00:10");
	write_file("no/slurm-14_3.out", "task 3\n");
	touch_at("no/slurm-14_3.out", "2026-11-12T10:00:20");

	sp_logctx_init(&c, 0);
	base_job(&j);
	tj_set(&j, "jobid", "36");
	tj_set(&j, "jobid_raw", "36");
	tj_set(&j, "workdir", at("no"));
	tj_set(&j, "nodelist", "");
	tj_set(&j, "start", "2026-11-12T10:00:00");
	tj_set(&j, "end", "2026-11-12T10:00:00");
	j.elapsed_s = 0;
	sp_logs_find(&c, &j, &l);
	ok(l.looked && l.not_started && l.n == 0 && l.expected.path == NULL,
	   "a job cancelled while pending is given no file");
	sp_logs_free(&l);
	tj_set(&j, "stdout", "slurm-57.out");
	sp_logs_find(&c, &j, &l);
	ok(l.not_started && l.n == 0, "not even one its record names");
	sp_logs_free(&l);

	base_job(&j);
	tj_set(&j, "jobid", "14_5");
	tj_set(&j, "jobid_raw", "19");
	tj_set(&j, "array_job", "14");
	tj_set(&j, "array_task", "5");
	tj_set(&j, "workdir", at("no"));
	tj_set(&j, "start", "2026-11-12T09:59:00");
	tj_set(&j, "end", "2026-11-12T10:00:30");
	sp_logs_find(&c, &j, &l);
	is_int(0, (long long)l.n, "another task's file, or another job's, "
	       "is not inferred for an array task");
	sp_logs_free(&l);

	write_file("no/slurm-14_5.out", "task 5\n");
	sp_logctx_free(&c);
	sp_logctx_init(&c, 0);
	sp_logs_find(&c, &j, &l);
	ok(l.n == 1 && strstr(found(&l, 0)->path, "slurm-14_5.out") &&
	   found(&l, 0)->how == SP_HOW_CONVENTION, "its own file is found");
	sp_logs_free(&l);
	unlink(at("no/slurm-14_5.out"));

	write_file("no/run-14.log", "the array's\n");
	sp_logctx_free(&c);
	sp_logctx_init(&c, 0);
	sp_logs_find(&c, &j, &l);
	ok(l.n == 1 && strstr(found(&l, 0)->path, "run-14.log") &&
	   found(&l, 0)->how == SP_HOW_NAME, "a log named after the array "
	   "is the task's; slurm-14_3.out is not");
	sp_logs_free(&l);
	sp_logctx_free(&c);
}

static void
test_tail(void)
{
	struct sp_logctx c;
	struct sp_logs l;
	struct sp_job j;
	FILE *f;

	f = fopen(at("big.out"), "w");
	for (int i = 0; i < 40000; i++)
		fprintf(f, "line %05d of a long log\n", i);
	fclose(f);
	sp_logctx_init(&c, 0);
	base_job(&j);
	tj_set(&j, "stdout", "big.out");
	sp_logs_find(&c, &j, &l);
	ok(found(&l, 0) && found(&l, 0)->cut, "a large log is cut");
	ok(found(&l, 0) && found(&l, 0)->tail.len <= SP_LOG_TAIL_BYTES,
	   "to at most the last 256 KiB");
	ok(found(&l, 0) && strncmp(found(&l, 0)->tail.p, "line ", 5) == 0,
	   "starting at a whole line");
	ok(found(&l, 0) && strstr(found(&l, 0)->tail.p,
				  "line 39999 of a long log\n") != NULL,
	   "ending at the end");
	sp_logs_free(&l);
	unlink(at("big.out"));
	sp_logctx_free(&c);
}

static void
test_unreadable(void)
{
	struct sp_logctx c;
	struct sp_logs l;
	struct sp_job j;

	if (geteuid() == 0) {
		ok(1, "# SKIP root reads every file");
		return;
	}
	write_file("secret.out", "x\n");
	chmod(at("secret.out"), 0);
	sp_logctx_init(&c, 0);
	base_job(&j);
	tj_set(&j, "stdout", "secret.out");
	sp_logs_find(&c, &j, &l);
	ok(l.expected.status == SP_LOG_UNREADABLE && l.expected.owner != NULL,
	   "a file we may not read is unreadable, and its owner is named");
	sp_logs_free(&l);
	sp_logctx_free(&c);
	unlink(at("secret.out"));
}

static void
test_names(void)
{
	struct sp_logs l;

	is_string("found", sp_log_status_name(SP_LOG_FOUND), "status names");
	is_string("discarded", sp_log_status_name(SP_LOG_DISCARDED),
		  "discarded");
	ok(sp_log_status_name(SP_LOG_NOT_LOOKED) == NULL, "not looked: null");
	is_string("stderr", sp_log_how_name(SP_HOW_STDERR), "how names");
	sp_logs_none(&l);
	ok(!l.looked && l.n == 0 && l.expected.path == NULL,
	   "--no-logs looks at nothing");
	sp_logs_free(&l);
}

int
main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	if (mkdtemp(tmp) == NULL)
		skip_all("cannot make a temporary directory");
	plan_lazy();
	test_expand();
	test_submit_line();
	test_fields_rung();
	test_absent_falls_through();
	test_submit_and_comment_rungs();
	test_log_dir_and_names();
	test_time_rung();
	test_not_ours();
	test_tail();
	test_unreadable();
	test_names();
	if (nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
		diag("could not remove %s", tmp);
	return done_testing();
}
