/*
 * sp_scan.h - finding delimiters sixteen or sixty-four bytes at a time.
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
#include <stdint.h>
#include <string.h>

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

/*
 * Whether any of p[0..n) is a, b, c or d, for 4 <= n <= SP_SCAN_WIDTH:
 * the tail of a field after its full windows, and most fields are that
 * short.  Two loads that overlap cover the n bytes without reading past
 * them, so a test costs the same at any n.
 */
static inline int
sp_scan_short_any4(const char *p, size_t n, char a, char b, char c, char d)
{
#ifdef SP_SCAN_SSE2
	__m128i v;

	if (n >= 8) {
		v = _mm_unpacklo_epi64(
		    _mm_loadl_epi64((const __m128i *)(const void *)p),
		    _mm_loadl_epi64((const __m128i *)(const void *)(p + n - 8)));
	} else {
		uint32_t lo, hi;

		memcpy(&lo, p, 4);
		memcpy(&hi, p + n - 4, 4);
		v = _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)lo),
		    _mm_cvtsi32_si128((int)hi));
	}
	return _mm_movemask_epi8(_mm_or_si128(
	    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(a)),
	    _mm_cmpeq_epi8(v, _mm_set1_epi8(b))),
	    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)),
	    _mm_cmpeq_epi8(v, _mm_set1_epi8(d))))) != 0;
#else
	for (size_t k = 0; k < n; k++)
		if (p[k] == a || p[k] == b || p[k] == c || p[k] == d)
			return 1;
	return 0;
#endif
}

/* The lowest set bit's index; m must not be 0. */
static inline size_t
sp_scan_first(unsigned m)
{
	return (size_t)__builtin_ctz(m);
}

/*
 * A window of four: bit k set when p[k] is a, for k below 64, and
 * whether any of the 64 bytes is b.  One test of b and one loop over
 * the bits for a whole window is what lets a reader skip the fields it
 * does not read for less than splitting them costs.
 */
#define SP_SCAN_WIDE 64

static inline uint64_t
sp_scan_wide(const char *p, char a, char b, int *has_b)
{
#ifdef SP_SCAN_SSE2
	__m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), any;
	__m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i v1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
	__m128i v2 = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
	__m128i v3 = _mm_loadu_si128((const __m128i *)(const void *)(p + 48));

	any = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v0, vb),
	    _mm_cmpeq_epi8(v1, vb)), _mm_or_si128(_mm_cmpeq_epi8(v2, vb),
	    _mm_cmpeq_epi8(v3, vb)));
	*has_b = _mm_movemask_epi8(any) != 0;
	return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, va)) |
	    (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, va)) << 16 |
	    (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v2, va)) << 32 |
	    (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v3, va)) << 48;
#else
	uint64_t m = 0;

	*has_b = 0;
	for (unsigned k = 0; k < SP_SCAN_WIDE; k++) {
		if (p[k] == a)
			m |= (uint64_t)1 << k;
		*has_b |= p[k] == b;
	}
	return m;
#endif
}

/*
 * The number of set bits in a wide window's mask.  Baseline x86-64 has
 * no POPCNT instruction and __builtin_popcountll becomes a libgcc call:
 * these shifts cost less.
 */
static inline size_t
sp_scan_count(uint64_t m)
{
	m = m - ((m >> 1) & 0x5555555555555555u);
	m = (m & 0x3333333333333333u) + ((m >> 2) & 0x3333333333333333u);
	m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (size_t)((m * 0x0101010101010101u) >> 56);
}

/* The lowest and the highest set bit's index; m must not be 0. */
static inline size_t
sp_scan_first64(uint64_t m)
{
	return (size_t)__builtin_ctzll(m);
}

static inline size_t
sp_scan_last64(uint64_t m)
{
	return (size_t)(63 - __builtin_clzll(m));
}

#endif
