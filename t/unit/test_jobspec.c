/*
 * Job ids as sacct prints them: every form parses to what it names, a
 * comma inside brackets does not split the list, what is not an id is
 * refused with the id named, and the matcher pairs ids with records of
 * plain jobs, array tasks (expanded or not), het components and steps.
 */
#include <string.h>

#include "sp_jobspec.h"
#include "tap.h"
#include "testjob.h"

/* Parses list; the ids' texts joined by '|' into out, or the error. */
static int
parse(const char *list, struct sp_buf *out)
{
	struct sp_jobspec s = { 0 };
	struct sp_buf err = { 0 };
	int rc = sp_jobspec_add(&s, list, &err);

	sp_buf_clear(out);
	if (rc != 0) {
		sp_buf_adds(out, sp_buf_str(&err));
	} else {
		for (size_t i = 0; i < s.n; i++)
			sp_buf_printf(out, "%s%s", i ? "|" : "", s.v[i].text);
	}
	sp_buf_free(&err);
	sp_jobspec_free(&s);
	return rc;
}

static void
test_lists(void)
{
	struct sp_buf b = { 0 };

	is_int(0, parse("123", &b), "a plain id parses");
	is_string("123", sp_buf_str(&b), "  as itself");
	is_int(0, parse("4103947_[1,5]", &b), "a comma inside brackets");
	is_string("4103947_[1,5]", sp_buf_str(&b), "  does not split the id");
	is_int(0, parse("4103947_[9-11,13,16-20],77,5_3,9+1,8.batch", &b),
	       "a list of every form");
	is_string("4103947_[9-11,13,16-20]|77|5_3|9+1|8.batch", sp_buf_str(&b),
		  "  splits outside brackets only");
	is_int(0, parse("123_[1-9%2]", &b), "a throttle parses");
	is_int(0, parse("12_4.0", &b), "a task's step parses");

	is_int(-1, parse("12_[3", &b), "an unclosed bracket is refused");
	is_string("'12_[3' is not a job id (123, 123_4, 123_[1-3,7], 123+1)",
		  sp_buf_str(&b), "  naming the id");
	is_int(-1, parse("1,,2", &b), "an empty id is refused");
	is_string("an empty job id in '1,,2'", sp_buf_str(&b), "  so said");
	is_int(-1, parse("", &b), "an empty list is refused");
	is_int(-1, parse("1,", &b), "a trailing comma is refused");
	is_int(-1, parse("12_[5-3]", &b), "a range backwards is refused");
	is_int(-1, parse("12_[]", &b), "no task is refused");
	is_int(-1, parse("12_[%2]", &b), "a throttle alone is refused");
	is_int(-1, parse("12_[1-9:2]", &b), "sbatch's step syntax is refused");
	is_int(-1, parse("abc", &b), "a name is refused");
	is_int(-1, parse("-5", &b), "a sign is refused");
	is_int(-1, parse("12 ", &b), "a space is refused");
	is_int(-1, parse("12.", &b), "an empty step is refused");
	is_int(-1, parse("99999999999999999999", &b), "an overflow is refused");
	is_int(-1, parse("12_[1,]", &b), "an empty task in a set is refused");
	sp_buf_free(&b);
}

static void
test_forms(void)
{
	struct sp_jobspec s = { 0 };
	struct sp_buf err = { 0 };

	ok(sp_jobspec_add(&s, "123_[9-11,3%4],500+2,7.batch", &err) == 0,
	   "three ids");
	is_int(3, (long long)s.n, "  three");
	is_int(SP_JOBID_TASKS, s.v[0].kind, "tasks");
	is_int(123, (long long)s.v[0].job, "  of array 123");
	is_int(2, (long long)s.v[0].ntasks, "  two ranges");
	is_int(3, (long long)s.v[0].tasks[0].lo, "  sorted: 3 first");
	is_int(11, (long long)s.v[0].tasks[1].hi, "  then 9-11");
	is_int(SP_JOBID_HET, s.v[1].kind, "a het component");
	is_int(2, (long long)s.v[1].het, "  +2");
	is_int(SP_JOBID_JOB, s.v[2].kind, "a step names its job");
	is_string("batch", s.v[2].step, "  the step kept");
	ok(sp_jobspec_add(&s, "8", &err) == 0, "a second -j adds");
	is_int(4, (long long)s.n, "  four");
	sp_jobspec_free(&s);
	sp_buf_free(&err);
}

/* Whether spec names a record built from key=value pairs. */
static int
names(const char *spec, const char *jobid, const char *raw,
      const char *array_job, const char *array_task, const char *step)
{
	struct sp_jobspec s = { 0 };
	struct sp_buf err = { 0 };
	struct sp_job j;
	int hit;

	tj_init(&j);
	tj_set(&j, "jobid", jobid);
	tj_set(&j, "jobid_raw", raw);
	tj_set(&j, "array_job", array_job);
	tj_set(&j, "array_task", array_task);
	tj_set(&j, "step", step);
	if (sp_jobspec_add(&s, spec, &err) != 0) {
		diag("%s", sp_buf_str(&err));
		hit = -1;
	} else {
		hit = sp_jobspec_match(&s, &j, NULL);
	}
	sp_jobspec_free(&s);
	sp_buf_free(&err);
	return hit;
}

static void
test_match(void)
{
	is_int(1, names("123", "123", "123", "", "", ""), "a job by its id");
	is_int(0, names("12", "123", "123", "", "", ""), "not by a prefix");
	is_int(1, names("44", "44_1", "58", "44", "1", ""),
	       "an array id names its tasks");
	is_int(1, names("58", "44_1", "58", "44", "1", ""),
	       "a task by its own raw id");
	is_int(1, names("44_1", "44_1", "58", "44", "1", ""), "a task by name");
	is_int(0, names("44_2", "44_1", "58", "44", "1", ""),
	       "not another task");
	is_int(1, names("44_[1,5]", "44_1", "58", "44", "1", ""),
	       "a task in a set");
	is_int(0, names("44_[2-4,6]", "44_5", "62", "44", "5", ""),
	       "a task between a set's ranges");
	is_int(0, names("45_1", "44_1", "58", "44", "1", ""),
	       "not the same task of another array");
	is_int(1, names("4103947_[1,5]", "4103947_[1,5]", "4103947",
			"4103947", "[1,5]", ""),
	       "an unexpanded record by its own text");
	is_int(1, names("4103947_2", "4103947_[1-3]", "4103947", "4103947",
			"[1-3]", ""), "one task of an unexpanded record");
	is_int(1, names("4103947_[3-9]", "4103947_[1-3]", "4103947",
			"4103947", "[1-3]", ""), "sets that overlap");
	is_int(0, names("4103947_[4-9]", "4103947_[1-3]", "4103947",
			"4103947", "[1-3]", ""), "sets that do not");
	is_int(1, names("4103947_[1-3]", "4103947_[1-3%2]", "4103947",
			"4103947", "[1-3%2]", ""), "a throttled record");
	is_int(1, names("7_3", "58", "58", "7", "3", ""),
	       "the task from the columns when the id has none");
	is_int(1, names("500", "500+1", "501", "", "", ""),
	       "a het leader names its components");
	is_int(1, names("500+1", "500+1", "501", "", "", ""),
	       "a het component by name");
	is_int(0, names("500+0", "500+1", "501", "", "", ""),
	       "not another component");
	is_int(0, names("500_1", "500+1", "501", "", "", ""),
	       "a task is not a het component");
	is_int(1, names("8.batch", "8", "8", "", "", ""),
	       "a step names its job's allocation");
	is_int(1, names("8.batch", "8", "8", "", "", "batch"),
	       "and its own step record");
	is_int(0, names("8.batch", "8", "8", "", "", "0"),
	       "not another step");
	is_int(1, names("8", "8", "8", "", "", "extern"),
	       "a job names its steps");
	is_int(0, names("8", "", "", "", "", ""), "no id names no record");
	is_int(1, names("3,8", "8", "8", "", "", ""), "any of a list");
}

static void
test_seen(void)
{
	struct sp_jobspec s = { 0 };
	struct sp_buf err = { 0 };
	unsigned char seen[3] = { 0, 0, 0 };
	struct sp_job j;

	sp_jobspec_add(&s, "44,44_2,9", &err);
	tj_init(&j);
	tj_set(&j, "jobid", "44_2");
	tj_set(&j, "array_job", "44");
	tj_set(&j, "array_task", "2");
	ok(sp_jobspec_match(&s, &j, seen), "a task matches");
	ok(seen[0] && seen[1] && !seen[2], "  both ids that name it are seen");
	sp_jobspec_free(&s);
	ok(sp_jobspec_match(&s, &j, NULL), "an empty spec matches all");
	sp_buf_free(&err);
}

int
main(void)
{
	plan_lazy();
	test_lists();
	test_forms();
	test_match();
	test_seen();
	return done_testing();
}
