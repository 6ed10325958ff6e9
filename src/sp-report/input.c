/*
 * input.c - the records sp-report reads, each by its role, and what it
 * keeps of them across parts: a workload's name for people, and the
 * highest severity of its findings.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sp_term.h"

static const char *const role_options[IN_N] = { "--rollup",
	"--hang-summary", "--findings", "--advice", "--hangs", "--failed",
	"--job-findings", "--exclude", "--fetch-stats",
	"--shown", "--sources", "--running" };

const char *
role_option(enum role role)
{
	return role_options[role];
}

void
input_open(struct sp_reader *r, const struct opts *o, enum role role)
{
	char *paths[1];

	if (o->in[role] == NULL)
		sp_die(SP_EXIT_USAGE, "%s needs %s FILE", o->part,
		       role_options[role]);
	paths[0] = (char *)o->in[role];
	sp_open_or_die(r, paths, 1);
}

char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	struct sp_buf b = { 0 };
	char chunk[65536];
	size_t n;

	if (fp == NULL)
		sp_die(SP_EXIT_USAGE, "%s:", path);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		sp_buf_add(&b, chunk, n);
	if (ferror(fp))
		sp_die(SP_EXIT_USAGE, "%s:", path);
	fclose(fp);
	*len = b.len;
	return b.p ? b.p : sp_xstrdup("");
}

double
field_num(struct sp_slice f)
{
	double v;

	return sp_field_num(f, &v) == 1 ? v : NAN;
}

void
field_text(struct sp_buf *b, struct sp_slice f)
{
	struct sp_buf raw = { 0 };

	sp_field_decode(&raw, f.p, f.n);
	sp_text_clean(b, raw.p ? raw.p : "", raw.len, 0);
	sp_buf_free(&raw);
}

void
field_lines(struct sp_buf *b, struct sp_slice f, const char *indent)
{
	static const struct sp_term plain = { .width = 0 };
	struct sp_buf raw = { 0 }, clean = { 0 };

	sp_field_decode(&raw, f.p, f.n);
	sp_term_clean(&plain, &clean, raw.p ? raw.p : "", raw.len, 1);
	for (size_t i = 0; i < clean.len; i++) {
		sp_buf_addc(b, clean.p[i]);
		if (clean.p[i] == '\n')
			sp_buf_adds(b, indent);
	}
	sp_buf_free(&raw);
	sp_buf_free(&clean);
}

size_t
top_of(const struct opts *o, size_t dflt)
{
	return o->top < 0 ? dflt : (size_t)o->top;
}

void
table_start(struct sp_writer *w, const struct opts *o,
	    const char *const *cols)
{
	sp_writer_init(w, stdout, o->fmt);
	if (o->width)
		sp_writer_width(w, o->width);
	for (; *cols; cols++)
		sp_writer_column(w, *cols);
	sp_writer_header(w);
}

/* Grows an array of pointers or bytes to hold index i. */
static void *
grow_to(void *v, size_t *cap, size_t i, size_t elem)
{
	size_t old = *cap;

	if (i < old)
		return v;
	v = sp_xgrow(v, cap, i + 1, elem);
	memset((char *)v + old * elem, 0, (*cap - old) * elem);
	return v;
}

/* The key's part n (0 user, 1 partition, 2 gpu|cpu), or all of it. */
static struct sp_slice
key_part(struct sp_slice key, int n)
{
	const char *p = key.p, *end = key.p + key.n, *slash;

	for (int i = 0; i < n; i++) {
		slash = memchr(p, '/', (size_t)(end - p));
		if (slash == NULL)
			return key;
		p = slash + 1;
	}
	slash = memchr(p, '/', (size_t)(end - p));
	return (struct sp_slice){ p, slash ? (size_t)(slash - p) :
				  (size_t)(end - p) };
}

/*
 * Two workloads of one user under one name (label-arxiv in two
 * partitions) would read as one: each is told apart by its partition
 * when no other of the name shares it, else by its key.
 */
static void
labels_mark_shared(struct labels *l)
{
	struct sp_intern names = { 0 }, parts = { 0 };
	struct sp_buf b = { 0 };
	size_t n = l->keys.n, *name, *part, *nname, *npart;

	name = sp_xcalloc(n ? n : 1, sizeof *name);
	part = sp_xcalloc(n ? n : 1, sizeof *part);
	nname = sp_xcalloc(n ? n : 1, sizeof *nname);
	npart = sp_xcalloc(n ? n : 1, sizeof *npart);
	l->shared = sp_xcalloc(n ? n : 1, 1);
	l->sharedcap = n;
	for (size_t i = 0; i < n; i++) {
		struct sp_slice key = { l->keys.e[i].s, l->keys.e[i].n };
		struct sp_slice user = key_part(key, 0), p = key_part(key, 1);

		if (l->label[i] == NULL)
			continue;
		sp_buf_clear(&b);
		sp_buf_add(&b, user.p, user.n);
		sp_buf_addc(&b, '\0');
		sp_buf_adds(&b, l->label[i]);
		name[i] = sp_intern(&names, b.p, b.len);
		nname[name[i]]++;
		sp_buf_addc(&b, '\0');
		sp_buf_add(&b, p.p, p.n);
		part[i] = sp_intern(&parts, b.p, b.len);
		npart[part[i]]++;
	}
	for (size_t i = 0; i < n; i++)
		if (l->label[i] != NULL && nname[name[i]] > 1)
			l->shared[i] = npart[part[i]] > 1 ? 1 : 2;
	sp_buf_free(&b);
	sp_intern_free(&names);
	sp_intern_free(&parts);
	free(name);
	free(part);
	free(nname);
	free(npart);
}

void
labels_load(struct labels *l, const struct opts *o)
{
	struct sp_reader r;
	struct sp_intern users = { 0 };
	int key, label, user;

	memset(l, 0, sizeof *l);
	input_open(&r, o, IN_ROLLUP);
	key = sp_reader_need(&r, "workload_key", "sp-group");
	label = sp_reader_need(&r, "label", "sp-group --rollup");
	user = sp_reader_col(&r, "user");
	while (sp_next_or_die(&r)) {
		struct sp_slice k = r.f[key];
		size_t i = sp_intern(&l->keys, k.p, k.n);
		struct sp_buf b = { 0 };

		if (user >= 0)
			sp_intern(&users, r.f[user].p, r.f[user].n);
		l->label = grow_to(l->label, &l->cap, i, sizeof *l->label);
		free(l->label[i]);
		field_text(&b, r.f[label]);
		l->label[i] = sp_xstrdup(sp_buf_str(&b));
		sp_buf_free(&b);
	}
	l->several_users = users.n > 1;
	sp_intern_free(&users);
	sp_reader_close(&r);
	labels_mark_shared(l);
}

void
labels_name(const struct labels *l, struct sp_buf *b, struct sp_slice key,
	    struct sp_slice workload)
{
	long i = sp_intern_find(&l->keys, key.p, key.n);
	const char *slash;

	if (i < 0 || l->label[i] == NULL) {
		field_text(b, workload.n ? workload : key);
		return;
	}
	sp_buf_adds(b, l->label[i]);
	if ((size_t)i < l->sharedcap && l->shared[i]) {
		/* Another workload of the user has the name: which one. */
		sp_buf_adds(b, l->shared[i] == 2 ? " [partition " : " [");
		field_text(b, l->shared[i] == 2 ? key_part(key, 1) : key);
		sp_buf_addc(b, ']');
	}
	if (!l->several_users)
		return;
	/* The user is the key's first part. */
	slash = memchr(key.p, '/', key.n);
	sp_buf_adds(b, " (");
	field_text(b, (struct sp_slice){ key.p,
		   slash ? (size_t)(slash - key.p) : key.n });
	sp_buf_addc(b, ')');
}

void
labels_free(struct labels *l)
{
	for (size_t i = 0; i < l->keys.n; i++)
		free(l->label[i]);
	free(l->label);
	free(l->shared);
	sp_intern_free(&l->keys);
}

/* ------------------------------------------------------------ severity */

static const char *const severity_words[] = { "ok", "info", "warning",
	"critical" };

int
severity_rank(struct sp_slice name)
{
	for (int i = 3; i > 0; i--)
		if (sp_slice_eq(name, severity_words[i]))
			return i;
	return 0;
}

const char *
severity_word(int rank)
{
	return rank >= 0 && rank <= 3 ? severity_words[rank] : "";
}

void
severities_load(struct severities *s, const struct opts *o)
{
	struct sp_reader r;
	int key, sev;

	memset(s, 0, sizeof *s);
	input_open(&r, o, IN_FINDINGS);
	key = sp_reader_need(&r, "workload_key", "sp-size --findings");
	sev = sp_reader_need(&r, "severity", "sp-size --findings");
	while (sp_next_or_die(&r)) {
		size_t i = sp_intern(&s->keys, r.f[key].p, r.f[key].n);
		int rank = severity_rank(r.f[sev]);

		s->sev = grow_to(s->sev, &s->cap, i, 1);
		if (rank > s->sev[i])
			s->sev[i] = (unsigned char)rank;
		if (rank > s->worst)
			s->worst = rank;
	}
	sp_reader_close(&r);
}

int
severity_of(const struct severities *s, struct sp_slice key)
{
	long i = sp_intern_find(&s->keys, key.p, key.n);

	return i < 0 ? 0 : s->sev[i];
}

void
severities_free(struct severities *s)
{
	free(s->sev);
	sp_intern_free(&s->keys);
}
