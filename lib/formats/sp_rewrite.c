/*
 * sp_rewrite.c - a file's lines kept, changed, dropped and added to: the
 * new text, the unified diff, the file replaced in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp_rewrite.h"

/* Lines of context around a change, as diff -u gives. */
#define CONTEXT 3

static const char *const eol_bytes[] = { "", "\n", "\r\n" };

void
sp_rewrite_init(struct sp_rewrite *rw, const char *text,
		const struct sp_sline *lines, size_t nlines)
{
	memset(rw, 0, sizeof *rw);
	rw->text = text;
	rw->lines = lines;
	rw->nlines = nlines;
}

void
sp_rewrite_free(struct sp_rewrite *rw)
{
	free(rw->rows);
	sp_buf_free(&rw->buf);
	memset(rw, 0, sizeof *rw);
}

static struct sp_row *
row(struct sp_rewrite *rw, long old)
{
	struct sp_row *r;

	rw->rows = sp_xgrow(rw->rows, &rw->cap, rw->n + 1, sizeof *rw->rows);
	r = &rw->rows[rw->n++];
	memset(r, 0, sizeof *r);
	r->old = old;
	r->eol = old >= 0 ? rw->lines[old].eol : SP_EOL_LF;
	return r;
}

static void
own_text(struct sp_rewrite *rw, struct sp_row *r, const char *p, size_t n)
{
	r->own = 1;
	r->off = rw->buf.len;
	r->len = n;
	sp_buf_add(&rw->buf, p, n);
}

void
sp_rewrite_keep(struct sp_rewrite *rw, size_t line)
{
	row(rw, (long)line);
}

void
sp_rewrite_drop(struct sp_rewrite *rw, size_t line)
{
	row(rw, (long)line)->drop = 1;
}

void
sp_rewrite_change(struct sp_rewrite *rw, size_t line, const char *p, size_t n)
{
	own_text(rw, row(rw, (long)line), p, n);
}

void
sp_rewrite_add(struct sp_rewrite *rw, const char *p, size_t n,
	       enum sp_eol eol)
{
	struct sp_row *r = row(rw, -1);

	own_text(rw, r, p, n);
	r->eol = eol;
}

/* A row's text, and the original's for a row of an original line. */
static const char *
row_text(const struct sp_rewrite *rw, const struct sp_row *r, size_t *n)
{
	if (r->own) {
		*n = r->len;
		return rw->buf.p + r->off;
	}
	*n = rw->lines[r->old].len;
	return rw->text + rw->lines[r->old].off;
}

static const char *
old_text(const struct sp_rewrite *rw, const struct sp_row *r, size_t *n)
{
	*n = rw->lines[r->old].len;
	return rw->text + rw->lines[r->old].off;
}

/* An original line, unchanged. */
static int
same(const struct sp_rewrite *rw, const struct sp_row *r)
{
	size_t n, m;
	const char *p, *q;

	if (r->old < 0 || r->drop)
		return 0;
	if (r->eol != rw->lines[r->old].eol)
		return 0;
	p = row_text(rw, r, &n);
	q = old_text(rw, r, &m);
	return n == m && memcmp(p, q, n) == 0;
}

/* A row whose end changes takes its text as its own. */
static void
set_eol(struct sp_rewrite *rw, struct sp_row *r, enum sp_eol eol)
{
	if (r->eol == eol)
		return;
	if (!r->own) {
		size_t n;
		const char *p = old_text(rw, r, &n);

		own_text(rw, r, p, n);
	}
	r->eol = eol;
}

void
sp_rewrite_finish(struct sp_rewrite *rw)
{
	enum sp_eol dflt = SP_EOL_LF;
	long last = -1;

	if (rw->nlines == 0 || rw->lines[rw->nlines - 1].eol != SP_EOL_NONE)
		return;
	for (size_t i = 0; i < rw->nlines; i++)
		if (rw->lines[i].eol != SP_EOL_NONE)
			dflt = rw->lines[i].eol;
	for (size_t i = 0; i < rw->n; i++)
		if (!rw->rows[i].drop)
			last = (long)i;
	/* Whatever comes last ends the file as the original did. */
	for (size_t i = 0; i < rw->n; i++) {
		struct sp_row *r = &rw->rows[i];

		if (r->drop)
			continue;
		if ((long)i == last)
			set_eol(rw, r, SP_EOL_NONE);
		else if (r->eol == SP_EOL_NONE)
			set_eol(rw, r, dflt);
	}
}

size_t
sp_rewrite_changes(const struct sp_rewrite *rw)
{
	size_t n = 0;

	for (size_t i = 0; i < rw->n; i++)
		n += !same(rw, &rw->rows[i]);
	return n;
}

void
sp_rewrite_text(const struct sp_rewrite *rw, struct sp_buf *out)
{
	for (size_t i = 0; i < rw->n; i++) {
		const struct sp_row *r = &rw->rows[i];
		size_t n;
		const char *p;

		if (r->drop)
			continue;
		p = row_text(rw, r, &n);
		sp_buf_add(out, p, n);
		sp_buf_adds(out, eol_bytes[r->eol]);
	}
	if (out->p == NULL)
		sp_buf_adds(out, "");
}

/* ------------------------------------------------------ unified diff */

struct item {
	char op;		/* ' ', '-', '+' */
	const char *p;
	size_t n;
	enum sp_eol eol;
};

struct items {
	struct item *v;
	size_t n, cap;
};

static void
item(struct items *it, char op, const char *p, size_t n, enum sp_eol eol)
{
	it->v = sp_xgrow(it->v, &it->cap, it->n + 1, sizeof *it->v);
	it->v[it->n++] = (struct item){ op, p, n, eol };
}

/* The rows as diff lines; in each run of changes every '-' comes before
 * every '+', as diff writes them. */
static void
items_of(const struct sp_rewrite *rw, struct items *it)
{
	size_t i = 0;

	while (i < rw->n) {
		size_t j = i, n;
		const char *p;

		if (same(rw, &rw->rows[i])) {
			p = row_text(rw, &rw->rows[i], &n);
			item(it, ' ', p, n, rw->rows[i].eol);
			i++;
			continue;
		}
		while (j < rw->n && !same(rw, &rw->rows[j]))
			j++;
		for (size_t k = i; k < j; k++)
			if (rw->rows[k].old >= 0) {
				p = old_text(rw, &rw->rows[k], &n);
				item(it, '-', p, n,
				     rw->lines[rw->rows[k].old].eol);
			}
		for (size_t k = i; k < j; k++)
			if (!rw->rows[k].drop) {
				p = row_text(rw, &rw->rows[k], &n);
				item(it, '+', p, n, rw->rows[k].eol);
			}
		i = j;
	}
}

static void
hunk(struct sp_buf *out, const struct items *it, size_t from, size_t to,
     size_t old_before, size_t new_before)
{
	size_t old_n = 0, new_n = 0;

	for (size_t i = from; i < to; i++) {
		old_n += it->v[i].op != '+';
		new_n += it->v[i].op != '-';
	}
	/* An empty side names the line before it, as diff does. */
	sp_buf_printf(out, "@@ -%zu,%zu +%zu,%zu @@\n",
		      old_n ? old_before + 1 : old_before, old_n,
		      new_n ? new_before + 1 : new_before, new_n);
	for (size_t i = from; i < to; i++) {
		const struct item *x = &it->v[i];

		sp_buf_addc(out, x->op);
		sp_buf_add(out, x->p, x->n);
		if (x->eol == SP_EOL_NONE)
			sp_buf_adds(out, "\n\\ No newline at end of file\n");
		else
			sp_buf_adds(out, eol_bytes[x->eol]);
	}
}

void
sp_rewrite_diff(const struct sp_rewrite *rw, const char *path,
		struct sp_buf *out)
{
	struct items it = { 0 };
	size_t i = 0, counted = 0, old_before = 0, new_before = 0;
	int header = 0;

	items_of(rw, &it);
	while (i < it.n) {
		size_t from, to, gap;

		if (it.v[i].op == ' ') {
			i++;
			continue;
		}
		/* A hunk: its changes, joined while the context between two is
		 * at most twice CONTEXT, and CONTEXT lines each side. */
		from = i > CONTEXT ? i - CONTEXT : 0;
		to = i;
		for (;;) {
			while (to < it.n && it.v[to].op != ' ')
				to++;
			gap = 0;
			while (to + gap < it.n && it.v[to + gap].op == ' ')
				gap++;
			if (to + gap < it.n && gap <= 2 * CONTEXT) {
				to += gap;
				continue;
			}
			to += gap < CONTEXT ? gap : CONTEXT;
			break;
		}
		/* Hunks never overlap: the lines before this one are those
		 * before the last, and the ones since. */
		for (; counted < from; counted++) {
			old_before += it.v[counted].op != '+';
			new_before += it.v[counted].op != '-';
		}
		if (!header) {
			sp_buf_printf(out, "--- %s\n+++ %s\n", path, path);
			header = 1;
		}
		hunk(out, &it, from, to, old_before, new_before);
		i = to;
	}
	free(it.v);
}

/* ------------------------------------------------------------ in place */

int
sp_rewrite_read(const char *path, struct sp_buf *out)
{
	char chunk[65536];
	int fd = open(path, O_RDONLY);

	sp_buf_clear(out);
	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t got = read(fd, chunk, sizeof chunk);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		if (got == 0)
			break;
		sp_buf_add(out, chunk, (size_t)got);
	}
	close(fd);
	return 0;
}

static int
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t put = write(fd, p, n);

		if (put < 0 && errno == EINTR)
			continue;
		if (put < 0)
			return -1;
		p += put;
		n -= (size_t)put;
	}
	return 0;
}

/*
 * text written to a new file beside path (its name in tmp), with the
 * permissions and, where allowed, the owner of st.  0, or -1 with errno.
 */
static int
write_beside(const char *path, const struct stat *st, const char *text,
	     size_t len, struct sp_buf *tmp)
{
	int fd, rc;

	sp_buf_clear(tmp);
	sp_buf_printf(tmp, "%s.XXXXXX", path);
	fd = mkstemp(tmp->p);
	if (fd < 0)
		return -1;
	/* Only root may give a file away; a user's own file stays theirs. */
	if (fchown(fd, st->st_uid, st->st_gid) != 0)
		errno = 0;
	rc = fchmod(fd, st->st_mode & 07777) != 0 ||
	    write_all(fd, text, len) != 0 || fsync(fd) != 0;
	if (close(fd) != 0)
		rc = 1;
	if (rc) {
		int saved = errno;

		unlink(tmp->p);
		errno = saved;
		return -1;
	}
	return 0;
}

int
sp_rewrite_replace(const char *path, const char *old, size_t oldlen,
		   const char *text, size_t len, const char *backup,
		   struct sp_buf *err)
{
	struct sp_buf tmp = { 0 }, btmp = { 0 }, now = { 0 }, bpath = { 0 };
	char *real = realpath(path, NULL);
	struct stat st;
	int rc = -1;

	if (real == NULL || stat(real, &st) != 0) {
		sp_buf_printf(err, "%s: %s", path, strerror(errno));
		free(real);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		sp_buf_printf(err, "%s: not a regular file: left as it is",
			      path);
		free(real);
		return -1;
	}
	if (write_beside(real, &st, text, len, &tmp) != 0) {
		sp_buf_printf(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (backup != NULL) {
		sp_buf_printf(&bpath, "%s%s", real, backup);
		if (write_beside(real, &st, old, oldlen, &btmp) != 0) {
			sp_buf_printf(err, "%s: %s", sp_buf_str(&bpath),
				      strerror(errno));
			goto out;
		}
	}
	/* Last, what is there now: another editor may have saved. */
	if (sp_rewrite_read(real, &now) != 0) {
		sp_buf_printf(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (now.len != oldlen || (oldlen > 0 && memcmp(now.p, old, oldlen))) {
		sp_buf_printf(err, "%s changed since it was read: left as it "
			      "is", path);
		goto out;
	}
	if (backup != NULL && rename(btmp.p, bpath.p) != 0) {
		sp_buf_printf(err, "%s: %s", sp_buf_str(&bpath),
			      strerror(errno));
		goto out;
	}
	sp_buf_clear(&btmp);
	if (rename(tmp.p, real) != 0) {
		sp_buf_printf(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	sp_buf_clear(&tmp);
	rc = 0;
out:
	if (tmp.len > 0)
		unlink(tmp.p);
	if (btmp.len > 0)
		unlink(btmp.p);
	sp_buf_free(&tmp);
	sp_buf_free(&btmp);
	sp_buf_free(&now);
	sp_buf_free(&bpath);
	free(real);
	return rc;
}
