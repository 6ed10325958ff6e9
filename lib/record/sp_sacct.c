/*
 * sp_sacct.c - sacct's record, read the way real clusters print it.
 *
 * Three layers, bottom up:
 *   lines -> rows   a row is one physical line, plus the lines after it
 *                   that cannot start a record (a newline inside a field);
 *   rows  -> groups the adjacent rows of one job id and one identity: its
 *                   allocation rows (attempts under sacct -D) and steps;
 *   group -> records every attempt folded with its steps, in Submit order
 *                   (sp_sacct_fold.c).
 * The text of a group lives in one arena; rows keep offsets into it.
 */
#include <stdlib.h>
#include <string.h>
#include <csv.h>

#include "sp_sacct_int.h"
#include "sp_scan.h"

/* ------------------------------------------------------------ the rows */

/*
 * A row keeps its fields as read, by input position (rowspans[at ..
 * at + n)); the columns' map finds a field (sfpos).  Of a dropped row only
 * its JobID is ever read.
 */
struct sp_sacct_row {
	size_t at, n;
	size_t start;
	unsigned char is_step;
	unsigned char damaged;		/* the row was dropped */
	unsigned char lost_step;	/* an allocation one of whose steps was */
};

static const struct sp_sacct_span no_span = { 0, 0 };

/* A field of a row, where the row has it. */
static struct sp_sacct_span
rowf(const struct sp_sacct *p, const struct sp_sacct_row *r, int sf)
{
	int k = r->damaged ? (sf == SP_SF_JOBID ? p->jobid_pos : -1) :
	    p->sfpos[sf];

	return k >= 0 && (size_t)k < r->n ? p->rowspans[r->at + (size_t)k] :
	    no_span;
}

/*
 * A row's fields as slices into the arena (valid until it grows).  Every
 * row is viewed, with dozens of fields the input may not have: each
 * field is set once, those the input has without a test of their length
 * (an empty one is an empty slice into the arena) nor of the row's when
 * the row is long enough for them all.
 */
/* The fields sf[0..nf) at input positions pos[] of a row, as slices;
 * last is the greatest position. */
static void
view_fields(const struct sp_sacct *p, const struct sp_sacct_row *r,
	    struct sp_slice *v, const int *sf, const int *pos, int nf,
	    size_t last)
{
	/* Locals: a store into v could otherwise alias p, and be reread. */
	const char *base = p->arena.p;
	const struct sp_sacct_span *f = p->rowspans + r->at;
	size_t n = r->n;
	int i;

	if (n <= last) {
		for (i = 0; i < nf; i++)
			v[sf[i]] = (size_t)pos[i] < n ?
			    sl(base + f[pos[i]].off, f[pos[i]].len) :
			    empty_slice;
		return;
	}
	for (i = 0; i < nf; i++)
		v[sf[i]] = sl(base + f[pos[i]].off, f[pos[i]].len);
}

static void
view(const struct sp_sacct *p, const struct sp_sacct_row *r,
     struct sp_slice *v)
{
	const int *none = p->unnamed_sf;
	int i, nnone = p->nunnamed;

	for (i = 0; i < nnone; i++)
		v[none[i]] = empty_slice;
	view_fields(p, r, v, p->named_sf, p->named_pos, p->nnamed,
	    p->named_last);
}

/* The fields named and not, in sp_sf order, for view(); those of them a
 * step is read for, for view_step(). */
static void
name_fields(struct sp_sacct *p)
{
	int i;

	p->nnamed = 0;
	p->nunnamed = 0;
	p->named_last = 0;
	for (i = 0; i < SP_SF_COUNT; i++) {
		if (p->sfpos[i] < 0) {
			p->unnamed_sf[p->nunnamed++] = i;
			continue;
		}
		p->named_sf[p->nnamed] = i;
		p->named_pos[p->nnamed++] = p->sfpos[i];
		if ((size_t)p->sfpos[i] > p->named_last)
			p->named_last = (size_t)p->sfpos[i];
	}
	p->nstep = 0;
	p->step_last = 0;
	for (i = 0; sp_sacct_measured[i] != SP_SF_NONE; i++) {
		int k = p->sfpos[sp_sacct_measured[i]];

		if (k < 0)
			continue;
		p->step_sf[p->nstep] = sp_sacct_measured[i];
		p->step_pos[p->nstep++] = k;
		if ((size_t)k > p->step_last)
			p->step_last = (size_t)k;
	}
}

static struct sp_slice
span(const struct sp_sacct *p, struct sp_sacct_span s)
{
	return s.len ? sl(p->arena.p + s.off, s.len) : empty_slice;
}


void
sp_sacct_view(const struct sp_sacct *p, size_t i, struct sp_slice *v)
{
	view(p, &p->rows[i], v);
}

static void
view_step(const struct sp_sacct *p, size_t i, struct sp_slice *v)
{
	view_fields(p, &p->rows[i], v, p->step_sf, p->step_pos, p->nstep,
	    p->step_last);
}

/* ------------------------------------------------------------- groups */

static int
submit_cmp(const struct sp_sacct *p, const struct sp_sacct_row *a,
	   const struct sp_sacct_row *b)
{
	struct sp_slice x = known_time(span(p, rowf(p, a, SP_SF_SUBMIT)));
	struct sp_slice y = known_time(span(p, rowf(p, b, SP_SF_SUBMIT)));

	/* ISO timestamps of one width order as text; unknown keeps its place. */
	if (x.n == 0 || y.n == 0)
		return 0;
	return memcmp(x.p, y.p, x.n);
}

static void
ident_key(const struct sp_sacct *p, const struct sp_sacct_row *r,
	  struct sp_buf *b)
{
	struct sp_slice c = span(p, rowf(p, r, SP_SF_CLUSTER));
	struct sp_slice u = span(p, rowf(p, r, SP_SF_UID));
	struct sp_slice n = span(p, rowf(p, r, SP_SF_USER));

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
	struct sp_slice id = span(p, rowf(p, first, SP_SF_JOBID));

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
	struct sp_slice st, by, id = span(p, rowf(p, last, SP_SF_JOBID));
	size_t i;

	sp_sacct_state(known_text(span(p, rowf(p, last, SP_SF_STATE))), &st,
	    &by);
	if (!sp_sacct_state_requeues(st)) {
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

/* For a reader of a part of the input: see struct sp_sacct_group. */
static void
say_group(struct sp_sacct *p, const struct sp_sacct_row *first,
	  const struct sp_sacct_row *last, size_t base, size_t natt)
{
	struct sp_sacct_group g;
	struct sp_buf a = { 0 }, b = { 0 };
	struct sp_slice st, by;

	ident_key(p, first, &a);
	ident_key(p, last, &b);
	g.id = span(p, rowf(p, first, SP_SF_JOBID));
	g.ident = sl(a.p, a.len);
	g.base = base;
	g.attempts = natt;
	g.remembers = !last->damaged;
	sp_sacct_state(known_text(span(p, rowf(p, last, SP_SF_STATE))), &st,
	    &by);
	g.requeues = sp_sacct_state_requeues(st);
	g.last_ident = sl(b.p, b.len);
	p->cfg.group(p->cfg.ctx, &g);
	sp_buf_free(&a);
	sp_buf_free(&b);
}

/* A record in a state slurmpast does not know: counted, its name kept. */
static void
odd_state(struct sp_sacct *p, struct sp_slice state)
{
	if (state.n == 0 || sp_sacct_state_known(state))
		return;
	p->st.unknown_states++;
	sp_intern(&p->odd_states, state.p, state.n);
}

/*
 * Writes the group held in rows[0..nrows): attempts in Submit order
 * (print order where Submit does not decide), each followed by its steps
 * with --steps.  An attempt whose allocation row was dropped is left
 * out; one that lost a step row takes its step figures from its own row
 * alone (a sum or a peak without that step would be another number).
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
	if (p->cfg.group != NULL)
		say_group(p, &p->rows[att[0]], &p->rows[att[natt - 1]], base,
		    natt);
	for (k = 0; k < natt; k++) {
		size_t a = att[k];

		for (end = a + 1; end < p->nrows && p->rows[end].is_step; end++)
			;
		if (p->rows[a].damaged) {
			p->st.damaged++;
			continue;
		}
		view(p, &p->rows[a], av);
		sp_sacct_row_values(av, &p->rec);
		p->rec.num[SP_JC_attempt] = (double)(base + k);
		if (p->rows[a].lost_step)
			p->st.partial++;
		sp_sacct_fold(p, view_step, av, a + 1,
		    p->rows[a].lost_step ? 0 : end - a - 1, &p->rec);
		odd_state(p, p->rec.text[SP_JC_state]);
		if (p->rec.cpu_from & SP_CPU_FROM_TRES)
			p->st.cpu_tres++;
		else if (p->rec.cpu_from & SP_CPU_FROM_USERSYS)
			p->st.cpu_usersys++;
		p->st.mem_update += (unsigned long)p->rec.mem_update;
		p->st.allocations++;
		p->cfg.emit(p->cfg.ctx, &p->rec);
		if (!p->cfg.steps)
			continue;
		for (j = a + 1; j < end; j++) {
			view(p, &p->rows[j], sv);
			sp_sacct_step_record(sv, &p->rec, &sr);
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
	p->nrowspans = 0;
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

static struct sp_sacct_span
pos_span(const struct sp_sacct *p, int col)
{
	static const struct sp_sacct_span none = { 0, 0 };

	return col >= 0 && (size_t)col < p->npos ? p->pos[col] : none;
}

/*
 * The identity check: a recycled id.  Two rows of one id are different
 * jobs when their cluster, uid or user differ, each compared only where
 * both rows have it (a counter reset on one cluster gives the id to
 * another user on the same cluster).
 */
static int
stranger(const struct sp_sacct *p, const struct sp_sacct_row *a)
{
	static const int who[] = { SP_SF_CLUSTER, SP_SF_UID, SP_SF_USER };
	size_t i;

	for (i = 0; i < sizeof who / sizeof who[0]; i++) {
		struct sp_slice x = span(p, rowf(p, a, who[i]));
		struct sp_slice y = span(p, pos_span(p, p->sfpos[who[i]]));

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


/*
 * A row with k fields more than named, placed with the extra ones in
 * the free-text field at input position h: 1 when that field, and every
 * other one where it then falls, reads as what sacct prints there.
 */
static int
placement_fits(const struct sp_sacct *p, size_t h, size_t k)
{
	struct sp_sacct_span joined;
	size_t c;

	joined.off = p->pos[h].off;
	joined.len = p->pos[h + k].off + p->pos[h + k].len - joined.off;
	if (!sp_sacct_kind_fits(p->colkind[h], span(p, joined)))
		return 0;
	/* A path holding the delimiter is rare; one with a blank too, no
	 * path sacct printed: that is a command line spilled into it. */
	if (p->colkind[h] == SP_SACCT_K_PATH &&
	    sp_sacct_kind_fits(SP_SACCT_K_WORD, span(p, joined)) == 0)
		return 0;
	for (c = 0; c < p->ncols; c++)
		if (c != h && !sp_sacct_kind_fits(p->colkind[c],
		    span(p, p->pos[c < h ? c : c + k])))
			return 0;
	return 1;
}

/*
 * A row the delimiter inside one value split into more fields than
 * named (a '|' in a command line under sacct -P): put back together
 * when exactly one free-text field can have held the extra fields.
 * Returns 0 with pos[] rejoined, or -1 (none can, or more than one).
 */
static int
rejoin(struct sp_sacct *p)
{
	size_t k = p->npos - p->ncols, h, host = 0, hosts = 0, c;

	/* A CSV field is whole already: its extra fields are real ones. */
	if (p->delim == SP_SACCT_CSV || p->ncols == 0)
		return -1;
	for (h = 0; h < p->ncols && hosts < 2; h++)
		if (sp_sacct_kind_holds_text(p->colkind[h]) &&
		    placement_fits(p, h, k)) {
			host = h;
			hosts++;
		}
	if (hosts != 1)
		return -1;
	p->pos[host].len = p->pos[host + k].off + p->pos[host + k].len -
	    p->pos[host].off;
	for (c = host + 1; c < p->ncols; c++)
		p->pos[c] = p->pos[c + k];
	p->npos = p->ncols;
	p->rejoined_at[host]++;
	p->st.rejoined++;
	return 0;
}

/*
 * A row's shape against the named fields: 1 when it must be dropped
 * (counted here).  Over-long rows are rejoined where they can be; a row
 * short of trailing fields is read with those fields unknown, as nothing
 * before them can have moved.
 */
static int
row_dropped(struct sp_sacct *p)
{
	/* The record format has no escape for NUL: such a row is dropped. */
	if (p->row_nul) {
		p->st.nul_rows++;
		return 1;
	}
	if (p->npos > p->ncols) {
		if (rejoin(p) == 0)
			return 0;
		p->st.shifted++;
		return 1;
	}
	if (p->npos < p->ncols) {
		if (p->st.short_rows == 0 || p->npos < p->st.short_fewest)
			p->st.short_fewest = p->npos;
		if (p->npos > p->st.short_most)
			p->st.short_most = p->npos;
		p->st.short_rows++;
	}
	return 0;
}

/*
 * A complete row sits at the arena's tail, its fields in pos[].  Decide
 * what it is and keep it in the group, start a new group, or drop it.
 */
static void
row_done(struct sp_sacct *p)
{
	struct sp_sacct_row *r, *last = NULL;
	struct sp_slice id, parent, gid;
	const char *dot;
	int damaged, is_step;
	size_t i;

	p->st.rows++;
	id = span(p, pos_span(p, p->jobid_pos));
	if (sp_sacct_same_ci(id.p, id.n, "JobID")) {
		p->st.headers++;
		truncate_arena(p, p->row_start);
		return;
	}
	if (id.n == 0 || !is_digit((unsigned char)id.p[0])) {
		p->st.stray++;
		truncate_arena(p, p->row_start);
		return;
	}
	damaged = row_dropped(p);
	/* A rejoined row may have moved JobID back to its place. */
	id = span(p, pos_span(p, p->jobid_pos));
	dot = memchr(id.p, '.', id.n);
	is_step = dot != NULL;
	parent = is_step ? sl(id.p, (size_t)(dot - id.p)) : id;
	for (i = p->nrows; i > 0; i--)
		if (!p->rows[i - 1].is_step) {
			last = &p->rows[i - 1];
			break;
		}
	gid = p->nrows ? span(p, rowf(p, &p->rows[0], SP_SF_JOBID)) :
	    empty_slice;
	if (is_step) {
		if (last == NULL || !eq(gid, parent)) {
			p->st.orphans++;
			truncate_arena(p, p->row_start);
			return;
		}
		if (damaged) {
			/* Its allocation's totals would lack this step. */
			if (!last->damaged) {
				p->st.lost_steps++;
				last->lost_step = 1;
			}
			truncate_arena(p, p->row_start);
			return;
		}
	} else if (p->nrows > 0) {
		if (!eq(gid, id) || (!damaged && !last->damaged &&
		    stranger(p, last)))
			flush_group(p, p->row_start);
	}
	p->rows = sp_xgrow(p->rows, &p->rowcap, p->nrows + 1, sizeof *p->rows);
	r = &p->rows[p->nrows++];
	r->start = p->row_start;
	r->is_step = (unsigned char)is_step;
	r->damaged = (unsigned char)damaged;
	r->lost_step = 0;
	r->at = p->nrowspans;
	r->n = p->npos;
	p->rowspans = sp_xgrow(p->rowspans, &p->rowspancap,
	    p->nrowspans + p->npos, sizeof *p->rowspans);
	memcpy(p->rowspans + r->at, p->pos, p->npos * sizeof *p->pos);
	p->nrowspans += p->npos;
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

/* A column's name for messages, trimmed, ended by a NUL. */
static void
add_name(struct sp_buf *b, const char *s, size_t n)
{
	sp_sacct_trim(&s, &n);
	sp_buf_add(b, s, n);
	sp_buf_addc(b, '\0');
}

const char *
sp_sacct_column_name(const struct sp_sacct *p, size_t pos)
{
	return pos < p->ncols ? p->colnames.p + p->nameoff[pos] : "";
}

/* A header of the job record's own columns, which no sacct field has. */
static int
own_records(const struct sp_sacct *p)
{
	size_t i;

	for (i = 0; i < p->ncols; i++)
		if (strcmp(sp_sacct_column_name(p, i), "jobid_raw") == 0 ||
		    strcmp(sp_sacct_column_name(p, i), "workload_key") == 0)
			return 1;
	return 0;
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
	for (id = 0; id < SP_SF_COUNT; id++)
		p->sfpos[id] = -1;
	sp_buf_clear(&p->colnames);
	while (i <= n) {
		for (j = i; j < n && names[j] != sep; j++)
			;
		id = sp_sacct_field_id(names + i, j - i);
		p->colmap = sp_xgrow(p->colmap, &p->colcap, p->ncols + 1,
		    sizeof *p->colmap);
		p->colkind = sp_xgrow(p->colkind, &p->kindcap, p->ncols + 1,
		    sizeof *p->colkind);
		p->rejoined_at = sp_xgrow(p->rejoined_at, &p->rejcap,
		    p->ncols + 1, sizeof *p->rejoined_at);
		p->nameoff = sp_xgrow(p->nameoff, &p->namecap, p->ncols + 1,
		    sizeof *p->nameoff);
		p->colkind[p->ncols] = (unsigned char)sp_sacct_kind(names + i,
		    j - i);
		p->rejoined_at[p->ncols] = 0;
		p->nameoff[p->ncols] = p->colnames.len;
		add_name(&p->colnames, names + i, j - i);
		/* A field named twice is read from its first place. */
		if (id >= 0 && p->have[id])
			id = -1;
		p->colmap[p->ncols++] = id;
		if (id >= 0) {
			p->have[id] = 1;
			p->sfpos[id] = col;
		}
		if (id == SP_SF_JOBID)
			p->jobid_pos = col;
		col++;
		i = j + 1;
	}
	if (p->cfg.fields == NULL && own_records(p)) {
		sp_buf_adds(&p->err, "these are job records already (sp-fetch's "
		    "own output), not a sacct dump: give them to the next "
		    "stage as they are");
		p->failed = 1;
		return -1;
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
	name_fields(p);
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

int
sp_sacct_line_starts(const struct sp_sacct *p, const char *s, size_t n,
		     struct sp_slice *id)
{
	int delimited;

	if (!p->have_cols || p->delim == SP_SACCT_CSV || p->jobid_pos < 0)
		return 0;
	if (n > 0 && s[n - 1] == '\r')
		n--;
	if (!line_field(p, s, n, p->jobid_pos, id, &delimited))
		return 0;
	if (sp_sacct_same_ci(id->p, id->n, "JobID"))
		return 0;
	return starts_record(p, *id, delimited);
}

static void
split_row(struct sp_sacct *p)
{
	const char *base = p->arena.p;
	size_t i, start = p->row_start, end = p->arena.len, n = 0;
	char d = (char)p->delim;
	struct sp_sacct_span *pos = p->pos;
	unsigned nul = 0;

	/*
	 * sacct rows are mostly short and empty fields: see sp_scan.h.  A
	 * NUL is looked for in the same pass (row_dropped drops the row).
	 * A window holds at most SP_SCAN_WIDTH delimiters: room for them is
	 * made once a window, not once a field.
	 */
	for (i = start; i + SP_SCAN_WIDTH <= end; i += SP_SCAN_WIDTH) {
		unsigned m = sp_scan_mask1(base + i, d);

		nul |= sp_scan_mask1(base + i, '\0');
		if (m == 0)
			continue;
		if (p->poscap < n + SP_SCAN_WIDTH)
			pos = p->pos = sp_xgrow(p->pos, &p->poscap,
			    n + SP_SCAN_WIDTH, sizeof *p->pos);
		do {
			size_t j = i + sp_scan_first(m);

			m &= m - 1;
			pos[n].off = start;
			pos[n++].len = j - start;
			start = j + 1;
		} while (m != 0);
	}
	p->row_nul = nul != 0;
	p->npos = n;
	for (; i < end; i++)
		if (base[i] == d) {
			add_pos(p, start, i - start);
			start = i + 1;
		} else if (base[i] == '\0')
			p->row_nul = 1;
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
		if (sp_sacct_same_ci(id.p, id.n, "JobID")) {
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
	p->row_nul = memchr(p->arena.p + p->row_start, '\0',
	    p->arena.len - p->row_start) != NULL;
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

/* The delimiters a dump may use, in the order they are preferred. */
static const int delims[] = { 0x1f, '|', '\t', ',' };
#define NDELIMS (sizeof delims / sizeof delims[0])

/* The fields of a line split at sep, and how many name a sacct field. */
static size_t
split_count(const char *s, size_t n, int sep, size_t *named)
{
	size_t i, start = 0, fields = 0;

	*named = 0;
	for (i = 0; i <= n; i++)
		if (i == n || s[i] == sep) {
			fields++;
			if (sp_sacct_field_id(s + start, i - start) >= 0)
				(*named)++;
			start = i + 1;
		}
	return fields;
}

/*
 * Picks the delimiter from the first line.  A header: the one that
 * splits it into the most sacct field names (a '|' in a name is no
 * header's, a TAB dump names JobID between TABs).  A headerless dump read
 * with --fields: the one that splits it into as many fields as named.
 * Else the first the line holds, in sacct's order of likelihood; a comma
 * alone is a CSV export.
 */
static void
choose_delim(struct sp_sacct *p, const char *s, size_t n)
{
	size_t i, named, best = 0, want = 0, unused;
	int pick = 0;

	if (p->cfg.fields != NULL)
		want = split_count(p->cfg.fields, strlen(p->cfg.fields), ',',
		    &unused);
	for (i = 0; i < NDELIMS; i++) {
		size_t fields;

		if (memchr(s, delims[i], n) == NULL)
			continue;
		fields = split_count(s, n, delims[i], &named);
		if (want ? fields == want && pick == 0 :
		    named > best) {
			best = named;
			pick = delims[i];
		}
	}
	for (i = 0; pick == 0 && i < NDELIMS; i++)
		if (memchr(s, delims[i], n) != NULL)
			pick = delims[i];
	if (pick == 0)
		pick = '|';
	p->delim = pick == ',' ? SP_SACCT_CSV : pick;
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
	p->nrowspans = 0;
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
	free(p->colkind);
	free(p->rejoined_at);
	free(p->nameoff);
	sp_buf_free(&p->colnames);
	sp_intern_free(&p->odd_states);
	free(p->pos);
	free(p->rows);
	free(p->rowspans);
	free(p->req);
	sp_intern_free(&p->req_ids);
	sp_intern_free(&p->req_idents);
	sp_buf_free(&p->arena);
	sp_buf_free(&p->partial);
	sp_buf_free(&p->err);
	memset(p, 0, sizeof *p);
}

