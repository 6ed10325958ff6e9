/*
 * The formatter (sp_buf.h): sp_buf_printf writes what snprintf writes,
 * for the conversions it writes itself and for those it hands on, over
 * values chosen to be hard (ties, signs, zeros, NaN, infinities, huge
 * and tiny magnitudes); a buffer that grows keeps what it held.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sp.h"
#include "tap.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A double from every part of the line, ties and specials included. */
static double
hard_double(void)
{
	static const double special[] = { 0.0, -0.0, 0.5, 1.5, 2.5, -2.5,
		0.125, 0.375, 1.005, 2.675, 0.05, 0.15, 999999.0, 1000000.0,
		1e-7, 123456789.125, 1e17, 1e18, 1.5e19, NAN, INFINITY,
		-INFINITY, 2.2250738585072014e-308 };
	uint64_t r = next();

	if (r % 4 == 0)
		return special[(r >> 8) % (sizeof special / sizeof *special)];
	if (r % 4 == 1)
		return (double)(int64_t)(next() % 2000001) - 1000000;
	if (r % 4 == 2)
		return (double)(int64_t)(next() % 200001) / 8.0 - 12500;
	return ldexp((double)(next() >> 11), (int)(next() % 120) - 90) *
	    (next() & 1 ? -1 : 1);
}

static int fails;

#define SAME(fmt, ...) do {						\
	char want[512];							\
	struct sp_buf b = { 0 };					\
									\
	snprintf(want, sizeof want, fmt, __VA_ARGS__);			\
	sp_buf_printf(&b, fmt, __VA_ARGS__);				\
	if (strcmp(want, sp_buf_str(&b)) != 0 && fails++ < 5)		\
		diag("%s: want '%s', got '%s'", fmt, want,		\
		     sp_buf_str(&b));					\
	sp_buf_free(&b);						\
} while (0)

static void
property(void)
{
	for (int i = 0; i < 20000; i++) {
		double v = hard_double();
		long l = (long)(next() % 4000001) - 2000000;
		unsigned long u = (unsigned long)next();
		int d = (int)(next() % 2001) - 1000;

		SAME("%g", v);
		SAME("%.0f", v);
		SAME("%.1f", v);
		SAME("%.2f", v);
		SAME("%.6f", v);
		SAME("x %.9f y", v);
		SAME("%d runs, %ld of %lu (%zu) %s%%", d, l, u,
		     (size_t)u, i & 1 ? "a" : "");
		SAME("%c|%02d|%x|%5.1f", 'A' + i % 26, d, (unsigned)d, v);
	}
	SAME("%ld %d", LONG_MIN, INT_MIN);
	SAME("%lu %zu", ULONG_MAX, (size_t)SIZE_MAX);
	SAME("%s", "");
	SAME("no conversion at all%s", "");
	is_int(0, fails, "160008 formats as snprintf writes them");
}

static void
growing(void)
{
	struct sp_buf b = { 0 };
	char big[3000];

	memset(big, 'z', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	sp_buf_adds(&b, "head ");
	sp_buf_printf(&b, "%s|%.2f|%08d", big, 2.5, 7);
	ok(b.len == 5 + 2999 + 1 + 4 + 1 + 8 &&
	   strncmp(b.p, "head zz", 7) == 0 &&
	   strcmp(b.p + b.len - 14, "|2.50|00000007") == 0,
	   "a text larger than the room: written whole, the head kept");
	sp_buf_clear(&b);
	is_string("", sp_buf_str(&b), "cleared");
	sp_buf_free(&b);
	is_string("", sp_buf_str(&b), "a freed buffer reads as empty");
}

static void
numbers(void)
{
	struct sp_buf b = { 0 };

	sp_fmt_uint(&b, 0);
	sp_buf_addc(&b, ' ');
	sp_fmt_uint(&b, UINT64_MAX);
	sp_buf_addc(&b, ' ');
	sp_fmt_uint_width(&b, 7, 3);
	sp_buf_addc(&b, ' ');
	sp_fmt_fixed(&b, 2.675, 2);
	is_string("0 18446744073709551615 007 2.67", sp_buf_str(&b),
		  "digits, widths, and printf's own rounding");
	ok(sp_fmt_fixed_below(1023.95, 1, 1024) == 0 &&
	   sp_fmt_fixed_below(1023.94, 1, 1024) == 1,
	   "1023.95 prints as 1024.0, 1023.94 does not");
	sp_buf_free(&b);
}

/* The digits two at a time against printf's, at every length and at
 * the edges of each (9, 10, 99, 100 ... and 2^32 either side). */
static void
uint_digits(void)
{
	char want[32], got[SP_UINT_DIGITS + 1];
	uint64_t p = 1, x = 88172645463325252u;
	long n = 0, bad = 0;

	for (int k = 0; k < 20; k++, p *= 10)
		for (int d = -2; d <= 2; d++) {
			uint64_t v[] = { p + (uint64_t)d, x >> (k * 3),
				(UINT64_C(1) << 32) + (uint64_t)d, UINT64_MAX -
				(uint64_t)(d + 2) };

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
				char *end = got + sizeof got - 1, *s;

				*end = '\0';
				s = sp_uint_digits(end, v[i]);
				snprintf(want, sizeof want, "%" PRIu64, v[i]);
				bad += strcmp(want, s) != 0;
				n++;
			}
		}
	is_int(0, bad, "sp_uint_digits writes printf's digits on %ld values",
	       n);
}

int
main(void)
{
	plan_lazy();
	property();
	growing();
	numbers();
	uint_digits();
	return done_testing();
}
