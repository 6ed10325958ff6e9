/*
 * fuzz_units.c - sacct's units, durations and timestamps, and the human
 * forms back.
 *
 * Every parser sees the whole input (an exact-size buffer, so reading
 * past n is caught).  Properties: a parsed value is finite and not
 * negative where the grammar has no sign; what a formatter writes, its
 * parser reads back to the same value (durations and times exactly, --mem
 * the peak with its margin rounded up, record numbers to 6 significant
 * digits); every formatter takes any double (NaN, infinities, huge) and
 * any epoch without crashing and writes a bounded amount; a record number past
 * SP_UNITS_MAX is written as unknown, since nothing could read it back.
 */
#include <math.h>
#include <string.h>

#include "sp.h"
#include "fuzz.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
/* Past 2^53 a double no longer holds every integer: no exact round trip. */
#define EXACT_MAX 9007199254740992.0
/* The longest human form of a double: 309 digits and a unit. */
#define FORM_MAX 400

static void
check_mem(const char *s, size_t n, double bare_unit, int zero_unknown)
{
	double bytes = -1, back = -1, need;
	char scope = 'x', back_scope;
	struct sp_buf b = { 0 };

	switch (sp_parse_mem(s, n, bare_unit, zero_unknown, &bytes, &scope)) {
	case SP_VAL_OK:
		break;
	case SP_VAL_UNKNOWN:
	case SP_VAL_BAD:
		return;
	default:
		FUZZ_CHECK(0, "sp_parse_mem returns OK, UNKNOWN or BAD");
	}
	FUZZ_CHECK(isfinite(bytes) && bytes >= 0 && bytes <= SP_UNITS_MAX,
		   "memory is finite, >= 0, within SP_UNITS_MAX");
	FUZZ_CHECK(scope == 0 || scope == 'n' || scope == 'c',
		   "scope is n, c or none");
	need = bytes * SP_MEM_MARGIN;
	if (need > EXACT_MAX)
		return;
	sp_mem_spell(&b, sp_suggest_mem(bytes));
	FUZZ_CHECK(b.len > 0 && b.len < FORM_MAX, "--mem form is bounded");
	FUZZ_CHECK(sp_parse_mem(b.p, b.len, 1024.0 * 1024.0, 0, &back,
				&back_scope) == SP_VAL_OK,
		   "sp_parse_mem reads sp_mem_spell");
	/* The peak with its margin, rounded up, but for a rounding error's
	 * worth above a whole GiB. */
	FUZZ_CHECK(back >= need - SP_SUGGEST_GIB_SLACK * GIB,
		   "--mem is rounded up");
	FUZZ_CHECK(back - need < GIB || back == GIB,
		   "--mem is rounded up by less than a GiB");
	sp_buf_free(&b);
}

static void
check_duration(const char *s, size_t n)
{
	double sec = -1, back = -1;
	struct sp_buf b = { 0 };

	if (sp_parse_duration(s, n, &sec) != SP_VAL_OK)
		return;
	FUZZ_CHECK(isfinite(sec) && sec >= 0 && sec <= SP_UNITS_MAX,
		   "a duration is finite, >= 0, within SP_UNITS_MAX");
	sp_fmt_duration(&b, sec);
	FUZZ_CHECK(b.len > 0 && b.len < FORM_MAX, "duration form bounded");
	if (sec == floor(sec) && sec < 1e12) {
		sp_buf_clear(&b);
		sp_fmt_hms(&b, sec);
		FUZZ_CHECK(sp_parse_duration(b.p, b.len, &back) == SP_VAL_OK,
			   "sp_parse_duration reads sp_fmt_hms");
		FUZZ_CHECK(back == sec, "hms round trip is exact");
	}
	sp_buf_free(&b);
}

static void
check_time(const char *s, size_t n)
{
	int64_t t = 0, back = 0;
	struct sp_buf b = { 0 };

	if (sp_parse_time(s, n, &t) != SP_VAL_OK)
		return;
	sp_fmt_time(&b, t);
	FUZZ_CHECK(sp_parse_time(b.p ? b.p : "", b.len, &back) == SP_VAL_OK,
		   "sp_parse_time reads sp_fmt_time");
	FUZZ_CHECK(back == t, "time round trip is exact");
	sp_buf_free(&b);
}

/* Every formatter on one double: bounded output, no crash. */
static void
check_forms(double v)
{
	struct sp_buf b = { 0 };
	double back;
	int rc;

	sp_fmt_duration(&b, v);
	FUZZ_CHECK(b.len < FORM_MAX, "sp_fmt_duration is bounded");
	sp_buf_clear(&b);
	sp_fmt_hms(&b, v);
	FUZZ_CHECK(b.len < FORM_MAX, "sp_fmt_hms is bounded");
	sp_buf_clear(&b);
	sp_fmt_bytes(&b, v);
	FUZZ_CHECK(b.len < FORM_MAX, "sp_fmt_bytes is bounded");
	sp_buf_clear(&b);
	sp_fmt_percent(&b, v);
	FUZZ_CHECK(b.len < FORM_MAX, "sp_fmt_percent is bounded");
	sp_buf_clear(&b);
	sp_mem_spell(&b, v);
	FUZZ_CHECK(b.len < FORM_MAX, "sp_mem_spell is bounded");
	sp_buf_clear(&b);

	sp_fmt_num(&b, v);
	if (!isfinite(v) || fabs(v) > SP_UNITS_MAX) {
		/* Nothing a reader could not take back: unknown instead. */
		FUZZ_CHECK(b.len == 0, "an unreadable number is written as "
			   "nothing (unknown)");
	} else {
		/* What one stage writes, the next must read. */
		rc = sp_field_num((struct sp_slice){ sp_buf_str(&b), b.len },
				  &back);
		FUZZ_CHECK(rc == 1, "sp_field_num reads sp_fmt_num");
		FUZZ_CHECK(fabs(back - v) <= 1e-6 * fabs(v) + 1e-6,
			   "sp_fmt_num keeps 6 significant digits");
	}
	sp_buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	double v;
	int64_t t;

	(void)sp_is_sentinel(s, size);
	check_mem(s, size, 1024.0 * 1024.0, 1);
	check_mem(s, size, 1.0, 0);
	check_duration(s, size);
	check_time(s, size);

	if (size >= sizeof v) {
		memcpy(&v, data, sizeof v);
		check_forms(v);
		memcpy(&t, data, sizeof t);
		{
			struct sp_buf b = { 0 };

			sp_fmt_time(&b, t);
			FUZZ_CHECK(b.len < FORM_MAX, "sp_fmt_time is bounded");
			sp_buf_free(&b);
		}
	}
	if (sp_parse_duration(s, size, &v) == SP_VAL_OK)
		check_forms(v);
	return 0;
}
