/*
 * sp_script_find.c - the history a batch script's runs belong to, and
 * when there is none, the nearest names that have one.
 */
#include <stdlib.h>
#include <string.h>

#include "sp_const.h"
#include "sp_script_fix.h"
#include "sp_workload.h"

struct cand {
	size_t i;		/* in the set */
	const char *key;
	size_t edits;		/* from the script's workload */
	long runs;
	struct sp_order newest;
	int have_newest;
};

struct cands {
	struct cand *v;
	size_t n, cap;
};

struct finder {
	struct sp_histset *set;
	const struct sp_script_who *w;
	const char *user;
	struct sp_buf wl, key;		/* the script's */
	struct cands match, elsewhere, near, others;
	size_t *row[2];			/* the edit distance's rows */
	size_t rowcap;
};

static int
eq(const char *p, size_t n, const char *s, size_t m)
{
	return n == m && memcmp(p, s, n) == 0;
}

/* Whether a partition (n bytes) is in a -p list; any without one. */
static int
in_list(const char *list, const char *p, size_t n)
{
	if (list == NULL)
		return 1;
	for (;;) {
		const char *comma = strchr(list, ',');
		size_t m = comma ? (size_t)(comma - list) : strlen(list);

		if (eq(list, m, p, n))
			return 1;
		if (comma == NULL)
			return 0;
		list = comma + 1;
	}
}

static size_t
min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

/*
 * The edit distance of a and b when it is at most k, else k + 1: only
 * the band of cells within k of the diagonal is worked, so a comparison
 * costs k times the names' length, not their product.
 */
static size_t
edits(struct finder *f, const char *a, size_t n, const char *b, size_t m,
      size_t k)
{
	size_t far = k + 1, *prev, *cur;

	if ((n > m ? n - m : m - n) > k)
		return far;
	if (m + 2 > f->rowcap) {
		f->rowcap = m + 2;
		free(f->row[0]);
		free(f->row[1]);
		f->row[0] = sp_xcalloc(f->rowcap, sizeof **f->row);
		f->row[1] = sp_xcalloc(f->rowcap, sizeof **f->row);
	}
	prev = f->row[0];
	cur = f->row[1];
	for (size_t j = 0; j <= m + 1; j++)
		prev[j] = j <= k ? j : far;
	for (size_t i = 1; i <= n; i++) {
		size_t lo = i > k ? i - k : 0, hi = i + k < m ? i + k : m;
		size_t best = far, *t;

		if (lo > 0)
			cur[lo - 1] = far;
		if (lo == 0)
			cur[0] = i <= k ? i : far;
		for (size_t j = lo > 0 ? lo : 1; j <= hi; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);

			cur[j] = min3(sub, prev[j] + 1, cur[j - 1] + 1);
			if (cur[j] > far)
				cur[j] = far;
		}
		cur[hi + 1] = far;
		for (size_t j = lo; j <= hi; j++)
			if (cur[j] < best)
				best = cur[j];
		if (best > k)
			return far;
		t = prev;
		prev = cur;
		cur = t;
	}
	return prev[m] > k ? far : prev[m];
}

static void
push(struct cands *c, size_t i, size_t d)
{
	c->v = sp_xgrow(c->v, &c->cap, c->n + 1, sizeof *c->v);
	c->v[c->n++] = (struct cand){ .i = i, .edits = d };
}

/* The runs and newest run of each candidate. */
static void
measure(struct finder *f, struct cands *c)
{
	for (size_t k = 0; k < c->n; k++) {
		const struct sp_hist *h = sp_histset_hist(f->set, c->v[k].i);

		c->v[k].key = f->set->v[c->v[k].i].key;
		c->v[k].runs = h->runs;
		c->v[k].newest = h->newest;
		c->v[k].have_newest = h->have_newest;
	}
}

/* Newest run first, then most runs, then by key. */
static int
by_newest(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	int c = 0;

	if (a->have_newest && b->have_newest)
		c = -sp_order_cmp(&a->newest, &b->newest);
	else
		c = b->have_newest - a->have_newest;
	if (c == 0)
		c = (b->runs > a->runs) - (b->runs < a->runs);
	return c ? c : strcmp(a->key, b->key);
}

/* Fewest edits first, then most runs, then by key. */
static int
by_edits(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	int c = (a->edits > b->edits) - (a->edits < b->edits);

	if (c == 0)
		c = (b->runs > a->runs) - (b->runs < a->runs);
	return c ? c : strcmp(a->key, b->key);
}

static void
sort(struct finder *f, struct cands *c, int (*cmp)(const void *,
						    const void *))
{
	measure(f, c);
	sp_sort(c->v, c->n, sizeof *c->v, cmp);
}

/* Every workload against the script's: the same, elsewhere, near. */
static void
gather(struct finder *f)
{
	const char *kind = f->w->gpu ? "gpu" : "cpu";
	size_t ulen = strlen(f->user);
	size_t k = SP_NEAR_MAX_EDITS;

	/* A short name is not near every other: under its own length. */
	if (k >= f->wl.len)
		k = f->wl.len > 0 ? f->wl.len - 1 : 0;
	for (size_t i = 0; i < f->set->n; i++) {
		const struct sp_wl *x = &f->set->v[i];
		struct sp_wlkey p;
		size_t d;

		if (sp_workload_key_split(x->key, x->keylen, &p) != 0)
			continue;
		if (!eq(p.user, p.userlen, f->user, ulen)) {
			if (eq(p.workload, p.wlen, f->wl.p, f->wl.len))
				push(&f->others, i, 0);
			continue;
		}
		if (eq(p.workload, p.wlen, f->wl.p, f->wl.len)) {
			if (eq(p.kind, p.kindlen, kind, 3) &&
			    in_list(f->w->partition, p.partition, p.partlen))
				push(&f->match, i, 0);
			else
				push(&f->elsewhere, i, 0);
			continue;
		}
		d = edits(f, f->wl.p, f->wl.len, p.workload, p.wlen, k);
		if (d <= k)
			push(&f->near, i, d);
	}
}

/* "alice/gpu/gpu/rollout-gen (1098 runs)", the first max of c. */
static size_t
name_some(struct sp_buf *b, const struct finder *f, const struct cands *c,
	  size_t from, size_t max)
{
	size_t k;

	for (k = from; k < c->n && k - from < max; k++) {
		const struct sp_wl *x = &f->set->v[c->v[k].i];

		sp_buf_printf(b, "%s%.*s (%ld %s)", k > from ? ", " : "",
			      (int)x->keylen, x->key, c->v[k].runs,
			      c->v[k].runs == 1 ? "run" : "runs");
	}
	return k - from;
}

static void
say_partition(struct sp_buf *b, const struct finder *f, size_t k)
{
	struct sp_wlkey p;
	const struct sp_wl *x = &f->set->v[f->match.v[k].i];

	sp_workload_key_split(x->key, x->keylen, &p);
	sp_buf_printf(b, "%.*s (%ld %s)", (int)p.partlen, p.partition,
		      f->match.v[k].runs, f->match.v[k].runs == 1 ? "run" :
		      "runs");
}

/* Several partitions fit: the newest run's is taken, and said so. */
static void
chosen(struct finder *f, struct sp_buf *note)
{
	size_t shown = f->match.n < SP_NEAR_PARTITIONS ? f->match.n :
	    SP_NEAR_PARTITIONS;

	if (f->w->partition == NULL)
		sp_buf_adds(note, "no partition in the script, and ");
	else
		sp_buf_printf(note, "-p %s: ", f->w->partition);
	sp_buf_adds(note, "the job name ran in ");
	for (size_t k = 0; k < shown; k++) {
		if (k > 0)
			sp_buf_adds(note, k + 1 == f->match.n ? " and " : ", ");
		say_partition(note, f, k);
	}
	if (f->match.n > shown)
		sp_buf_printf(note, " and %zu more", f->match.n - shown);
	sp_buf_adds(note, ": advised for the first, where it ran last (-p "
		    "in the script chooses)");
}

/* 1 when some workload of the set is the user's. */
static int
user_has_history(const struct finder *f)
{
	size_t n = strlen(f->user);

	for (size_t i = 0; i < f->set->n; i++) {
		const struct sp_wl *x = &f->set->v[i];

		if (x->keylen > n && x->key[n] == '/' &&
		    memcmp(x->key, f->user, n) == 0)
			return 1;
	}
	return 0;
}

/* The user of a workload key, as -u takes it. */
static void
hint_user(struct sp_buf *b, const struct sp_wl *x)
{
	const char *slash = memchr(x->key, '/', x->keylen);

	if (slash != NULL && slash > x->key)
		sp_buf_printf(b, " (-u %.*s advises from theirs)",
			      (int)(slash - x->key), x->key);
}

static void
nothing(struct finder *f, struct sp_buf *why)
{
	size_t named = 0;

	sp_buf_adds(why, "no history for job name '");
	sp_buf_adds(why, f->w->name);
	sp_buf_adds(why, "'");
	if (f->w->name_from_file)
		sp_buf_adds(why, " (the file's name: no -J in the script)");
	if (strcmp(f->w->name, sp_buf_str(&f->wl)) != 0)
		sp_buf_printf(why, ", workload %s", sp_buf_str(&f->wl));
	sp_buf_printf(why, ", user %s, %s%s, %s GPUs", f->user,
		      f->w->partition ? "partition " : "any partition",
		      f->w->partition ? f->w->partition : "",
		      f->w->gpu ? "with" : "without");
	sort(f, &f->elsewhere, by_newest);
	sort(f, &f->near, by_edits);
	if (f->elsewhere.n + f->near.n > 0) {
		sp_buf_adds(why, "; nearest with history: ");
		named = name_some(why, f, &f->elsewhere, 0, SP_NEAR_NAMES);
		if (named > 0 && named < SP_NEAR_NAMES && f->near.n > 0)
			sp_buf_adds(why, ", ");
		name_some(why, f, &f->near, 0, SP_NEAR_NAMES - named);
		return;
	}
	sort(f, &f->others, by_newest);
	if (f->others.n > 0) {
		sp_buf_printf(why, "; the name ran for other users: ");
		name_some(why, f, &f->others, 0, SP_NEAR_NAMES);
		hint_user(why, &f->set->v[f->others.v[0].i]);
	} else if (!user_has_history(f)) {
		/* Whose script it is was guessed from $USER (root, say). */
		sp_buf_printf(why, "; %s has no job in this history: -u "
			      "names whose script it is", f->user);
	} else {
		sp_buf_printf(why, "; no workload of %s's is near it",
			      f->user);
	}
}

static void
free_finder(struct finder *f)
{
	sp_buf_free(&f->wl);
	sp_buf_free(&f->key);
	free(f->match.v);
	free(f->elsewhere.v);
	free(f->near.v);
	free(f->others.v);
	free(f->row[0]);
	free(f->row[1]);
}

long
sp_script_find(struct sp_histset *set, const struct sp_script_who *w,
	       const char *user, struct sp_buf *note, struct sp_buf *why)
{
	struct finder f = { 0 };
	long found = -1;

	f.set = set;
	f.w = w;
	f.user = user;
	/* One partition: the key sp-group gives the script's runs. */
	sp_workload_of(&f.wl, &f.key, w->name, strlen(w->name), user,
		       strlen(user), w->partition ? w->partition : "",
		       w->partition ? strlen(w->partition) : 0, w->gpu);
	if (w->partition != NULL && strchr(w->partition, ',') == NULL &&
	    (found = sp_histset_lookup(set, f.key.p, f.key.len)) >= 0) {
		free_finder(&f);
		return found;
	}
	/* None, or a list: the partitions its name ran in. */
	gather(&f);
	if (f.match.n == 0) {
		nothing(&f, why);
	} else {
		sort(&f, &f.match, by_newest);
		if (f.match.n > 1)
			chosen(&f, note);
		found = (long)f.match.v[0].i;
	}
	free_finder(&f);
	return found;
}
