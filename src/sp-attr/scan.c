/*
 * scan.c - one file read once, in large blocks.
 *
 * The buffer holds whole lines.  In it, memmem finds the few byte
 * patterns that can matter: sbatch's answer, a Bash call (a transcript's
 * "Bash" block), a "!" command, the id of a --parsable call whose answer
 * is awaited; in a text file, the word sbatch.  Only a line holding one
 * is looked at closely, so most of a transcript is never walked.  A line
 * longer than the buffer is walked as a stream, in buffer-sized pieces
 * that overlap by the few bytes an id needs, so no line is ever held
 * whole and the memory is the buffer's whatever the file.
 *
 * A file whose first byte (after blanks) is '{' is JSON Lines: each line
 * that is an object goes through json.c; any other line is text.
 */
#define _GNU_SOURCE	/* memmem, memrchr */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp.h"
#include "attr.h"

/* The bytes that make a line worth a close look. */
static const char *const json_needles[] = { ATTR_NEEDLE, "\"Bash\"",
	"<bash-input>", NULL };
static const char *const text_needles[] = { ATTR_NEEDLE, "sbatch", NULL };

#define NEEDLES_MAX	3

struct scanner {
	struct attr_scan s;
	int fd;
	char *buf;
	size_t cap, len, pos;
	int eof;
	int json;
	struct attr_json *j;
	const char *const *needles;
	/* each needle's next place in the region, valid from its start */
	const char *next[NEEDLES_MAX];
	const char *from[NEEDLES_MAX];
	/* text: the last line ran sbatch --parsable; its answer is next */
	int bare_next;
	int64_t bare_at;
	int bare_at_known;
	struct attr_stats *st;
};

/* A UUID, as Claude Code names its sessions. */
static int
is_uuid(const char *p, size_t n)
{
	if (n != 36)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash != (p[i] == '-'))
			return 0;
		if (!dash && !((p[i] >= '0' && p[i] <= '9') ||
			       (p[i] >= 'a' && p[i] <= 'f') ||
			       (p[i] >= 'A' && p[i] <= 'F')))
			return 0;
	}
	return 1;
}

/*
 * The session a file belongs to by its place: <session>.jsonl, or a
 * tool's output Claude Code kept apart, <session>/tool-results/<file>.
 */
static long
session_of_path(struct attr_scan *s, const char *path)
{
	const char *base = strrchr(path, '/'), *p, *q;
	size_t n = strlen(path);

	base = base ? base + 1 : path;
	if (n - (size_t)(base - path) == 36 + 6 &&
	    strcmp(base + 36, ".jsonl") == 0 && is_uuid(base, 36)) {
		p = base;
	} else {
		static const char tr[] = "/tool-results/";

		if (base - path < (long)(sizeof tr - 1 + 36) ||
		    memcmp(base - (sizeof tr - 1), tr, sizeof tr - 1) != 0)
			return -1;
		q = base - (sizeof tr - 1);
		p = q - 36;
		if (p > path && p[-1] != '/')
			return -1;
		if (!is_uuid(p, 36))
			return -1;
	}
	sp_buf_clear(&s->src);
	sp_buf_adds(&s->src, ATTR_SESSION_PREFIX);
	sp_buf_add(&s->src, p, 36);
	return (long)sp_intern(&s->claims->sources, s->src.p, s->src.len);
}

/*
 * A shell's history (.bash_history, .zsh_history, fish_history,
 * .history) holds commands, never their output: it answers nothing.
 */
static int
is_history(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (strcmp(base, ".history") == 0 || strcmp(base, "fish_history") == 0)
		return 1;
	return base[0] == '.' && n > 8 && strcmp(base + n - 8, "_history") == 0;
}

/* ------------------------------------------------------------- input */

/* Reads until the buffer is full or the file ends; -1 on error. */
static int
fill(struct scanner *sc)
{
	while (!sc->eof && sc->len < sc->cap) {
		ssize_t k = read(sc->fd, sc->buf + sc->len, sc->cap - sc->len);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (k == 0)
			sc->eof = 1;
		sc->len += (size_t)k;
		sc->st->bytes += (unsigned long long)k;
	}
	return 0;
}

/* Keeps the unread part, from pos, at the start of the buffer. */
static void
compact(struct scanner *sc)
{
	if (sc->pos == 0)
		return;
	memmove(sc->buf, sc->buf + sc->pos, sc->len - sc->pos);
	sc->len -= sc->pos;
	sc->pos = 0;
}

/* -------------------------------------------------------- text lines */

static void
text_claim(struct scanner *sc, uint32_t job, const char *cl, size_t cln,
	   int64_t at, int at_known)
{
	attr_scan_claim(&sc->s, job, cl, cln, NULL, 0, NULL, 0, at, at_known);
}

/*
 * Every "Submitted batch job N" in [p, p + n) (its id read up to lim),
 * claimed at the line's time.
 */
static void
text_needles_in(struct scanner *sc, const char *p, size_t n, const char *lim,
		int64_t at, int at_known)
{
	const char *q = p, *end = p + n;

	for (;;) {
		size_t span = (size_t)(end - q) + ATTR_NEEDLE_LEN - 1;
		const char *h, *id;
		uint32_t job;
		const char *cl;
		size_t cln;

		if (q >= end)
			return;
		if (span > (size_t)(lim - q))
			span = (size_t)(lim - q);
		h = memmem(q, span, ATTR_NEEDLE, ATTR_NEEDLE_LEN);
		if (h == NULL || h >= end)
			return;
		id = h + ATTR_NEEDLE_LEN;
		if (attr_after_needle(id, (size_t)(lim - id), &job, &cl, &cln))
			text_claim(sc, job, cl, cln, at, at_known);
		q = h + 1;
	}
}

/* A whole text line [p, p + n). */
static void
text_line(struct scanner *sc, const char *p, size_t n)
{
	int64_t at = 0;
	int at_known = attr_stamp(p, n, &at);
	uint32_t job;
	const char *cl;
	size_t cln;

	if (sc->bare_next && n <= ATTR_CMDLINE_MAX &&
	    attr_bare_id(p, n, &job, &cl, &cln)) {
		/* The answer's line seldom has a time; the command's may. */
		if (at_known)
			text_claim(sc, job, cl, cln, at, 1);
		else
			text_claim(sc, job, cl, cln, sc->bare_at,
				   sc->bare_at_known);
	}
	text_needles_in(sc, p, n, p + n, at, at_known);
	sc->bare_next = n <= ATTR_CMDLINE_MAX &&
			attr_has_word(p, n, "sbatch") &&
			memmem(p, n, "--parsable", 10) != NULL;
	sc->bare_at = at;
	sc->bare_at_known = at_known;
}

/* -------------------------------------------------------- JSON lines */

/* Feeds [p, p + n) to the walk, stopping at each needle in it. */
static void
json_piece(struct scanner *sc, const char *p, size_t n, const char *lim)
{
	const char *q = p, *end = p + n;

	while (q < end) {
		size_t span = (size_t)(end - q) + ATTR_NEEDLE_LEN - 1;
		const char *h, *id, *cl;
		uint32_t job;
		size_t cln;

		if (span > (size_t)(lim - q))
			span = (size_t)(lim - q);
		h = memmem(q, span, ATTR_NEEDLE, ATTR_NEEDLE_LEN);
		if (h == NULL || h >= end)
			break;
		attr_json_feed(sc->j, &sc->s, q, (size_t)(h - q));
		id = h + ATTR_NEEDLE_LEN;
		if (attr_after_needle(id, (size_t)(lim - id), &job, &cl, &cln))
			attr_json_hit(sc->j, job, cl, cln);
		attr_json_feed(sc->j, &sc->s, h, 1);
		q = h + 1;
	}
	attr_json_feed(sc->j, &sc->s, q, (size_t)(end - q));
}

static int
opens_object(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
		i++;
	return i < n && p[i] == '{';
}

/*
 * One whole line [p, p + n); cut when the file ended inside it.  In
 * JSON Lines a line that is no object is read for sbatch's answers only,
 * as it is when it streams (long_line): the file shows no commands.
 */
static void
one_line(struct scanner *sc, const char *p, size_t n, int cut)
{
	int64_t at = 0;
	int at_known;

	if (!sc->json) {
		text_line(sc, p, n);
	} else if (opens_object(p, n)) {
		attr_json_begin(sc->j);
		json_piece(sc, p, n, p + n);
		attr_json_end(sc->j, &sc->s, cut);
	} else {
		at_known = attr_stamp(p, n, &at);
		text_needles_in(sc, p, n, p + n, at, at_known);
	}
}

/* ----------------------------------------------------- the prefilter */

/*
 * The first place at or after q where a line may hold something: a
 * needle, or (in a transcript) the id of a call whose answer is awaited.
 */
static const char *
next_mark(struct scanner *sc, const char *q, const char *end)
{
	const char *best = NULL;

	for (int k = 0; sc->needles[k]; k++) {
		const char *nd = sc->needles[k];

		if (sc->from[k] == NULL || sc->from[k] > q ||
		    (sc->next[k] != NULL && sc->next[k] < q)) {
			sc->next[k] = memmem(q, (size_t)(end - q), nd,
					     strlen(nd));
			sc->from[k] = q;
		}
		if (sc->next[k] && (best == NULL || sc->next[k] < best))
			best = sc->next[k];
	}
	if (sc->json && sc->s.ring.awaiting > 0) {
		for (size_t i = 0; i < sc->s.ring.n; i++) {
			const struct attr_call *c = &sc->s.ring.e[i];
			const char *h;

			if (c->answered || !(c->kind & ATTR_CMD_PARSABLE))
				continue;
			h = memmem(q, (size_t)(end - q), c->id, c->id_n);
			if (h && (best == NULL || h < best))
				best = h;
		}
	}
	if (sc->json && sc->s.bang_pending) {
		const char *h = memmem(q, (size_t)(end - q), "<bash-stdout>", 13);

		if (h && (best == NULL || h < best))
			best = h;
	}
	return best;
}

/* The complete lines [a, b), b just after a newline. */
static void
region(struct scanner *sc, const char *a, const char *b)
{
	const char *q = a;

	for (int k = 0; k < NEEDLES_MAX; k++)
		sc->next[k] = sc->from[k] = NULL;
	while (q < b) {
		const char *h, *ls, *le;

		if (sc->bare_next) {
			/* the line after a --parsable command, whatever it holds */
			le = memchr(q, '\n', (size_t)(b - q));
			one_line(sc, q, (size_t)(le - q), 0);
			q = le + 1;
			continue;
		}
		h = next_mark(sc, q, b);
		if (h == NULL)
			return;
		ls = h;
		while (ls > q && ls[-1] != '\n')
			ls--;
		le = memchr(h, '\n', (size_t)(b - h));
		one_line(sc, ls, (size_t)(le - ls), 0);
		q = le + 1;
	}
}

/* --------------------------------------------------------- long lines */

/* A transcript's last line has no end: the file was cut while written. */
static void
cut(struct scanner *sc)
{
	if (sc->st->cut++ == 0)
		sp_buf_adds(&sc->st->cut_first, sc->s.path);
}

/*
 * A line longer than the buffer (which it fills, from its start): walked
 * in pieces, each ending ATTR_LOOKAHEAD bytes before the buffer's end so
 * that an id after a needle near the cut is read whole.
 */
static int
long_line(struct scanner *sc)
{
	int json = sc->json && opens_object(sc->buf, sc->len);
	int64_t at = 0;
	int at_known = json ? 0 : attr_stamp(sc->buf, sc->len, &at);

	if (json)
		attr_json_begin(sc->j);
	for (;;) {
		char *nl = memchr(sc->buf, '\n', sc->len);
		size_t end = nl ? (size_t)(nl - sc->buf) :
			     sc->eof ? sc->len : sc->len - ATTR_LOOKAHEAD;
		const char *lim = nl || sc->eof ? sc->buf + end :
			          sc->buf + sc->len;

		if (json)
			json_piece(sc, sc->buf, end, lim);
		else
			text_needles_in(sc, sc->buf, end, lim, at, at_known);
		if (nl || sc->eof) {
			if (json)
				attr_json_end(sc->j, &sc->s, nl == NULL);
			if (json && nl == NULL)
				cut(sc);
			/* no command line is this long: nothing is awaited */
			sc->bare_next = 0;
			sc->pos = nl ? end + 1 : end;
			return 0;
		}
		sc->pos = end;
		compact(sc);
		if (fill(sc) < 0)
			return -1;
	}
}

/* ------------------------------------------------------------- files */

static int
scan_all(struct scanner *sc)
{
	for (;;) {
		char *lastnl;

		compact(sc);
		if (fill(sc) < 0)
			return -1;
		if (sc->len == 0)
			return 0;
		lastnl = memrchr(sc->buf, '\n', sc->len);
		if (lastnl != NULL) {
			region(sc, sc->buf, lastnl + 1);
			sc->pos = (size_t)(lastnl + 1 - sc->buf);
			continue;
		}
		if (sc->eof) {
			/* the last line, with no newline: cut short */
			one_line(sc, sc->buf, sc->len, 1);
			if (sc->json && opens_object(sc->buf, sc->len))
				cut(sc);
			sc->pos = sc->len;
			continue;
		}
		if (long_line(sc) < 0)
			return -1;
	}
}

/*
 * What kind of file its first ATTR_SNIFF bytes say it is (never more,
 * so the answer is the same whatever the buffer): 0 text, 1 JSON Lines,
 * -1 binary (a NUL byte: ELF, gzip, PNG and SQLite all start with one).
 */
static int
file_kind(const char *p, size_t n)
{
	size_t i = 0;

	if (n > ATTR_SNIFF)
		n = ATTR_SNIFF;
	if (memchr(p, '\0', n) != NULL)
		return -1;
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' ||
			 p[i] == '\n'))
		i++;
	return i < n && p[i] == '{';
}

int
attr_scan_fd(struct attr_claims *c, int fd, const char *path, size_t bufcap,
	     struct attr_stats *st)
{
	struct scanner sc;
	int rc = 0, kind;

	if (is_history(path)) {
		st->skipped++;
		return 0;
	}
	memset(&sc, 0, sizeof sc);
	sc.s.claims = c;
	sc.s.path = path;
	sc.s.path_source = sp_intern(&c->sources, path, strlen(path));
	sc.s.path_session = session_of_path(&sc.s, path);
	sc.fd = fd;
	sc.cap = bufcap ? bufcap : ATTR_BUF_DEFAULT;
	if (sc.cap < ATTR_BUF_MIN)
		sc.cap = ATTR_BUF_MIN;
	sc.buf = sp_xmalloc(sc.cap);
	sc.st = st;
	if (fill(&sc) < 0) {
		rc = -1;
		goto out;
	}
	kind = file_kind(sc.buf, sc.len);
	if (kind < 0) {
		st->skipped++;
		goto out;
	}
	st->files++;
	sc.json = kind;
	sc.needles = sc.json ? json_needles : text_needles;
	if (sc.json)
		sc.j = attr_json_new();
	rc = scan_all(&sc);
out:
	attr_json_free(sc.j);
	sp_buf_free(&sc.s.src);
	free(sc.buf);
	return rc;
}
