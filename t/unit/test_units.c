/*
 * The units layer: sacct memory, durations and timestamps (normal, edge
 * and malformed text), the human forms back, and random bytes through
 * every parser with exact-length buffers so ASan sees any overread.
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sp.h"
#include "tap.h"

#define MiB 1048576.0
#define GiB 1073741824.0

static const char *const rc_name[] = { "bad", "unknown", "ok" };

static const char *
rcs(int rc)
{
	return rc >= -1 && rc <= 1 ? rc_name[rc + 1] : "?";
}

static void
mem_is(const char *s, double bare, int zero_unknown, int want_rc,
       double want, char want_scope)
{
	double bytes = -1;
	char scope = 'x';
	int rc = sp_parse_mem(s, strlen(s), bare, zero_unknown, &bytes,
			      &scope);

	is_string(rcs(want_rc), rcs(rc), "mem \"%s\" (bare %.0f%s) is %s", s,
		  bare, zero_unknown ? ", zero unknown" : "", rcs(want_rc));
	is_double(want_rc == SP_VAL_OK ? want : NAN, bytes, 1e-6,
		  "mem \"%s\" bytes", s);
	is_int(want_scope, scope, "mem \"%s\" scope '%c'", s,
	       want_scope ? want_scope : '0');
}

static void
dur_is(const char *s, int want_rc, double want)
{
	double v = -1;
	int rc = sp_parse_duration(s, strlen(s), &v);

	is_string(rcs(want_rc), rcs(rc), "duration \"%s\" is %s", s,
		  rcs(want_rc));
	is_double(want_rc == SP_VAL_OK ? want : NAN, v, 1e-9,
		  "duration \"%s\" seconds", s);
}

static void
time_is(const char *s, int want_rc, int64_t want)
{
	int64_t t = 12345;
	int rc = sp_parse_time(s, strlen(s), &t);

	is_string(rcs(want_rc), rcs(rc), "time \"%s\" is %s", s,
		  rcs(want_rc));
	is_int(want_rc == SP_VAL_OK ? want : 0, t, "time \"%s\" epoch", s);
}

typedef void (*fmt_fn)(struct sp_buf *, double);

static void
fmt_is(fmt_fn fn, const char *fname, double v, const char *want)
{
	struct sp_buf b = { 0 };

	/* Human forms append: a prefix already there must survive. */
	sp_buf_adds(&b, "<");
	fn(&b, v);
	is_string(want, sp_buf_str(&b) + 1, "%s(%.17g) is \"%s\"", fname, v,
		  want);
	ok(b.p[0] == '<', "%s(%.17g) appends", fname, v);
	sp_buf_free(&b);
}

static void
test_sentinels(void)
{
	static const char *const yes[] = {
		"", "Unknown", "unknown", "UNKNOWN", "None", "NONE", "UNLIMITED",
		"unlimited", "Partition_Limit", "partition_limit", "INVALID",
		"invalid", "N/A", "n/a", "(null)", "(NULL)", "NaN", "nan",
		"inf", "INF", "-inf", "+inf", "infinity",
	};
	static const char *const no[] = {
		"0", "Nonee", "Non", "UNLIMITE", "None assigned", " None",
		"None ", "null", "-", "Partition", "nan0", "0n",
	};
	size_t i;

	for (i = 0; i < sizeof yes / sizeof yes[0]; i++)
		ok(sp_is_sentinel(yes[i], strlen(yes[i])),
		   "\"%s\" is a sentinel", yes[i]);
	for (i = 0; i < sizeof no / sizeof no[0]; i++)
		ok(!sp_is_sentinel(no[i], strlen(no[i])),
		   "\"%s\" is not a sentinel", no[i]);
	ok(sp_is_sentinel(NULL, 0), "NULL is empty, a sentinel");
	ok(sp_is_sentinel("Unknownxyz", 7), "only the slice is compared");
	ok(!sp_is_sentinel("None\0", 5), "an embedded NUL is not a sentinel");
}

static void
test_mem(void)
{
	/* The per-CPU bit old Slurm leaks: 2^31 + MiB, scope per CPU. */
	mem_is("2147486648Mn", MiB, 1, SP_VAL_OK, 3000 * MiB, 'c');
	mem_is("2147486448Mn", MiB, 1, SP_VAL_OK, 2800 * MiB, 'c');
	mem_is("2147490048Mn", MiB, 1, SP_VAL_OK, 6400 * MiB, 'c');
	mem_is("2147486648", MiB, 1, SP_VAL_OK, 3000 * MiB, 'c');
	mem_is("2147483648Mn", MiB, 1, SP_VAL_UNKNOWN, 0, 'c');
	mem_is("4294967295M", MiB, 0, SP_VAL_OK, 2147483647 * MiB, 'c');
	/* Not the bit: another unit, bytes, a fraction, or past 2^32. */
	mem_is("4294967296M", MiB, 0, SP_VAL_OK, 4294967296.0 * MiB, 0);
	mem_is("2147486648K", 1, 0, SP_VAL_OK, 2147486648.0 * 1024, 0);
	mem_is("2147486648", 1, 0, SP_VAL_OK, 2147486648.0, 0);
	mem_is("2147486648.5Mn", MiB, 1, SP_VAL_OK, 2147486648.5 * MiB, 'n');

	/* Units are powers of 1024; n/c are scopes. */
	mem_is("100M", MiB, 1, SP_VAL_OK, 100 * MiB, 0);
	mem_is("48000Mn", MiB, 1, SP_VAL_OK, 48000 * MiB, 'n');
	mem_is("3000Mc", MiB, 1, SP_VAL_OK, 3000 * MiB, 'c');
	mem_is("62.50Gn", MiB, 1, SP_VAL_OK, 62.5 * GiB, 'n');
	mem_is("125Gn", MiB, 1, SP_VAL_OK, 125 * GiB, 'n');
	mem_is("4G", MiB, 1, SP_VAL_OK, 4 * GiB, 0);
	mem_is("2T", MiB, 1, SP_VAL_OK, 2199023255552.0, 0);
	mem_is("1P", MiB, 1, SP_VAL_OK, 1125899906842624.0, 0);
	mem_is("1K", 1, 0, SP_VAL_OK, 1024, 0);
	mem_is("2252800K", MiB, 1, SP_VAL_OK, 2252800.0 * 1024, 0);
	mem_is("16", MiB, 1, SP_VAL_OK, 16 * MiB, 0);
	mem_is("16n", MiB, 1, SP_VAL_OK, 16 * MiB, 'n');
	/* MaxRSS and friends: a bare number is bytes. */
	mem_is("114944K", 1, 0, SP_VAL_OK, 117702656, 0);
	mem_is("0.07M", 1, 0, SP_VAL_OK, 73400.32, 0);
	mem_is("85399.46K", 1, 0, SP_VAL_OK, 87449047.04, 0);
	mem_is("512", 1, 0, SP_VAL_OK, 512, 0);
	mem_is("0", 1, 0, SP_VAL_OK, 0, 0);
	mem_is("0.00K", 1, 0, SP_VAL_OK, 0, 0);
	mem_is("007M", 1, 0, SP_VAL_OK, 7 * MiB, 0);

	/* Zero in ReqMem is "not recorded". */
	mem_is("0n", MiB, 1, SP_VAL_UNKNOWN, 0, 'n');
	mem_is("0c", MiB, 1, SP_VAL_UNKNOWN, 0, 'c');
	mem_is("0", MiB, 1, SP_VAL_UNKNOWN, 0, 0);
	mem_is("0n", MiB, 0, SP_VAL_OK, 0, 'n');

	/* Sentinels. */
	mem_is("", MiB, 1, SP_VAL_UNKNOWN, 0, 0);
	mem_is("Unknown", 1, 0, SP_VAL_UNKNOWN, 0, 0);
	mem_is("INVALID", 1, 0, SP_VAL_UNKNOWN, 0, 0);
	mem_is("NaN", 1, 0, SP_VAL_UNKNOWN, 0, 0);
	mem_is("inf", 1, 0, SP_VAL_UNKNOWN, 0, 0);

	/* The edge of absurd: 1e18 bytes is the most. */
	mem_is("976562500000000K", 1, 0, SP_VAL_OK, 1e18, 0);
	mem_is("976562500000001K", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("999999999999999999P", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("1000000000000000000000", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("1e999", 1, 0, SP_VAL_BAD, 0, 0);

	/* Malformed. */
	mem_is("abc", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("1e5", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("-5M", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("+5M", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("5MB", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("5 M", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is(" 5M", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("5M ", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("5.M", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is(".5M", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("5Mnc", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("5nM", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("5E", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("5k", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("M", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("n", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("1,5M", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("0x10", 1, 0, SP_VAL_BAD, 0, 0);
	mem_is("5M", 0, 0, SP_VAL_BAD, 0, 0);
	mem_is("5M", -1, 0, SP_VAL_BAD, 0, 0);
	mem_is("5M", NAN, 0, SP_VAL_BAD, 0, 0);

	{
		double bytes;
		char scope;

		is_int(SP_VAL_OK, sp_parse_mem("100Mnjunk", 5, 1, 0, &bytes,
					       &scope), "mem reads only its slice");
		is_double(100 * MiB, bytes, 0, "mem slice value");
		is_int(SP_VAL_BAD, sp_parse_mem("1\0M", 3, 1, 0, &bytes,
						&scope), "mem: an embedded NUL is bad");
		is_int(SP_VAL_OK, sp_parse_mem("5M", 2, 1, 0, NULL, NULL),
		       "mem with no outputs asked");
		is_int(SP_VAL_UNKNOWN, sp_parse_mem(NULL, 0, 1, 0, &bytes,
						    &scope), "mem of NULL is unknown");
	}
}

static void
test_duration(void)
{
	/* Two parts are always minutes:seconds. */
	dur_is("00:00.539", SP_VAL_OK, 0.539);
	dur_is("30:30.919", SP_VAL_OK, 1830.919);
	dur_is("01:07.402", SP_VAL_OK, 67.402);
	dur_is("02:10.584", SP_VAL_OK, 130.584);
	dur_is("00:15", SP_VAL_OK, 15);
	dur_is("90:00", SP_VAL_OK, 5400);
	/* Three parts are H:M:S, the hours free. */
	dur_is("00:05:16", SP_VAL_OK, 316);
	dur_is("22:32:22", SP_VAL_OK, 81142);
	dur_is("25:00:00", SP_VAL_OK, 90000);
	dur_is("00:00:00", SP_VAL_OK, 0);
	dur_is("00:00:00.5", SP_VAL_OK, 0.5);
	/* Days. */
	dur_is("1-02:00:00", SP_VAL_OK, 93600);
	dur_is("7-20:39:39", SP_VAL_OK, 679179);
	dur_is("125-00:00:00", SP_VAL_OK, 10800000);
	dur_is("1-2", SP_VAL_OK, 93600);
	dur_is("1-2:30", SP_VAL_OK, 95400);
	dur_is("0-00:00:01", SP_VAL_OK, 1);
	dur_is("9999999999-00:00:00", SP_VAL_OK, 863999999913600.0);
	/* One part is seconds. */
	dur_is("5", SP_VAL_OK, 5);
	dur_is("5.25", SP_VAL_OK, 5.25);
	dur_is("0", SP_VAL_OK, 0);
	dur_is("3600", SP_VAL_OK, 3600);

	/* Sentinels, any case. */
	dur_is("UNLIMITED", SP_VAL_UNKNOWN, 0);
	dur_is("unlimited", SP_VAL_UNKNOWN, 0);
	dur_is("Partition_Limit", SP_VAL_UNKNOWN, 0);
	dur_is("INVALID", SP_VAL_UNKNOWN, 0);
	dur_is("Unknown", SP_VAL_UNKNOWN, 0);
	dur_is("None", SP_VAL_UNKNOWN, 0);
	dur_is("NaN", SP_VAL_UNKNOWN, 0);
	dur_is("inf", SP_VAL_UNKNOWN, 0);
	dur_is("(null)", SP_VAL_UNKNOWN, 0);
	dur_is("N/A", SP_VAL_UNKNOWN, 0);
	dur_is("", SP_VAL_UNKNOWN, 0);

	/* Malformed, misaligned (an ExitCode is not a duration), absurd. */
	dur_is("1:2:3:4", SP_VAL_BAD, 0);
	dur_is("1-1:2:3:4", SP_VAL_BAD, 0);
	dur_is("0:125", SP_VAL_BAD, 0);
	dur_is("00:60", SP_VAL_BAD, 0);
	dur_is("00:60:00", SP_VAL_BAD, 0);
	dur_is("1-24:00:00", SP_VAL_BAD, 0);
	dur_is("1-00:60:00", SP_VAL_BAD, 0);
	dur_is("1-00:00:60", SP_VAL_BAD, 0);
	dur_is("-5", SP_VAL_BAD, 0);
	dur_is("5-", SP_VAL_BAD, 0);
	dur_is("1--2", SP_VAL_BAD, 0);
	dur_is("1-2-3", SP_VAL_BAD, 0);
	dur_is(":", SP_VAL_BAD, 0);
	dur_is("1:", SP_VAL_BAD, 0);
	dur_is(":1", SP_VAL_BAD, 0);
	dur_is("1::2", SP_VAL_BAD, 0);
	dur_is("a", SP_VAL_BAD, 0);
	dur_is("1:2a", SP_VAL_BAD, 0);
	dur_is("1.5:00", SP_VAL_BAD, 0);
	dur_is("1-2.5", SP_VAL_BAD, 0);
	dur_is("1.5-00:00:00", SP_VAL_BAD, 0);
	dur_is("1e3", SP_VAL_BAD, 0);
	dur_is(" 5", SP_VAL_BAD, 0);
	dur_is("5 ", SP_VAL_BAD, 0);
	dur_is("+5", SP_VAL_BAD, 0);
	dur_is("5.", SP_VAL_BAD, 0);
	dur_is("1-02:00:00x", SP_VAL_BAD, 0);
	dur_is("2022-02-18T17:32:41", SP_VAL_BAD, 0);
	dur_is("99999999999999999999", SP_VAL_BAD, 0);
	dur_is("11574074074075-00:00:00", SP_VAL_BAD, 0);

	{
		double v;

		is_int(SP_VAL_OK, sp_parse_duration("00:05:16junk", 8, &v),
		       "duration reads only its slice");
		is_double(316, v, 0, "duration slice value");
		is_int(SP_VAL_BAD, sp_parse_duration("1:\0" "2", 4, &v),
		       "duration: an embedded NUL is bad");
		is_int(SP_VAL_OK, sp_parse_duration("5", 1, NULL),
		       "duration with no output asked");
		is_int(SP_VAL_UNKNOWN, sp_parse_duration(NULL, 0, &v),
		       "duration of NULL is unknown");
	}
}

/* TRESUsageInTot's cpu=, where Slurm 25.05 kept a step's CPU time. */
static void
test_tres_cpu(void)
{
	static const char list[] =
	    "cpu=15:00:00,energy=0,fs/disk=1048576,mem=3120M";
	double v;

	is_int(SP_VAL_OK, sp_parse_tres_cpu(list, strlen(list), &v),
	       "tres cpu: first item");
	is_double(54000, v, 0, "tres cpu: its duration");
	is_int(SP_VAL_OK, sp_parse_tres_cpu("energy=0,cpu=1-00:00:01", 23,
	       &v), "tres cpu: a later item");
	is_double(86401, v, 0, "tres cpu: days");
	is_int(SP_VAL_UNKNOWN, sp_parse_tres_cpu("energy=0,vmem=4M", 16, &v),
	       "tres cpu: none in the list");
	ok(isnan(v), "tres cpu: none is NaN, never 0");
	is_int(SP_VAL_UNKNOWN, sp_parse_tres_cpu("xcpu=5,cpu=", 11, &v),
	       "tres cpu: no key that only ends in cpu, no empty value");
	is_int(SP_VAL_BAD, sp_parse_tres_cpu("cpu=5x", 6, &v),
	       "tres cpu: a value that is no duration");
	is_int(SP_VAL_UNKNOWN, sp_parse_tres_cpu(NULL, 0, &v),
	       "tres cpu: NULL");
}

static void
test_time(void)
{
	struct sp_buf b = { 0 };
	static const int64_t round[] = {
		0, 1, -1, 86399, 86400, 951825600, 1456704000, 1795960991,
		-62135596800LL, 253402300799LL, 4102444800LL,
	};
	int64_t t;
	size_t i;

	time_is("2026-11-29T14:03:11", SP_VAL_OK, 1795960991);
	time_is("2022-02-18T17:32:41", SP_VAL_OK, 1645205561);
	time_is("1970-01-01T00:00:00", SP_VAL_OK, 0);
	time_is("1970-01-01T03:00:00", SP_VAL_OK, 10800);
	time_is("1969-12-31T23:59:59", SP_VAL_OK, -1);
	time_is("2016-02-29T00:00:00", SP_VAL_OK, 1456704000);
	time_is("2000-02-29T12:00:00", SP_VAL_OK, 951825600);
	time_is("0001-01-01T00:00:00", SP_VAL_OK, -62135596800LL);
	time_is("9999-12-31T23:59:59", SP_VAL_OK, 253402300799LL);

	time_is("Unknown", SP_VAL_UNKNOWN, 0);
	time_is("unknown", SP_VAL_UNKNOWN, 0);
	time_is("None", SP_VAL_UNKNOWN, 0);
	time_is("", SP_VAL_UNKNOWN, 0);

	/* sacct's standard format has a 'T'; nothing else is read. */
	time_is("2026-11-29 14:03:11", SP_VAL_BAD, 0);
	time_is("2026-11-29T14:03", SP_VAL_BAD, 0);
	time_is("2026-11-29T14:03:11Z", SP_VAL_BAD, 0);
	time_is("2026-11-29", SP_VAL_BAD, 0);
	time_is("2026-13-01T00:00:00", SP_VAL_BAD, 0);
	time_is("2026-00-10T00:00:00", SP_VAL_BAD, 0);
	time_is("2026-11-31T00:00:00", SP_VAL_BAD, 0);
	time_is("2026-11-00T00:00:00", SP_VAL_BAD, 0);
	time_is("2015-02-29T00:00:00", SP_VAL_BAD, 0);
	time_is("1900-02-29T00:00:00", SP_VAL_BAD, 0);
	time_is("2026-11-29T24:00:00", SP_VAL_BAD, 0);
	time_is("2026-11-29T14:60:00", SP_VAL_BAD, 0);
	time_is("2026-11-29T14:03:60", SP_VAL_BAD, 0);
	time_is("+026-11-29T14:03:11", SP_VAL_BAD, 0);
	time_is("2026-1a-29T14:03:11", SP_VAL_BAD, 0);
	time_is("2026/11/29T14:03:11", SP_VAL_BAD, 0);
	time_is("00:05:16", SP_VAL_BAD, 0);

	is_int(SP_VAL_OK, sp_parse_time("2026-11-29T14:03:11junk", 19, &t),
	       "time reads only its slice");
	is_int(1795960991, t, "time slice value");
	/* No dependence on the local time zone. */
	setenv("TZ", "America/New_York", 1);
	tzset();
	is_int(SP_VAL_OK, sp_parse_time("2026-11-29T14:03:11", 19, &t),
	       "time under TZ=America/New_York");
	is_int(1795960991, t, "the same epoch in any TZ");
	sp_fmt_time(&b, 1795960991);
	is_string("2026-11-29T14:03:11", sp_buf_str(&b),
		  "and the same text back in any TZ");
	unsetenv("TZ");
	tzset();

	for (i = 0; i < sizeof round / sizeof round[0]; i++) {
		sp_buf_clear(&b);
		sp_fmt_time(&b, round[i]);
		t = 7;
		sp_parse_time(b.p, b.len, &t);
		is_int(round[i], t, "epoch %lld -> %s -> back",
		       (long long)round[i], b.p);
	}
	sp_buf_clear(&b);
	sp_fmt_time(&b, -1);
	is_string("1969-12-31T23:59:59", sp_buf_str(&b), "fmt_time(-1)");
	sp_buf_clear(&b);
	sp_fmt_time(&b, 253402300800LL);
	is_string("10000-01-01T00:00:00", sp_buf_str(&b),
		  "fmt_time past year 9999 widens the year");
	sp_buf_clear(&b);
	sp_fmt_time(&b, INT64_MAX);
	ok(b.len > 19, "fmt_time(INT64_MAX) does not crash: %s", b.p);
	sp_buf_clear(&b);
	sp_fmt_time(&b, INT64_MIN);
	ok(b.len > 19, "fmt_time(INT64_MIN) does not crash: %s", b.p);
	sp_buf_free(&b);
}

static void
test_fmt_duration(void)
{
	fmt_is(sp_fmt_duration, "fmt_duration", 0.539, "0.54s");
	fmt_is(sp_fmt_duration, "fmt_duration", 0, "0.00s");
	fmt_is(sp_fmt_duration, "fmt_duration", 0.004, "0.00s");
	fmt_is(sp_fmt_duration, "fmt_duration", 0.99, "0.99s");
	/* The tier is chosen by the rounded value. */
	fmt_is(sp_fmt_duration, "fmt_duration", 0.996, "1.0s");
	fmt_is(sp_fmt_duration, "fmt_duration", 12.345, "12.3s");
	fmt_is(sp_fmt_duration, "fmt_duration", 59.94, "59.9s");
	fmt_is(sp_fmt_duration, "fmt_duration", 59.96, "00:01:00");
	fmt_is(sp_fmt_duration, "fmt_duration", 60, "00:01:00");
	fmt_is(sp_fmt_duration, "fmt_duration", 6769, "01:52:49");
	fmt_is(sp_fmt_duration, "fmt_duration", 6769.4, "01:52:49");
	fmt_is(sp_fmt_duration, "fmt_duration", 86399.4, "23:59:59");
	fmt_is(sp_fmt_duration, "fmt_duration", 86399.6, "1-00:00:00");
	fmt_is(sp_fmt_duration, "fmt_duration", 93600, "1-02:00:00");
	fmt_is(sp_fmt_duration, "fmt_duration", 10800000, "125-00:00:00");
	fmt_is(sp_fmt_duration, "fmt_duration", 1e18,
	       "11574074074074-01:46:40");
	fmt_is(sp_fmt_duration, "fmt_duration", 1.1e18, "n/a");
	fmt_is(sp_fmt_duration, "fmt_duration", -1, "n/a");
	fmt_is(sp_fmt_duration, "fmt_duration", NAN, "n/a");
	fmt_is(sp_fmt_duration, "fmt_duration", INFINITY, "n/a");

	fmt_is(sp_fmt_hms, "fmt_hms", 0, "00:00:00");
	fmt_is(sp_fmt_hms, "fmt_hms", 0.5, "00:00:01");
	fmt_is(sp_fmt_hms, "fmt_hms", 59.2, "00:01:00");
	fmt_is(sp_fmt_hms, "fmt_hms", 3600, "01:00:00");
	fmt_is(sp_fmt_hms, "fmt_hms", 4500, "01:15:00");
	fmt_is(sp_fmt_hms, "fmt_hms", 86399, "23:59:59");
	fmt_is(sp_fmt_hms, "fmt_hms", 86400, "1-00:00:00");
	fmt_is(sp_fmt_hms, "fmt_hms", 90000, "1-01:00:00");
	fmt_is(sp_fmt_hms, "fmt_hms", -5, "n/a");
	fmt_is(sp_fmt_hms, "fmt_hms", NAN, "n/a");
}

static void
test_fmt_bytes(void)
{
	fmt_is(sp_fmt_bytes, "fmt_bytes", 0, "0 B");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 512, "512 B");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 1023, "1023 B");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 1023.4, "1023 B");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 1023.6, "1.0 KiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 1024, "1.0 KiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 1536, "1.5 KiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 1023.9 * 1024, "1023.9 KiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 1023.96 * 1024, "1.0 MiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 115180.0 * 1024, "112.5 MiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 42 * GiB, "42.0 GiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 62.5 * GiB, "62.5 GiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 1023.96 * GiB, "1.0 TiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 1125899906842624.0, "1.0 PiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 1e18, "888.2 PiB");
	fmt_is(sp_fmt_bytes, "fmt_bytes", 2e18, "n/a");
	fmt_is(sp_fmt_bytes, "fmt_bytes", -1, "n/a");
	fmt_is(sp_fmt_bytes, "fmt_bytes", NAN, "n/a");
}

static void
test_fmt_percent(void)
{
	fmt_is(sp_fmt_percent, "fmt_percent", 0, "0.0%");
	fmt_is(sp_fmt_percent, "fmt_percent", -0.0, "0.0%");
	fmt_is(sp_fmt_percent, "fmt_percent", 1e-300, "<0.1%");
	fmt_is(sp_fmt_percent, "fmt_percent", 0.0004, "<0.1%");
	fmt_is(sp_fmt_percent, "fmt_percent", 0.0005, "0.1%");
	fmt_is(sp_fmt_percent, "fmt_percent", 0.487, "48.7%");
	fmt_is(sp_fmt_percent, "fmt_percent", 0.9994, "99.9%");
	fmt_is(sp_fmt_percent, "fmt_percent", 0.9995, ">99.9%");
	fmt_is(sp_fmt_percent, "fmt_percent", 0.99999, ">99.9%");
	fmt_is(sp_fmt_percent, "fmt_percent", 1, "100.0%");
	fmt_is(sp_fmt_percent, "fmt_percent", 1.5, "150.0%");
	fmt_is(sp_fmt_percent, "fmt_percent", NAN, "n/a");
	fmt_is(sp_fmt_percent, "fmt_percent", INFINITY, "n/a");
}

static void
test_fmt_num(void)
{
	struct sp_buf b = { 0 };
	int e, exponent_seen = 0;

	fmt_is(sp_fmt_num, "fmt_num", 0, "0");
	fmt_is(sp_fmt_num, "fmt_num", -0.0, "0");
	fmt_is(sp_fmt_num, "fmt_num", 3, "3");
	fmt_is(sp_fmt_num, "fmt_num", -3, "-3");
	fmt_is(sp_fmt_num, "fmt_num", 3600, "3600");
	fmt_is(sp_fmt_num, "fmt_num", 1830.919, "1830.919");
	fmt_is(sp_fmt_num, "fmt_num", 0.539, "0.539");
	fmt_is(sp_fmt_num, "fmt_num", -2.5, "-2.5");
	fmt_is(sp_fmt_num, "fmt_num", 0.1 + 0.2, "0.3");
	fmt_is(sp_fmt_num, "fmt_num", 1 / 3.0, "0.333333");
	fmt_is(sp_fmt_num, "fmt_num", 2 / 3.0, "0.666667");
	fmt_is(sp_fmt_num, "fmt_num", 12345.678912, "12345.678912");
	fmt_is(sp_fmt_num, "fmt_num", 123456789.25, "123456789.25");
	fmt_is(sp_fmt_num, "fmt_num", 1e-9, "0.000000001");
	fmt_is(sp_fmt_num, "fmt_num", 1.5e-7, "0.00000015");
	fmt_is(sp_fmt_num, "fmt_num", 1e-20, "0");
	fmt_is(sp_fmt_num, "fmt_num", -1e-20, "0");
	fmt_is(sp_fmt_num, "fmt_num", 1e15, "1000000000000000");
	fmt_is(sp_fmt_num, "fmt_num", 1e21, "");
	fmt_is(sp_fmt_num, "fmt_num", 1e18, "1000000000000000000");
	fmt_is(sp_fmt_num, "fmt_num", 45097156608.0, "45097156608");
	fmt_is(sp_fmt_num, "fmt_num", NAN, "");
	fmt_is(sp_fmt_num, "fmt_num", INFINITY, "");
	fmt_is(sp_fmt_num, "fmt_num", -INFINITY, "");
	for (e = -30; e <= 30; e++) {
		sp_buf_clear(&b);
		sp_fmt_num(&b, 1.2345678 * pow(10, e));
		if (strchr(sp_buf_str(&b), 'e') != NULL)
			exponent_seen++;
	}
	is_int(0, exponent_seen, "fmt_num never writes an exponent");
	sp_buf_free(&b);
}

/* Random bytes, biased to the grammars' own characters. */
static void
test_random_bytes(void)
{
	static const char alpha[] = "0123456789:.-KMGTPncT Nn/()aAfIiU\0\xff";
	uint32_t seed = 12345;
	int i, bad_rc = 0, bad_value = 0;

	for (i = 0; i < 40000; i++) {
		size_t n, k;
		char *s;
		double v;
		int64_t t;
		char scope;
		int rc[3];

		seed = seed * 1103515245u + 12345u;
		n = (seed >> 16) % 24;
		/* Exactly n bytes: ASan catches any read past the slice. */
		s = malloc(n ? n : 1);
		for (k = 0; k < n; k++) {
			seed = seed * 1103515245u + 12345u;
			s[k] = alpha[(seed >> 16) % (sizeof alpha - 1)];
		}
		rc[0] = sp_parse_mem(s, n, MiB, i & 1, &v, &scope);
		if (rc[0] == SP_VAL_OK && !(v >= 0 && v <= SP_UNITS_MAX))
			bad_value++;
		rc[1] = sp_parse_duration(s, n, &v);
		if (rc[1] == SP_VAL_OK && !(v >= 0 && v <= SP_UNITS_MAX))
			bad_value++;
		rc[2] = sp_parse_time(s, n, &t);
		for (k = 0; k < 3; k++)
			if (rc[k] < -1 || rc[k] > 1)
				bad_rc++;
		free(s);
	}
	is_int(0, bad_rc, "random bytes: every parser answers bad/unknown/ok");
	is_int(0, bad_value, "random bytes: every OK value is finite, in range");
}

/* One printf and one sp_fmt_fixed of v; 1 when they differ (told). */
static int
fixed_differs(double v, int decimals)
{
	struct sp_buf got = { 0 };
	char want[128];
	int differs;

	snprintf(want, sizeof want, "%.*f", decimals, v);
	sp_fmt_fixed(&got, v, decimals);
	differs = strcmp(want, sp_buf_str(&got)) != 0;
	if (differs)
		diag("%.17g at %d decimals: printf '%s', ours '%s'", v,
		     decimals, want, sp_buf_str(&got));
	sp_buf_free(&got);
	return differs;
}

/* A double of any magnitude SP_UNITS_MAX allows, every mantissa bit random. */
static double
random_double(void)
{
	uint64_t bits = 0;
	double v;

	for (int i = 0; i < 4; i++)
		bits = bits << 16 | (uint64_t)(rand() & 0xffff);
	v = ldexp((double)(bits >> 11), -53);		/* [0, 1) */
	v = ldexp(v, rand() % 120 - 60);		/* 2^-60 .. 2^60 */
	if (fabs(v) > SP_UNITS_MAX)
		v = fmod(v, SP_UNITS_MAX);
	return rand() & 1 ? -v : v;
}

static void
test_fmt_fixed(void)
{
	/* Ties both ways, carries into the whole part, negative zeros. */
	static const double exact[] = { 0.5, 1.5, 2.5, 0.125, 0.375, -0.5,
		0.0, -0.0, 9.9999995, 0.0000005, 0.00000049999999999999994,
		1e18, -1e18, 123456789.123456789, 1e-300, 4.9e-324, 0.1, 0.7,
		2.675, 1.005, 999999.9999995, 0.25, 1e-7 };
	int wrong = 0;

	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
		for (int d = 0; d <= 18; d++)
			wrong += fixed_differs(exact[i], d);
	is_int(0, wrong, "sp_fmt_fixed: printf's digits on chosen values");
	srand(11);
	wrong = 0;
	for (int i = 0; i < 300000; i++)
		wrong += fixed_differs(random_double(), rand() % 19);
	/* Values with few fraction bits make exact ties: half to even. */
	for (int i = 0; i < 100000; i++)
		wrong += fixed_differs((rand() % 2000000 - 1000000) / 64.0,
				       rand() % 7);
	is_int(0, wrong, "sp_fmt_fixed: printf's digits on 400000 random "
	       "doubles and ties");
}

/*
 * printf's human forms, as sp_units wrote them before it formatted
 * without printf: the reference its forms must match byte for byte.
 */
static double
ref_printed(double v, int decimals)
{
	char tmp[64];
	double r = 0, scale = 1;
	const char *p;

	snprintf(tmp, sizeof tmp, "%.*f", decimals, v);
	for (p = tmp; *p >= '0' && *p <= '9'; p++)
		r = r * 10 + (*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			r += (*p - '0') / (scale *= 10);
	return r;
}

static int
ref_unknown(struct sp_buf *b, double v)
{
	if (isfinite(v) && v >= 0 && v <= SP_UNITS_MAX)
		return 0;
	sp_buf_adds(b, "n/a");
	return 1;
}

static void
ref_clock(struct sp_buf *b, long long secs)
{
	long long days = secs / 86400;

	secs %= 86400;
	if (days > 0)
		sp_buf_printf(b, "%lld-", days);
	sp_buf_printf(b, "%02lld:%02lld:%02lld", secs / 3600, secs / 60 % 60,
		      secs % 60);
}

static void
ref_hms(struct sp_buf *b, double seconds)
{
	if (!ref_unknown(b, seconds))
		ref_clock(b, (long long)ceil(seconds));
}

static void
ref_duration(struct sp_buf *b, double seconds)
{
	if (ref_unknown(b, seconds))
		return;
	if (ref_printed(seconds, 2) < 1)
		sp_buf_printf(b, "%.2fs", seconds);
	else if (ref_printed(seconds, 1) < 60)
		sp_buf_printf(b, "%.1fs", seconds);
	else
		ref_clock(b, llround(seconds));
}

static void
ref_bytes(struct sp_buf *b, double bytes)
{
	static const char *const units[] = {
		"KiB", "MiB", "GiB", "TiB", "PiB"
	};
	double v;
	size_t i;

	if (ref_unknown(b, bytes))
		return;
	if (ref_printed(bytes, 0) < 1024) {
		sp_buf_printf(b, "%.0f B", bytes);
		return;
	}
	v = bytes / 1024;
	for (i = 0; i + 1 < sizeof units / sizeof units[0]; i++) {
		if (ref_printed(v, 1) < 1024)
			break;
		v /= 1024;
	}
	sp_buf_printf(b, "%.1f %s", v, units[i]);
}

/*
 * The human forms write exactly what printf wrote: on the values
 * the rules print (whole bytes and seconds, tier edges, ties that only
 * printf can call) and on a spread of awkward ones.
 */
static int
same_form(void (*fast)(struct sp_buf *, double),
	  void (*slow)(struct sp_buf *, double), double v, struct sp_buf *a,
	  struct sp_buf *b)
{
	sp_buf_clear(a);
	sp_buf_clear(b);
	sp_buf_adds(a, "x");
	sp_buf_adds(b, "x");
	fast(a, v);
	slow(b, v);
	if (strcmp(sp_buf_str(a), sp_buf_str(b)) == 0)
		return 1;
	diag("%.17g: '%s' against '%s'", v, sp_buf_str(a), sp_buf_str(b));
	return 0;
}

static void
fast_forms(void)
{
	static const double edges[] = { 0, -0.0, 0.004, 0.005, 0.0049999,
		0.125, 0.25, 0.995, 0.9949999, 0.99500001, 1, 9.95, 9.25,
		59.94, 59.95, 59.96, 60, 60.5, 61.5, 86399.5, 86400, 90061,
		1023, 1023.5, 1024, 1048524, 1048525, 1048576, 1073741823,
		1073689395.2, 1099511627776.0, 1125899906842624.0,
		9007199254740993.0, 1e18, 1e19, -1, NAN, INFINITY, -INFINITY,
		35016943616.0, 7916562432.0, 0.05, 0.15, 2.675, 1e9, 1e10 };
	struct sp_buf a = { 0 }, b = { 0 };
	unsigned long long x = 88172645463325252ULL;
	long bad = 0, n = 0;

	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++, n += 3) {
		bad += !same_form(sp_fmt_hms, ref_hms, edges[i], &a, &b);
		bad += !same_form(sp_fmt_duration, ref_duration,
				  edges[i], &a, &b);
		bad += !same_form(sp_fmt_bytes, ref_bytes, edges[i],
				  &a, &b);
	}
	for (int i = 0; i < 200000; i++, n += 3) {
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* Whole numbers over many magnitudes, then fractions. */
		v = (double)(x >> (x % 60 + 4));
		if (i % 2)
			v /= (double)(1 + x % 1000);
		bad += !same_form(sp_fmt_hms, ref_hms, v, &a, &b);
		bad += !same_form(sp_fmt_duration, ref_duration, v,
				  &a, &b);
		bad += !same_form(sp_fmt_bytes, ref_bytes, v, &a, &b);
	}
	is_int(0, bad, "human forms match printf's on %ld values", n);
	sp_buf_free(&a);
	sp_buf_free(&b);
}

/*
 * The memory parser as first written (scan_decimal counting digits one
 * test at a time, the unit found with strchr and ldexp): the slow path
 * the faster one must agree with on every input, bit for bit.
 */
static int
ref_decimal(const char *s, size_t n, int allow_frac, double *value,
	    uint64_t *whole_out, int *has_frac, size_t *len)
{
	static const double p10[19] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
		1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
		1e18 };
	uint64_t whole = 0, frac = 0;
	size_t i = 0, sig = 0, fd = 0;

	*has_frac = 0;
	if (n == 0 || !(s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (whole == 0 && s[i] == '0')
			continue;
		if (++sig > 18)
			return -1;
		whole = whole * 10 + (uint64_t)(s[i] - '0');
	}
	if (allow_frac && i < n && s[i] == '.') {
		if (i + 1 >= n || !(s[i + 1] >= '0' && s[i + 1] <= '9'))
			return 0;
		*has_frac = 1;
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (fd == 18)
				continue;
			frac = frac * 10 + (uint64_t)(s[i] - '0');
			fd++;
		}
	}
	*whole_out = whole;
	*len = i;
	if (fd > 0 && whole < (UINT64_C(1) << 53) / (uint64_t)p10[fd]) {
		uint64_t scaled = whole * (uint64_t)p10[fd] + frac;

		if (scaled < (UINT64_C(1) << 53)) {
			*value = (double)scaled / p10[fd];
			return 1;
		}
	}
	*value = (double)whole + (double)frac / p10[fd];
	return 1;
}

static int
ref_mem(const char *s, size_t n, double bare, int zero_unknown,
	double *bytes, char *scope)
{
	static const char units[] = "KMGTP";
	const char *u;
	double unit = bare, v;
	uint64_t whole = 0;
	size_t i;
	int has_frac, mib = bare == SP_MIB;
	char sc = 0;

	*bytes = NAN;
	*scope = 0;
	if (sp_is_sentinel(s, n))
		return SP_VAL_UNKNOWN;
	if (!(isfinite(bare) && bare > 0))
		return SP_VAL_BAD;
	if (ref_decimal(s, n, 1, &v, &whole, &has_frac, &i) != 1)
		return SP_VAL_BAD;
	if (i < n && s[i] != '\0' && (u = strchr(units, s[i])) != NULL) {
		unit = ldexp(1.0, 10 * (int)(u - units + 1));
		mib = *u == 'M';
		i++;
	}
	if (i < n && (s[i] == 'n' || s[i] == 'c'))
		sc = s[i++];
	if (i != n)
		return SP_VAL_BAD;
	if (mib && !has_frac && whole >= (UINT64_C(1) << 31) &&
	    whole < (UINT64_C(1) << 32)) {
		v = (double)(whole - (UINT64_C(1) << 31));
		sc = 'c';
	}
	v *= unit;
	if (!(isfinite(v) && v >= 0 && v <= SP_UNITS_MAX))
		return SP_VAL_BAD;
	*scope = sc;
	if (v == 0 && zero_unknown)
		return SP_VAL_UNKNOWN;
	*bytes = v;
	return SP_VAL_OK;
}

/* 1 when sp_parse_mem says what ref_mem says of s[0..n), bit for bit. */
static int
mem_agrees(const char *s, size_t n, double bare, int zero_unknown)
{
	double a, b;
	char sa, sb;
	int ra = sp_parse_mem(s, n, bare, zero_unknown, &a, &sa);
	int rb = ref_mem(s, n, bare, zero_unknown, &b, &sb);

	if (ra != rb || sa != sb || isnan(a) != isnan(b) ||
	    (!isnan(a) && memcmp(&a, &b, sizeof a) != 0)) {
		diag("mem \"%.*s\" (bare %g%s): %d %.17g '%c', slow path %d "
		     "%.17g '%c'", (int)n, s, bare, zero_unknown ? ", zero "
		     "unknown" : "", ra, a, sa ? sa : '-', rb, b,
		     sb ? sb : '-');
		return 0;
	}
	return 1;
}

static int
mem_agrees_all(const char *s, size_t n)
{
	static const double bare[] = { 1.0, SP_KIB, SP_MIB, 0.0, -1.0, NAN,
		INFINITY, 1e300 };
	int agree = 1;

	for (size_t b = 0; b < sizeof bare / sizeof bare[0]; b++)
		for (int z = 0; z < 2; z++)
			agree &= mem_agrees(s, n, bare[b], z);
	return agree;
}

/* The fast memory parser against the slow one: edge cases, then random
 * numbers in every shape sacct prints and some it never does. */
static void
fast_mem(void)
{
	static const char *const edge[] = {
		"", "0", "00", "000000000000000000000000", "0.0", ".5", "5.",
		"1", "-1", "+1", "-0", "1e5", "1E5", "1.5e3", "0x10", " 1",
		"1 ", "1.5G", "300K", "2048M", "64Gn", "4000Mc", "1.5Tn",
		"3P", "7X", "1KK", "1Kn", "1Kc", "1nK", "1.", "1..2", "1.2.3",
		"2147483647M", "2147483648M", "2147486648Mn", "4294967295M",
		"4294967296M", "2147486648.0M", "2147486648K",
		"999999999999999999", "1000000000000000000",
		"9999999999999999999", "18446744073709551615",
		"18446744073709551616", "99999999999999999999999",
		"000000000000000000001", "0000000000000000000000000012K",
		"0.000000000000000000000001", "1.2345678901234567890123",
		"123456789.123456789", "9007199254740993",
		"9007199254740992.5", "976562500000000P", "1000000P",
		"Unknown", "None", "UNLIMITED", "N/A", "nan", "inf", "-inf",
		"infinity", "(null)", "K", "M", "n", "c",
		/* a byte beside the digits in an eight-byte group */
		"1234567/", "123:5678K", "12345678:", "/2345678", "1234567:9",
		"\xff\xff\xff\xff\xff\xff\xff\xff", "\3721234567",
		"1234567\xfa", "12345678901234567890K", "123456789012345G",
		"1234567890123456G", "0000000012345678",
	};
	unsigned long x = 88172645463325252UL;
	long i, n = 200000;
	int agree = 1;
	char t[64];

	for (size_t e = 0; e < sizeof edge / sizeof edge[0]; e++)
		agree &= mem_agrees_all(edge[e], strlen(edge[e]));
	agree &= mem_agrees_all("12\0K", 4);
	agree &= mem_agrees_all("12K\0", 4);
	for (i = 0; i < n && agree; i++) {
		static const char tail[] = "KMGTPnc.X0-";
		size_t len = 0, digits;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		digits = x % 26;
		for (size_t d = 0; d < digits; d++)
			t[len++] = (char)('0' + (x >> (d * 2 % 60)) % 10 *
			    ((x >> 40) % 4 != 0));
		if (x % 3 == 0) {
			t[len++] = '.';
			for (size_t d = (x >> 8) % 22; d > 0; d--)
				t[len++] = (char)('0' + (x >> d) % 10);
		}
		for (size_t k = (x >> 20) % 3; k > 0; k--)
			t[len++] = tail[(x >> (k * 5)) % (sizeof tail - 1)];
		agree &= mem_agrees_all(t, len);
	}
	ok(agree, "sp_parse_mem agrees with the slow path bit for bit on the "
	   "edge cases and %ld random numbers", i);
}

/* One part of a duration by the slow path (see sp_units.c). */
static int
ref_duration_part(const char *s, size_t n, int allow_frac, double limit,
		  double *out)
{
	uint64_t whole;
	size_t len;
	int has_frac;
	double v;

	if (ref_decimal(s, n, allow_frac, &v, &whole, &has_frac, &len) != 1 ||
	    len != n)
		return -1;
	if (limit > 0 && v >= limit)
		return -1;
	*out = v;
	return 0;
}

/* sp_parse_duration as first written: every form through its parts. */
static int
ref_parse_duration(const char *s, size_t n, double *seconds)
{
	const char *colon[3], *p = s, *end = s + n, *dash;
	double days = 0, part[3] = { 0, 0, 0 }, total;
	size_t nparts = 1;

	*seconds = NAN;
	if (sp_is_sentinel(s, n))
		return SP_VAL_UNKNOWN;
	dash = memchr(s, '-', n);
	if (dash != NULL) {
		if (ref_duration_part(s, (size_t)(dash - s), 0, 0, &days) < 0)
			return SP_VAL_BAD;
		p = dash + 1;
	}
	colon[0] = p;
	for (; p < end; p++) {
		if (*p != ':')
			continue;
		if (nparts == 3)
			return SP_VAL_BAD;
		colon[nparts++] = p + 1;
	}
	for (size_t i = 0; i < nparts; i++) {
		const char *b = colon[i];
		const char *e = i + 1 < nparts ? colon[i + 1] - 1 : end;
		size_t unit = dash ? i : i + (3 - nparts);
		double limit = unit == 0 ? 24 : 60;

		if (!dash && i == 0)
			limit = 0;
		if (ref_duration_part(b, (size_t)(e - b), unit == 2, limit,
		    &part[unit]) < 0)
			return SP_VAL_BAD;
	}
	total = days * 86400 + part[0] * 3600 + part[1] * 60 + part[2];
	if (!(isfinite(total) && total >= 0 && total <= SP_UNITS_MAX))
		return SP_VAL_BAD;
	*seconds = total;
	return SP_VAL_OK;
}

static int
duration_agrees(const char *s, size_t n)
{
	double a, b;
	int ra = sp_parse_duration(s, n, &a), rb = ref_parse_duration(s, n, &b);

	if (ra != rb || isnan(a) != isnan(b) ||
	    (!isnan(a) && memcmp(&a, &b, sizeof a) != 0)) {
		diag("duration \"%.*s\": %d %.17g, slow path %d %.17g", (int)n,
		     s, ra, a, rb, b);
		return 0;
	}
	return 1;
}

/* The fast duration forms against the slow path: edges, then random
 * D-HH:MM:SS shapes with every byte sometimes out of place. */
static void
fast_duration(void)
{
	static const char *const edge[] = {
		"", "00:00:00", "99:59:59", "23:60:00", "23:59:60",
		"1-00:00:00", "1-23:59:59", "1-24:00:00", "-12:34:56",
		"0-00:00:00", "000000-01:02:03", "999999-23:59:59",
		"1234567-01:02:03", "12345678-01:02:03", "1:2-03:04:05",
		"a-01:02:03", "1-1:02:03", "1-01:2:03", "1-01:02:3",
		"1-01:02:03.5", "01:02:03.5", "1--01:02:03", "+1-01:02:03",
		"1 -01:02:03", "12:34", "1:02:03", "100:00:00", "1-02",
		"Unknown", "INVALID", "1-0a:00:00", ":1:22:33",
	};
	unsigned long x = 1442695040888963407UL;
	long i, n = 200000;
	int agree = 1;
	char t[32];

	for (size_t e = 0; e < sizeof edge / sizeof edge[0]; e++)
		agree &= duration_agrees(edge[e], strlen(edge[e]));
	for (i = 0; i < n && agree; i++) {
		static const char odd[] = "0123456789:-.a ";
		size_t len;

		x = x * 6364136223846793005UL + 1442695040888963407UL;
		snprintf(t, sizeof t, "%lu-%02lu:%02lu:%02lu",
		    (x >> 8) % 1000000 / (1 + (x >> 30) % 1000),
		    (x >> 20) % 30, (x >> 26) % 64, (x >> 33) % 64);
		if ((x >> 40) % 2)
			memmove(t, strchr(t, '-') + 1, strlen(strchr(t, '-')));
		len = strlen(t);
		if ((x >> 42) % 4 == 0)
			t[(x >> 45) % len] = odd[(x >> 50) % (sizeof odd - 1)];
		agree &= duration_agrees(t, len);
	}
	ok(agree, "sp_parse_duration agrees with the slow path bit for bit on "
	   "the edge cases and %ld random durations", i);
}

int
main(void)
{
	plan_lazy();
	test_sentinels();
	test_mem();
	test_duration();
	test_tres_cpu();
	test_time();
	test_fmt_duration();
	test_fmt_bytes();
	test_fmt_percent();
	test_fmt_num();
	test_fmt_fixed();
	fast_forms();
	fast_mem();
	fast_duration();
	test_random_bytes();
	return done_testing();
}
