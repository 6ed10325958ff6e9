/*
 * sp_sacct_values.c - sacct's values that take more than a number: TRES
 * and GRES text, CPU frequencies, states, job id lists.
 */
#include <string.h>

#include "sp_sacct_int.h"
#include "sp_const.h"
#include "sp_scan.h"

/* ---------------------------------------------------------------- TRES */

/*
 * The value of key (klen bytes) in "k=v,k=v" text, key matched whole.
 * Keys hold no '=' and no ',': an item is the key when "key=" starts it,
 * and no test can reach past the item's comma.  Every step row is asked
 * for several keys: the commas are found sixteen bytes at a time
 * (sp_scan.h) rather than by a call per item.
 */
static int
tres_find(struct sp_slice t, const char *key, size_t klen,
	  struct sp_slice *val)
{
	const char *p = t.p, *end = t.p + t.n, *item = p, *e;
	size_t w = 0;		/* the next window to look for commas in */
	unsigned m = 0;		/* the commas of the window before it, ahead */

	for (;;) {
		if ((size_t)(end - item) > klen && item[klen] == '=' &&
		    memcmp(item, key, klen) == 0)
			break;
		while (m == 0 && w + SP_SCAN_WIDTH <= t.n) {
			m = sp_scan_mask1(p + w, ',');
			w += SP_SCAN_WIDTH;
		}
		if (m != 0) {
			item = p + w - SP_SCAN_WIDTH + sp_scan_first(m) + 1;
			m &= m - 1;
			continue;
		}
		/* Past the last whole window: a byte at a time. */
		for (e = p + w; e < end && *e != ','; e++)
			;
		if (e == end)
			return 0;
		item = e + 1;
		w = (size_t)(item - p);
	}
	for (e = item + klen + 1; e < end && *e != ','; e++)
		;
	*val = sl(item + klen + 1, (size_t)(e - item) - klen - 1);
	return 1;
}

/* A TRES amount; bare_unit as sp_parse_mem takes it.  Zero is kept. */
double
sp_sacct_tres_amount_n(struct sp_slice t, const char *key, size_t klen,
		       double bare_unit)
{
	struct sp_slice v;
	double d;

	if (!tres_find(t, key, klen, &v))
		return NAN;
	return sp_parse_mem(v.p, v.n, bare_unit, 0, &d, NULL) == SP_VAL_OK ?
	    d : NAN;
}

/* gres/gpu=N wins; else the sum of gres/gpu:TYPE=N; gpumem/gpuutil never. */
static double
tres_gpus(struct sp_slice t)
{
	const char *p = t.p, *end = t.p + t.n;
	double typed = 0, v;
	int seen = 0;

	v = sp_sacct_tres_amount(t, "gres/gpu", 1.0);
	if (!isnan(v))
		return v;
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *e = comma ? comma : end;
		const char *eqs = memchr(p, '=', (size_t)(e - p));

		if (eqs && (size_t)(eqs - p) > 9 &&
		    memcmp(p, "gres/gpu:", 9) == 0) {
			v = count(sl(eqs + 1, (size_t)(e - eqs - 1)));
			if (!isnan(v)) {
				typed += v;
				seen = 1;
			}
		}
		p = comma ? comma + 1 : end;
	}
	return seen ? typed : NAN;
}

/* AllocGRES/ReqGRES: "gpu:4", "gpu:tesla:2(IDX:0-1)", bare "gpu" is 1. */
static double
gres_gpus(struct sp_slice g)
{
	const char *p = g.p, *end = g.p + g.n;
	double total = 0;
	int seen = 0;

	while (p < end) {
		const char *e = p, *colon, *last;
		int depth = 0;
		size_t n;

		while (e < end && (depth > 0 || *e != ',')) {
			if (*e == '(')
				depth++;
			else if (*e == ')' && depth > 0)
				depth--;
			e++;
		}
		n = (size_t)(e - p);
		{
			const char *paren = memchr(p, '(', n);

			if (paren)
				n = (size_t)(paren - p);
		}
		if (n > 5 && (memcmp(p, "gres/", 5) == 0 ||
		    memcmp(p, "gres:", 5) == 0)) {
			p += 5;
			n -= 5;
		}
		colon = memchr(p, ':', n);
		if ((colon ? (size_t)(colon - p) : n) == 3 &&
		    memcmp(p, "gpu", 3) == 0) {
			double c = 1;

			last = p + n;
			while (last > p && last[-1] != ':')
				last--;
			if (colon && last < p + n) {
				double v = count(sl(last, (size_t)(p + n - last)));

				if (!isnan(v))
					c = v;
			}
			total += c;
			seen = 1;
		}
		p = e < end ? e + 1 : end;
	}
	return seen ? total : NAN;
}

double
sp_sacct_gpus(struct sp_slice at, struct sp_slice rt, struct sp_slice ag,
	      struct sp_slice rg)
{
	struct sp_slice src[4];
	double v;
	int said = 0, i;

	src[0] = known_text(at);
	src[1] = known_text(rt);
	src[2] = known_text(ag);
	src[3] = known_text(rg);
	for (i = 0; i < 4; i++) {
		if (src[i].n == 0)
			continue;
		said = 1;
		v = i < 2 ? tres_gpus(src[i]) : gres_gpus(src[i]);
		if (!isnan(v) && v > 0)
			return v;
	}
	return said ? 0 : NAN;
}

double
sp_sacct_cpu_freq(struct sp_slice s)
{
	double v = 0, scale = 1;
	size_t i = 0;
	int digits = 0;

	if (sp_is_sentinel(s.p, s.n))
		return NAN;
	for (; i < s.n && is_digit((unsigned char)s.p[i]); i++, digits++)
		v = v * 10 + (s.p[i] - '0');
	if (i < s.n && s.p[i] == '.')
		for (i++; i < s.n && is_digit((unsigned char)s.p[i]);
		    i++, digits++)
			v += (s.p[i] - '0') / (scale *= 10);
	if (digits == 0 || digits > 18)
		return NAN;
	if (i < s.n) {
		switch (s.p[i]) {
		case 'K': v *= 1e3; break;
		case 'M': v *= 1e6; break;
		case 'G': v *= 1e9; break;
		case 'T': v *= 1e12; break;
		default: return NAN;
		}
		i++;
	}
	if (i != s.n)
		return NAN;
	/* sacct prints kHz as if Hz on some versions: try the value x1000. */
	if (v >= SP_CPU_FREQ_MIN_HZ && v <= SP_CPU_FREQ_MAX_HZ)
		return v;
	v *= 1000;
	if (v >= SP_CPU_FREQ_MIN_HZ && v <= SP_CPU_FREQ_MAX_HZ)
		return v;
	return NAN;
}

/* ---------------------------------------------------------------- state */

/* Every state Slurm's job_state_string() prints, base states and flags. */
static const char *const states[] = {
	"BOOT_FAIL", "CANCELLED", "COMPLETED", "COMPLETING", "CONFIGURING",
	"DEADLINE", "FAILED", "LAUNCH_FAILED", "NODE_FAIL", "OUT_OF_MEMORY",
	"PENDING", "POWER_UP_NODE", "PREEMPTED", "RECONFIG_FAIL", "REQUEUED",
	"REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "RESV_DEL_HOLD", "REVOKED",
	"RUNNING", "SIGNALING", "SPECIAL_EXIT", "STAGE_OUT", "STOPPED",
	"SUSPENDED", "TIMEOUT", "UPDATE_DB", NULL
};

static const char *const terminal_states[] = {
	"COMPLETED", "FAILED", "TIMEOUT", "OUT_OF_MEMORY", "CANCELLED",
	"NODE_FAIL", "BOOT_FAIL", "DEADLINE", "PREEMPTED", "REVOKED",
	"SPECIAL_EXIT", NULL
};

static int
in_list(struct sp_slice s, const char *const *list)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (list[i][0] == s.p[0] && strlen(list[i]) == s.n &&
		    memcmp(list[i], s.p, s.n) == 0)
			return 1;
	return 0;
}

int
sp_sacct_state_known(struct sp_slice state)
{
	return state.n > 0 && in_list(state, states);
}

int
sp_sacct_state_final(struct sp_slice state)
{
	return state.n > 0 && in_list(state, terminal_states);
}

/* An attempt that ended so may have another after it (sacct -D). */
static const char *const requeue_states[] = {
	"REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "NODE_FAIL", "PREEMPTED",
	"BOOT_FAIL", NULL
};

int
sp_sacct_state_requeues(struct sp_slice state)
{
	return state.n > 0 && in_list(state, requeue_states);
}

void
sp_sacct_state(struct sp_slice raw, struct sp_slice *state,
	       struct sp_slice *by)
{
	const char *sp;
	struct sp_slice w, rest;
	size_t i;

	*state = empty_slice;
	*by = empty_slice;
	if (raw.n == 0)
		return;
	sp = memchr(raw.p, ' ', raw.n);
	w = sl(raw.p, sp ? (size_t)(sp - raw.p) : raw.n);
	rest = sp ? sl(sp + 1, raw.n - w.n - 1) : empty_slice;
	/* sacct cuts a long state to "OUT_OF_ME+": a unique prefix names it. */
	if (w.n > 1 && w.p[w.n - 1] == '+') {
		const char *hit = NULL;
		int hits = 0;

		for (i = 0; states[i]; i++)
			if (strlen(states[i]) >= w.n - 1 &&
			    memcmp(states[i], w.p, w.n - 1) == 0) {
				hit = states[i];
				hits++;
			}
		if (hits == 1)
			w = sl(hit, strlen(hit));
	}
	*state = w;
	if (rest.n > 3 && memcmp(rest.p, "by ", 3) == 0) {
		struct sp_slice who = sl(rest.p + 3, rest.n - 3);
		const char *end = memchr(who.p, ' ', who.n);

		if (end)
			who.n = (size_t)(end - who.p);
		*by = who;
	}
}

/* ------------------------------------------------------------- job ids */

void
sp_sacct_jobs_arg(const char *ids, struct sp_buf *out)
{
	const char *p = ids;
	size_t start = out->len;

	while (*p) {
		const char *e = p, *under;
		int depth = 0;
		size_t n;

		while (*e && (depth > 0 || *e != ',')) {
			if (*e == '[')
				depth++;
			else if (*e == ']' && depth > 0)
				depth--;
			e++;
		}
		n = (size_t)(e - p);
		under = memchr(p, '_', n);
		if (under && under + 1 < p + n && under[1] == '[')
			n = (size_t)(under - p);
		if (n > 0) {
			/* Skip an id already in the list. */
			const char *q = out->p ? out->p + start : NULL;
			const char *qe = out->p ? out->p + out->len : NULL;
			int dup = 0;

			while (q && q < qe) {
				const char *c = memchr(q, ',', (size_t)(qe - q));
				const char *ce = c ? c : qe;

				if ((size_t)(ce - q) == n && memcmp(q, p, n) == 0)
					dup = 1;
				q = c ? c + 1 : qe;
			}
			if (!dup) {
				if (out->len > start)
					sp_buf_addc(out, ',');
				sp_buf_add(out, p, n);
			}
		}
		p = *e ? e + 1 : e;
	}
	if (out->p == NULL)
		sp_buf_add(out, "", 0);
}

