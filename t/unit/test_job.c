/*
 * The job record view: columns by name, unknown as NaN, the predicates
 * every stage shares, and the workload fold and key.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_workload.h"
#include "tap.h"

static const char header[] =
	"jobid\tstate\topen\telapsed_s\ttotal_cpu_s\talloc_cpus\t"
	"alloc_gpus\tread_b\twrite_b\tstep\textra\n";

/* Parses the first record after the header. */
static int
parse(const char *record, struct sp_job *j, struct sp_reader *r, FILE **fp,
      struct sp_buf *text)
{
	struct sp_jobcols c;

	sp_buf_clear(text);
	sp_buf_adds(text, header);
	sp_buf_adds(text, record);
	*fp = fmemopen(text->p, text->len, "r");
	if (sp_reader_open_stream(r, *fp, "jobs") < 0 ||
	    sp_reader_next(r) != 1)
		return -2;
	sp_jobcols_resolve(&c, r);
	return sp_job_parse_checked(j, &c, r);
}

static void
check(const char *record, const char *what, int noop, int hang, int failed,
      int usable, int io, int known)
{
	struct sp_reader r;
	struct sp_job j;
	struct sp_buf text = { 0 };
	FILE *fp;

	if (!ok(parse(record, &j, &r, &fp, &text) == 0, "%s: parses", what)) {
		diag("%s", sp_buf_str(&r.err));
	} else {
		is_int(noop, sp_job_noop(&j), "%s: computed nothing", what);
		is_int(hang, sp_job_hang(&j), "%s: counted as a hang", what);
		is_int(failed, sp_job_failed(&j), "%s: failed", what);
		is_int(usable, sp_job_usable(&j), "%s: usable", what);
		is_int(io, sp_job_io_explains(&j), "%s: I/O explains", what);
		is_int(known, sp_job_hang_known(&j), "%s: hang question "
		       "answerable", what);
	}
	sp_reader_close(&r);
	fclose(fp);
	sp_buf_free(&text);
}

static void
test_predicates(void)
{
	check("1\tTIMEOUT\t0\t1826\t0.5\t6\t1\t\t\t\tx\n", "blocked timeout",
	      1, 1, 1, 1, 0, 1);
	check("2\tTIMEOUT\t0\t1826\t1780\t6\t1\t\t\t\tx\n", "computing timeout",
	      0, 0, 1, 1, 0, 1);
	check("3\tCANCELLED\t0\t151200\t0.54\t8\t2\t\t\t\tx\n",
	      "cancelled hang counts", 1, 1, 0, 1, 0, 1);
	check("4\tOUT_OF_MEMORY\t0\t900\t1\t8\t0\t\t\t\tx\n",
	      "OOM explains itself", 1, 0, 1, 1, 0, 1);
	check("5\tCOMPLETED\t0\t300\t0\t1\t0\t\t\t\tx\n",
	      "exactly 300 s is not over 300", 0, 0, 0, 1, 0, 1);
	check("6\tCOMPLETED\t0\t301\t\t1\t0\t\t\t\tx\n",
	      "unknown CPU is never a hang", 0, 0, 0, 1, 0, 0);
	check("7\tRUNNING\t1\t9999\t0\t1\t0\t\t\t\tx\n",
	      "open records are out", 0, 0, 0, 0, 0, 0);
	check("8\tCOMPLETED\t0\t600\t2\t1\t0\t64424509440\t0\t\tx\n",
	      "moving 60 GiB in 10 minutes", 1, 1, 0, 1, 1, 1);
	check("9\tCOMPLETED\t0\t6000\t2\t1\t0\t10737418240\t\t\tx\n",
	      "10 GiB over 100 minutes is too slow to explain", 1, 1, 0, 1,
	      0, 1);
	check("10\tCOMPLETED\t0\t600\t2\t1\t0\t\t\tbatch\tx\n",
	      "a step record is not an allocation", 0, 0, 0, 0, 0, 0);
	check("11\tNODE_FAIL\t0\t3600\t\t8\t1\t\t\t\tx\n",
	      "NODE_FAIL without CPU: known not a hang", 0, 0, 1, 1, 0, 1);
	check("12\tCOMPLETED\t0\t200\t\t1\t0\t\t\t\tx\n",
	      "short run without CPU: known not a hang", 0, 0, 0, 1, 0, 1);
	check("13\tCOMPLETED\t0\t\t5\t1\t0\t\t\t\tx\n",
	      "unknown elapsed: cannot be judged", 0, 0, 0, 0, 0, 0);
}

static void
test_hours(void)
{
	struct sp_reader r;
	struct sp_job j;
	struct sp_buf text = { 0 };
	FILE *fp;

	parse("1\tCOMPLETED\t0\t7200\t100\t4\t2\t\t\t\tx\n", &j, &r, &fp,
	      &text);
	is_double(8, sp_job_core_hours(&j), 1e-9, "core-hours");
	is_double(4, sp_job_gpu_hours(&j), 1e-9, "GPU-hours");
	is_double(4 * SP_GPU_CORE_RATIO + 8,
		  sp_compute(sp_job_gpu_hours(&j), sp_job_core_hours(&j)), 1e-9,
		  "compute weighs a GPU-hour as 16 core-hours");
	ok(isnan(j.max_rss_b), "an absent column is unknown, not zero");
	ok(isnan(j.timelimit_s), "so is the limit");
	sp_reader_close(&r);
	fclose(fp);
	is_int(-1, parse("1\tCOMPLETED\t0\t1:00\t100\t4\t2\t\t\t\tx\n", &j,
			 &r, &fp, &text), "a duration where a number belongs");
	is_string("jobs:2: field 'elapsed_s' is not a number: \"1:00\"",
		  sp_buf_str(&r.err), "names the field and the line");
	sp_reader_close(&r);
	fclose(fp);
	sp_buf_free(&text);
}

static void
fold(const char *name, const char *want)
{
	struct sp_buf b = { 0 };

	sp_workload_fold(&b, name, strlen(name));
	is_string(want, sp_buf_str(&b), "fold %s", name);
	sp_buf_free(&b);
}

static void
test_workload(void)
{
	struct sp_buf b = { 0 };

	fold("s1e20", "s#e#");
	fold("s2e47", "s#e#");
	fold("mid85_059", "mid#_#");
	fold("tool-bench-2026-03-15", "tool-bench-#-#-#");
	fold("c9ea44e", "c#ea#e");
	fold("train_lr0.001", "train_lr#.#");
	fold("", "?");
	fold("\xc3\xa9t\xc3\xa9" "12", "\xc3\xa9t\xc3\xa9#");
	is_int(0, sp_workload_has_letter("#-#", 3), "no letters in #-#");
	is_int(1, sp_workload_has_letter("s#e#", 4), "letters in s#e#");
	sp_workload_key(&b, "alice", 5, "gpu", 3, 1, "s#e#", 4);
	is_string("alice/gpu/gpu/s#e#", sp_buf_str(&b), "the key");
	sp_buf_clear(&b);
	sp_workload_key(&b, "", 0, "", 0, 0, "a/b", 3);
	is_string("?/?/cpu/a/b", sp_buf_str(&b), "unknown user and partition");
	sp_buf_free(&b);
}

/*
 * Numbers read on the fast path are the numbers sp_field_num reads, and
 * whatever it refuses is still refused with the field named.
 */
static void
test_numbers(void)
{
	static const char *const texts[] = { "0", "007", "0.86", "5.", ".5",
		"12.5", "35016943616", "123456789012345", "1234567890123456",
		"12345678901234567890", "0.1", "0.3", "2.675", "1e3", "-3",
		"+4", "1.2.3", "999999999999999.9", "1.000000000000001",
		"0.000000000000001", "3.14159265358979" };
	struct sp_buf rec = { 0 }, text = { 0 };
	struct sp_reader r;
	struct sp_job j;
	FILE *fp;

	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		double want = NAN;
		int rc = sp_field_num((struct sp_slice){ texts[i],
				      strlen(texts[i]) }, &want);

		sp_buf_clear(&rec);
		sp_buf_printf(&rec, "1\tCOMPLETED\t0\t%s\t\t\t\t\t\t\t\n",
			      texts[i]);
		if (rc == 1) {
			if (ok(parse(rec.p, &j, &r, &fp, &text) == 0,
			       "number '%s' parses", texts[i]))
				ok(j.elapsed_s == want, "number '%s' is %.17g "
				   "(got %.17g)", texts[i], want, j.elapsed_s);
		} else {
			ok(parse(rec.p, &j, &r, &fp, &text) == -1 &&
			   strstr(sp_buf_str(&r.err), "'elapsed_s' is not a "
				  "number") != NULL,
			   "number '%s' is refused", texts[i]);
		}
		sp_reader_close(&r);
		fclose(fp);
	}
	sp_buf_free(&rec);
	sp_buf_free(&text);
}

/*
 * Random numbers, mostly digits of every length, as the line's only
 * field, at the end of the input or not: read eight digits at a time
 * (past the field, into what follows it), each is what sp_field_num
 * makes of it.
 */
static void
test_numbers_random(void)
{
	static const char alphabet[] = "0123456789012345678901234567890.-e:";
	struct sp_buf text = { 0 };
	int wrong = 0;

	srand(17);
	for (int round = 0; round < 20000; round++) {
		size_t n = 1 + (size_t)(rand() % 17);
		struct sp_jobcols c;
		struct sp_reader r;
		struct sp_job j;
		double want = NAN;
		FILE *fp;
		int rc, got;

		sp_buf_clear(&text);
		sp_buf_adds(&text, "elapsed_s\n");
		for (size_t k = 0; k < n; k++)
			sp_buf_addc(&text, rand() % 8 ? (char)('0' + rand() % 10)
			    : alphabet[rand() % (int)(sizeof alphabet - 1)]);
		rc = sp_field_num((struct sp_slice){ text.p + 10, n }, &want);
		if (rand() % 2)
			sp_buf_addc(&text, '\n');
		fp = fmemopen(text.p, text.len, "r");
		if (sp_reader_open_stream(&r, fp, "n") < 0 ||
		    sp_reader_next(&r) != 1) {
			wrong++;
		} else {
			sp_jobcols_only(&c, &r, "elapsed_s", NULL);
			got = sp_job_parse_checked(&j, &c, &r);
			if (rc == 1)
				wrong += got != 0 || j.elapsed_s != want;
			else
				wrong += got != -1;
		}
		sp_reader_close(&r);
		fclose(fp);
	}
	is_int(0, wrong, "20000 random numbers read as sp_field_num reads "
	       "them");
	sp_buf_free(&text);
}

/* A remembered day changes nothing: each timestamp is read in full. */
static void
test_timestamps(void)
{
	static const struct {
		const char *text;
		int rc;
		long long epoch;
	} ts[] = {
		{ "2026-01-05T07:19:12", 0, 1767597552 },
		{ "2026-01-05T23:59:59", 0, 1767657599 },
		{ "2026-01-05T24:00:00", -1, 0 },
		{ "2026-01-05T12:60:00", -1, 0 },
		{ "2026-01-05T12:00:6x", -1, 0 },
		{ "2026-01-05 12:00:00", -1, 0 },
		{ "2026-01-05T00:00:00", 0, 1767571200 },
		{ "2026-01-06T00:00:01", 0, 1767657601 },
		{ "2026-02-30T00:00:00", -1, 0 },
		{ "2026-01-05T07:19:1", -1, 0 },
		{ "Unknown", 0, -1 },
	};
	static const char hdr[] = "jobid\tsubmit\tstart\n";
	struct sp_buf text = { 0 };

	for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
		struct sp_jobcols c;
		struct sp_reader r;
		struct sp_job j;
		FILE *fp;
		int rc = -2;

		/* The same text in two columns, after its neighbours. */
		sp_buf_clear(&text);
		sp_buf_adds(&text, hdr);
		for (size_t k = 0; k <= i; k++)
			sp_buf_printf(&text, "%zu\t%s\t%s\n", k, ts[k].text,
				      ts[k].text);
		fp = fmemopen(text.p, text.len, "r");
		if (sp_reader_open_stream(&r, fp, "jobs") < 0)
			break;
		sp_jobcols_resolve(&c, &r);
		for (size_t k = 0; k <= i; k++) {
			if (sp_reader_next(&r) != 1)
				break;
			rc = sp_job_parse_checked(&j, &c, &r);
		}
		is_int(ts[i].rc, rc, "timestamp '%s' %s", ts[i].text,
		       ts[i].rc ? "is refused" : "is read");
		if (ts[i].rc == 0 && ts[i].epoch < 0)
			is_int(0, j.start_known, "timestamp '%s' is unknown",
			       ts[i].text);
		else if (ts[i].rc == 0)
			ok(j.start_known && j.start_t == ts[i].epoch &&
			   j.submit_t == ts[i].epoch, "timestamp '%s' is %lld",
			   ts[i].text, ts[i].epoch);
		sp_reader_close(&r);
		fclose(fp);
	}
	sp_buf_free(&text);
}

/* Only the named columns resolve; the others are absent, and parse so. */
static void
test_only(void)
{
	struct sp_buf text = { 0 };
	struct sp_reader r;
	struct sp_jobcols c, all;
	struct sp_job j;
	FILE *fp;

	sp_buf_adds(&text, header);
	sp_buf_adds(&text, "7\tCOMPLETED\t0\t3600\t7200\t1\t0\t0\t0\t\tx\n");
	fp = fmemopen(text.p, text.len, "r");
	if (sp_reader_open_stream(&r, fp, "jobs") < 0 ||
	    sp_reader_next(&r) != 1) {
		ok(0, "only: the record reads");
		return;
	}
	sp_jobcols_resolve(&all, &r);
	sp_jobcols_only(&c, &r, "state", "elapsed_s", NULL);
	is_int(all.state, c.state, "only: a named column resolves");
	is_int(all.elapsed_s, c.elapsed_s, "only: each named column");
	is_int(-1, c.jobid, "only: an unnamed column is absent");
	is_int(-1, c.workload_key, "only: sp-group's columns too");
	sp_job_parse(&j, &c, &r);
	is_double(3600, j.elapsed_s, 0, "only: a named number parses");
	ok(isnan(j.total_cpu_s), "only: an unnamed number is unknown");
	sp_reader_close(&r);
	fclose(fp);
	sp_buf_free(&text);
}

int
main(void)
{
	plan_lazy();
	test_predicates();
	test_hours();
	test_workload();
	test_numbers();
	test_numbers_random();
	test_timestamps();
	test_only();
	return done_testing();
}
