/*
 * sp_units.c - sacct's memory, durations and timestamps, and the human
 * forms back.
 *
 * Every parser reads a slice (pointer and length, not NUL-terminated),
 * never looks past it, and never calls strtod(): its grammar (signs,
 * exponents, hex, "nan", the locale's decimal point) is wider than
 * sacct's, and a misaligned column must come back SP_VAL_BAD rather
 * than parse by accident.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sp_const.h"
#include "sp_units.h"

/* What sacct prints when there is no value, compared case-insensitively. */
/* With their lengths: every non-numeric value sacct prints meets them. */
#define WORD(s) { s, sizeof s - 1 }
static const struct {
	const char *s;
	size_t n;
} sentinels[] = {
	WORD("Unknown"), WORD("None"), WORD("UNLIMITED"),
	WORD("Partition_Limit"), WORD("INVALID"), WORD("N/A"),
	WORD("(null)"), WORD("NaN"), WORD("-nan"), WORD("inf"), WORD("+inf"),
	WORD("-inf"), WORD("infinity"),
};
#undef WORD

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
same_word(const char *s, size_t n, const char *word)
{
	size_t i;

	if (strlen(word) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (lower((unsigned char)s[i]) != lower((unsigned char)word[i]))
			return 0;
	return 1;
}

int
sp_is_sentinel(const char *s, size_t n)
{
	size_t i;

	if (s == NULL || n == 0)
		return 1;
	/* Most values (digits, most text) are told by their first byte. */
	if (!sp_may_be_sentinel(s, n))
		return 0;
	for (i = 0; i < sizeof sentinels / sizeof sentinels[0]; i++)
		if (sentinels[i].n == n && same_word(s, n, sentinels[i].s))
			return 1;
	return 0;
}

/* An unsigned decimal as read: its value, and what it looked like. */
struct decimal {
	double value;
	uint64_t whole;		/* the integer part, exactly */
	int has_frac;		/* a point was seen */
	size_t len;		/* bytes consumed */
};

#define DEC_MAX_DIGITS 18

static const uint64_t pow10_table[DEC_MAX_DIGITS + 1] = {
	UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000),
	UINT64_C(10000), UINT64_C(100000), UINT64_C(1000000),
	UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
	UINT64_C(10000000000), UINT64_C(100000000000),
	UINT64_C(1000000000000), UINT64_C(10000000000000),
	UINT64_C(100000000000000), UINT64_C(1000000000000000),
	UINT64_C(10000000000000000), UINT64_C(100000000000000000),
	UINT64_C(1000000000000000000),
};

/* Integers below this are exact in a double. */
#define EXACT_LIMIT (UINT64_C(1) << 53)
/*
 * Slurm before 17.02 kept "per CPU" as bit 31 of a 32-bit MiB count, and
 * sacct printed the raw word (sp_parse_mem reads it).
 */
#define OLD_PER_CPU_BIT (UINT64_C(1) << 31)

/*
 * Reads "123" or "123.456" at the start of s[0..n): 1, or 0 when there
 * is none.  A 19th significant integer digit would pass SP_UNITS_MAX, so
 * it makes the number absurd (-1); fraction digits past the 18th are
 * below what a double keeps, and are skipped.
 */
static int
scan_decimal(const char *s, size_t n, int allow_frac, struct decimal *d)
{
	uint64_t whole = 0, frac = 0;
	size_t i = 0, first, fdigits = 0;

	if (n == 0 || !is_digit(s[0]))
		return 0;
	/*
	 * Every field of every row comes here: one test per digit.  Leading
	 * zeros are not significant; more than DEC_MAX_DIGITS significant
	 * ones may wrap whole, and are refused once counted.
	 */
	while (i < n && s[i] == '0')
		i++;
	for (first = i; i < n && is_digit(s[i]); i++)
		whole = whole * 10 + (uint64_t)(s[i] - '0');
	if (i - first > DEC_MAX_DIGITS)
		return -1;
	d->has_frac = 0;
	if (allow_frac && i < n && s[i] == '.') {
		if (i + 1 >= n || !is_digit(s[i + 1]))
			return 0;
		d->has_frac = 1;
		for (i++; i < n && is_digit(s[i]); i++) {
			if (fdigits == DEC_MAX_DIGITS)
				continue;
			frac = frac * 10 + (uint64_t)(s[i] - '0');
			fdigits++;
		}
	}
	d->whole = whole;
	d->len = i;
	if (fdigits == 0) {
		d->value = (double)whole;
		return 1;
	}
	/*
	 * One rounding when the scaled integer is exact in a double, so
	 * "0.539" is the double nearest 0.539; two roundings otherwise.
	 */
	if (whole < EXACT_LIMIT / pow10_table[fdigits]) {
		uint64_t scaled = whole * pow10_table[fdigits] + frac;

		if (scaled < EXACT_LIMIT) {
			d->value = (double)scaled / (double)pow10_table[fdigits];
			return 1;
		}
	}
	d->value = (double)whole + (double)frac / (double)pow10_table[fdigits];
	return 1;
}

static int
in_range(double v)
{
	return isfinite(v) && v >= 0 && v <= SP_UNITS_MAX;
}

/*
 * A unit letter's bytes, exactly (powers of two), or 0: a table, since
 * a call per value to find the letter costs more than the number.
 */
static double
mem_unit(char c)
{
	switch (c) {
	case 'K': return SP_KIB;
	case 'M': return SP_MIB;
	case 'G': return SP_GIB;
	case 'T': return 1024.0 * SP_GIB;
	case 'P': return 1024.0 * 1024.0 * SP_GIB;
	default: return 0;
	}
}

/*
 * Eight decimal digits at s as their value, or -1 when a byte is not a
 * digit: byte memory counts have eight or more, and a digit at a time
 * costs a compare, a multiply and an add each (SWAR, as in simdjson).
 */
static int64_t
eight_digits(const char *s)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x;

	memcpy(&x, s, 8);
	if (((x & UINT64_C(0xF0F0F0F0F0F0F0F0)) |
	    (((x + UINT64_C(0x0606060606060606)) &
	    UINT64_C(0xF0F0F0F0F0F0F0F0)) >> 4)) !=
	    UINT64_C(0x3333333333333333))
		return -1;
	x -= UINT64_C(0x3030303030303030);
	x = x * 10 + (x >> 8);
	x = ((x & UINT64_C(0x000000FF000000FF)) *
	    (100 + (UINT64_C(1000000) << 32)) +
	    ((x >> 16) & UINT64_C(0x000000FF000000FF)) *
	    (1 + (UINT64_C(10000) << 32))) >> 32;
	return (int64_t)(x & 0xFFFFFFFF);
#else
	int64_t v = 0;

	for (int i = 0; i < 8; i++) {
		if (!is_digit(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
#endif
}

/*
 * The form sacct prints nearly always, digits and at most a unit letter
 * (34196234K, 852492288, 64G), read at once: 1 with *out set, else 0.
 * Up to SP_MEM_FAST_DIGITS digits the integer is exact in a double and
 * a unit is a power of two, so the product is the value the general
 * path gives; what has more to say (a fraction, a scope, Slurm's old
 * per-CPU bit, zero, a bad unit) goes on to it.
 */
static int
mem_fast(const char *s, size_t n, double bare_unit, double *out)
{
	uint64_t w = 0;
	double unit = bare_unit;
	size_t i;

	if (n == 0 || n > SP_MEM_FAST_DIGITS + 1 ||
	    !(isfinite(bare_unit) && bare_unit > 0))
		return 0;
	i = 0;
	if (n >= 8) {
		int64_t v = eight_digits(s);

		if (v >= 0) {
			w = (uint64_t)v;
			i = 8;
		}
	}
	for (; i < n && is_digit(s[i]); i++)
		w = w * 10 + (uint64_t)(s[i] - '0');
	if (i == 0 || i > SP_MEM_FAST_DIGITS)
		return 0;
	if (i + 1 == n)
		unit = mem_unit(s[i]);
	else if (i != n)
		return 0;
	if (unit == 0)
		return 0;
	/* The old per-CPU bit: the slow path reads it (OLD_PER_CPU_BIT). */
	if (unit == SP_MIB && w >= OLD_PER_CPU_BIT)
		return 0;
	*out = (double)w * unit;
	return *out > 0 && *out <= SP_UNITS_MAX;
}

enum sp_val
sp_parse_mem(const char *s, size_t n, double bare_unit, int zero_unknown,
	     double *bytes, char *scope)
{
	struct decimal d;
	double unit, v, u;
	char sc = 0;
	size_t i;
	int mib;

	if (bytes)
		*bytes = NAN;
	if (scope)
		*scope = 0;
	if (s == NULL)
		n = 0;
	if (mem_fast(s, n, bare_unit, &v)) {
		if (bytes)
			*bytes = v;
		return SP_VAL_OK;
	}
	/* A digit, the common case, is never a sentinel. */
	if ((n == 0 || !is_digit(s[0])) && sp_is_sentinel(s, n))
		return SP_VAL_UNKNOWN;
	if (!(isfinite(bare_unit) && bare_unit > 0))
		return SP_VAL_BAD;
	if (scan_decimal(s, n, 1, &d) != 1)
		return SP_VAL_BAD;
	i = d.len;
	unit = bare_unit;
	mib = bare_unit == SP_MIB;
	if (i < n && (u = mem_unit(s[i])) > 0) {
		unit = u;
		mib = s[i] == 'M';
		i++;
	}
	if (i < n && (s[i] == 'n' || s[i] == 'c'))
		sc = s[i++];
	if (i != n)
		return SP_VAL_BAD;
	v = d.value;
	/*
	 * Slurm before 17.02 kept "per CPU" as bit 31 of a 32-bit MiB count
	 * and sacct printed the raw word: 2147486648Mn is 3000 MiB per CPU.
	 * No node has 2 PiB, so a MiB count in [2^31, 2^32) is always that.
	 */
	if (mib && !d.has_frac && d.whole >= OLD_PER_CPU_BIT &&
	    d.whole < 2 * OLD_PER_CPU_BIT) {
		v = (double)(d.whole - OLD_PER_CPU_BIT);
		sc = 'c';
	}
	v *= unit;
	if (!in_range(v))
		return SP_VAL_BAD;
	if (v == 0 && zero_unknown) {
		if (scope)
			*scope = sc;
		return SP_VAL_UNKNOWN;
	}
	if (bytes)
		*bytes = v;
	if (scope)
		*scope = sc;
	return SP_VAL_OK;
}

/*
 * One ':'-separated part of a duration: an integer, or (the seconds
 * only) a decimal; below limit when limit > 0.
 */
static int
duration_part(const char *s, size_t n, int allow_frac, double limit,
	      double *out)
{
	struct decimal d;

	if (scan_decimal(s, n, allow_frac, &d) != 1 || d.len != n)
		return -1;
	if (limit > 0 && d.value >= limit)
		return -1;
	*out = d.value;
	return 0;
}

static int
two_digits(const char *s)
{
	return is_digit(s[0]) && is_digit(s[1]) ? (s[0] - '0') * 10 +
	    (s[1] - '0') : -1;
}

/*
 * HH:MM:SS and D-HH:MM:SS (up to SP_DURATION_FAST_DAYS digits of days),
 * the forms sacct prints most, read at once: 1 with *seconds set (when
 * not NULL), else 0.  The same value as the parts below give, every
 * term an exact integer; a minute or second of 60 or more, an hour of
 * 24 or more after days, or anything else goes on to them.
 */
static int
hms_fast(const char *s, size_t n, double *seconds)
{
	const char *t;
	double days = 0;
	int h, m, sec;

	if (n < 8 || n == 9 || n > 9 + SP_DURATION_FAST_DAYS)
		return 0;
	t = s + n - 8;
	if (t[2] != ':' || t[5] != ':')
		return 0;
	h = two_digits(t);
	m = two_digits(t + 3);
	sec = two_digits(t + 6);
	if (h < 0 || m < 0 || sec < 0 || m >= 60 || sec >= 60)
		return 0;
	if (n > 8) {
		if (t[-1] != '-' || h >= 24)
			return 0;
		for (; s < t - 1; s++) {
			if (!is_digit(*s))
				return 0;
			days = days * 10 + (*s - '0');
		}
	}
	if (seconds)
		*seconds = days * 86400 + h * 3600.0 + m * 60 + sec;
	return 1;
}

enum sp_val
sp_parse_duration(const char *s, size_t n, double *seconds)
{
	const char *colon[3];
	const char *p, *end, *dash;
	double days = 0, part[3] = { 0, 0, 0 }, total;
	size_t nparts = 0, i, k;
	int has_days;

	if (seconds)
		*seconds = NAN;
	if (s == NULL)
		n = 0;
	if (hms_fast(s, n, seconds))
		return SP_VAL_OK;
	if (sp_is_sentinel(s, n))
		return SP_VAL_UNKNOWN;
	end = s + n;
	dash = memchr(s, '-', n);
	has_days = dash != NULL;
	p = s;
	if (has_days) {
		if (duration_part(s, (size_t)(dash - s), 0, 0, &days) < 0)
			return SP_VAL_BAD;
		p = dash + 1;
	}
	/* Split the rest on ':' into at most three parts. */
	colon[0] = p;
	nparts = 1;
	for (; p < end; p++) {
		if (*p != ':')
			continue;
		if (nparts == 3)
			return SP_VAL_BAD;
		colon[nparts++] = p + 1;
	}
	for (i = 0; i < nparts; i++) {
		const char *b = colon[i];
		const char *e = i + 1 < nparts ? colon[i + 1] - 1 : end;
		/*
		 * Which unit this part is: with days the parts are H, H:M,
		 * H:M:S; without them S, M:S, H:M:S.  Only a leading part
		 * without days may pass its unit's natural bound.
		 */
		size_t unit = has_days ? i : i + (3 - nparts);
		double limit = unit == 0 ? 24 : 60;

		if (!has_days && i == 0)
			limit = 0;
		k = (size_t)(e - b);
		if (duration_part(b, k, unit == 2, limit, &part[unit]) < 0)
			return SP_VAL_BAD;
	}
	total = days * 86400 + part[0] * 3600 + part[1] * 60 + part[2];
	if (!in_range(total))
		return SP_VAL_BAD;
	if (seconds)
		*seconds = total;
	return SP_VAL_OK;
}

enum sp_val
sp_parse_tres_cpu(const char *s, size_t n, double *seconds)
{
	const char *end;

	if (seconds)
		*seconds = NAN;
	if (s == NULL)
		return SP_VAL_UNKNOWN;
	end = s + n;
	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *e = comma ? comma : end;

		if (e - s > 4 && memcmp(s, "cpu=", 4) == 0)
			return sp_parse_duration(s + 4, (size_t)(e - s - 4),
			    seconds);
		s = comma ? comma + 1 : end;
	}
	return SP_VAL_UNKNOWN;
}

int64_t
sp_days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void
sp_civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static int
leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
fixed_digits(const char *s, size_t n, int *out)
{
	size_t i;
	int v = 0;

	for (i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

enum sp_val
sp_parse_time(const char *s, size_t n, int64_t *epoch)
{
	static const int mdays[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	int y, mo, d, h, mi, se, dim;

	if (epoch)
		*epoch = 0;
	if (s == NULL)
		n = 0;
	/* A timestamp starts with a digit: no call to tell it from a word. */
	if (sp_may_be_sentinel(s, n) && sp_is_sentinel(s, n))
		return SP_VAL_UNKNOWN;
	/* Exactly "YYYY-MM-DDTHH:MM:SS": sacct's %FT%T, nothing else. */
	if (n != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':')
		return SP_VAL_BAD;
	if (fixed_digits(s, 4, &y) < 0 || fixed_digits(s + 5, 2, &mo) < 0 ||
	    fixed_digits(s + 8, 2, &d) < 0 || fixed_digits(s + 11, 2, &h) < 0 ||
	    fixed_digits(s + 14, 2, &mi) < 0 ||
	    fixed_digits(s + 17, 2, &se) < 0)
		return SP_VAL_BAD;
	if (mo < 1 || mo > 12 || h > 23 || mi > 59 || se > 59)
		return SP_VAL_BAD;
	dim = mdays[mo - 1] + (mo == 2 && leap(y));
	if (d < 1 || d > dim)
		return SP_VAL_BAD;
	if (epoch)
		*epoch = sp_days_from_civil(y, mo, d) * 86400 + h * 3600 +
		    mi * 60 + se;
	return SP_VAL_OK;
}

int64_t
sp_civil_local(int64_t epoch)
{
	time_t t = (time_t)epoch;
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL)
		return epoch;
	return (int64_t)timegm(&tm);
}

void
sp_fmt_time(struct sp_buf *b, int64_t epoch)
{
	int64_t days = epoch / 86400, rem = epoch % 86400, y;
	int m, d;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	sp_civil_from_days(days, &y, &m, &d);
	if (y < 0 || y > 9999) {
		sp_buf_printf(b, "%04lld-%02d-%02dT%02d:%02d:%02d",
			      (long long)y, m, d, (int)(rem / 3600),
			      (int)(rem / 60 % 60), (int)(rem % 60));
		return;
	}
	/* By hand: two of these a workload made printf a rollup's cost. */
	sp_fmt_uint_width(b, (uint64_t)y, 4);
	sp_buf_addc(b, '-');
	sp_fmt_uint_width(b, (uint64_t)m, 2);
	sp_buf_addc(b, '-');
	sp_fmt_uint_width(b, (uint64_t)d, 2);
	sp_buf_addc(b, 'T');
	sp_fmt_uint_width(b, (uint64_t)(rem / 3600), 2);
	sp_buf_addc(b, ':');
	sp_fmt_uint_width(b, (uint64_t)(rem / 60 % 60), 2);
	sp_buf_addc(b, ':');
	sp_fmt_uint_width(b, (uint64_t)(rem % 60), 2);
}

/* Human forms show an unknown or absurd value as the screen's "n/a". */
static int
shown_unknown(struct sp_buf *b, double v)
{
	if (in_range(v))
		return 0;
	sp_buf_adds(b, "n/a");
	return 1;
}

static void
clock_form(struct sp_buf *b, long long secs)
{
	long long days = secs / 86400;

	secs %= 86400;
	if (days > 0) {
		sp_fmt_uint(b, (uint64_t)days);
		sp_buf_addc(b, '-');
	}
	sp_fmt_uint_width(b, (uint64_t)(secs / 3600), 2);
	sp_buf_addc(b, ':');
	sp_fmt_uint_width(b, (uint64_t)(secs / 60 % 60), 2);
	sp_buf_addc(b, ':');
	sp_fmt_uint_width(b, (uint64_t)(secs % 60), 2);
}

void
sp_fmt_duration(struct sp_buf *b, double seconds)
{
	if (shown_unknown(b, seconds))
		return;
	if (sp_fmt_fixed_below(seconds, 2, 1)) {
		sp_fmt_fixed(b, seconds, 2);
		sp_buf_addc(b, 's');
	} else if (sp_fmt_fixed_below(seconds, 1, 60)) {
		sp_fmt_fixed(b, seconds, 1);
		sp_buf_addc(b, 's');
	} else {
		clock_form(b, llround(seconds));
	}
}

void
sp_fmt_hms(struct sp_buf *b, double seconds)
{
	if (shown_unknown(b, seconds))
		return;
	/* A limit must never come out shorter than asked: round up. */
	clock_form(b, (long long)ceil(seconds));
}

void
sp_fmt_bytes(struct sp_buf *b, double bytes)
{
	static const char *const units[] = {
		"KiB", "MiB", "GiB", "TiB", "PiB"
	};
	double v;
	size_t i;

	if (shown_unknown(b, bytes))
		return;
	if (sp_fmt_fixed_below(bytes, 0, 1024)) {
		sp_fmt_fixed(b, bytes, 0);
		sp_buf_adds(b, " B");
		return;
	}
	v = bytes / 1024;
	for (i = 0; i + 1 < sizeof units / sizeof units[0]; i++) {
		if (sp_fmt_fixed_below(v, 1, 1024))
			break;
		v /= 1024;
	}
	sp_fmt_fixed(b, v, 1);
	sp_buf_addc(b, ' ');
	sp_buf_adds(b, units[i]);
}

void
sp_fmt_percent(struct sp_buf *b, double fraction)
{
	if (!isfinite(fraction)) {
		sp_buf_adds(b, "n/a");
		return;
	}
	if (fraction > 0 && fraction < 0.0005)
		sp_buf_adds(b, "<0.1%");
	else if (fraction >= 0.9995 && fraction < 1)
		sp_buf_adds(b, ">99.9%");
	else
		sp_buf_printf(b, "%.1f%%", fraction * 100 + 0.0);
}

struct sp_buf *
sp_words_buf(struct sp_words *w)
{
	struct sp_buf *b = &w->b[w->next++ % 8];

	sp_buf_clear(b);
	return b;
}

const char *
sp_form(struct sp_words *w, void (*form)(struct sp_buf *, double),
	double v)
{
	return sp_buf_form(sp_words_buf(w), form, v);
}

const char *
sp_dur(struct sp_words *w, double seconds)
{
	return sp_form(w, sp_fmt_duration, seconds);
}

const char *
sp_hms(struct sp_words *w, double seconds)
{
	return sp_form(w, sp_fmt_hms, seconds);
}

const char *
sp_bytes(struct sp_words *w, double bytes)
{
	return sp_form(w, sp_fmt_bytes, bytes);
}

const char *
sp_pct(struct sp_words *w, double fraction)
{
	return sp_form(w, sp_fmt_percent, fraction);
}

void
sp_words_free(struct sp_words *w)
{
	for (size_t i = 0; i < sizeof w->b / sizeof *w->b; i++)
		sp_buf_free(&w->b[i]);
	w->next = 0;
}
