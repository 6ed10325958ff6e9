/*
 * parallel.c - sp-fetch --input over a regular file, read in parts at
 * once, one per core, written in the file's order: the same bytes one
 * core writes.
 *
 * The file is cut only where a new job starts (an allocation row whose
 * job id is not the one before), so no job's rows are split; a row that
 * spans lines (a newline in a command line) is never cut, since the cut
 * falls on a line that starts a record.  Every part is read by a parser
 * of its own, given the header line first.  What crosses a cut is put
 * right as the parts are written, in order:
 *   - a requeued job whose earlier attempts were in an earlier part: its
 *     attempt numbers are raised by what the earlier parts saw (each
 *     part says, for each job, what its numbers rested on);
 *   - the counts, summed; the states not known, in the order first seen.
 * A pipe, CSV, or an output other than TSV is read on one core.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "sp.h"
#include "sp_intern.h"
#include "fetch.h"

/*
 * The size of a part, unless SLURMPAST_CHUNK_BYTES says (tests): at most
 * PART_BYTES, and small enough that every worker has a few (a file of
 * three parts on two cores is two parts' time on one), at least
 * PART_MIN_BYTES (a part costs a parser and a hand-over).
 */
#define PART_BYTES (8u << 20)
#define PART_MIN_BYTES (1u << 20)
#define PARTS_PER_WORKER 4
/* Parts read ahead of the one being written, per worker. */
#define AHEAD 2
#define MAX_WORKERS 4

/* A job's group as a part read it (struct sp_sacct_group). */
struct group {
	size_t id, id_len;		/* in the part's text */
	size_t ident, ident_len;
	size_t last, last_len;
	size_t base, attempts;
	int remembers, requeues;
	size_t out_at;			/* its first record in the output */
};

struct part {
	size_t from, to;		/* its bytes in the file */
	int done;
	struct sp_buf out;		/* its records, as TSV */
	struct sp_sacct_stats st;
	unsigned long records, unselected;
	unsigned long *rejoined_at;	/* per input column */
	struct sp_names odd;		/* the states not known, in order */
	struct group *g;
	size_t ng, gcap;
	struct sp_buf text;		/* the groups' ids and identities */
	struct sp_buf err;
};

struct par {
	struct fetch_run *run;
	const char *map;
	size_t size;
	const char *name;
	const char *header;		/* the header line, BOM gone */
	size_t header_len;
	int delim;
	size_t ncols;
	struct part *p;
	size_t nparts;
	size_t next, written, window;
	int abort;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/* What each worker's records go through. */
struct worker_run {
	struct fetch_run run;
	struct part *part;
};

static long cores(void);

static size_t
part_bytes(size_t file)
{
	const char *v = getenv("SLURMPAST_CHUNK_BYTES");
	size_t n = file / ((size_t)cores() * PARTS_PER_WORKER);
	long asked;

	if (v != NULL && sp_strtol_full(v, &asked) == 0 && asked > 0)
		return (size_t)asked;
	return n > PART_BYTES ? PART_BYTES : n < PART_MIN_BYTES ?
	    PART_MIN_BYTES : n;
}

/* --------------------------------------------------------- the cuts */

static const char *
line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl + 1 : end;
}

/* The job of a record's id: the part before a step's dot. */
static struct sp_slice
job_of(struct sp_slice id, int *is_step)
{
	const char *dot = memchr(id.p, '.', id.n);

	*is_step = dot != NULL;
	if (dot)
		id.n = (size_t)(dot - id.p);
	return id;
}

/*
 * The first place at or after at where a new job starts: the start of a
 * line that starts a record, an allocation's, of another job than the
 * record before it.  The size of the file when there is none.
 */
static size_t
cut_after(const struct sp_sacct *probe, const char *map, size_t size,
	  size_t at)
{
	const char *p = map + at, *end = map + size;
	struct sp_slice id, prev = { NULL, 0 };
	int step;

	/* at may fall inside a line: the next line is the first whole one. */
	if (at > 0 && map[at - 1] != '\n')
		p = line_end(p, end);
	for (; p < end; p = line_end(p, end)) {
		const char *e = line_end(p, end);
		size_t n = (size_t)(e - p) - (e[-1] == '\n');
		struct sp_slice job;

		if (!sp_sacct_line_starts(probe, p, n, &id))
			continue;
		job = job_of(id, &step);
		if (prev.p != NULL && !step && (job.n != prev.n ||
		    memcmp(job.p, prev.p, job.n) != 0))
			return (size_t)(p - map);
		prev = job;
	}
	return size;
}

/* ------------------------------------------------------- the workers */

static void
keep_group(void *ctx, const struct sp_sacct_group *g)
{
	struct worker_run *w = ctx;
	struct part *pt = w->part;
	struct group *x;

	pt->g = sp_xgrow(pt->g, &pt->gcap, pt->ng + 1, sizeof *pt->g);
	x = &pt->g[pt->ng++];
	x->id = pt->text.len;
	x->id_len = g->id.n;
	sp_buf_add(&pt->text, g->id.p, g->id.n);
	x->ident = pt->text.len;
	x->ident_len = g->ident.n;
	sp_buf_add(&pt->text, g->ident.p, g->ident.n);
	x->last = pt->text.len;
	x->last_len = g->last_ident.n;
	sp_buf_add(&pt->text, g->last_ident.p, g->last_ident.n);
	x->base = g->base;
	x->attempts = g->attempts;
	x->remembers = g->remembers;
	x->requeues = g->requeues;
	x->out_at = pt->out.len;
}

static void
read_part(struct par *P, size_t i)
{
	struct part *pt = &P->p[i];
	const struct fetch_opts *o = P->run->o;
	struct worker_run w;
	struct sp_sacct ps;
	size_t k;
	int rc = 0;

	memset(&w, 0, sizeof w);
	w.run.o = o;
	w.run.header_done = 1;
	w.run.out = &pt->out;
	w.part = pt;
	fetch_select_init(&w.run, 1);
	/* The first part is read as one core reads the file: from its top. */
	fetch_parser_init(&ps, &w.run, i == 0 ? SP_SACCT_DETECT : P->delim,
	    o->fields);
	ps.cfg.group = keep_group;
	ps.cfg.ctx = &w;
	if (i > 0 && o->fields == NULL)
		rc = sp_sacct_feed(&ps, P->header, P->header_len);
	if (rc == 0)
		rc = sp_sacct_feed(&ps, P->map + pt->from, pt->to - pt->from);
	if (rc == 0)
		rc = sp_sacct_finish(&ps);
	if (rc != 0)
		sp_buf_printf(&pt->err, "%s: %s", P->name, sp_buf_str(&ps.err));
	pt->st = ps.st;
	pt->records = w.run.records;
	pt->unselected = w.run.unselected;
	pt->rejoined_at = sp_xcalloc(P->ncols ? P->ncols : 1,
	    sizeof *pt->rejoined_at);
	for (k = 0; k < P->ncols && k < ps.ncols; k++)
		pt->rejoined_at[k] = ps.rejoined_at[k];
	for (k = 0; k < ps.odd_states.n; k++) {
		const char *s = sp_intern_str(&ps.odd_states, k);

		sp_names_add(&pt->odd, s, strlen(s));
	}
	sp_sacct_free(&ps);
	fetch_select_free(&w.run);
	sp_buf_free(&w.run.line);
}

static void *
worker(void *arg)
{
	struct par *P = arg;
	size_t i;

	pthread_mutex_lock(&P->mu);
	for (;;) {
		while (!P->abort && P->next < P->nparts &&
		    P->next >= P->written + P->window)
			pthread_cond_wait(&P->cv, &P->mu);
		if (P->abort || P->next >= P->nparts)
			break;
		i = P->next++;
		pthread_mutex_unlock(&P->mu);
		read_part(P, i);
		pthread_mutex_lock(&P->mu);
		P->p[i].done = 1;
		pthread_cond_broadcast(&P->cv);
	}
	pthread_mutex_unlock(&P->mu);
	return NULL;
}

/* ------------------------------------------------------- the writing */

/* A requeued job's attempts so far, as one core would remember them. */
struct seen {
	struct sp_intern ids;		/* job id -> slot */
	size_t *attempts;		/* per slot; 0: none expected */
	char **ident;			/* per slot */
	size_t cap;
};

/* stranger() of sp_sacct.c over two identity keys (cluster, uid, user). */
static int
strangers(const char *a, size_t an, const char *b, size_t bn)
{
	const char *ae = a + an, *be = b + bn;

	while (a < ae || b < be) {
		const char *x = memchr(a, 0x1f, (size_t)(ae - a));
		const char *y = memchr(b, 0x1f, (size_t)(be - b));
		size_t xn = (size_t)((x ? x : ae) - a);
		size_t yn = (size_t)((y ? y : be) - b);

		if (xn > 0 && yn > 0 && (xn != yn || memcmp(a, b, xn) != 0))
			return 1;
		a = x ? x + 1 : ae;
		b = y ? y + 1 : be;
	}
	return 0;
}

/*
 * The attempt numbers a part's group should have start where the parts
 * before it left the job: returns how much to add to those it wrote.
 */
static size_t
renumber(struct seen *S, const struct part *pt, const struct group *g)
{
	const char *t = pt->text.p;
	long slot = sp_intern_find(&S->ids, t + g->id, g->id_len);
	size_t base = 0, i;

	if (slot >= 0 && S->attempts[slot] > 0) {
		const char *who = S->ident[slot];

		if (!strangers(t + g->ident, g->ident_len, who, strlen(who)))
			base = S->attempts[slot];
	}
	if (g->remembers) {
		if (g->requeues) {
			i = sp_intern(&S->ids, t + g->id, g->id_len);
			if (i >= S->cap) {
				size_t old = S->cap, c2 = S->cap;

				S->attempts = sp_xgrow(S->attempts, &S->cap, i + 1,
				    sizeof *S->attempts);
				S->ident = sp_xgrow(S->ident, &c2, i + 1,
				    sizeof *S->ident);
				memset(S->attempts + old, 0,
				    (S->cap - old) * sizeof *S->attempts);
				memset(S->ident + old, 0,
				    (S->cap - old) * sizeof *S->ident);
			}
			S->attempts[i] = base + g->attempts;
			/* Its identity now: the last attempt's. */
			free(S->ident[i]);
			S->ident[i] = sp_xstrndup(t + g->last, g->last_len);
		} else if (slot >= 0)
			S->attempts[slot] = 0;
	}
	return base > g->base ? base - g->base : 0;
}

static void
put(const char *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, stdout) != n)
		sp_die(SP_EXIT_FAIL, "<stdout>:");
}

/* The records of [from, to) with add added to each one's attempt. */
static void
put_renumbered(const char *p, const char *to, size_t add)
{
	struct sp_buf b = { 0 };

	while (p < to) {
		const char *e = line_end(p, to), *f = p, *num;
		unsigned long long a = 0;
		int tabs = 0;

		/* attempt is the sixth column (sp_job.h). */
		while (f < e && tabs < 5)
			if (*f++ == '\t')
				tabs++;
		num = f;
		while (f < e && *f >= '0' && *f <= '9')
			a = a * 10 + (unsigned long long)(*f++ - '0');
		sp_buf_clear(&b);
		sp_buf_add(&b, p, (size_t)(num - p));
		sp_buf_printf(&b, "%llu", a + add);
		sp_buf_add(&b, f, (size_t)(e - f));
		put(b.p, b.len);
		p = e;
	}
	sp_buf_free(&b);
}

static void
write_part(struct fetch_run *run, struct seen *S, const struct part *pt)
{
	const char *out = sp_buf_str(&pt->out);
	size_t at = 0, k;

	if (pt->out.len > 0)
		fetch_header(run);
	for (k = 0; k < pt->ng; k++) {
		const struct group *g = &pt->g[k];
		size_t add = renumber(S, pt, g);
		size_t end = k + 1 < pt->ng ? pt->g[k + 1].out_at : pt->out.len;

		if (add == 0)
			continue;
		put(out + at, g->out_at - at);
		put_renumbered(out + g->out_at, out + end, add);
		at = end;
	}
	put(out + at, pt->out.len - at);
}

/* The counts of the parts as one core's. */
static void
add_counts(struct sp_sacct *sum, const struct part *pt)
{
	struct sp_sacct_stats *a = &sum->st;
	const struct sp_sacct_stats *b = &pt->st;
	size_t k;

	if (b->short_rows > 0) {
		if (a->short_rows == 0 || b->short_fewest < a->short_fewest)
			a->short_fewest = b->short_fewest;
		if (b->short_most > a->short_most)
			a->short_most = b->short_most;
	}
	a->rows += b->rows;
	a->continued += b->continued;
	a->allocations += b->allocations;
	a->steps += b->steps;
	a->short_rows += b->short_rows;
	a->rejoined += b->rejoined;
	a->shifted += b->shifted;
	a->nul_rows += b->nul_rows;
	a->lost_steps += b->lost_steps;
	a->partial += b->partial;
	a->damaged += b->damaged;
	a->orphans += b->orphans;
	a->stray += b->stray;
	a->headers += b->headers;
	a->unknown_states += b->unknown_states;
	a->cpu_usersys += b->cpu_usersys;
	a->cpu_tres += b->cpu_tres;
	a->mem_update += b->mem_update;
	for (k = 0; k < sum->ncols; k++)
		sum->rejoined_at[k] += pt->rejoined_at[k];
	for (k = 0; k < pt->odd.n; k++)
		sp_intern(&sum->odd_states, sp_names_at(&pt->odd, k),
		    strlen(sp_names_at(&pt->odd, k)));
}

static void
free_part(struct part *pt)
{
	sp_buf_free(&pt->out);
	sp_buf_free(&pt->text);
	sp_buf_free(&pt->err);
	sp_names_free(&pt->odd);
	free(pt->rejoined_at);
	free(pt->g);
	memset(pt, 0, sizeof *pt);
}

/* ----------------------------------------------------------- setting up */

/* The header, the delimiter and the columns, from the file's first line. */
static int
probe(struct par *P, struct sp_sacct *pr)
{
	const struct fetch_opts *o = P->run->o;
	struct sp_sacct_config cfg;
	const char *first = P->map, *e = line_end(P->map, P->map + P->size);

	memset(&cfg, 0, sizeof cfg);
	cfg.delim = SP_SACCT_DETECT;
	cfg.fields = o->fields;
	sp_sacct_init(pr, &cfg);
	if (sp_sacct_feed(pr, first, (size_t)(e - first)) != 0 ||
	    (e[-1] != '\n') || pr->delim == SP_SACCT_CSV || !pr->have_cols)
		return -1;
	if (o->fields == NULL) {
		if ((size_t)(e - first) >= 3 &&
		    memcmp(first, "\xef\xbb\xbf", 3) == 0)
			first += 3;
		P->header = first;
		P->header_len = (size_t)(e - first);
	}
	P->delim = pr->delim;
	P->ncols = pr->ncols;
	return 0;
}

/* The parts: cut where a job starts, about part_bytes() apart. */
static void
plan(struct par *P, const struct sp_sacct *pr)
{
	size_t step = part_bytes(P->size), from = 0, cut, cap = 0;
	size_t data = P->header ? (size_t)(P->header + P->header_len - P->map) :
	    0;

	P->p = NULL;
	P->nparts = 0;
	while (from < P->size) {
		size_t at = from + step;

		if (at < data)
			at = data;
		cut = at >= P->size ? P->size :
		    cut_after(pr, P->map, P->size, at);
		P->p = sp_xgrow(P->p, &cap, P->nparts + 1, sizeof *P->p);
		memset(&P->p[P->nparts], 0, sizeof *P->p);
		P->p[P->nparts].from = from;
		P->p[P->nparts].to = cut;
		P->nparts++;
		from = cut;
	}
}

/*
 * A part read and written: its pages leave this process (they stay in
 * the page cache), so memory holds the parts in flight, not the file.
 * A page is read again from the file should a later part touch it.
 */
static void
drop_pages(const struct par *P, const struct part *pt)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t from = (pt->from + page - 1) / page * page;
	size_t to = pt->to / page * page;

	if (to > from)
		madvise((char *)P->map + from, to - from, MADV_DONTNEED);
}

static long
cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : n;
}

int
fetch_input_parallel(struct fetch_run *run, int fd, const char *name)
{
	struct par P;
	struct sp_sacct sum;
	struct seen S;
	struct stat sb;
	pthread_t tid[MAX_WORKERS];
	size_t i, nw;
	void *map;

	if (run->o->fmt != SP_FMT_TSV || cores() < 2 ||
	    fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (size_t)sb.st_size <= part_bytes((size_t)sb.st_size))
		return 1;
	map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return 1;
	memset(&P, 0, sizeof P);
	P.run = run;
	P.map = map;
	P.size = (size_t)sb.st_size;
	P.name = name;
	if (probe(&P, &sum) != 0) {
		sp_sacct_free(&sum);
		munmap(map, P.size);
		return 1;
	}
	plan(&P, &sum);
	if (P.nparts < 2) {
		free(P.p);
		sp_sacct_free(&sum);
		munmap(map, P.size);
		return 1;
	}
	madvise(map, P.size, MADV_SEQUENTIAL);
	nw = (size_t)cores();
	if (nw > P.nparts)
		nw = P.nparts;
	P.window = AHEAD * nw;
	pthread_mutex_init(&P.mu, NULL);
	pthread_cond_init(&P.cv, NULL);
	for (i = 0; i < nw; i++)
		if (pthread_create(&tid[i], NULL, worker, &P) != 0)
			sp_die(SP_EXIT_USAGE, "cannot start a thread: %s",
			    strerror(errno));

	/* The counts go into the probe, which knows the columns' names. */
	memset(&sum.st, 0, sizeof sum.st);
	memset(&S, 0, sizeof S);
	for (i = 0; i < P.nparts; i++) {
		struct part *pt = &P.p[i];

		pthread_mutex_lock(&P.mu);
		while (!pt->done)
			pthread_cond_wait(&P.cv, &P.mu);
		pthread_mutex_unlock(&P.mu);
		if (pt->err.len) {
			pthread_mutex_lock(&P.mu);
			P.abort = 1;
			pthread_cond_broadcast(&P.cv);
			pthread_mutex_unlock(&P.mu);
			write_part(run, &S, pt);
			sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&pt->err));
		}
		write_part(run, &S, pt);
		drop_pages(&P, pt);
		add_counts(&sum, pt);
		run->records += pt->records;
		run->unselected += pt->unselected;
		free_part(pt);
		pthread_mutex_lock(&P.mu);
		P.written++;
		pthread_cond_broadcast(&P.cv);
		pthread_mutex_unlock(&P.mu);
	}
	for (i = 0; i < nw; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&P.mu);
	pthread_cond_destroy(&P.cv);
	if (run->o->verbose) {
		fetch_say_delimiter(&sum, name);
		sp_warn("%s: read in %zu parts, %zu at once", name, P.nparts,
		    nw);
	}
	fetch_said(run, &sum);
	if (run->records == 0)
		fetch_none_in(run, name);
	sp_sacct_free(&sum);
	for (i = 0; i < S.cap; i++)
		free(S.ident[i]);
	free(S.ident);
	sp_intern_free(&S.ids);
	free(S.attempts);
	free(P.p);
	munmap(map, P.size);
	return 0;
}
