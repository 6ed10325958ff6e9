/*
 * sp_sacct.c - sacct's record, read the way real clusters print it.
 *
 * Three layers, bottom up:
 *   lines -> rows   a row is one physical line, plus the lines after it
 *                   that cannot start a record (a newline inside a field);
 *   rows  -> groups the adjacent rows of one job id and one identity: its
 *                   allocation rows (attempts under sacct -D) and steps;
 *   group -> records every attempt folded with its steps, in Submit order.
 * The text of a group lives in one arena; rows keep offsets into it.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <csv.h>

#include "sp_sacct.h"
#include "sp_scan.h"
#include "sp_units.h"
#include "sp_const.h"

#define MIB 1048576.0

/* ------------------------------------------------------------- fields */

static const struct {
	const char *name;
	int mandatory;
} fields[SP_SF_COUNT] = {
#define SP_X(id, name, mandatory) { name, mandatory },
	SP_SACCT_FIELDS(SP_X)
#undef SP_X
	{ "ConsumedEnergy", 0 },
};

const char *
sp_sacct_field_name(int sf)
{
	return sf >= 0 && sf < SP_SF_COUNT ? fields[sf].name : NULL;
}

int
sp_sacct_field_mandatory(int sf)
{
	return sf >= 0 && sf < SP_SF_COUNT && fields[sf].mandatory;
}

static int
lc(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
same_ci(const char *s, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (word[i] == '\0' || lc((unsigned char)s[i]) !=
		    lc((unsigned char)word[i]))
			return 0;
	return word[n] == '\0';
}

int
sp_sacct_field_id(const char *name, size_t n)
{
	int i;

	while (n > 0 && (*name == ' ' || *name == '\t')) {
		name++;
		n--;
	}
	while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '\t' ||
	    name[n - 1] == '\r'))
		n--;
	for (i = 0; i < SP_SF_COUNT; i++)
		if (same_ci(name, n, fields[i].name))
			return i;
	if (same_ci(name, n, "Reserved"))
		return SP_SF_PLANNED;
	return -1;
}

/* 1 when the helpformat text lists the word (case-insensitively). */
static int
listed(const char *text, size_t n, const char *word)
{
	size_t i = 0, j;

	while (i < n) {
		while (i < n && (text[i] == ' ' || text[i] == '\t' ||
		    text[i] == '\n' || text[i] == '\r' || text[i] == ','))
			i++;
		j = i;
		while (j < n && !(text[j] == ' ' || text[j] == '\t' ||
		    text[j] == '\n' || text[j] == '\r' || text[j] == ','))
			j++;
		if (j > i && same_ci(text + i, j - i, word))
			return 1;
		i = j;
	}
	return 0;
}

int
sp_sacct_format(const char *help, size_t n, struct sp_buf *format,
		struct sp_buf *err)
{
	const char *name;
	int i;

	for (i = 0; i < SP_SF_CONSUMEDENERGY; i++) {
		name = fields[i].name;
		if (help != NULL && !listed(help, n, name)) {
			if (i == SP_SF_PLANNED && listed(help, n, "Reserved"))
				name = "Reserved";
			else if (fields[i].mandatory) {
				sp_buf_printf(err, "this sacct has no field "
				    "'%s', which slurmpast needs (sacct "
				    "--helpformat)", name);
				return -1;
			} else
				continue;
		}
		if (format->len > 0)
			sp_buf_addc(format, ',');
		sp_buf_adds(format, name);
	}
	return 0;
}

/* ------------------------------------------------------------ columns */

static const char col_kind[SP_JC_COUNT] = {
#define SP_X(name, kind) #kind[0],
	SP_JOB_COLUMNS(SP_X)
#undef SP_X
};

int
sp_sacct_col_is_num(int jc)
{
	return jc >= 0 && jc < SP_JC_COUNT && col_kind[jc] == 'N';
}

/* ------------------------------------------------------- small values */

static struct sp_slice
sl(const char *p, size_t n)
{
	struct sp_slice s;

	s.p = p;
	s.n = n;
	return s;
}

static const struct sp_slice empty_slice = { "", 0 };

static int
eq(struct sp_slice a, struct sp_slice b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\v' || c == '\f';
}

/* A sacct sentinel (Unknown, None, INVALID ...) becomes empty. */
static struct sp_slice
known_text(struct sp_slice s)
{
	/* No sentinel starts with a digit: most values skip the word list. */
	if (s.n > 0 && is_digit((unsigned char)s.p[0]))
		return s;
	return sp_is_sentinel(s.p, s.n) ? empty_slice : s;
}

/* A timestamp is carried as printed, but only when it is one. */
static struct sp_slice
known_time(struct sp_slice s)
{
	return sp_parse_time(s.p, s.n, NULL) == SP_VAL_OK ? s : empty_slice;
}

/*
 * A count or raw number: unsigned decimal digits only.  Slurm's NO_VAL
 * and INFINITE words (32 and 64 bit) mean "no value", never a count.
 */
static double
count(struct sp_slice s)
{
	uint64_t v = 0;
	size_t i;

	if (s.n == 0 || s.n > 20)
		return NAN;
	for (i = 0; i < s.n; i++) {
		if (!is_digit((unsigned char)s.p[i]))
			return NAN;
		if (i >= 18 && v > (UINT64_MAX - 9) / 10)
			return NAN;
		v = v * 10 + (uint64_t)(s.p[i] - '0');
	}
	if (v == UINT64_C(4294967294) || v == UINT64_C(4294967295) ||
	    (double)v > SP_UNITS_MAX)
		return NAN;
	return (double)v;
}

static double
duration(struct sp_slice s)
{
	double v;

	return sp_parse_duration(s.p, s.n, &v) == SP_VAL_OK ? v : NAN;
}

/* Bytes where sacct prints bytes: a bare number is bytes, K M G powers of 1024. */
static double
bytes(struct sp_slice s)
{
	double v;

	return sp_parse_mem(s.p, s.n, 1.0, 0, &v, NULL) == SP_VAL_OK ? v : NAN;
}

static double
nan_max(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a > b ? a : b;
}

/* "code:signal" */
static void
exit_pair(struct sp_slice s, double *code, double *sig)
{
	const char *colon = s.n ? memchr(s.p, ':', s.n) : NULL;

	*code = NAN;
	*sig = NAN;
	if (colon == NULL) {
		*code = count(s);
		return;
	}
	*code = count(sl(s.p, (size_t)(colon - s.p)));
	*sig = count(sl(colon + 1, s.n - (size_t)(colon - s.p) - 1));
}

/* ---------------------------------------------------------------- TRES */

/* The value of key in "k=v,k=v" text (key matched whole). */
static int
tres_find(struct sp_slice t, const char *key, struct sp_slice *val)
{
	size_t klen = strlen(key);
	const char *p = t.p, *end = t.p + t.n;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *e = comma ? comma : end;
		const char *eqs = memchr(p, '=', (size_t)(e - p));

		if (eqs && (size_t)(eqs - p) == klen &&
		    memcmp(p, key, klen) == 0) {
			*val = sl(eqs + 1, (size_t)(e - eqs - 1));
			return 1;
		}
		p = comma ? comma + 1 : end;
	}
	return 0;
}

/* A TRES amount; bare_unit as sp_parse_mem takes it.  Zero is kept. */
static double
tres_amount(struct sp_slice t, const char *key, double bare_unit)
{
	struct sp_slice v;
	double d;

	if (!tres_find(t, key, &v))
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

	v = tres_amount(t, "gres/gpu", 1.0);
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

static const char *const states[] = {
	"BOOT_FAIL", "CANCELLED", "COMPLETED", "COMPLETING", "CONFIGURING",
	"DEADLINE", "FAILED", "NODE_FAIL", "OUT_OF_MEMORY", "PENDING",
	"PREEMPTED", "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING",
	"RESV_DEL_HOLD", "REVOKED", "RUNNING", "SIGNALING", "SPECIAL_EXIT",
	"STAGE_OUT", "STOPPED", "SUSPENDED", "TIMEOUT", NULL
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

/* ------------------------------------------------------------ the rows */

struct sp_sacct_row {
	struct sp_sacct_span f[SP_SF_COUNT];
	size_t start;
	unsigned char is_step;
	unsigned char damaged;
};

/* A row's fields as slices into the arena (valid until it grows). */
static void
view(const struct sp_sacct *p, const struct sp_sacct_row *r,
     struct sp_slice *v)
{
	const char *base = p->arena.p;
	int i;

	for (i = 0; i < SP_SF_COUNT; i++)
		v[i] = r->f[i].len ? sl(base + r->f[i].off, r->f[i].len) :
		    empty_slice;
}

static struct sp_slice
span(const struct sp_sacct *p, struct sp_sacct_span s)
{
	return s.len ? sl(p->arena.p + s.off, s.len) : empty_slice;
}

/* ------------------------------------------------------ one row's values */

/*
 * What a row measured: all the fold reads from a step, so steps are not
 * parsed for identity and times nobody asks for.
 */
static void
row_measures(const struct sp_slice *v, struct sp_sacct_rec *r)
{
	double d;

	r->num[SP_JC_ntasks] = count(v[SP_SF_NTASKS]);
	r->num[SP_JC_max_rss_b] = bytes(v[SP_SF_MAXRSS]);
	r->text[SP_JC_max_rss_node] = known_text(v[SP_SF_MAXRSSNODE]);
	r->num[SP_JC_ave_rss_b] = bytes(v[SP_SF_AVERSS]);
	r->num[SP_JC_rss_imbalance] = r->num[SP_JC_ave_rss_b] > 0 ?
	    r->num[SP_JC_max_rss_b] / r->num[SP_JC_ave_rss_b] : NAN;
	r->num[SP_JC_max_vmsize_b] = bytes(v[SP_SF_MAXVMSIZE]);

	r->num[SP_JC_total_cpu_s] = duration(v[SP_SF_TOTALCPU]);
	r->num[SP_JC_user_cpu_s] = duration(v[SP_SF_USERCPU]);
	r->num[SP_JC_sys_cpu_s] = duration(v[SP_SF_SYSTEMCPU]);
	d = count(v[SP_SF_CPUTIMERAW]);
	r->num[SP_JC_cpu_time_s] = isnan(d) ? duration(v[SP_SF_CPUTIME]) : d;
	r->num[SP_JC_ave_cpu_s] = duration(v[SP_SF_AVECPU]);
	r->num[SP_JC_min_cpu_s] = duration(v[SP_SF_MINCPU]);
	r->text[SP_JC_min_cpu_node] = known_text(v[SP_SF_MINCPUNODE]);
	/* 65534 is Slurm's 16-bit "no task". */
	d = count(v[SP_SF_MINCPUTASK]);
	r->text[SP_JC_min_cpu_task] = isnan(d) || d >= 65534 ? empty_slice :
	    v[SP_SF_MINCPUTASK];
	r->num[SP_JC_ave_cpu_freq_hz] = sp_sacct_cpu_freq(v[SP_SF_AVECPUFREQ]);

	d = tres_amount(v[SP_SF_TRESUSAGEINTOT], "fs/disk", 1.0);
	r->num[SP_JC_read_b] = isnan(d) ? bytes(v[SP_SF_MAXDISKREAD]) : d;
	d = tres_amount(v[SP_SF_TRESUSAGEOUTTOT], "fs/disk", 1.0);
	r->num[SP_JC_write_b] = isnan(d) ? bytes(v[SP_SF_MAXDISKWRITE]) : d;
	r->num[SP_JC_max_pages] = bytes(v[SP_SF_MAXPAGES]);
	d = tres_amount(v[SP_SF_TRESUSAGEINAVE], "gres/gpuutil", 1.0);
	if (isnan(d))
		d = tres_amount(v[SP_SF_TRESUSAGEINMAX], "gres/gpuutil", 1.0);
	r->num[SP_JC_gpu_util] = d / 100;
	d = tres_amount(v[SP_SF_TRESUSAGEINMAX], "gres/gpumem", 1.0);
	if (isnan(d))
		d = tres_amount(v[SP_SF_TRESUSAGEINAVE], "gres/gpumem", 1.0);
	r->num[SP_JC_gpu_mem_b] = d;
}

/* The values a row carries by itself (allocation or step). */
static void
row_values(const struct sp_slice *v, struct sp_sacct_rec *r)
{
	struct sp_slice state, by, t;
	double d;
	int i;

	for (i = 0; i < SP_JC_COUNT; i++) {
		r->text[i] = empty_slice;
		r->num[i] = NAN;
	}
	r->text[SP_JC_jobid] = v[SP_SF_JOBID];
	r->text[SP_JC_jobid_raw] = v[SP_SF_JOBIDRAW];
	r->text[SP_JC_name] = v[SP_SF_JOBNAME];
	r->text[SP_JC_user] = v[SP_SF_USER];
	r->num[SP_JC_uid] = count(v[SP_SF_UID]);
	r->text[SP_JC_account] = v[SP_SF_ACCOUNT];
	r->text[SP_JC_partition] = v[SP_SF_PARTITION];
	r->text[SP_JC_qos] = v[SP_SF_QOS];
	r->text[SP_JC_cluster] = v[SP_SF_CLUSTER];

	sp_sacct_state(known_text(v[SP_SF_STATE]), &state, &by);
	r->text[SP_JC_state] = state;
	r->text[SP_JC_cancelled_by] = by;
	exit_pair(v[SP_SF_EXITCODE], &r->num[SP_JC_exit_code],
	    &r->num[SP_JC_signal]);
	exit_pair(v[SP_SF_DERIVEDEXITCODE], &r->num[SP_JC_derived_exit_code],
	    &d);
	r->text[SP_JC_reason] = known_text(v[SP_SF_REASON]);

	r->text[SP_JC_submit] = known_time(v[SP_SF_SUBMIT]);
	r->text[SP_JC_eligible] = known_time(v[SP_SF_ELIGIBLE]);
	r->text[SP_JC_start] = known_time(v[SP_SF_START]);
	r->text[SP_JC_end] = known_time(v[SP_SF_END]);
	/*
	 * Open: the record never ended.  A RUNNING or PENDING row is open
	 * even with an End, which then is the query's window, not an ending.
	 */
	if (state.n == 0)
		r->num[SP_JC_open] = 0;
	else if (in_list(state, terminal_states))
		r->num[SP_JC_open] = 0;
	else if (r->text[SP_JC_end].n == 0)
		r->num[SP_JC_open] = 1;
	else
		r->num[SP_JC_open] = eq(state, sl("RUNNING", 7)) ||
		    eq(state, sl("PENDING", 7));

	d = count(v[SP_SF_ELAPSEDRAW]);
	r->num[SP_JC_elapsed_s] = isnan(d) ? duration(v[SP_SF_ELAPSED]) : d;
	d = count(v[SP_SF_TIMELIMITRAW]);
	r->num[SP_JC_timelimit_s] = isnan(d) ? duration(v[SP_SF_TIMELIMIT]) :
	    d * 60;
	r->num[SP_JC_wait_s] = duration(v[SP_SF_PLANNED]);

	r->num[SP_JC_req_cpus] = count(v[SP_SF_REQCPUS]);
	d = count(v[SP_SF_ALLOCCPUS]);
	if (isnan(d))
		d = count(v[SP_SF_NCPUS]);
	if (isnan(d))
		d = tres_amount(v[SP_SF_ALLOCTRES], "cpu", 1.0);
	r->num[SP_JC_alloc_cpus] = d;
	r->num[SP_JC_alloc_gpus] = sp_sacct_gpus(v[SP_SF_ALLOCTRES],
	    v[SP_SF_REQTRES], v[SP_SF_ALLOCGRES], v[SP_SF_REQGRES]);
	d = count(v[SP_SF_NNODES]);
	if (isnan(d))
		d = count(v[SP_SF_ALLOCNODES]);
	if (isnan(d))
		d = tres_amount(v[SP_SF_ALLOCTRES], "node", 1.0);
	r->num[SP_JC_nnodes] = d;
	t = known_text(v[SP_SF_NODELIST]);
	if (t.n == 13 && memcmp(t.p, "None assigned", 13) == 0)
		t = empty_slice;
	r->text[SP_JC_nodelist] = t;
	r->text[SP_JC_req_mem] = known_text(v[SP_SF_REQMEM]);

	row_measures(v, r);
	d = count(v[SP_SF_CONSUMEDENERGYRAW]);
	if (isnan(d))
		d = count(v[SP_SF_CONSUMEDENERGY]);
	r->num[SP_JC_energy_j] = d;

	r->text[SP_JC_req_tres] = known_text(v[SP_SF_REQTRES]);
	r->text[SP_JC_alloc_tres] = known_text(v[SP_SF_ALLOCTRES]);
	r->text[SP_JC_constraints] = v[SP_SF_CONSTRAINTS];
	r->text[SP_JC_workdir] = v[SP_SF_WORKDIR];
	r->text[SP_JC_stdout] = v[SP_SF_STDOUT];
	r->text[SP_JC_stderr] = v[SP_SF_STDERR];
	r->text[SP_JC_submit_line] = v[SP_SF_SUBMITLINE];
	r->text[SP_JC_comment] = v[SP_SF_COMMENT];
	r->text[SP_JC_flags] = known_text(v[SP_SF_FLAGS]);
}

/* "123_4" -> array job 123, task 4; "123_[1-3]" -> task "[1-3]". */
static void
array_parts(struct sp_slice id, struct sp_sacct_rec *r)
{
	const char *u = id.n ? memchr(id.p, '_', id.n) : NULL;

	if (u == NULL)
		return;
	r->text[SP_JC_array_job] = sl(id.p, (size_t)(u - id.p));
	r->text[SP_JC_array_task] = sl(u + 1, id.n - (size_t)(u - id.p) - 1);
}

/*
 * The memory limits of an allocation.  AllocTRES mem= is the total;
 * ReqMem is per node ('n'), per CPU ('c') or, unsuffixed (Slurm 21.08
 * and later), the total; 0 is no value.  Slurm before 17.02 wrote the
 * raw request (per node or per CPU) into AllocTRES: a "total" below what
 * ReqMem implies for the allocation cannot be the total, so the implied
 * one stands.
 */
static void
mem_limits(const struct sp_slice *v, struct sp_sacct_rec *r)
{
	double req = NAN, alloc, implied = NAN, total, node = NAN;
	double nodes = r->num[SP_JC_nnodes];
	double cpus = r->num[SP_JC_alloc_cpus];
	char scope = 0;

	if (isnan(cpus))
		cpus = r->num[SP_JC_req_cpus];
	if (sp_parse_mem(v[SP_SF_REQMEM].p, v[SP_SF_REQMEM].n, MIB, 1, &req,
	    &scope) != SP_VAL_OK)
		req = NAN;
	if (scope == 'n') {
		node = req;
		implied = nodes > 0 ? req * nodes : NAN;
	} else if (scope == 'c')
		implied = cpus > 0 ? req * cpus : NAN;
	else
		implied = req;
	alloc = tres_amount(v[SP_SF_ALLOCTRES], "mem", MIB);
	if (alloc == 0)
		alloc = NAN;
	total = nan_max(alloc, implied);
	if (isnan(total)) {
		total = tres_amount(v[SP_SF_REQTRES], "mem", MIB);
		if (total == 0)
			total = NAN;
	}
	if (isnan(node) && nodes > 0)
		node = total / nodes;
	r->num[SP_JC_mem_limit_node_b] = node;
	r->num[SP_JC_mem_limit_total_b] = total;
}

static int
is_extern(struct sp_slice step)
{
	return step.n == 6 && memcmp(step.p, "extern", 6) == 0;
}

static struct sp_slice
step_name(struct sp_slice id)
{
	const char *dot = memchr(id.p, '.', id.n);

	return dot ? sl(dot + 1, id.n - (size_t)(dot - id.p) - 1) :
	    empty_slice;
}


/* ------------------------------------------------------------- folding */

/* What the steps of one allocation add up to; NaN until a step says. */
struct agg {
	double peak, work_peak, peak_ave, work_ave;
	struct sp_slice peak_step, peak_node, work_step, work_node;
	int work_over;
	double total, user, sys, cpu_den;
	double read_sum, write_sum, read_max, write_max;
	double vmsize, pages, gpu_mem, gpu_util, imbalance, ntasks;
	double freq, freq_cpu;
	int straggler;
	double ave_cpu, min_cpu;
	struct sp_slice min_node, min_task;
};

static void
add_to(double *acc, double v)
{
	if (!isnan(v))
		*acc = isnan(*acc) ? v : *acc + v;
}

static void
max_to(double *acc, double v)
{
	*acc = nan_max(*acc, v);
}

static void
agg_init(struct agg *a)
{
	memset(a, 0, sizeof *a);
	a->peak = a->work_peak = a->peak_ave = a->work_ave = NAN;
	a->total = a->user = a->sys = a->cpu_den = NAN;
	a->read_sum = a->write_sum = a->read_max = a->write_max = NAN;
	a->vmsize = a->pages = a->gpu_mem = a->gpu_util = NAN;
	a->imbalance = a->ntasks = a->freq = a->freq_cpu = NAN;
	a->ave_cpu = a->min_cpu = NAN;
	a->peak_step = a->peak_node = a->work_step = a->work_node =
	    empty_slice;
	a->min_node = a->min_task = empty_slice;
}

static void
agg_step(struct agg *a, struct sp_slice name, const struct sp_sacct_rec *s,
	 double limit, int open)
{
	int work = !is_extern(name);
	double v = s->num[SP_JC_max_rss_b];

	if (!isnan(v)) {
		if (isnan(a->peak) || v > a->peak) {
			a->peak = v;
			a->peak_step = name;
			a->peak_node = s->text[SP_JC_max_rss_node];
			a->peak_ave = s->num[SP_JC_ave_rss_b];
		}
		if (work && (isnan(a->work_peak) || v > a->work_peak)) {
			a->work_peak = v;
			a->work_step = name;
			a->work_node = s->text[SP_JC_max_rss_node];
			a->work_ave = s->num[SP_JC_ave_rss_b];
		}
		if (work && v > limit)
			a->work_over = 1;
	}
	max_to(&a->vmsize, s->num[SP_JC_max_vmsize_b]);
	max_to(&a->pages, s->num[SP_JC_max_pages]);
	max_to(&a->gpu_mem, s->num[SP_JC_gpu_mem_b]);
	max_to(&a->ntasks, s->num[SP_JC_ntasks]);
	max_to(&a->read_max, s->num[SP_JC_read_b]);
	max_to(&a->write_max, s->num[SP_JC_write_b]);
	if (!work)
		return;
	/* A running job's steps read zero until they are sampled. */
	v = s->num[SP_JC_total_cpu_s];
	if (!isnan(v) && !(open && v == 0)) {
		add_to(&a->total, v);
		add_to(&a->user, s->num[SP_JC_user_cpu_s]);
		add_to(&a->sys, s->num[SP_JC_sys_cpu_s]);
	}
	max_to(&a->cpu_den, s->num[SP_JC_cpu_time_s]);
	add_to(&a->read_sum, s->num[SP_JC_read_b]);
	add_to(&a->write_sum, s->num[SP_JC_write_b]);
	max_to(&a->imbalance, s->num[SP_JC_rss_imbalance]);
	max_to(&a->gpu_util, s->num[SP_JC_gpu_util]);
	if (!a->straggler && s->num[SP_JC_ntasks] > 1) {
		a->straggler = 1;
		a->ave_cpu = s->num[SP_JC_ave_cpu_s];
		a->min_cpu = s->num[SP_JC_min_cpu_s];
		a->min_node = s->text[SP_JC_min_cpu_node];
		a->min_task = s->text[SP_JC_min_cpu_task];
	}
	/* The frequency of the step that did the most work. */
	v = nan_max(s->num[SP_JC_total_cpu_s], 0);
	if (!isnan(s->num[SP_JC_ave_cpu_freq_hz]) &&
	    (isnan(a->freq) || v > a->freq_cpu)) {
		a->freq = s->num[SP_JC_ave_cpu_freq_hz];
		a->freq_cpu = v;
	}
}

static void
prefer(double *field, double from_steps)
{
	if (!isnan(from_steps))
		*field = from_steps;
}

/*
 * An allocation's record: its own row, then what its steps say.  CPU is
 * summed over work steps (never .extern); memory peaks are maxima, with
 * the step that reached them (reference-rules.md 1.4 has every rule).
 */
static void
fold(struct sp_sacct *p, const struct sp_slice *av, size_t first,
     size_t nsteps, struct sp_sacct_rec *r)
{
	struct sp_slice sv[SP_SF_COUNT];
	struct sp_sacct_rec sr;
	struct agg a;
	double limit, cpus;
	int open = r->num[SP_JC_open] == 1;
	size_t i;

	array_parts(r->text[SP_JC_jobid], r);
	mem_limits(av, r);
	limit = r->num[SP_JC_mem_limit_node_b];
	agg_init(&a);
	for (i = 0; i < nsteps; i++) {
		view(p, &p->rows[first + i], sv);
		row_measures(sv, &sr);
		agg_step(&a, step_name(sv[SP_SF_JOBID]), &sr, limit, open);
		p->st.steps++;
	}

	if (isnan(r->num[SP_JC_ntasks]))
		r->num[SP_JC_ntasks] = a.ntasks;
	if (!isnan(a.peak)) {
		/*
		 * The extern-phantom rule: a peak over the limit that only
		 * .extern shows, while every work step stayed within it, is
		 * not the job's; the work steps' peak is.
		 */
		if (a.peak > limit && is_extern(a.peak_step) && !a.work_over) {
			a.peak = a.work_peak;
			a.peak_step = a.work_step;
			a.peak_node = a.work_node;
			a.peak_ave = a.work_ave;
		}
		r->num[SP_JC_max_rss_b] = a.peak;
		r->text[SP_JC_max_rss_step] = a.peak_step;
		r->text[SP_JC_max_rss_node] = a.peak_node;
		r->num[SP_JC_ave_rss_b] = a.peak_ave;
	}
	if (!isnan(a.total)) {
		r->num[SP_JC_total_cpu_s] = a.total;
		r->num[SP_JC_user_cpu_s] = a.user;
		r->num[SP_JC_sys_cpu_s] = a.sys;
	} else if (open && r->num[SP_JC_total_cpu_s] == 0) {
		r->num[SP_JC_total_cpu_s] = NAN;
		r->num[SP_JC_user_cpu_s] = NAN;
		r->num[SP_JC_sys_cpu_s] = NAN;
	}
	/* The widest span any row accounts for: the utilisation's denominator. */
	cpus = r->num[SP_JC_alloc_cpus];
	if (isnan(cpus))
		cpus = r->num[SP_JC_req_cpus];
	max_to(&r->num[SP_JC_cpu_time_s], r->num[SP_JC_elapsed_s] * cpus);
	max_to(&r->num[SP_JC_cpu_time_s], a.cpu_den);
	if (!isnan(a.read_sum) || !isnan(a.write_sum)) {
		r->num[SP_JC_read_b] = a.read_sum;
		r->num[SP_JC_write_b] = a.write_sum;
	} else if (!isnan(a.read_max) || !isnan(a.write_max)) {
		r->num[SP_JC_read_b] = a.read_max;
		r->num[SP_JC_write_b] = a.write_max;
	}
	prefer(&r->num[SP_JC_max_vmsize_b], a.vmsize);
	prefer(&r->num[SP_JC_max_pages], a.pages);
	prefer(&r->num[SP_JC_gpu_mem_b], a.gpu_mem);
	prefer(&r->num[SP_JC_gpu_util], a.gpu_util);
	prefer(&r->num[SP_JC_rss_imbalance], a.imbalance);
	prefer(&r->num[SP_JC_ave_cpu_freq_hz], a.freq);
	if (a.straggler) {
		r->num[SP_JC_ave_cpu_s] = a.ave_cpu;
		r->num[SP_JC_min_cpu_s] = a.min_cpu;
		r->text[SP_JC_min_cpu_node] = a.min_node;
		r->text[SP_JC_min_cpu_task] = a.min_task;
	} else if (nsteps > 0 || !(r->num[SP_JC_ntasks] > 1)) {
		r->num[SP_JC_ave_cpu_s] = NAN;
		r->num[SP_JC_min_cpu_s] = NAN;
		r->text[SP_JC_min_cpu_node] = empty_slice;
		r->text[SP_JC_min_cpu_task] = empty_slice;
	}
}

/* A step's own record, with the allocation's identity and limits. */
static void
step_record(const struct sp_slice *sv, const struct sp_sacct_rec *alloc,
	    struct sp_sacct_rec *r)
{
	static const int inherit[] = { SP_JC_user, SP_JC_account,
		SP_JC_partition, SP_JC_qos, SP_JC_cluster };
	size_t i;

	row_values(sv, r);
	r->text[SP_JC_step] = step_name(sv[SP_SF_JOBID]);
	r->text[SP_JC_jobid] = alloc->text[SP_JC_jobid];
	r->text[SP_JC_jobid_raw] = alloc->text[SP_JC_jobid_raw];
	r->text[SP_JC_array_job] = alloc->text[SP_JC_array_job];
	r->text[SP_JC_array_task] = alloc->text[SP_JC_array_task];
	r->num[SP_JC_attempt] = alloc->num[SP_JC_attempt];
	for (i = 0; i < sizeof inherit / sizeof inherit[0]; i++)
		if (r->text[inherit[i]].n == 0)
			r->text[inherit[i]] = alloc->text[inherit[i]];
	if (isnan(r->num[SP_JC_uid]))
		r->num[SP_JC_uid] = alloc->num[SP_JC_uid];
	r->num[SP_JC_mem_limit_node_b] = alloc->num[SP_JC_mem_limit_node_b];
	r->num[SP_JC_mem_limit_total_b] = alloc->num[SP_JC_mem_limit_total_b];
	if (!isnan(r->num[SP_JC_max_rss_b]))
		r->text[SP_JC_max_rss_step] = r->text[SP_JC_step];
}

/* ------------------------------------------------------------- groups */

static int
submit_cmp(const struct sp_sacct *p, const struct sp_sacct_row *a,
	   const struct sp_sacct_row *b)
{
	struct sp_slice x = known_time(span(p, a->f[SP_SF_SUBMIT]));
	struct sp_slice y = known_time(span(p, b->f[SP_SF_SUBMIT]));

	/* ISO timestamps of one width order as text; unknown keeps its place. */
	if (x.n == 0 || y.n == 0)
		return 0;
	return memcmp(x.p, y.p, x.n);
}

/* An attempt that ended so may have another after it (sacct -D). */
static const char *const requeue_states[] = {
	"REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "NODE_FAIL", "PREEMPTED",
	"BOOT_FAIL", NULL
};

static void
ident_key(const struct sp_sacct *p, const struct sp_sacct_row *r,
	  struct sp_buf *b)
{
	struct sp_slice c = span(p, r->f[SP_SF_CLUSTER]);
	struct sp_slice u = span(p, r->f[SP_SF_UID]);
	struct sp_slice n = span(p, r->f[SP_SF_USER]);

	sp_buf_clear(b);
	sp_buf_add(b, c.p, c.n);
	sp_buf_addc(b, 0x1f);
	sp_buf_add(b, u.p, u.n);
	sp_buf_addc(b, 0x1f);
	sp_buf_add(b, n.p, n.n);
}

/* stranger() over two identity keys. */
static int
key_stranger(const char *a, const char *b)
{
	while (*a || *b) {
		size_t x = strcspn(a, "\x1f"), y = strcspn(b, "\x1f");

		if (x > 0 && y > 0 && (x != y || memcmp(a, b, x) != 0))
			return 1;
		a += x + (a[x] != '\0');
		b += y + (b[y] != '\0');
	}
	return 0;
}

/*
 * The attempts of this group's job seen in earlier groups: sacct -D
 * prints a requeued job's next attempt after everything submitted in
 * between.  *slot is the job's slot, or -1.
 */
static size_t
earlier_attempts(struct sp_sacct *p, const struct sp_sacct_row *first,
		 struct sp_buf *key, long *slot)
{
	struct sp_slice id = span(p, first->f[SP_SF_JOBID]);

	*slot = p->req_ids.n ? sp_intern_find(&p->req_ids, id.p, id.n) : -1;
	if (*slot < 0 || p->req[*slot].attempts == 0)
		return 0;
	ident_key(p, first, key);
	if (key_stranger(sp_buf_str(key),
	    sp_intern_str(&p->req_idents, p->req[*slot].ident)))
		return 0;
	return p->req[*slot].attempts;
}

/* After a group: remember the job when another attempt may follow. */
static void
remember_attempts(struct sp_sacct *p, const struct sp_sacct_row *last,
		  size_t attempts, struct sp_buf *key, long slot)
{
	struct sp_slice st, by, id = span(p, last->f[SP_SF_JOBID]);
	size_t i;

	sp_sacct_state(known_text(span(p, last->f[SP_SF_STATE])), &st, &by);
	if (st.n == 0 || !in_list(st, requeue_states)) {
		if (slot >= 0)
			p->req[slot].attempts = 0;
		return;
	}
	i = sp_intern(&p->req_ids, id.p, id.n);
	if (i >= p->reqcap) {
		size_t old = p->reqcap;

		p->req = sp_xgrow(p->req, &p->reqcap, i + 1, sizeof *p->req);
		memset(p->req + old, 0, (p->reqcap - old) * sizeof *p->req);
	}
	ident_key(p, last, key);
	p->req[i].attempts = attempts;
	p->req[i].ident = sp_intern(&p->req_idents, key->p, key->len);
}

/*
 * Writes the group held in rows[0..nrows): attempts in Submit order
 * (print order where Submit does not decide), each followed by its steps
 * with --steps.  An attempt one of whose rows was dropped is left out.
 */
static void
emit_group(struct sp_sacct *p)
{
	struct sp_slice av[SP_SF_COUNT], sv[SP_SF_COUNT];
	struct sp_sacct_rec sr;
	struct sp_buf key = { 0 };
	size_t *att, natt = 0, i, j, k, end, base;
	size_t stack_att[8];
	long slot;

	if (p->nrows == 0)
		return;
	for (i = 0; i < p->nrows; i++)
		if (!p->rows[i].is_step)
			natt++;
	att = natt <= 8 ? stack_att : sp_xmalloc(natt * sizeof *att);
	for (i = 0, k = 0; i < p->nrows; i++) {
		if (p->rows[i].is_step)
			continue;
		/* Stable insertion by Submit. */
		for (j = k; j > 0 && submit_cmp(p, &p->rows[att[j - 1]],
		    &p->rows[i]) > 0; j--)
			att[j] = att[j - 1];
		att[j] = i;
		k++;
	}
	base = earlier_attempts(p, &p->rows[att[0]], &key, &slot);
	for (k = 0; k < natt; k++) {
		size_t a = att[k];

		for (end = a + 1; end < p->nrows && p->rows[end].is_step; end++)
			;
		if (p->rows[a].damaged) {
			p->st.damaged++;
			continue;
		}
		view(p, &p->rows[a], av);
		row_values(av, &p->rec);
		p->rec.num[SP_JC_attempt] = (double)(base + k);
		fold(p, av, a + 1, end - a - 1, &p->rec);
		p->st.allocations++;
		p->cfg.emit(p->cfg.ctx, &p->rec);
		if (!p->cfg.steps)
			continue;
		for (j = a + 1; j < end; j++) {
			view(p, &p->rows[j], sv);
			step_record(sv, &p->rec, &sr);
			p->cfg.emit(p->cfg.ctx, &sr);
		}
	}
	if (!p->rows[att[natt - 1]].damaged)
		remember_attempts(p, &p->rows[att[natt - 1]], base + natt, &key,
		    slot);
	sp_buf_free(&key);
	if (att != stack_att)
		free(att);
}

/*
 * Writes the group and forgets it, keeping the arena's text from keep
 * on (the row that starts the next group) at the arena's start.
 */
static void
flush_group(struct sp_sacct *p, size_t keep)
{
	size_t tail;

	emit_group(p);
	p->nrows = 0;
	tail = p->arena.len - keep;
	if (keep > 0 && tail > 0)
		memmove(p->arena.p, p->arena.p + keep, tail);
	p->arena.len = tail;
	if (p->arena.p)
		p->arena.p[tail] = '\0';
	if (p->row_start >= keep)
		p->row_start -= keep;
	for (size_t i = 0; i < p->npos; i++)
		if (p->pos[i].len)
			p->pos[i].off -= keep;
}

/*
 * The identity check: a recycled id.  Two rows of one id are different
 * jobs when their cluster, uid or user differ, each compared only where
 * both rows have it (a counter reset on one cluster gives the id to
 * another user on the same cluster).
 */
static int
stranger(const struct sp_sacct *p, const struct sp_sacct_row *a,
	 const struct sp_sacct_row *b)
{
	static const int who[] = { SP_SF_CLUSTER, SP_SF_UID, SP_SF_USER };
	size_t i;

	for (i = 0; i < sizeof who / sizeof who[0]; i++) {
		struct sp_slice x = span(p, a->f[who[i]]);
		struct sp_slice y = span(p, b->f[who[i]]);

		if (x.n > 0 && y.n > 0 && !eq(x, y))
			return 1;
	}
	return 0;
}

static void
truncate_arena(struct sp_sacct *p, size_t to)
{
	p->arena.len = to;
	if (p->arena.p)
		p->arena.p[to] = '\0';
}

static struct sp_sacct_span
pos_span(const struct sp_sacct *p, int col)
{
	static const struct sp_sacct_span none = { 0, 0 };

	return col >= 0 && (size_t)col < p->npos ? p->pos[col] : none;
}

/*
 * A complete row sits at the arena's tail, its fields in pos[].  Decide
 * what it is and keep it in the group, start a new group, or drop it.
 */
static void
row_done(struct sp_sacct *p)
{
	struct sp_sacct_row *r, *last = NULL;
	struct sp_sacct_span js = pos_span(p, p->jobid_pos);
	struct sp_slice id = span(p, js), parent, gid;
	const char *dot;
	int damaged, is_step;
	size_t i;

	p->st.rows++;
	if (same_ci(id.p, id.n, "JobID")) {
		p->st.headers++;
		truncate_arena(p, p->row_start);
		return;
	}
	if (id.n == 0 || !is_digit((unsigned char)id.p[0])) {
		p->st.stray++;
		truncate_arena(p, p->row_start);
		return;
	}
	damaged = p->npos != p->ncols;
	/* The record format has no escape for NUL: such a row is dropped. */
	if (memchr(p->arena.p + p->row_start, '\0',
	    p->arena.len - p->row_start) != NULL) {
		damaged = 1;
		p->st.nul_rows++;
	} else if (p->npos > p->ncols)
		p->st.shifted++;
	else if (damaged)
		p->st.short_rows++;
	dot = memchr(id.p, '.', id.n);
	is_step = dot != NULL;
	parent = is_step ? sl(id.p, (size_t)(dot - id.p)) : id;
	for (i = p->nrows; i > 0; i--)
		if (!p->rows[i - 1].is_step) {
			last = &p->rows[i - 1];
			break;
		}
	gid = p->nrows ? span(p, p->rows[0].f[SP_SF_JOBID]) : empty_slice;
	if (is_step) {
		if (last == NULL || !eq(gid, parent)) {
			p->st.orphans++;
			if (damaged)
				p->st.damaged++;
			truncate_arena(p, p->row_start);
			return;
		}
		if (damaged) {
			/* Its allocation's totals would lack this step. */
			last->damaged = 1;
			truncate_arena(p, p->row_start);
			return;
		}
	} else if (p->nrows > 0) {
		struct sp_sacct_row tmp;

		memset(&tmp, 0, sizeof tmp);
		for (i = 0; i < p->ncols && i < p->npos; i++)
			if (p->colmap[i] >= 0)
				tmp.f[p->colmap[i]] = p->pos[i];
		if (!eq(gid, id) || (!damaged && !last->damaged &&
		    stranger(p, last, &tmp)))
			flush_group(p, p->row_start);
	}
	p->rows = sp_xgrow(p->rows, &p->rowcap, p->nrows + 1, sizeof *p->rows);
	r = &p->rows[p->nrows++];
	memset(r, 0, sizeof *r);
	r->start = p->row_start;
	r->is_step = (unsigned char)is_step;
	r->damaged = (unsigned char)damaged;
	if (damaged) {
		r->f[SP_SF_JOBID] = pos_span(p, p->jobid_pos);
		return;
	}
	for (i = 0; i < p->ncols; i++)
		if (p->colmap[i] >= 0)
			r->f[p->colmap[i]] = p->pos[i];
}

/* ------------------------------------------------------------- columns */

static void
add_pos(struct sp_sacct *p, size_t off, size_t len)
{
	if (p->npos == p->poscap)
		p->pos = sp_xgrow(p->pos, &p->poscap, p->npos + 1,
		    sizeof *p->pos);
	p->pos[p->npos].off = off;
	p->pos[p->npos].len = len;
	p->npos++;
}

/* Names the columns: "JobID,State" from --fields, or a header's words. */
static int
set_columns(struct sp_sacct *p, const char *names, size_t n, int sep)
{
	size_t i = 0, j;
	int col = 0, id;

	p->ncols = 0;
	p->jobid_pos = -1;
	memset(p->have, 0, sizeof p->have);
	while (i <= n) {
		for (j = i; j < n && names[j] != sep; j++)
			;
		id = sp_sacct_field_id(names + i, j - i);
		p->colmap = sp_xgrow(p->colmap, &p->colcap, p->ncols + 1,
		    sizeof *p->colmap);
		/* A field named twice is read from its first place. */
		if (id >= 0 && p->have[id])
			id = -1;
		p->colmap[p->ncols++] = id;
		if (id >= 0)
			p->have[id] = 1;
		if (id == SP_SF_JOBID)
			p->jobid_pos = col;
		col++;
		i = j + 1;
	}
	if (p->jobid_pos < 0) {
		if (p->cfg.fields != NULL)
			sp_buf_adds(&p->err, "--fields names no JobID");
		else
			sp_buf_adds(&p->err, "the first line is not a sacct "
			    "header (it names no JobID); give the fields with "
			    "--fields");
		p->failed = 1;
		return -1;
	}
	p->have_cols = 1;
	return 0;
}

/* ------------------------------------------------------- physical lines */

/*
 * The field at input position k of a line: 1 with *out set, 0 when the
 * line has fewer fields.  *delimited says whether the line holds the
 * delimiter at all.
 */
static int
line_field(const struct sp_sacct *p, const char *s, size_t n, int k,
	   struct sp_slice *out, int *delimited)
{
	const char *end = s + n, *e;
	int i;

	for (i = 0; i < k; i++) {
		const char *d = memchr(s, p->delim, (size_t)(end - s));

		if (d == NULL)
			return 0;
		s = d + 1;
	}
	e = memchr(s, p->delim, (size_t)(end - s));
	*out = sl(s, e ? (size_t)(e - s) : (size_t)(end - s));
	*delimited = k > 0 || e != NULL;
	return 1;
}

/*
 * The record-start rule: a line starts a record only when its JobID
 * field starts with a digit and holds no white space, and (with more
 * than one column) it holds the delimiter.  Anything else continues the
 * row before it: a newline inside a field (a multi-line SubmitLine).
 */
static int
starts_record(const struct sp_sacct *p, struct sp_slice id, int delimited)
{
	size_t i;

	if (id.n == 0 || !is_digit((unsigned char)id.p[0]))
		return 0;
	for (i = 0; i < id.n; i++)
		if (is_space((unsigned char)id.p[i]))
			return 0;
	return p->ncols < 2 || delimited;
}

static void
split_row(struct sp_sacct *p)
{
	const char *base = p->arena.p;
	size_t i, start = p->row_start, end = p->arena.len;
	char d = (char)p->delim;

	/* sacct rows are mostly short and empty fields: see sp_scan.h. */
	p->npos = 0;
	for (i = start; i + SP_SCAN_WIDTH <= end; i += SP_SCAN_WIDTH) {
		unsigned m = sp_scan_mask2(base + i, d, d);

		while (m != 0) {
			size_t j = i + sp_scan_first(m);

			m &= m - 1;
			add_pos(p, start, j - start);
			start = j + 1;
		}
	}
	for (; i < end; i++)
		if (base[i] == d) {
			add_pos(p, start, i - start);
			start = i + 1;
		}
	add_pos(p, start, end - start);
}

static void
commit_pending(struct sp_sacct *p)
{
	if (!p->pending)
		return;
	p->pending = 0;
	p->held_blank = 0;
	split_row(p);
	row_done(p);
}

static int
text_line(struct sp_sacct *p, const char *s, size_t n)
{
	struct sp_slice id;
	int delimited;

	if (n > 0 && s[n - 1] == '\r')
		n--;
	if (!p->have_cols) {
		if (n == 0)
			return 0;
		return set_columns(p, s, n, p->delim);
	}
	if (line_field(p, s, n, p->jobid_pos, &id, &delimited)) {
		if (same_ci(id.p, id.n, "JobID")) {
			commit_pending(p);
			p->st.headers++;
			return 0;
		}
		if (starts_record(p, id, delimited)) {
			commit_pending(p);
			p->row_start = p->arena.len;
			sp_buf_add(&p->arena, s, n);
			p->pending = 1;
			return 0;
		}
	}
	if (!p->pending) {
		if (n > 0)
			p->st.stray++;
		return 0;
	}
	/* Blank lines count only once text follows them in the same row. */
	if (n == 0) {
		p->held_blank++;
		return 0;
	}
	for (; p->held_blank > 0; p->held_blank--)
		sp_buf_addc(&p->arena, '\n');
	sp_buf_addc(&p->arena, '\n');
	sp_buf_add(&p->arena, s, n);
	p->st.continued++;
	return 0;
}

static int
text_feed(struct sp_sacct *p, const char *buf, size_t n)
{
	const char *end = buf + n;

	while (buf < end) {
		const char *nl = memchr(buf, '\n', (size_t)(end - buf));
		int rc;

		if (nl == NULL) {
			sp_buf_add(&p->partial, buf, (size_t)(end - buf));
			return 0;
		}
		if (p->partial.len > 0) {
			sp_buf_add(&p->partial, buf, (size_t)(nl - buf));
			rc = text_line(p, p->partial.p, p->partial.len);
			sp_buf_clear(&p->partial);
		} else
			rc = text_line(p, buf, (size_t)(nl - buf));
		if (rc != 0)
			return -1;
		buf = nl + 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ CSV */

static void
csv_field(void *s, size_t n, void *data)
{
	struct sp_sacct *p = data;

	if (p->failed)
		return;
	if (!p->csv_row_open) {
		p->csv_row_open = 1;
		p->npos = 0;
		p->row_start = p->arena.len;
	}
	add_pos(p, p->arena.len, n);
	sp_buf_add(&p->arena, s ? s : "", n);
}

static void
csv_row(int c, void *data)
{
	struct sp_sacct *p = data;
	struct sp_buf names = { 0 };
	size_t i;

	(void)c;
	if (p->failed || !p->csv_row_open)
		return;
	p->csv_row_open = 0;
	if (!p->have_cols) {
		/* The header row: rejoin its names with a byte names never hold. */
		for (i = 0; i < p->npos; i++) {
			if (i)
				sp_buf_addc(&names, '\n');
			sp_buf_add(&names, p->arena.p + p->pos[i].off,
			    p->pos[i].len);
		}
		set_columns(p, sp_buf_str(&names), names.len, '\n');
		sp_buf_free(&names);
		truncate_arena(p, p->row_start);
		return;
	}
	row_done(p);
}

static int
csv_feed(struct sp_sacct *p, const char *buf, size_t n)
{
	struct csv_parser *c = p->csv;

	if (csv_parse(c, buf, n, csv_field, csv_row, p) != n) {
		sp_buf_printf(&p->err, "CSV: %s", csv_strerror(csv_error(c)));
		p->failed = 1;
	}
	return p->failed ? -1 : 0;
}

/* ------------------------------------------------------------ the API */

void
sp_sacct_init(struct sp_sacct *p, const struct sp_sacct_config *cfg)
{
	memset(p, 0, sizeof *p);
	p->cfg = *cfg;
	p->delim = cfg->delim;
	p->jobid_pos = -1;
}

/* Picks the delimiter from the first line: 0x1F, '|', else CSV. */
static void
choose_delim(struct sp_sacct *p, const char *s, size_t n)
{
	if (memchr(s, 0x1f, n))
		p->delim = 0x1f;
	else if (memchr(s, '|', n))
		p->delim = '|';
	else if (memchr(s, ',', n))
		p->delim = SP_SACCT_CSV;
	else
		p->delim = '|';
}

static int
start(struct sp_sacct *p)
{
	p->started = 1;
	if (p->cfg.fields != NULL && set_columns(p, p->cfg.fields,
	    strlen(p->cfg.fields), ',') != 0)
		return -1;
	if (p->delim == SP_SACCT_CSV) {
		p->csv = sp_xmalloc(sizeof(struct csv_parser));
		csv_init(p->csv, CSV_APPEND_NULL);
	}
	return 0;
}

static int
feed_started(struct sp_sacct *p, const char *buf, size_t n)
{
	if (p->failed)
		return -1;
	return p->delim == SP_SACCT_CSV ? csv_feed(p, buf, n) :
	    text_feed(p, buf, n);
}

int
sp_sacct_feed(struct sp_sacct *p, const char *buf, size_t n)
{
	struct sp_buf first;
	const char *nl, *s;
	size_t len;
	int rc;

	if (p->failed)
		return -1;
	if (p->started)
		return feed_started(p, buf, n);
	if (p->delim != SP_SACCT_DETECT) {
		if (start(p) != 0)
			return -1;
		return feed_started(p, buf, n);
	}
	/* Detecting: hold bytes until the first line is whole. */
	nl = memchr(buf, '\n', n);
	if (nl == NULL) {
		sp_buf_add(&p->partial, buf, n);
		return 0;
	}
	sp_buf_add(&p->partial, buf, (size_t)(nl - buf) + 1);
	first = p->partial;
	memset(&p->partial, 0, sizeof p->partial);
	s = first.p;
	len = first.len;
	if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		s += 3;
		len -= 3;
	}
	choose_delim(p, s, len);
	rc = start(p);
	if (rc == 0)
		rc = feed_started(p, s, len);
	sp_buf_free(&first);
	if (rc == 0)
		rc = feed_started(p, nl + 1, n - (size_t)(nl - buf) - 1);
	return rc;
}

int
sp_sacct_finish(struct sp_sacct *p)
{
	if (p->failed)
		return -1;
	if (!p->started && p->partial.len > 0) {
		/* One line and no newline: detect on it. */
		if (sp_sacct_feed(p, "\n", 1) != 0)
			return -1;
	}
	if (!p->started && start(p) != 0)
		return -1;
	if (p->delim == SP_SACCT_CSV) {
		csv_fini(p->csv, csv_field, csv_row, p);
	} else if (p->partial.len > 0) {
		text_line(p, p->partial.p, p->partial.len);
		sp_buf_clear(&p->partial);
	}
	if (p->failed)
		return -1;
	commit_pending(p);
	flush_group(p, p->arena.len);
	return 0;
}

void
sp_sacct_abandon(struct sp_sacct *p)
{
	p->pending = 0;
	p->nrows = 0;
	truncate_arena(p, 0);
	sp_buf_clear(&p->partial);
}

void
sp_sacct_free(struct sp_sacct *p)
{
	if (p->csv) {
		csv_free(p->csv);
		free(p->csv);
	}
	free(p->colmap);
	free(p->pos);
	free(p->rows);
	free(p->req);
	sp_intern_free(&p->req_ids);
	sp_intern_free(&p->req_idents);
	sp_buf_free(&p->arena);
	sp_buf_free(&p->partial);
	sp_buf_free(&p->err);
	memset(p, 0, sizeof *p);
}
