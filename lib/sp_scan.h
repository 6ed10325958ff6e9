/*
 * sp_scan.h - finding delimiters sixteen bytes at a time.
 *
 * A record has dozens of short fields: a call to memchr per field costs
 * more than the search itself, and a byte loop is slower still.  These
 * give, for a 16-byte window, a bit per byte that matches; callers walk
 * the bits.  SSE2 where the compiler offers it (every x86-64), a plain
 * loop elsewhere, with the same answers.
 */
#ifndef SP_SCAN_H
#define SP_SCAN_H

#include <stddef.h>

/* SP_SCAN_PORTABLE: the plain loop even where SSE2 exists (its test). */
#if defined(__SSE2__) && !defined(SP_SCAN_PORTABLE)
#define SP_SCAN_SSE2 1
#include <emmintrin.h>
#endif

#define SP_SCAN_WIDTH 16

/* Bit k set when p[k] is a or b, for k below SP_SCAN_WIDTH. */
static inline unsigned
sp_scan_mask2(const char *p, char a, char b)
{
#ifdef SP_SCAN_SSE2
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

	return (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    _mm_cmpeq_epi8(v, _mm_set1_epi8(a)),
	    _mm_cmpeq_epi8(v, _mm_set1_epi8(b))));
#else
	unsigned m = 0;

	for (unsigned k = 0; k < SP_SCAN_WIDTH; k++)
		if (p[k] == a || p[k] == b)
			m |= 1u << k;
	return m;
#endif
}

/* Bit k set when p[k] is a, for k below SP_SCAN_WIDTH. */
static inline unsigned
sp_scan_mask1(const char *p, char a)
{
#ifdef SP_SCAN_SSE2
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
	    _mm_set1_epi8(a)));
#else
	unsigned m = 0;

	for (unsigned k = 0; k < SP_SCAN_WIDTH; k++)
		if (p[k] == a)
			m |= 1u << k;
	return m;
#endif
}

/* The lowest set bit's index; m must not be 0. */
static inline size_t
sp_scan_first(unsigned m)
{
	return (size_t)__builtin_ctz(m);
}

#endif
