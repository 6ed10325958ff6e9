/*
 * store.c - what sacct answers, put in one order, and the store of the
 * records it gave (the per-user cache): the next query asks sacct only
 * for what ended, started or changed since the last one.
 *
 * sacct prints an attempt (a job's allocation row, its steps after it)
 * in Submit order, and leaves the order of attempts submitted in the
 * same second to its database.  So sacct's answer is first cut into
 * units (an allocation row, its continuation lines and its steps'), and
 * the units of one Submit second are put in order of cluster, then
 * JobIDRaw; the parser reads units in that order.  A unit is a job that
 * either finished long enough ago not to change again (its End before
 * the last query less SP_FETCH_CACHE_OVERLAP_S), and then the store's
 * copy is the one sacct would give; or one sacct is asked for again.
 * Merging the two ordered lists gives the units, and so the records,
 * a fresh query gives: the same bytes.
 *
 * The store is one file per cluster, selection and field list, under
 * $XDG_CACHE_HOME/slurmpast (else ~/.cache/slurmpast): a line naming
 * its version, the key, the window it covers and when it was asked,
 * then each unit as "U <bytes> <hash>" and its text, then "end <units>".
 * A file that is not whole, not ours or not for this key is discarded
 * with one line, never trusted.  A new one is written beside it under a
 * temporary name and renamed into place under a lock, so runs at the
 * same time never see half of one.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "sp.h"
#include "sp_const.h"
#include "sp_intern.h"
#include "sp_units.h"
#include "fetch.h"

#define STORE_MAGIC "slurmpast sacct store 1"

/* The stdio buffers of the old store and the new: one of each a run. */
static char old_buf[FETCH_READ_CHUNK], new_buf[FETCH_READ_CHUNK];

/* One attempt: its allocation row, its steps, and what orders it. */
struct unit {
	struct sp_buf text;
	int64_t submit;			/* INT64_MIN: unknown */
	size_t cluster, cluster_len;	/* in text */
	size_t raw, raw_len;
	uint64_t raw_num;
	int raw_is_num;
	struct sp_job j;		/* state and times, for the window */
	struct sp_buf state;		/* one word, for j.state */
	uint64_t hash;			/* of text, when hashed */
	int hashed;			/* read from a store: hash known */
};

/* ------------------------------------------------------------ a unit */

static void
unit_free(struct unit *u)
{
	if (u == NULL)
		return;
	sp_buf_free(&u->text);
	sp_buf_free(&u->state);
	free(u);
}

/* The allocation row's field sf, or an empty slice. */
static struct sp_slice
field(const struct fetch_store *st, const struct unit *u, int sf)
{
	struct sp_slice v = { "", 0 };
	const char *p = u->text.p, *end, *nl;
	int k = st->probe.sfpos[sf], i;

	if (k < 0 || p == NULL)
		return v;
	nl = memchr(p, '\n', u->text.len);
	end = nl ? nl : p + u->text.len;
	for (i = 0; i < k; i++) {
		p = memchr(p, st->probe.delim, (size_t)(end - p));
		if (p == NULL)
			return v;
		p++;
	}
	nl = memchr(p, st->probe.delim, (size_t)(end - p));
	v.p = p;
	v.n = (size_t)((nl ? nl : end) - p);
	return v;
}

static void
when(struct sp_slice s, int64_t *t, int *known)
{
	*known = sp_parse_time(s.p, s.n, t) == SP_VAL_OK;
}

/* What orders a unit and puts it in a window, from its first row. */
static void
unit_read(const struct fetch_store *st, struct unit *u)
{
	struct sp_slice s, w, by;
	int known;

	when(field(st, u, SP_SF_SUBMIT), &u->submit, &known);
	if (!known)
		u->submit = INT64_MIN;
	s = field(st, u, SP_SF_CLUSTER);
	u->cluster = s.n ? (size_t)(s.p - u->text.p) : 0;
	u->cluster_len = s.n;
	s = field(st, u, SP_SF_JOBIDRAW);
	if (s.n == 0)
		s = field(st, u, SP_SF_JOBID);
	u->raw = s.n ? (size_t)(s.p - u->text.p) : 0;
	u->raw_len = s.n;
	u->raw_is_num = s.n > 0 && s.n < 20;
	u->raw_num = 0;
	for (size_t i = 0; i < s.n && u->raw_is_num; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			u->raw_is_num = 0;
		else
			u->raw_num = u->raw_num * 10 + (uint64_t)(s.p[i] - '0');
	}
	memset(&u->j, 0, sizeof u->j);
	sp_sacct_state(field(st, u, SP_SF_STATE), &w, &by);
	sp_buf_clear(&u->state);
	sp_buf_add(&u->state, w.p, w.n);
	u->j.state.p = sp_buf_str(&u->state);
	u->j.state.n = u->state.len;
	when(field(st, u, SP_SF_ELIGIBLE), &u->j.eligible_t,
	    &u->j.eligible_known);
	when(field(st, u, SP_SF_START), &u->j.start_t, &u->j.start_known);
	when(field(st, u, SP_SF_END), &u->j.end_t, &u->j.end_known);
}

static int
cmp_bytes(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	return c ? c : (an > bn) - (an < bn);
}

/* The attempt's place: Submit, then cluster, then JobIDRaw. */
static int
cmp_key(const struct unit *a, const struct unit *b)
{
	int c;

	if (a->submit != b->submit)
		return a->submit < b->submit ? -1 : 1;
	c = cmp_bytes(a->text.p + a->cluster, a->cluster_len,
	    b->text.p + b->cluster, b->cluster_len);
	if (c)
		return c;
	if (a->raw_is_num && b->raw_is_num && a->raw_num != b->raw_num)
		return a->raw_num < b->raw_num ? -1 : 1;
	return cmp_bytes(a->text.p + a->raw, a->raw_len,
	    b->text.p + b->raw, b->raw_len);
}

/* ... and, for a total order, the text. */
static int
cmp_unit(const void *x, const void *y)
{
	const struct unit *a = *(struct unit *const *)x;
	const struct unit *b = *(struct unit *const *)y;
	int c = cmp_key(a, b);

	return c ? c : cmp_bytes(a->text.p, a->text.len, b->text.p,
	    b->text.len);
}

/* Finished long enough ago not to change: the store's copy stands. */
static int
settled(const struct fetch_store *st, const struct unit *u)
{
	return u->j.end_known && u->j.end_t < st->cut;
}

/* ------------------------------------------------------ the old store */

static void
warn_discard(struct fetch_store *st, const char *why)
{
	sp_warn("the store %s %s: not used, sacct asked for the whole window",
	    st->path, why);
}

/* "U <bytes> <hash>" and the text after it: 1, 0 at "end", -1 damaged. */
/*
 * The next unit of f into u.  check: its framing and hash only (the
 * first pass over a store, before any of it is trusted); else its
 * fields for the merge (the second pass, over the bytes just checked:
 * the file is open, and a store is only ever replaced by a rename).
 */
static int
read_unit(struct fetch_store *st, FILE *f, struct unit *u,
	  unsigned long *count, int check)
{
	char *line = NULL;
	size_t cap = 0, len;
	unsigned long long n;
	uint64_t h;
	ssize_t got = getline(&line, &cap, f);
	int rc = -1;

	if (got <= 0)
		goto out;
	if (sscanf(line, "end\t%lu\n", count) == 1) {
		rc = 0;
		goto out;
	}
	if (sscanf(line, "U\t%llu\t%" SCNx64 "\n", &n, &h) != 2 ||
	    n > (1ULL << 30))
		goto out;
	len = (size_t)n;
	sp_buf_clear(&u->text);
	sp_buf_reserve(&u->text, len + 1);
	if (fread(u->text.p, 1, len, f) != len)
		goto out;
	u->text.len = len;
	u->text.p[len] = '\0';
	if (len == 0 || u->text.p[len - 1] != '\n' ||
	    (check && sp_hash_bytes(u->text.p, len) != h))
		goto out;
	if (!check) {
		unit_read(st, u);
		/* Checked on the first pass: written again as it is. */
		u->hash = h;
		u->hashed = 1;
	}
	rc = 1;
out:
	free(line);
	return rc;
}

/* A header line "name\tvalue". */
static int
header_line(FILE *f, const char *name, struct sp_buf *value)
{
	char *line = NULL;
	size_t cap = 0, n = strlen(name);
	ssize_t got = getline(&line, &cap, f);
	int ok = got > (ssize_t)n && strncmp(line, name, n) == 0 &&
	    line[n] == '\t' && line[got - 1] == '\n';

	sp_buf_clear(value);
	if (ok)
		sp_buf_add(value, line + n + 1, (size_t)got - n - 2);
	free(line);
	return ok;
}

/*
 * Opens the store and checks it whole (every unit's hash, the count at
 * its end): 0 with st->old at its first unit, else -1 (said).
 */
static int
open_old(struct fetch_store *st)
{
	FILE *f = fopen(st->path, "r");
	struct sp_buf v = { 0 };
	struct unit u;
	unsigned long units = 0, count = 0;
	long start;
	int rc;

	if (f == NULL) {
		if (errno != ENOENT)
			warn_discard(st, strerror(errno));
		return -1;
	}
	/* A unit is a few kilobytes: read in large blocks, not a read a
	 * unit (a store of 100,000 jobs is 200 MB, read twice).  glibc
	 * takes a size only with a buffer; one store is read a run. */
	setvbuf(f, old_buf, _IOFBF, sizeof old_buf);
	memset(&u, 0, sizeof u);
	if (!header_line(f, "magic", &v) || strcmp(sp_buf_str(&v),
	    STORE_MAGIC) != 0) {
		warn_discard(st, "is not a slurmpast store");
		goto bad;
	}
	if (!header_line(f, "key", &v) || strcmp(sp_buf_str(&v),
	    sp_buf_str(&st->key)) != 0) {
		warn_discard(st, "is another query's");
		goto bad;
	}
	if (!header_line(f, "since", &v) ||
	    sp_parse_time(v.p, v.len, &st->old_since) != SP_VAL_OK ||
	    !header_line(f, "asked", &v) ||
	    sp_parse_time(v.p, v.len, &st->old_asked) != SP_VAL_OK)
		goto damaged;
	start = ftell(f);
	while ((rc = read_unit(st, f, &u, &count, 1)) == 1)
		units++;
	if (rc != 0 || count != units || getc(f) != EOF ||
	    fseek(f, start, SEEK_SET) != 0)
		goto damaged;
	sp_buf_free(&u.text);
	sp_buf_free(&u.state);
	sp_buf_free(&v);
	st->old = f;
	return 0;
damaged:
	warn_discard(st, "is damaged");
bad:
	sp_buf_free(&u.text);
	sp_buf_free(&u.state);
	sp_buf_free(&v);
	fclose(f);
	return -1;
}

/* The next unit of the old store, or NULL at its end. */
static struct unit *
next_old(struct fetch_store *st)
{
	struct unit *u;
	unsigned long count;

	if (st->old == NULL)
		return NULL;
	u = sp_xcalloc(1, sizeof *u);
	if (read_unit(st, st->old, u, &count, 0) != 1) {
		unit_free(u);
		fclose(st->old);
		st->old = NULL;
		return NULL;
	}
	return u;
}

/* --------------------------------------------------------- the output */

/* Into the parser (the records) and into the new store. */
static int
pass(struct fetch_store *st, struct unit *u, int show, int keep)
{
	if (show && sp_sacct_feed(st->ps, u->text.p, u->text.len) != 0)
		return -1;
	if (keep && st->tmp != NULL) {
		fprintf(st->tmp, "U\t%zu\t%" PRIx64 "\n", u->text.len,
		    u->hashed ? u->hash : sp_hash_bytes(u->text.p,
		    u->text.len));
		fwrite(u->text.p, 1, u->text.len, st->tmp);
		st->units++;
	}
	return 0;
}

/* In the window asked (the store's units, and sacct's from before it). */
static int
in_window(struct fetch_store *st, const struct unit *u)
{
	return sp_select_match(&st->window, &u->j);
}

/*
 * The old store's units up to u (all of them for NULL): the settled
 * ones are kept, and shown when in the window; the others are sacct's
 * to give again.  An old unit of the same attempt as u is u's older copy.
 */
static int
old_until(struct fetch_store *st, const struct unit *u)
{
	while (st->oldnext != NULL && (u == NULL ||
	    cmp_key(st->oldnext, u) <= 0)) {
		struct unit *o = st->oldnext;
		int same = u != NULL && cmp_key(o, u) == 0;

		if (!same && settled(st, o) &&
		    pass(st, o, in_window(st, o), 1) != 0)
			return -1;
		unit_free(o);
		st->oldnext = next_old(st);
	}
	return 0;
}

/* The units of one Submit second, in order, with the old ones between. */
static int
flush_run(struct fetch_store *st)
{
	size_t i;
	int rc = 0;

	sp_sort(st->sec, st->nsec, sizeof *st->sec, cmp_unit);
	for (i = 0; i < st->nsec && rc == 0; i++) {
		struct unit *u = st->sec[i];

		rc = old_until(st, u);
		if (rc == 0)
			rc = pass(st, u, !st->filter_new || in_window(st, u), 1);
	}
	for (i = 0; i < st->nsec; i++)
		unit_free(st->sec[i]);
	st->nsec = 0;
	return rc;
}

/* A unit is whole: into its Submit second's run. */
static int
unit_done(struct fetch_store *st)
{
	struct unit *u = st->cur;

	st->cur = NULL;
	if (u == NULL)
		return 0;
	unit_read(st, u);
	if (st->nsec > 0 && u->submit != st->sec[0]->submit) {
		/* sacct prints by Submit; a unit before the run is news. */
		if (u->submit < st->sec[0]->submit)
			st->unsorted = 1;
		if (flush_run(st) != 0) {
			unit_free(u);
			return -1;
		}
	}
	st->sec = sp_xgrow(st->sec, &st->seccap, st->nsec + 1,
	    sizeof *st->sec);
	st->sec[st->nsec++] = u;
	return 0;
}

/* One physical line of sacct's answer. */
static int
line(struct fetch_store *st, const char *s, size_t n)
{
	struct sp_slice id;
	const char *dot;

	if (sp_sacct_line_starts(&st->probe, s, n, &id)) {
		dot = memchr(id.p, '.', id.n);
		if (dot)
			id.n = (size_t)(dot - id.p);
		/* A step of the unit's job stays in it; anything else starts
		 * a unit of its own. */
		if (dot == NULL || st->cur == NULL || id.n != st->job.len ||
		    memcmp(id.p, st->job.p, id.n) != 0) {
			if (unit_done(st) != 0)
				return -1;
			st->cur = sp_xcalloc(1, sizeof *st->cur);
			sp_buf_clear(&st->job);
			sp_buf_add(&st->job, id.p, id.n);
		}
	} else if (st->cur == NULL)
		st->cur = sp_xcalloc(1, sizeof *st->cur);
	sp_buf_add(&st->cur->text, s, n);
	sp_buf_addc(&st->cur->text, '\n');
	return 0;
}

int
fetch_store_feed(struct fetch_store *st, const char *buf, size_t n)
{
	const char *end = buf + n;

	if (!st->ordering)
		return sp_sacct_feed(st->ps, buf, n);
	while (buf < end) {
		const char *nl = memchr(buf, '\n', (size_t)(end - buf));

		if (nl == NULL) {
			sp_buf_add(&st->partial, buf, (size_t)(end - buf));
			return 0;
		}
		if (st->partial.len > 0) {
			sp_buf_add(&st->partial, buf, (size_t)(nl - buf));
			if (line(st, st->partial.p, st->partial.len) != 0)
				return -1;
			sp_buf_clear(&st->partial);
		} else if (line(st, buf, (size_t)(nl - buf)) != 0)
			return -1;
		buf = nl + 1;
	}
	return 0;
}

/* ----------------------------------------------------------- the key */

/* Where the stores live; NULL when there is no such place. */
static int
store_dir(struct sp_buf *dir)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg != NULL && xdg[0] == '/')
		sp_buf_printf(dir, "%s/slurmpast", xdg);
	else if (home != NULL && home[0] == '/')
		sp_buf_printf(dir, "%s/.cache/slurmpast", home);
	else
		return -1;
	return 0;
}

static int
make_dir(const char *path)
{
	struct sp_buf b = { 0 };
	const char *p = path;
	int rc = 0;

	/* Each level in turn, as mkdir -p; the last one the user's alone. */
	while (rc == 0 && (p = strchr(p + 1, '/')) != NULL) {
		sp_buf_clear(&b);
		sp_buf_add(&b, path, (size_t)(p - path));
		if (mkdir(sp_buf_str(&b), 0755) != 0 && errno != EEXIST)
			rc = -1;
	}
	if (rc == 0 && mkdir(path, 0700) != 0 && errno != EEXIST)
		rc = -1;
	sp_buf_free(&b);
	return rc;
}

static void
key_part(struct sp_buf *k, const char *name, const char *v)
{
	sp_buf_printf(k, "%s=%s;", name, v ? v : "");
}

/* -------------------------------------------------------------- the API */

static int
no_cache(const struct fetch_opts *o)
{
	const char *v = getenv("SLURMPAST_NO_CACHE");

	return o->no_cache || (v != NULL && strcmp(v, "1") == 0);
}

/*
 * Whether the query can use a store: a window that ends now (no -E, or
 * -E now), no ids (they name jobs, not a window), one cluster at most,
 * and a start time sp-fetch reads as sacct does.
 */
static int
storable(const struct fetch_opts *o, const char *since, int64_t now,
	 int64_t *S)
{
	if (o->jobs || o->all_clusters || (o->until &&
	    strcasecmp(o->until, "now") != 0) ||
	    (o->clusters && (strchr(o->clusters, ',') ||
	    strcasecmp(o->clusters, "all") == 0)))
		return 0;
	return since != NULL && sp_select_time(since, now, S) == 0;
}

void
fetch_store_init(struct fetch_store *st, struct fetch_run *run,
		 const char *user, const char *since, const char *format)
{
	const struct fetch_opts *o = run->o;
	struct sp_sacct_config cfg;
	struct sp_buf dir = { 0 }, err = { 0 };
	int64_t S;

	memset(st, 0, sizeof *st);
	st->run = run;
	st->ask_since = since;
	st->now = sp_civil_local((int64_t)time(NULL));
	memset(&cfg, 0, sizeof cfg);
	cfg.delim = 0x1f;
	cfg.fields = format;
	sp_sacct_init(&st->probe, &cfg);
	/* Nothing fed: the columns are named from format. */
	sp_sacct_feed(&st->probe, "", 0);
	if (no_cache(o) || !storable(o, since, st->now, &S) ||
	    store_dir(&dir) != 0)
		goto out;
	st->since = S;
	key_part(&st->key, "cluster", o->clusters);
	key_part(&st->key, "user", o->all_users ? "*" : user);
	key_part(&st->key, "partition", o->partition);
	key_part(&st->key, "account", o->account);
	key_part(&st->key, "state", o->failed ? "--failed" : o->state);
	key_part(&st->key, "name", o->names);
	key_part(&st->key, "nodes", o->nodes);
	key_part(&st->key, "qos", o->qos);
	key_part(&st->key, "fields", format);
	if (make_dir(sp_buf_str(&dir)) != 0) {
		sp_warn("cannot keep a store in %s: %s", sp_buf_str(&dir),
		    strerror(errno));
		goto out;
	}
	sp_buf_printf(&st->pathb, "%s/%016" PRIx64 ".sacct",
	    sp_buf_str(&dir), sp_hash_bytes(st->key.p, st->key.len));
	st->path = sp_buf_str(&st->pathb);
	st->enabled = 1;
	/* The window's states, as sacct decides them. */
	if (o->failed)
		sp_select_failed(&st->window, &err);
	else if (o->state)
		sp_select_add(&st->window, SP_SEL_STATE, o->state, &err);
	st->window.window = st->window.has_since = st->window.has_until = 1;
	st->window.since = S;
	st->window.until = st->now;
	/*
	 * A store that covers the window from its start: sacct is asked
	 * only from the last query less the overlap (from there even when
	 * that is before the window, so that nothing that ended between
	 * the two is missed, and then shown within the window).
	 */
	st->cut = S;
	st->new_since = S;
	if (!o->refresh && open_old(st) == 0) {
		if (S >= st->old_since && S <= st->old_asked) {
			st->cut = st->old_asked - SP_FETCH_CACHE_OVERLAP_S;
			st->new_since = st->old_since;
			st->filter_new = st->cut <= S;
			sp_fmt_time(&st->since_text, st->cut);
			st->ask_since = sp_buf_str(&st->since_text);
			st->oldnext = next_old(st);
		} else {
			fclose(st->old);
			st->old = NULL;
		}
	}
out:
	sp_buf_free(&dir);
	sp_buf_free(&err);
}

void
fetch_store_begin(struct fetch_store *st, struct sp_sacct *ps, int ordered)
{
	struct sp_buf tmp = { 0 };
	int fd;

	st->ps = ps;
	st->ordering = ordered;
	st->unsorted = 0;
	if (!st->enabled || !ordered)
		return;
	sp_buf_printf(&tmp, "%s.XXXXXX", st->path);
	fd = mkstemp(tmp.p);
	if (fd >= 0)
		st->tmp = fdopen(fd, "w");
	if (st->tmp != NULL)
		setvbuf(st->tmp, new_buf, _IOFBF, sizeof new_buf);
	if (st->tmp == NULL) {
		if (fd >= 0)
			close(fd);
		sp_warn("cannot write the store %s: %s", st->path,
		    strerror(errno));
		sp_buf_free(&tmp);
		return;
	}
	st->tmppath = sp_xstrdup(tmp.p);
	fprintf(st->tmp, "magic\t%s\nkey\t%s\n", STORE_MAGIC,
	    sp_buf_str(&st->key));
	sp_buf_clear(&tmp);
	sp_fmt_time(&tmp, st->new_since);
	fprintf(st->tmp, "since\t%s\n", sp_buf_str(&tmp));
	sp_buf_clear(&tmp);
	sp_fmt_time(&tmp, st->now);
	fprintf(st->tmp, "asked\t%s\n", sp_buf_str(&tmp));
	sp_buf_free(&tmp);
}

/* Renames the new store into place, one writer at a time. */
static void
commit(struct fetch_store *st)
{
	struct sp_buf lock = { 0 };
	int fd, ok;

	fprintf(st->tmp, "end\t%lu\n", st->units);
	ok = fflush(st->tmp) == 0 && !ferror(st->tmp) && fsync(fileno(st->tmp))
	    == 0;
	if (fclose(st->tmp) != 0)
		ok = 0;
	st->tmp = NULL;
	sp_buf_printf(&lock, "%s.lock", st->path);
	fd = open(sp_buf_str(&lock), O_RDWR | O_CREAT, 0600);
	if (ok && fd >= 0 && flock(fd, LOCK_EX) == 0)
		ok = rename(st->tmppath, st->path) == 0;
	else
		ok = 0;
	if (!ok) {
		sp_warn("cannot write the store %s: %s", st->path,
		    strerror(errno));
		unlink(st->tmppath);
	}
	if (fd >= 0)
		close(fd);
	sp_buf_free(&lock);
}

int
fetch_store_finish(struct fetch_store *st)
{
	if (!st->ordering)
		return sp_sacct_finish(st->ps);
	if (st->partial.len > 0) {
		if (line(st, st->partial.p, st->partial.len) != 0)
			return -1;
		sp_buf_clear(&st->partial);
	}
	if (unit_done(st) != 0 || flush_run(st) != 0 || old_until(st, NULL))
		return -1;
	if (sp_sacct_finish(st->ps) != 0)
		return -1;
	if (st->tmp != NULL) {
		/* An answer not in Submit order is no store to merge with. */
		if (st->unsorted) {
			fclose(st->tmp);
			st->tmp = NULL;
			unlink(st->tmppath);
		} else
			commit(st);
	}
	return 0;
}

void
fetch_store_abandon(struct fetch_store *st)
{
	size_t i;

	if (st->tmp != NULL) {
		fclose(st->tmp);
		st->tmp = NULL;
		unlink(st->tmppath);
	}
	for (i = 0; i < st->nsec; i++)
		unit_free(st->sec[i]);
	st->nsec = 0;
	unit_free(st->cur);
	st->cur = NULL;
	sp_buf_clear(&st->partial);
	sp_sacct_abandon(st->ps);
}

void
fetch_store_free(struct fetch_store *st)
{
	if (st->tmp != NULL) {
		fclose(st->tmp);
		unlink(st->tmppath);
	}
	if (st->old != NULL)
		fclose(st->old);
	unit_free(st->oldnext);
	unit_free(st->cur);
	free(st->sec);
	free(st->tmppath);
	sp_sacct_free(&st->probe);
	sp_select_free(&st->window);
	sp_buf_free(&st->key);
	sp_buf_free(&st->pathb);
	sp_buf_free(&st->since_text);
	sp_buf_free(&st->partial);
	sp_buf_free(&st->job);
}
