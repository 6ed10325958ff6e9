/*
 * sp_buf.h - growable strings, and the one formatter that writes into
 * them.
 *
 * sp_buf_printf is printf into a buffer, checked by the compiler like
 * printf; the conversions the rules' sentences use (%s %c %d %ld %lu %zu
 * %g %.Nf %%) are written without stdio, to the same text, and anything
 * else goes to vsnprintf.  The number writers beside it (sp_fmt_fixed,
 * sp_fmt_num, sp_fmt_uint) are the ones the human forms of sp_units.h
 * and the record writer build on.
 */
#ifndef SP_BUF_H
#define SP_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* A growable byte string, always NUL-terminated once anything is added. */
struct sp_buf {
	char *p;
	size_t len;
	size_t cap;
};

void sp_buf_reserve(struct sp_buf *b, size_t extra);
void sp_buf_add(struct sp_buf *b, const char *s, size_t n);
void sp_buf_adds(struct sp_buf *b, const char *s);
void sp_buf_addc(struct sp_buf *b, char c);
void sp_buf_printf(struct sp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sp_buf_vprintf(struct sp_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void sp_buf_clear(struct sp_buf *b);
void sp_buf_free(struct sp_buf *b);
/* Returns the text, "" for a buffer never written to. */
const char *sp_buf_str(const struct sp_buf *b);
/*
 * A number's text in one of the sp_fmt_* forms, written into t (cleared
 * first) and returned, for a sentence's %s:
 *	sp_buf_printf(b, "took %s", sp_buf_form(t, sp_fmt_duration, s));
 */
const char *sp_buf_form(struct sp_buf *t,
			void (*form)(struct sp_buf *, double), double v);

/* The decimal digits of u; u in exactly width digits, leading zeros kept. */
void sp_fmt_uint(struct sp_buf *b, uint64_t u);
/* The decimal digits of u written backwards from end (room for
 * SP_UINT_DIGITS bytes before it); returns where they start. */
#define SP_UINT_DIGITS 20
char *sp_uint_digits(char *end, uint64_t u);
void sp_fmt_uint_width(struct sp_buf *b, uint64_t u, int width);
/* Exactly printf("%.*f", decimals, v), faster where it can be. */
void sp_fmt_fixed(struct sp_buf *b, double v, int decimals);
/* Whether v, printed with decimals (0..2) decimals, reads below limit:
 * what the reader will see is what picks a unit. */
int sp_fmt_fixed_below(double v, int decimals, uint64_t limit);
/* A plain decimal for records: integers without a point, else up to 6
 * significant decimals, no exponent; NaN, infinities and magnitudes past
 * SP_UNITS_MAX (no parser would read them back) append nothing. */
void sp_fmt_num(struct sp_buf *b, double v);

#endif
