/*
 * test_select.c - sacct's window over job records (sp_select_window):
 * the time syntax, and which jobs a window holds, with and without -s.
 */
#include <string.h>

#include "tap.h"
#include "sp.h"
#include "sp_select.h"
#include "sp_units.h"

static int64_t
at(const char *iso)
{
	int64_t t = 0;

	sp_parse_time(iso, strlen(iso), &t);
	return t;
}

/* A record's times; NULL is unknown. */
static struct sp_job
job(const char *state, const char *eligible, const char *start,
    const char *end)
{
	struct sp_job j;

	memset(&j, 0, sizeof j);
	j.state.p = state;
	j.state.n = strlen(state);
	if (eligible) {
		j.eligible_t = at(eligible);
		j.eligible_known = 1;
	}
	if (start) {
		j.start_t = at(start);
		j.start_known = 1;
	}
	if (end) {
		j.end_t = at(end);
		j.end_known = 1;
	}
	return j;
}

static int
picks(const char *since, const char *until, const char *states,
      const struct sp_job *j)
{
	struct sp_select s;
	struct sp_buf err = { 0 };
	int hit;

	memset(&s, 0, sizeof s);
	if (states)
		sp_select_add(&s, SP_SEL_STATE, states, &err);
	if (sp_select_window(&s, since, until, at("2026-01-10T12:00:00"),
	    &err) != 0) {
		diag("%s", sp_buf_str(&err));
		hit = -1;
	} else
		hit = sp_select_match(&s, j);
	sp_select_free(&s);
	sp_buf_free(&err);
	return hit;
}

static void
test_times(void)
{
	int64_t now = at("2026-01-10T12:34:56"), t;

	ok(sp_select_time("2026-01-02", now, &t) == 0 &&
	    t == at("2026-01-02T00:00:00"), "a date is its midnight");
	ok(sp_select_time("2026-01-02T03:04", now, &t) == 0 &&
	    t == at("2026-01-02T03:04:00"), "minutes without seconds");
	ok(sp_select_time("2026-01-02T03:04:05", now, &t) == 0 &&
	    t == at("2026-01-02T03:04:05"), "a whole timestamp");
	ok(sp_select_time("now", now, &t) == 0 && t == now, "now");
	ok(sp_select_time("now-7days", now, &t) == 0 && t == now - 7 * 86400,
	    "now-7days");
	ok(sp_select_time("NOW-1week", now, &t) == 0 && t == now - 604800,
	    "a unit in the singular, any case");
	ok(sp_select_time("now+2hours", now, &t) == 0 && t == now + 7200,
	    "now+2hours");
	ok(sp_select_time("now-90", now, &t) == 0 && t == now - 90,
	    "a bare count is seconds");
	ok(sp_select_time("today", now, &t) == 0 &&
	    t == at("2026-01-10T00:00:00"), "today is its midnight");
	ok(sp_select_time("noon", now, &t) == 0 &&
	    t == at("2026-01-10T12:00:00"), "noon");
	ok(sp_select_time("03/10", now, &t) == 0 &&
	    t == at("2026-03-10T00:00:00"), "MM/DD: this year");
	ok(sp_select_time("03/10/25", now, &t) == 0 &&
	    t == at("2025-03-10T00:00:00"), "MM/DD/YY");
	ok(sp_select_time("0310", now, &t) == 0 &&
	    t == at("2026-03-10T00:00:00"), "MMDD");
	ok(sp_select_time("031025", now, &t) == 0 &&
	    t == at("2025-03-10T00:00:00"), "MMDDYY");
	ok(sp_select_time("03.10", now, &t) == 0 &&
	    t == at("2026-03-10T00:00:00"), "MM.DD");
	ok(sp_select_time("03.10.25-14:30", now, &t) == 0 &&
	    t == at("2025-03-10T14:30:00"), "MM.DD.YY-HH:MM");
	ok(sp_select_time("03/10-14:30:15", now, &t) == 0 &&
	    t == at("2026-03-10T14:30:15"), "MM/DD-HH:MM:SS");
	ok(sp_select_time("0310-08:00", now, &t) == 0 &&
	    t == at("2026-03-10T08:00:00"), "MMDD-HH:MM");
	ok(sp_select_time("08:15", now, &t) == 0 &&
	    t == at("2026-01-10T08:15:00"), "HH:MM is today");
	ok(sp_select_time("midnight", now, &t) == 0 &&
	    t == at("2026-01-10T00:00:00"), "midnight");
	ok(sp_select_time("02/30", now, &t) != 0, "no 30th of February");
	ok(sp_select_time("03/10.25", now, &t) != 0, "one separator");
	ok(sp_select_time("03/10-25:00", now, &t) != 0, "no 25th hour");
	ok(sp_select_time("03/10-", now, &t) != 0, "a time after the dash");
	ok(sp_select_time("13/01", now, &t) != 0, "no 13th month, MM/DD");
	ok(sp_select_time("031", now, &t) != 0, "MMD is nothing");
	ok(sp_select_time("now-7months", now, &t) != 0, "no months");
	ok(sp_select_time("2026-13-01", now, &t) != 0, "no 13th month");
	ok(sp_select_time("yesterday", now, &t) != 0, "no other words");
	ok(sp_select_time("now-", now, &t) != 0, "a count is needed");
}

static void
test_window(void)
{
	struct sp_job early = job("COMPLETED", "2026-01-01T00:00:00",
	    "2026-01-01T01:00:00", "2026-01-01T02:00:00");
	struct sp_job across = job("FAILED", "2026-01-02T00:00:00",
	    "2026-01-02T01:00:00", "2026-01-03T02:00:00");
	struct sp_job held = job("CANCELLED", NULL, NULL,
	    "2026-01-04T05:00:00");
	struct sp_job running = job("RUNNING", "2026-01-04T00:00:00",
	    "2026-01-04T01:00:00", NULL);
	struct sp_job waiting = job("PENDING", "2026-01-02T12:00:00", NULL,
	    NULL);
	struct sp_job dumped = job("COMPLETED", NULL, "2026-01-02T06:00:00",
	    "2026-01-02T07:00:00");

	is_int(0, picks("2026-01-02", "2026-01-03", NULL, &early),
	    "ended before the window: out");
	is_int(1, picks("2026-01-02", "2026-01-03", NULL, &across),
	    "running across it: in");
	is_int(0, picks("2026-01-01", NULL, NULL, &held),
	    "never eligible: in no window");
	is_int(0, picks("2026-01-02", "2026-01-03", NULL, &running),
	    "eligible after the end: out");
	is_int(1, picks("2026-01-05", NULL, NULL, &running),
	    "never ended: in every window after it became eligible");
	is_int(1, picks("2026-01-03", "2026-01-04", NULL, &waiting),
	    "waiting across it: in");
	is_int(1, picks("2026-01-02T05:00", "2026-01-02T08:00", NULL,
	    &dumped), "a dump without Eligible: its start stands for it");
	is_int(0, picks(NULL, "2026-01-02T06:00", NULL, &dumped),
	    "the end is exclusive for eligibility, as sacct's <");

	is_int(1, picks("2026-01-02", "2026-01-04", "F", &across),
	    "-s F: ended FAILED within the window");
	is_int(0, picks("2026-01-02", "2026-01-03", "F", &across),
	    "-s F: ended after it: out");
	is_int(0, picks("2026-01-02", "2026-01-04", "CD", &across),
	    "-s CD: another state: out");
	is_int(1, picks("2026-01-02T12:00", "2026-01-02T13:00", "R", &across),
	    "-s R: running during it, whatever it ended in");
	is_int(0, picks("2026-01-05", "2026-01-06", "R", &across),
	    "-s R: not running then: out");
	is_int(1, picks("2026-01-05", NULL, "R", &running),
	    "-s R: still running");
	is_int(1, picks("2026-01-03", NULL, "PD", &waiting),
	    "-s PD: still waiting");
	is_int(1, picks("2026-01-02T00:30", "2026-01-02T00:45", "PD", &across),
	    "-s PD: waiting to start then, whatever came after");
	is_int(0, picks("2026-01-01T12:00", "2026-01-01T13:00", "PD", &across),
	    "-s PD: not yet eligible then: out");
	is_int(-1, picks("2026-01-03", "2026-01-02", NULL, &across),
	    "an end before the start is refused");
}

int
main(void)
{
	plan_lazy();
	test_times();
	test_window();
	return done_testing();
}
