/*
 * fuzz_hostlist.c - the hostlist expander and compressor.
 *
 * Properties: expansion keeps at most SP_HOSTLIST_MAX names and says so
 * when it stopped (so "n[1-99999999]" costs bounded time and memory;
 * libFuzzer's -timeout and -rss_limit_mb catch the rest); compressing
 * plain names and expanding the result gives back the same set of names.
 */
#include <string.h>

#include "sp.h"
#include "fuzz.h"

static int
compare_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names sorted with duplicates dropped; *n is updated.  Caller frees. */
static const char **
name_set(const struct sp_names *v, size_t *n)
{
	const char **s = sp_xcalloc(v->n ? v->n : 1, sizeof *s);
	size_t k = 0;

	for (size_t i = 0; i < v->n; i++)
		s[i] = sp_names_at(v, i);
	qsort(s, v->n, sizeof *s, compare_str);
	for (size_t i = 0; i < v->n; i++)
		if (k == 0 || strcmp(s[k - 1], s[i]) != 0)
			s[k++] = s[i];
	*n = k;
	return s;
}

/* A name a hostlist can carry without brackets or commas of its own. */
static int
plain_name(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ||
		      *s == '.'))
			return 0;
	return 1;
}

static void
check_round_trip(const struct sp_names *names)
{
	struct sp_names back = { 0 };
	struct sp_buf text = { 0 };
	const char **want, **got;
	size_t nwant, ngot;

	for (size_t i = 0; i < names->n; i++)
		if (!plain_name(sp_names_at(names, i)))
			return;
	sp_hostlist_compress(names, &text);
	FUZZ_CHECK(names->n == 0 || text.len > 0,
		   "names compress to some text");
	FUZZ_CHECK(sp_hostlist_expand(sp_buf_str(&text), text.len,
				      &back) == 0,
		   "a compressed list expands within the cap");
	want = name_set(names, &nwant);
	got = name_set(&back, &ngot);
	FUZZ_CHECK(nwant == ngot, "expand(compress(x)) has x's names");
	for (size_t i = 0; i < nwant; i++)
		FUZZ_CHECK(strcmp(want[i], got[i]) == 0,
			   "expand(compress(x)) has x's names");
	free(want);
	free(got);
	sp_names_free(&back);
	sp_buf_free(&text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_names names = { 0 };
	int rc;

	rc = sp_hostlist_expand((const char *)data, size, &names);
	FUZZ_CHECK(rc == 0 || rc == -1, "expand returns 0 or -1");
	FUZZ_CHECK(names.n <= SP_HOSTLIST_MAX, "expansion stops at the cap");
	if (rc < 0) {
		/* Stopped by the name cap, or by the byte cap (the names and
		 * their NULs): then the next name, at most 20 digits for every
		 * byte of input, did not fit. */
		FUZZ_CHECK(names.n == SP_HOSTLIST_MAX ||
			   names.text.len + 20 * size + 1 >
			   SP_HOSTLIST_MAX_BYTES,
			   "a list over the cap keeps the first names");
	}
	for (size_t i = 0; i < names.n; i++)
		(void)strlen(sp_names_at(&names, i));
	if (rc == 0)
		check_round_trip(&names);

	/* A second list appends to the first. */
	if (rc == 0 && names.n < 8) {
		size_t before = names.n;

		rc = sp_hostlist_expand((const char *)data, size, &names);
		FUZZ_CHECK(rc == 0 && names.n == 2 * before,
			   "expanding again appends the same names");
	}
	sp_names_clear(&names);
	FUZZ_CHECK(names.n == 0, "clear empties the list");
	sp_names_free(&names);
	return 0;
}
