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
	test_clean_len();
	return done_testing();
}
