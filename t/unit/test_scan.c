/*
 * test_scan.c - the sixteen-byte delimiter masks against a byte loop, and
 * the record splitter built on them at every alignment of a field end.
 * test_scan_portable.c runs the same checks on the plain-C masks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_scan.h"
#include "tap.h"

static unsigned
mask_by_bytes(const char *p, char a, char b)
{
	unsigned m = 0;

	for (unsigned k = 0; k < SP_SCAN_WIDTH; k++)
		if (p[k] == a || p[k] == b)
			m |= 1u << k;
	return m;
}

static void
test_masks(void)
{
	char window[SP_SCAN_WIDTH];
	int wrong = 0;

	srand(7);
	for (int round = 0; round < 100000; round++) {
		for (int k = 0; k < SP_SCAN_WIDTH; k++) {
			/* Tabs, NULs and high bytes often; the rest anything. */
			int pick = rand() % 8;

			window[k] = pick == 0 ? '\t' : pick == 1 ? '\0' :
			    pick == 2 ? (char)0xff : pick == 3 ? '|' :
			    (char)(rand() % 256);
		}
		wrong += sp_scan_mask2(window, '\t', '\0') !=
		    mask_by_bytes(window, '\t', '\0');
		wrong += sp_scan_mask2(window, '|', '|') !=
		    mask_by_bytes(window, '|', '|');
		wrong += sp_scan_mask1(window, '\t') !=
		    mask_by_bytes(window, '\t', '\t');
		wrong += sp_scan_mask1(window, '\0') !=
		    mask_by_bytes(window, '\0', '\0');
	}
	is_int(0, wrong, "masks agree with a byte loop on 100000 windows");
	wrong = 0;
	for (int round = 0; round < 100000; round++) {
		/* 4 to 16 bytes, each allocated exactly (ASan sees an
		 * overread), the searched bytes now and then. */
		size_t n = 4 + (size_t)(rand() % (SP_SCAN_WIDTH - 3));
		char *p = malloc(n);
		int any = 0;

		for (size_t k = 0; k < n; k++) {
			int pick = rand() % 40;

			p[k] = pick == 0 ? '\t' : pick == 1 ? '\n' :
			    pick == 2 ? '\\' : pick == 3 ? '\r' :
			    (char)(rand() % 256);
			any |= p[k] == '\t' || p[k] == '\n' || p[k] == '\r' ||
			    p[k] == '\\';
		}
		wrong += sp_scan_short_any4(p, n, '\t', '\n', '\r', '\\') !=
		    any;
		free(p);
	}
	is_int(0, wrong, "short_any4 agrees with a byte loop on 100000 "
	       "fields of 4 to 16 bytes");
	is_int(0, (int)sp_scan_first(1), "first of bit 0");
	is_int(15, (int)sp_scan_first(1u << 15), "first of bit 15");
}

/* A record whose one short field sits at each offset across a window. */
static void
test_split_alignment(void)
{
	int wrong = 0;

	for (size_t lead = 0; lead < 3 * SP_SCAN_WIDTH; lead++) {
		struct sp_buf text = { 0 };
		struct sp_reader r;
		FILE *fp;

		sp_buf_adds(&text, "a\tb\tc\n");
		for (size_t k = 0; k < lead; k++)
			sp_buf_addc(&text, 'x');
		sp_buf_adds(&text, "\ty\t\n");
		fp = fmemopen(text.p, text.len, "r");
		if (sp_reader_open_stream(&r, fp, "in") != 0 ||
		    sp_reader_next(&r) != 1 || r.f[0].n != lead ||
		    strcmp(r.f[1].p, "y") != 0 || r.f[2].n != 0 ||
		    sp_reader_next(&r) != 0)
			wrong++;
		sp_reader_close(&r);
		fclose(fp);
		sp_buf_free(&text);
	}
	is_int(0, wrong, "fields split right at every offset in a window");
}

/* A random record of ncols fields (sometimes one too many or too few),
 * with long and empty fields so that field ends fall anywhere in a wide
 * window, and now and then a NUL. */
static void
random_record(struct sp_buf *text, size_t ncols)
{
	size_t nf = ncols + (rand() % 40 == 0) - (rand() % 40 == 0);

	for (size_t f = 0; f < nf; f++) {
		size_t len = rand() % 4 == 0 ? (size_t)(rand() % 150) :
		    (size_t)(rand() % 6);

		if (f > 0)
			sp_buf_addc(text, '\t');
		for (size_t k = 0; k < len; k++)
			sp_buf_addc(text, rand() % 300 == 0 ? '\0' :
			    (char)('a' + rand() % 26));
	}
	sp_buf_addc(text, '\n');
}

/* Opens a reader over text, wanting the columns of want[] set. */
static FILE *
open_wanting(struct sp_reader *r, struct sp_buf *text, const int *want,
	     size_t ncols)
{
	FILE *fp = fmemopen(text->p, text->len, "r");

	if (sp_reader_open_stream(r, fp, "in") != 0)
		return fp;
	for (size_t c = 0; c < ncols; c++)
		if (want[c])
			sp_reader_want(r, (int)c);
	return fp;
}

/*
 * A reader that wants some columns gives those fields, the same errors,
 * and after sp_reader_split_all every field, as the reader that splits
 * them all.
 */
static void
test_split_wanted(void)
{
	int wrong = 0, partial = 0;

	srand(11);
	for (int round = 0; round < 3000; round++) {
		size_t ncols = 1 + (size_t)(rand() % 40);
		struct sp_buf text = { 0 };
		struct sp_reader all, some;
		int want[40], rc1, rc2;
		FILE *fa, *fs;

		for (size_t c = 0; c < ncols; c++) {
			want[c] = rand() % 3 == 0;
			sp_buf_printf(&text, "%sc%zu", c ? "\t" : "", c);
		}
		sp_buf_addc(&text, '\n');
		for (int rec = 0; rec < 5; rec++)
			random_record(&text, ncols);
		/* A last line without LF ends where the input does. */
		if (rand() % 2)
			text.len--;
		fa = open_wanting(&all, &text, want, 0);
		fs = open_wanting(&some, &text, want, ncols);
		do {
			rc1 = sp_reader_next(&all);
			rc2 = sp_reader_next(&some);
			wrong += rc1 != rc2;
			if (rc1 < 0 && rc2 < 0)
				wrong += strcmp(sp_buf_str(&all.err),
						sp_buf_str(&some.err)) != 0;
			if (rc1 != 1 || rc2 != 1)
				break;
			partial += some.partial;
			for (size_t c = 0; c < ncols; c++)
				if (want[c])
					wrong += strcmp(all.f[c].p,
					    some.f[c].p) != 0;
			if (rand() % 2 == 0)
				continue;
			sp_reader_split_all(&some);
			for (size_t c = 0; c < ncols; c++)
				wrong += all.f[c].n != some.f[c].n ||
				    strcmp(all.f[c].p, some.f[c].p) != 0;
		} while (1);
		sp_reader_close(&all);
		sp_reader_close(&some);
		fclose(fa);
		fclose(fs);
		sp_buf_free(&text);
	}
	is_int(0, wrong, "wanted columns split as every column is");
	ok(partial > 0, "records were split in part");
}

/* The wide masks and their bit counts against a byte loop. */
static void
test_wide(void)
{
	char window[SP_SCAN_WIDE];
	int wrong = 0;

	srand(13);
	for (int round = 0; round < 20000; round++) {
		uint64_t m = 0, got;
		int nul = 0, has;
		size_t count = 0, first = 64, last = 0;

		for (size_t k = 0; k < SP_SCAN_WIDE; k++) {
			int pick = rand() % 8;

			window[k] = pick == 0 ? '\t' : pick == 1 && rand() % 20 == 0
			    ? '\0' : (char)(1 + rand() % 255);
			if (window[k] == '\t') {
				m |= (uint64_t)1 << k;
				count++;
				first = first < k ? first : k;
				last = k;
			}
			nul |= window[k] == '\0';
		}
		got = sp_scan_wide(window, '\t', '\0', &has);
		wrong += got != m || has != nul;
		if (m != 0)
			wrong += sp_scan_count(m) != count ||
			    sp_scan_first64(m) != first ||
			    sp_scan_last64(m) != last;
	}
	is_int(0, wrong, "wide masks agree with a byte loop");
	is_int(64, (long long)sp_scan_count(~(uint64_t)0), "all 64 counted");
	is_int(63, (long long)sp_scan_last64((uint64_t)1 << 63), "bit 63 last");
}

/* sp_field_clean_len against the rule it keeps, at every length. */
static void
test_clean_len(void)
{
	static const char alphabet[] = "ab/-_ \t\n\r\\\x1b\xc3\xa9";
	char text[80];
	int wrong = 0;

	srand(5);
	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)(rand() % (int)sizeof text), want = n;

		for (size_t k = 0; k < n; k++) {
			/* Mostly clean text, so escapes fall at every offset. */
			text[k] = rand() % 24 ? 'x' :
			    alphabet[rand() % (int)(sizeof alphabet - 1)];
		}
		for (size_t k = 0; k < n; k++)
			if (strchr("\t\n\r\\", text[k]) != NULL &&
			    text[k] != '\0') {
				want = k;
				break;
			}
		wrong += sp_field_clean_len(text, n) != want;
	}
	is_int(0, wrong, "clean_len stops at the first byte to escape");
}

int
main(void)
{
	plan_lazy();
	test_masks();
	test_split_alignment();
	test_split_wanted();
	test_wide();
	test_clean_len();
	return done_testing();
}
