/*
 * sp_buf.c - growable strings, and the one formatter that writes into
 * them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp_buf.h"
#include "sp_const.h"
#include "sp_util.h"

/* Bytes made free before a vsnprintf, enough for most texts. */
#define SP_BUF_PRINTF_ROOM 64

void
sp_buf_reserve(struct sp_buf *b, size_t extra)
{
	/* Buffers are reused: there is room nearly every time. */
	if (extra >= b->cap - b->len || b->p == NULL) {
		if (extra > ((size_t)-1) - b->len - 1)
			sp_die(SP_EXIT_USAGE, "out of memory");
		b->p = sp_xgrow(b->p, &b->cap, b->len + extra + 1, 1);
	}
	/* A buffer that was only reserved still reads as a string. */
	b->p[b->len] = '\0';
}

void
sp_buf_add(struct sp_buf *b, const char *s, size_t n)
{
	sp_buf_reserve(b, n);
	if (n)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void
sp_buf_adds(struct sp_buf *b, const char *s)
{
	sp_buf_add(b, s, strlen(s));
}

void
sp_buf_addc(struct sp_buf *b, char c)
{
	sp_buf_reserve(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

void
sp_buf_clear(struct sp_buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

void
sp_buf_free(struct sp_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

const char *
sp_buf_str(const struct sp_buf *b)
{
	return b->p ? b->p : "";
}

const char *
sp_buf_form(struct sp_buf *t, void (*form)(struct sp_buf *, double),
	    double v)
{
	sp_buf_clear(t);
	form(t, v);
	return sp_buf_str(t);
}

/* ------------------------------------------------------------ numbers */

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/*
 * Records are mostly numbers, written for every field of every job: two
 * digits per division, and 32-bit divisions (cheaper) once u fits.
 */
char *
sp_uint_digits(char *end, uint64_t u)
{
	char *d = end;
	uint32_t w;

	while (u > UINT32_MAX) {
		unsigned k = (unsigned)(u % 100) * 2;

		u /= 100;
		*--d = digit_pairs[k + 1];
		*--d = digit_pairs[k];
	}
	for (w = (uint32_t)u; w >= 100; w /= 100) {
		unsigned k = (w % 100) * 2;

		*--d = digit_pairs[k + 1];
		*--d = digit_pairs[k];
	}
	if (w >= 10) {
		*--d = digit_pairs[w * 2 + 1];
		*--d = digit_pairs[w * 2];
	} else
		*--d = (char)('0' + w);
	return d;
}

void
sp_fmt_uint(struct sp_buf *b, uint64_t u)
{
	char digits[SP_UINT_DIGITS], *end = digits + sizeof digits;
	char *d = sp_uint_digits(end, u);

	sp_buf_add(b, d, (size_t)(end - d));
}

void
sp_fmt_uint_width(struct sp_buf *b, uint64_t u, int width)
{
	char digits[20], *d = digits + sizeof digits;

	if (width > (int)sizeof digits)
		width = (int)sizeof digits;
	while (width-- > 0) {
		*--d = (char)('0' + u % 10);
		u /= 10;
	}
	sp_buf_add(b, d, (size_t)(digits + sizeof digits - d));
}

static void
put_signed(struct sp_buf *b, long long v)
{
	if (v < 0) {
		sp_buf_addc(b, '-');
		sp_fmt_uint(b, (uint64_t)0 - (uint64_t)v);
	} else {
		sp_fmt_uint(b, (uint64_t)v);
	}
}

/* vsnprintf into b: one pass when the text fits the room the buffer
 * has (it usually does: buffers are reused), two when it must grow. */
static void
stdio_vprintf(struct sp_buf *b, const char *fmt, va_list ap)
{
	size_t room;
	va_list aq;
	int n;

	sp_buf_reserve(b, SP_BUF_PRINTF_ROOM);
	room = b->cap - b->len;
	va_copy(aq, ap);
	n = vsnprintf(b->p + b->len, room, fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->p[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		sp_buf_reserve(b, (size_t)n);
		vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

static void
stdio_printf(struct sp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
stdio_printf(struct sp_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	stdio_vprintf(b, fmt, ap);
	va_end(ap);
}

#ifdef __SIZEOF_INT128__
/*
 * |v| * 10^decimals rounded half to even, as printf rounds: |v| is
 * m * 2^k exactly (m of 53 bits), so m * 5^decimals is an exact integer
 * of at most 95 bits, and the shift by k + decimals rounds it.
 */
static unsigned __int128
scaled(double v, int decimals)
{
	int e, shift;
	unsigned __int128 n, q, rem, half;

	n = (uint64_t)ldexp(frexp(fabs(v), &e), 53);
	for (int i = 0; i < decimals; i++)
		n *= 5;
	shift = e - 53 + decimals;
	if (shift >= 0)
		return n << shift;
	shift = -shift;
	if (shift >= 127)
		return 0;	/* n < 2^126: below half of one unit */
	q = n >> shift;
	rem = n - (q << shift);
	half = (unsigned __int128)1 << (shift - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	return q;
}
#endif

/* Past these, v x 10^decimals has too few bits below the point to tell a
 * rounding tie (under 2^37: an error under 2^-15, far inside FIXED_TIE). */
static const double fixed_max[] = { 9007199254740992.0, 1e10, 1e9 };
#define FIXED_TIE 1e-4

/*
 * printf's "%.*f" of v (decimals 0..2) as the integer v x 10^decimals
 * rounds to, by double arithmetic; 0, or -1 when v is out of reach or
 * too near a tie to call without exact arithmetic.
 */
static int
fixed_round(double v, int decimals, uint64_t *r)
{
	static const double scale[] = { 1, 10, 100 };
	double x, whole, frac;

	if (!(v >= 0) || signbit(v) || v >= fixed_max[decimals])
		return -1;
	x = v * scale[decimals];
	whole = floor(x);
	frac = x - whole;
	if (decimals == 0 ? frac == 0.5 : fabs(frac - 0.5) < FIXED_TIE)
		return -1;
	*r = (uint64_t)whole + (frac > 0.5);
	return 0;
}

void
sp_fmt_fixed(struct sp_buf *b, double v, int decimals)
{
	uint64_t r;

	/* The common case, a positive number and at most two decimals,
	 * in double arithmetic where the rounding is beyond doubt. */
	if (decimals >= 0 && decimals <= 2 &&
	    fixed_round(v, decimals, &r) == 0) {
		static const uint64_t unit[] = { 1, 10, 100 };

		sp_fmt_uint(b, r / unit[decimals]);
		if (decimals > 0) {
			sp_buf_addc(b, '.');
			sp_fmt_uint_width(b, r % unit[decimals], decimals);
		}
		return;
	}
#ifdef __SIZEOF_INT128__
	/*
	 * printf's way with doubles is a bignum per call: most of a
	 * rollup's time went there.  In range, the same digits exactly.
	 */
	unsigned __int128 q, unit = 1;
	uint64_t whole;

	if (isfinite(v) && fabs(v) <= SP_UNITS_MAX && decimals >= 0 &&
	    decimals <= 18) {
		for (int i = 0; i < decimals; i++)
			unit *= 10;
		q = scaled(v, decimals);
		/* 64-bit division where it fits: a 128-bit one is a call. */
		if ((q >> 64) == 0 && (unit >> 64) == 0)
			whole = (uint64_t)q / (uint64_t)unit;
		else
			whole = (uint64_t)(q / unit);	/* at most SP_UNITS_MAX */
		if (signbit(v))
			sp_buf_addc(b, '-');
		sp_fmt_uint(b, whole);
		if (decimals > 0) {
			sp_buf_addc(b, '.');
			sp_fmt_uint_width(b, (uint64_t)(q - whole * unit),
					  decimals);
		}
		return;
	}
#endif
	stdio_printf(b, "%.*f", decimals, v);
}

int
sp_fmt_fixed_below(double v, int decimals, uint64_t limit)
{
	static const uint64_t unit[] = { 1, 10, 100 };
#ifdef __SIZEOF_INT128__
	return scaled(v, decimals) < (unsigned __int128)limit * unit[decimals];
#else
	char tmp[64];
	uint64_t q = 0;

	snprintf(tmp, sizeof tmp, "%.*f", decimals, v);
	for (const char *p = tmp; *p != '\0'; p++) {
		if (*p >= '0' && *p <= '9')
			q = q * 10 + (uint64_t)(*p - '0');
		if (q >= limit * unit[decimals])
			return 0;
	}
	return 1;
#endif
}

/* Drops trailing zeros of a "%f" form, and the point if nothing follows. */
static void
trim_fraction(struct sp_buf *b, size_t start)
{
	char *p = b->p + start;
	char *dot = strchr(p, '.');

	if (dot == NULL)
		return;
	while (b->len > start && b->p[b->len - 1] == '0')
		b->p[--b->len] = '\0';
	if (b->p[b->len - 1] == '.')
		b->p[--b->len] = '\0';
	if (strcmp(p, "-0") == 0) {
		b->len = start;
		sp_buf_addc(b, '0');
	}
}

void
sp_fmt_num(struct sp_buf *b, double v)
{
	double mag = fabs(v);
	size_t start = b->len;
	int decimals = 6;

	/* Past the largest value any parser accepts, a number is not a
	 * measurement: writing its 64 digits would only be refused later. */
	if (!isfinite(v) || mag > SP_UNITS_MAX)
		return;
	if (v == 0) {
		sp_buf_addc(b, '0');
		return;
	}
	if (v == trunc(v)) {
		/* Exact: a whole double up to SP_UNITS_MAX fits 64 bits. */
		if (v < 0)
			sp_buf_addc(b, '-');
		sp_fmt_uint(b, (uint64_t)mag);
		return;
	}
	/* Six significant digits below 1, so 0.000012 keeps its figures. */
	for (mag *= 10; mag < 1 && decimals < 18; mag *= 10)
		decimals++;
	sp_fmt_fixed(b, v, decimals);
	trim_fraction(b, start);
}

/* --------------------------------------------------------- the printf */

/*
 * printf into b.  The conversions the rules' sentences are made of are
 * written here, to the text printf would write: vsnprintf's set-up alone
 * cost more than most sentences, and sp-size writes hundreds of
 * thousands.  A format with any other conversion goes to vsnprintf whole.
 */
void
sp_buf_vprintf(struct sp_buf *b, const char *fmt, va_list ap)
{
	size_t start = b->len;
	const char *p = fmt, *q;
	va_list aq;
	double v;

	va_copy(aq, ap);
	for (;; p = q) {
		q = strchr(p, '%');
		if (q == NULL) {
			sp_buf_adds(b, p);
			break;
		}
		sp_buf_add(b, p, (size_t)(q - p));
		q++;
		if (*q == '%') {
			sp_buf_addc(b, '%');
			q++;
		} else if (*q == 's') {
			const char *s = va_arg(ap, const char *);

			sp_buf_adds(b, s ? s : "(null)");
			q++;
		} else if (*q == 'c') {
			sp_buf_addc(b, (char)va_arg(ap, int));
			q++;
		} else if (*q == 'd') {
			put_signed(b, va_arg(ap, int));
			q++;
		} else if (q[0] == 'l' && q[1] == 'd') {
			put_signed(b, va_arg(ap, long));
			q += 2;
		} else if (q[0] == 'l' && q[1] == 'u') {
			sp_fmt_uint(b, va_arg(ap, unsigned long));
			q += 2;
		} else if (q[0] == 'z' && q[1] == 'u') {
			sp_fmt_uint(b, va_arg(ap, size_t));
			q += 2;
		} else if (*q == 'g') {
			v = va_arg(ap, double);
			/* A whole number under a million is its digits. */
			if (v >= 0 && v < 1e6 && v == floor(v) && !signbit(v))
				sp_fmt_uint(b, (uint64_t)v);
			else
				stdio_printf(b, "%g", v);
			q++;
		} else if (q[0] == '.' && q[1] >= '0' && q[1] <= '9' &&
			   q[2] == 'f') {
			sp_fmt_fixed(b, va_arg(ap, double), q[1] - '0');
			q += 3;
		} else {
			b->len = start;
			if (b->p != NULL)
				b->p[start] = '\0';
			stdio_vprintf(b, fmt, aq);
			break;
		}
	}
	va_end(aq);
}

void
sp_buf_printf(struct sp_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sp_buf_vprintf(b, fmt, ap);
	va_end(ap);
}
