/*
 * fuzz.h - what every fuzz target shares.
 *
 * A target is one LLVMFuzzerTestOneInput.  Built with libFuzzer it is
 * fuzzed (make fuzz); built with replay.c it replays the regression files
 * under make check, so a crash found once stays fixed.  A broken property
 * is reported like a crash (abort), so both builds see it the same way.
 */
#ifndef SP_FUZZ_H
#define SP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, what) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: property broken: %s\n", \
			__FILE__, __LINE__, (what)); \
		abort(); \
	} \
} while (0)

/*
 * Properties broken by a known, reported defect in code the fuzz targets'
 * owner does not own are skipped (t/fuzz/open/ lists them), so fuzzing
 * goes on finding new things.  -DFUZZ_STRICT checks them all.
 */
#ifdef FUZZ_STRICT
#define FUZZ_SKIP_OPEN 0
#else
#define FUZZ_SKIP_OPEN 1
#endif

/* A read stream over the input (glibc takes a zero size and NUL bytes). */
static inline FILE *
fuzz_stream(const uint8_t *data, size_t size)
{
	static char none[1];

	return fmemopen(size ? (void *)data : none, size, "r");
}

/* The length of the valid UTF-8 sequence at p, 0 when it is not one. */
static inline int
fuzz_utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0], cp, min;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, min = 0x10000;
	else
		return 0;
	if (n < len)
		return 0;
	cp = c & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3fu);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return (int)len;
}

/* What a terminal is shown: printable, valid UTF-8, no C1 control. */
static inline void
fuzz_check_display_safe(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		int len = fuzz_utf8_len(p + i, n - i);

		FUZZ_CHECK(len > 0, "sanitized text is valid UTF-8");
		if (len == 1)
			FUZZ_CHECK(p[i] >= 0x20 && p[i] != 0x7f,
				   "sanitized text has no control byte");
		if (len == 2)
			FUZZ_CHECK(!(p[i] == 0xc2 && p[i + 1] < 0xa0),
				   "sanitized text has no C1 control");
		i += (size_t)len;
	}
}

#endif
