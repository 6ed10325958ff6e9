/*
 * sp_hostlist.c - Slurm hostlists expanded and compressed.
 *
 * The grammar, as "scontrol show hostnames" reads it:
 *
 *   list   := name { sep name }        sep is ',', ' ' or '\t' outside [ ]
 *   name   := text { '[' set ']' text }
 *   set    := item { ',' item }
 *   item   := N | N '-' M              N <= M, width of the padding = |N|
 *
 * A name with several sets is their cartesian product, the leftmost set
 * varying slowest (a[0-1]b[0-1] is a0b0 a0b1 a1b0 a1b1).  Where Slurm
 * rejects a list, we keep what we can instead of dropping the job's
 * nodes:
 *
 *   - text after a set ("node[1-2]-ib") is a suffix, as Slurm reads it
 *     from 23.11 (22.05 says "Invalid hostlist");
 *   - an item that is not a number or an increasing range ("a-b", "3-1")
 *     is kept as text: node[a-b] is the one name "nodea-b" (22.05 refuses
 *     the list);
 *   - a '[' with no ']' before the next '[' is literal text, and so is a
 *     set with no items ("n[]");
 *   - with three sets or more, 22.05 happens to vary the middle set
 *     slowest; we keep one rule, leftmost slowest: the same names.
 *
 * Expansion is streamed through an odometer over the sets, so its cost
 * is bounded by what it emits: it stops at SP_HOSTLIST_MAX names or
 * SP_HOSTLIST_MAX_BYTES of text, whatever the ranges claim, and never
 * recurses (a name with 10^5 sets costs no stack).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sp_hostlist.h"

const char *
sp_names_at(const struct sp_names *v, size_t i)
{
	if (i >= v->n)
		return NULL;
	return v->text.p + v->off[i];
}

int
sp_names_has(const struct sp_names *v, const char *name)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(sp_names_at(v, i), name) == 0)
			return 1;
	return 0;
}

void
sp_names_add(struct sp_names *v, const char *s, size_t n)
{
	v->off = sp_xgrow(v->off, &v->cap, v->n + 1, sizeof *v->off);
	v->off[v->n++] = v->text.len;
	sp_buf_add(&v->text, s, n);
	sp_buf_addc(&v->text, '\0');
}

void
sp_names_clear(struct sp_names *v)
{
	v->n = 0;
	sp_buf_clear(&v->text);
}

void
sp_names_free(struct sp_names *v)
{
	free(v->off);
	sp_buf_free(&v->text);
	v->off = NULL;
	v->n = v->cap = 0;
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
is_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t';
}

/* One element of a set: a numeric range, or text kept as written. */
struct item {
	const char *text;	/* NULL for a range */
	size_t len;		/* text length, or the width of the padding */
	uint64_t lo, hi;
};

/* A piece of a name: literal text (nitems == 0) or a set of items. */
struct seg {
	const char *text;
	size_t len;
	size_t first, nitems;	/* into the item array */
	size_t at;		/* odometer: current item ... */
	uint64_t cur;		/* ... and current number in it */
};

struct expander {
	struct item *items;
	size_t nitems, capitems;
	struct seg *segs;
	size_t nsegs, capsegs;
	struct sp_buf name;
	size_t names_left;
	size_t bytes_left;
};

static const char *
close_of(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		if (*p == ']')
			return p;
		if (*p == '[')
			return NULL;
	}
	return NULL;
}

/* Digits only, and the value must fit a uint64. */
static int
parse_number(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0, d;
	size_t i;

	if (n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		d = (uint64_t)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* A number "7" or an increasing range "07-12", else the text as written. */
static void
add_item(struct expander *x, const char *s, size_t n)
{
	const char *dash = memchr(s, '-', n);
	size_t lo_len = dash ? (size_t)(dash - s) : n;
	struct item it = { NULL, lo_len, 0, 0 };
	int numeric = parse_number(s, lo_len, &it.lo) == 0;

	if (numeric && dash)
		numeric = parse_number(dash + 1, n - lo_len - 1, &it.hi) == 0 &&
		    it.lo <= it.hi;
	else
		it.hi = it.lo;
	if (!numeric) {
		it.text = s;
		it.len = n;
	}
	x->items = sp_xgrow(x->items, &x->capitems, x->nitems + 1,
			    sizeof *x->items);
	x->items[x->nitems++] = it;
}

static void
add_seg(struct expander *x, const char *text, size_t len, size_t first,
	size_t nitems)
{
	struct seg *g;

	if (nitems == 0 && len == 0)
		return;
	x->segs = sp_xgrow(x->segs, &x->capsegs, x->nsegs + 1,
			   sizeof *x->segs);
	g = &x->segs[x->nsegs++];
	g->text = text;
	g->len = len;
	g->first = first;
	g->nitems = nitems;
	g->at = 0;
	g->cur = nitems ? x->items[first].lo : 0;
}

/* Splits one name into literal text and sets. */
static void
parse_name(struct expander *x, const char *s, const char *end)
{
	const char *p = s, *lit = s, *close, *q, *b;
	size_t first;

	x->nitems = x->nsegs = 0;
	while (p < end) {
		if (*p != '[' || (close = close_of(p, end)) == NULL) {
			p++;
			continue;
		}
		first = x->nitems;
		for (b = q = p + 1; q <= close; q++) {
			if (q < close && *q != ',')
				continue;
			if (q > b)
				add_item(x, b, (size_t)(q - b));
			b = q + 1;
		}
		if (x->nitems == first) {
			p = close + 1;	/* "[]": stays literal */
			continue;
		}
		add_seg(x, lit, (size_t)(p - lit), 0, 0);
		add_seg(x, NULL, 0, first, x->nitems - first);
		p = lit = close + 1;
	}
	add_seg(x, lit, (size_t)(end - lit), 0, 0);
}

static void
put_number(struct sp_buf *b, uint64_t v, size_t width)
{
	char digits[24];
	size_t n = sizeof digits;

	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	for (; width > sizeof digits - n; width--)
		sp_buf_addc(b, '0');
	sp_buf_add(b, digits + n, sizeof digits - n);
}

static void
build_name(struct expander *x)
{
	size_t i;

	sp_buf_clear(&x->name);
	for (i = 0; i < x->nsegs; i++) {
		const struct seg *g = &x->segs[i];
		const struct item *it;

		if (g->nitems == 0) {
			sp_buf_add(&x->name, g->text, g->len);
			continue;
		}
		it = &x->items[g->first + g->at];
		if (it->text)
			sp_buf_add(&x->name, it->text, it->len);
		else
			put_number(&x->name, g->cur, it->len);
	}
}

/* Steps the odometer; 0 once every combination has been seen. */
static int
advance(struct expander *x)
{
	size_t i = x->nsegs;

	while (i-- > 0) {
		struct seg *g = &x->segs[i];
		const struct item *it;

		if (g->nitems == 0)
			continue;
		it = &x->items[g->first + g->at];
		if (it->text == NULL && g->cur < it->hi) {
			g->cur++;
			return 1;
		}
		if (g->at + 1 < g->nitems) {
			g->at++;
			g->cur = x->items[g->first + g->at].lo;
			return 1;
		}
		g->at = 0;
		g->cur = x->items[g->first].lo;
	}
	return 0;
}

/* Emits every name of one list element; -1 when a cap stops it. */
static int
expand_name(struct expander *x, const char *s, const char *end,
	    struct sp_names *out)
{
	parse_name(x, s, end);
	do {
		build_name(x);
		if (x->names_left == 0 || x->name.len + 1 > x->bytes_left)
			return -1;
		sp_names_add(out, sp_buf_str(&x->name), x->name.len);
		x->names_left--;
		x->bytes_left -= x->name.len + 1;
	} while (advance(x));
	return 0;
}

static int
is_none(const char *s, size_t n)
{
	static const char none[] = "none assigned";
	size_t i;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (n == 0)
		return 1;
	if (n != sizeof none - 1)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i];

		if (c != none[i])
			return 0;
	}
	return 1;
}

int
sp_hostlist_expand(const char *s, size_t n, struct sp_names *out)
{
	struct expander x;
	const char *p, *start, *end, *close;
	int rc = 0;

	if (s == NULL || is_none(s, n))
		return 0;
	memset(&x, 0, sizeof x);
	x.names_left = SP_HOSTLIST_MAX;
	x.bytes_left = SP_HOSTLIST_MAX_BYTES;
	end = s + n;
	for (p = start = s; rc == 0; ) {
		if (p < end && !is_sep(*p)) {
			/* Separators inside a set belong to it. */
			if (*p == '[' && (close = close_of(p, end)) != NULL)
				p = close + 1;
			else
				p++;
			continue;
		}
		if (p > start)
			rc = expand_name(&x, start, p, out);
		if (p == end)
			break;
		start = ++p;
	}
	free(x.items);
	free(x.segs);
	sp_buf_free(&x.name);
	return rc;
}

/* A name seen as prefix, number of a given width, and suffix. */
struct part {
	const char *name;
	size_t plen;		/* the whole name when there is no number */
	const char *suffix;
	size_t width;		/* 0: no number */
	uint64_t num;
};

static void
split_name(const char *name, struct part *pt)
{
	size_t len = strlen(name), e = len, b;

	pt->name = name;
	pt->plen = len;
	pt->suffix = name + len;
	pt->width = 0;
	pt->num = 0;
	while (e > 0 && !is_digit(name[e - 1]))
		e--;
	for (b = e; b > 0 && is_digit(name[b - 1]); b--)
		;
	if (e == 0 || parse_number(name + b, e - b, &pt->num) < 0)
		return;
	pt->plen = b;
	pt->width = e - b;
	pt->suffix = name + e;
}

static int
cmp_bytes(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	if (c != 0)
		return c;
	return na < nb ? -1 : na > nb;
}

/* Same prefix, suffix and width: one bracket can hold both. */
static int
cmp_group(const struct part *a, const struct part *b)
{
	int c = cmp_bytes(a->name, a->plen, b->name, b->plen);

	if (c == 0)
		c = strcmp(a->suffix, b->suffix);
	if (c == 0)
		c = a->width < b->width ? -1 : a->width > b->width;
	return c;
}

static int
cmp_part(const void *va, const void *vb)
{
	const struct part *a = va, *b = vb;
	int c = cmp_group(a, b);

	if (c == 0)
		c = a->num < b->num ? -1 : a->num > b->num;
	return c;
}

/* Writes the names pt[0..n) (one group, numbers ascending, unique). */
static void
put_group(struct sp_buf *out, const struct part *pt, size_t n)
{
	size_t i, j;

	if (n == 1 || pt[0].width == 0) {
		sp_buf_adds(out, pt[0].name);
		return;
	}
	sp_buf_add(out, pt[0].name, pt[0].plen);
	sp_buf_addc(out, '[');
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && pt[j].num == pt[j - 1].num + 1; j++)
			;
		if (i > 0)
			sp_buf_addc(out, ',');
		put_number(out, pt[i].num, pt[i].width);
		if (j - i > 1) {
			sp_buf_addc(out, '-');
			put_number(out, pt[j - 1].num, pt[i].width);
		}
	}
	sp_buf_addc(out, ']');
	sp_buf_adds(out, pt[0].suffix);
}

void
sp_hostlist_compress(const struct sp_names *in, struct sp_buf *out)
{
	struct part *pt;
	size_t i, n = 0, g;

	if (in->n == 0)
		return;
	pt = sp_xcalloc(in->n, sizeof *pt);
	for (i = 0; i < in->n; i++)
		split_name(sp_names_at(in, i), &pt[i]);
	sp_sort(pt, in->n, sizeof *pt, cmp_part);
	/* Duplicates go; a name without a number is its own group. */
	for (i = 0; i < in->n; i++)
		if (n == 0 || cmp_part(&pt[n - 1], &pt[i]) != 0)
			pt[n++] = pt[i];
	for (i = 0; i < n; i = g) {
		for (g = i + 1; g < n && pt[i].width != 0 &&
		     cmp_group(&pt[i], &pt[g]) == 0; g++)
			;
		if (i > 0)
			sp_buf_addc(out, ',');
		put_group(out, pt + i, g - i);
	}
	free(pt);
}
