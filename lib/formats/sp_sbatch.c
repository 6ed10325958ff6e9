/*
 * sp_sbatch.c - sbatch's --time, memory and GPU values, read and
 * written back in their own spelling.
 */
#include <math.h>
#include <string.h>

#include "sp_sbatch.h"
#include "sp_units.h"

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The digits at *p as a number, *p moved past them; -1 when there are
 * none, or more than any size or duration needs (the figure would pass
 * SP_UNITS_MAX), so no value overflows.
 */
static double
digits(const char **p, size_t *ndigits)
{
	const char *s = *p;
	double v = 0;

	while (is_digit(*s) && s - *p < 16)
		v = v * 10 + (*s++ - '0');
	if (s == *p || is_digit(*s))
		return -1;
	*ndigits = (size_t)(s - *p);
	*p = s;
	return v;
}

static int
same_word(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a >= 'a' && *a <= 'z' ? *a - ('a' - 'A') : *a;

		if (x != *b)
			return 0;
	}
	return *a == *b;
}

/* ------------------------------------------------------------- --time */

int
sp_sbatch_time(const char *v, struct sp_sbtime *t)
{
	double f[3], days = -1;
	size_t n = 0, nd, first_digits = 0;
	const char *p = v;

	if (same_word(v, "UNLIMITED") || same_word(v, "INFINITE") ||
	    strcmp(v, "-1") == 0) {
		t->form = SP_TF_UNLIMITED;
		t->pad = 0;
		t->s = NAN;
		return 0;
	}
	for (;;) {
		double x = digits(&p, &nd);

		if (x < 0)
			return -1;
		if (*p == '-' && days < 0 && n == 0) {
			days = x;
			p++;
			continue;
		}
		if (n == 0)
			first_digits = nd;
		f[n++] = x;
		if (*p == '\0')
			break;
		if (*p != ':' || n == 3)
			return -1;
		p++;
	}
	t->pad = first_digits >= 2;
	if (days >= 0) {
		t->form = n == 1 ? SP_TF_DAYS_H : n == 2 ? SP_TF_DAYS_HM :
		    SP_TF_DAYS_HMS;
		t->s = days * 86400 + f[0] * 3600 + (n > 1 ? f[1] * 60 : 0) +
		    (n > 2 ? f[2] : 0);
	} else {
		t->form = n == 1 ? SP_TF_MIN : n == 2 ? SP_TF_MIN_SEC :
		    SP_TF_HMS;
		t->s = n == 1 ? f[0] * 60 : n == 2 ? f[0] * 60 + f[1] :
		    f[0] * 3600 + f[1] * 60 + f[2];
	}
	return 0;
}

static void
lead(struct sp_buf *b, long long v, int pad)
{
	sp_buf_printf(b, pad ? "%02lld" : "%lld", v);
}

void
sp_sbatch_time_spell(struct sp_buf *b, const struct sp_sbtime *as,
		     double seconds)
{
	long long s = (long long)ceil(seconds);
	enum sp_tform f = as->form;

	/* The next finer form where this one cannot hold the figure. */
	if (f == SP_TF_MIN && s % 60 != 0)
		f = SP_TF_MIN_SEC;
	if (f == SP_TF_DAYS_H && s % 3600 != 0)
		f = SP_TF_DAYS_HM;
	if (f == SP_TF_DAYS_HM && s % 60 != 0)
		f = SP_TF_DAYS_HMS;
	switch (f) {
	case SP_TF_MIN:
		sp_buf_printf(b, "%lld", s / 60);
		break;
	case SP_TF_MIN_SEC:
		lead(b, s / 60, as->pad);
		sp_buf_printf(b, ":%02lld", s % 60);
		break;
	case SP_TF_HMS:
		lead(b, s / 3600, as->pad);
		sp_buf_printf(b, ":%02lld:%02lld", s % 3600 / 60, s % 60);
		break;
	case SP_TF_DAYS_H:
	case SP_TF_DAYS_HM:
	case SP_TF_DAYS_HMS:
		sp_buf_printf(b, "%lld-", s / 86400);
		lead(b, s % 86400 / 3600, as->pad);
		if (f != SP_TF_DAYS_H)
			sp_buf_printf(b, ":%02lld", s % 3600 / 60);
		if (f == SP_TF_DAYS_HMS)
			sp_buf_printf(b, ":%02lld", s % 60);
		break;
	case SP_TF_UNLIMITED:
		sp_fmt_hms(b, (double)s);
		break;
	}
}

/* ------------------------------------------------------------- memory */

static double
unit_size(char u)
{
	switch (u) {
	case 'K': case 'k':
		return SP_KIB;
	case 'G': case 'g':
		return SP_GIB;
	case 'T': case 't':
		return SP_GIB * 1024;
	default:
		return SP_MIB;
	}
}

int
sp_sbatch_mem(const char *v, struct sp_sbmem *m)
{
	const char *p = v;
	size_t nd;
	double n = digits(&p, &nd);

	if (n < 0)
		return -1;
	m->unit = 0;
	m->tail = p;
	if (*p != '\0') {
		if (strchr("KkMmGgTt", *p) == NULL)
			return -1;
		m->unit = *p;
		m->tail = p + 1;
	}
	m->bytes = n * unit_size(m->unit);
	return m->bytes > SP_UNITS_MAX ? -1 : 0;
}

void
sp_sbatch_mem_spell(struct sp_buf *b, const struct sp_sbmem *as, double bytes)
{
	static const char order[] = "TGMK";
	int lower = as->unit >= 'a' && as->unit <= 'z';
	char want = as->unit ? as->unit : 'M';
	const char *u = strchr(order, lower ? want - ('a' - 'A') : want);
	double kib = ceil(bytes / SP_KIB) * SP_KIB;

	for (; *u; u++) {
		double size = unit_size(*u);

		if (fmod(kib, size) != 0)
			continue;
		sp_buf_printf(b, "%.0f", kib / size);
		/* No letter was written for megabytes: none is. */
		if (as->unit == 0 && *u == 'M')
			return;
		sp_buf_addc(b, lower ? (char)(*u + ('a' - 'A')) : *u);
		sp_buf_adds(b, as->tail);
		return;
	}
}

/* --------------------------------------------------------------- GPUs */

/* The count at the end of one [type:]count entry v[from..to). */
static int
entry_count(const char *v, size_t from, size_t to, int count_optional,
	    struct sp_sbgpu *g)
{
	size_t k = to;
	const char *p;
	size_t nd;

	while (k > from && v[k - 1] != ':')
		k--;
	if (k == to || !is_digit(v[k])) {
		if (!count_optional)
			return -1;
		/* gpu, or gpu:type: one GPU, the count not written. */
		g->count = 1;
		g->off = to;
		g->len = 0;
		return 1;
	}
	p = v + k;
	g->count = digits(&p, &nd);
	if (g->count < 0 || p != v + to)
		return -1;
	g->off = k;
	g->len = to - k;
	return 1;
}

int
sp_sbatch_gpus(const char *v, int gres, struct sp_sbgpu *g)
{
	size_t n = strlen(v), from = 0;
	int found = 0;

	if (!gres)
		return n > 0 ? entry_count(v, 0, n, 0, g) : -1;
	while (from <= n) {
		const char *comma = memchr(v + from, ',', n - from);
		size_t to = comma ? (size_t)(comma - v) : n;
		size_t name = to - from;
		const char *colon = memchr(v + from, ':', to - from);

		if (colon != NULL)
			name = (size_t)(colon - (v + from));
		if (name == 3 && memcmp(v + from, "gpu", 3) == 0) {
			/* "gpu" alone has no ':' before a count. */
			if (found++ ||
			    entry_count(v, colon ? from + 3 : to, to, 1, g) < 0)
				return -1;
		}
		from = to + 1;
	}
	return found;
}

void
sp_sbatch_gpus_spell(struct sp_buf *b, const char *v,
		     const struct sp_sbgpu *g, double count)
{
	sp_buf_add(b, v, g->off);
	if (g->len == 0)
		sp_buf_addc(b, ':');
	sp_buf_printf(b, "%.0f", count);
	sp_buf_adds(b, v + g->off + g->len);
}

/* ------------------------------------------------------------ quoting */

static int
needs_quotes(const char *s)
{
	if (*s == '\0')
		return 1;
	for (; *s; s++)
		if (strchr(" \t\n\v\f\r\"'\\#", *s) != NULL)
			return 1;
	return 0;
}

static void
quoted(struct sp_buf *b, const char *s, char q)
{
	sp_buf_addc(b, q);
	for (; *s; s++) {
		if (*s == q || *s == '\\')
			sp_buf_addc(b, '\\');
		sp_buf_addc(b, *s);
	}
	sp_buf_addc(b, q);
}

void
sp_sbatch_requote(struct sp_buf *b, const char *raw, size_t rawlen,
		  const char *old, const char *new)
{
	size_t n = strlen(old);

	if (rawlen == n + 2 && (raw[0] == '"' || raw[0] == '\'') &&
	    raw[rawlen - 1] == raw[0] && memcmp(raw + 1, old, n) == 0)
		quoted(b, new, raw[0]);
	else if (needs_quotes(new))
		quoted(b, new, '"');
	else
		sp_buf_adds(b, new);
}
