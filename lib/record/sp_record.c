/*
 * sp_record.c - the reader and writer of the record format.
 *
 * The reader keeps one growable line buffer and one array of field
 * slices; fields are split in place (each TAB becomes a NUL), so every
 * slice is also a C string and no field is ever copied.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <csv.h>

#include "sp_util.h"
#include "sp_const.h"
#include "sp_units.h"
#include "sp_record.h"
#include "sp_term.h"
#include "sp_scan.h"

/* ---------------------------------------------------------------- reader */

static void
set_err(struct sp_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
set_err(struct sp_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	sp_buf_clear(&r->err);
	sp_buf_printf(&r->err, "%s:%lu: ", r->name ? r->name : "<stdin>",
		      r->line);
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sp_buf_reserve(&r->err, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(r->err.p + r->err.len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	r->err.len += (size_t)n;
}

int
sp_reader_bad_field(struct sp_reader *r, const char *name,
		    struct sp_slice value, const char *what)
{
	size_t shown = value.n > 40 ? 40 : value.n;

	sp_buf_clear(&r->err);
	sp_buf_printf(&r->err, "%s:%lu: field '%s' is not %s: \"",
		      r->name ? r->name : "<stdin>", r->line, name, what);
	sp_text_clean(&r->err, value.p, shown, 0);
	sp_buf_adds(&r->err, shown < value.n ? "...\"" : "\"");
	return -1;
}

/* Opens the next input file; 1 opened, 0 none left, -1 error. */
static int
open_next(struct sp_reader *r)
{
	const char *path;

	if (r->fp && r->fp != stdin)
		fclose(r->fp);
	r->fp = NULL;
	if (r->pathi >= r->npaths)
		return 0;
	path = r->paths[r->pathi++];
	r->line = 0;
	r->blklen = r->blkpos = 0;
	r->eof = 0;
	if (strcmp(path, "-") == 0) {
		r->fp = stdin;
		r->name = "<stdin>";
		return 1;
	}
	r->name = path;
	r->fp = fopen(path, "r");
	if (r->fp == NULL) {
		sp_buf_clear(&r->err);
		sp_buf_printf(&r->err, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 1;
}

/*
 * Input is read in blocks of this size and lines are cut where they lie:
 * no copy per line, and one read(2) per many records.  A longer line
 * grows the block to fit it.
 */
#define READ_CHUNK ((size_t)1 << 17)
/*
 * Zeroed bytes after the input in the block: split_wanted reads a line's
 * last window whole, wherever the line ends.
 */
#define READ_PAD SP_SCAN_WIDE

/* Reads more input after what is unread; 1 more read, 0 none, -1 error. */
static int
fill(struct sp_reader *r)
{
	int fd = fileno(r->fp);
	size_t room;
	ssize_t n;

	if (r->blkpos > 0) {
		r->blklen -= r->blkpos;
		memmove(r->blk, r->blk + r->blkpos, r->blklen);
		r->blkpos = 0;
	}
	/* One byte always spare: a last line without LF ends in a NUL. */
	r->blk = sp_xgrow(r->blk, &r->blkcap,
			  r->blklen + READ_CHUNK + 1 + READ_PAD, 1);
	room = r->blkcap - r->blklen - 1 - READ_PAD;
	if (fd >= 0) {
		/* A pipe answers with what it has: records flow on at once. */
		do
			n = read(fd, r->blk + r->blklen, room);
		while (n < 0 && errno == EINTR);
	} else {
		/* A memory stream (tests, fuzzing) has no descriptor. */
		n = (ssize_t)fread(r->blk + r->blklen, 1, room, r->fp);
		if (n == 0 && ferror(r->fp))
			n = -1;
	}
	if (n < 0) {
		sp_buf_clear(&r->err);
		sp_buf_printf(&r->err, "%s: %s", r->name,
			      strerror(errno ? errno : EIO));
		return -1;
	}
	if (n == 0) {
		r->eof = 1;
		return 0;
	}
	r->blklen += (size_t)n;
	memset(r->blk + r->blklen, 0, 1 + READ_PAD);
	return 1;
}

/*
 * Points r->buf at the next physical line, its LF made a NUL.  Returns 1,
 * 0 at the end of the current file, -1 on a read error or bad line.
 */
static int
read_line(struct sp_reader *r)
{
	size_t scanned = 0, len;
	char *start, *nl;
	int more = 0;

	for (;;) {
		size_t avail = r->blklen - r->blkpos;

		/* No arithmetic on blk before the first read: it is NULL. */
		if (avail > scanned) {
			start = r->blk + r->blkpos;
			nl = memchr(start + scanned, '\n', avail - scanned);
			if (nl != NULL) {
				more = 1;
				break;
			}
		}
		scanned = avail;
		if (r->eof) {
			if (avail == 0)
				return 0;
			start = r->blk + r->blkpos;
			nl = start + avail;	/* the spare byte */
			break;
		}
		errno = 0;
		if (fill(r) < 0)
			return -1;
	}
	len = (size_t)(nl - start);
	*nl = '\0';
	r->blkpos += len + (size_t)more;
	r->buf = start;
	r->len = len;
	r->line++;
	if (len > 0 && start[len - 1] == '\r') {
		set_err(r, "carriage return before the line end "
			   "(DOS line endings? try: tr -d '\\r')");
		return -1;
	}
	return 1;
}

static void
set_nul_err(struct sp_reader *r)
{
	set_err(r, "NUL byte in the input (binary data?)");
}

/* Ends the field that stops at byte j of the line. */
#define END_FIELD(j) do {					\
		if (nf < want) {				\
			r->f[nf].p = p + start;			\
			r->f[nf].n = (j) - start;		\
		}						\
		nf++;						\
		start = (j) + 1;				\
	} while (0)

/*
 * Splits r->buf in place (each TAB becomes a NUL); returns the number of
 * fields found, or SIZE_MAX for a NUL byte in the line.  With nul_ends
 * a NUL ends a field too: what is left of a line split_wanted split.
 */
static inline size_t
split_at(struct sp_reader *r, size_t want, int nul_ends)
{
	char *p = r->buf;
	size_t n = r->len, nf = 0, start = 0, i = 0;

	for (; i + SP_SCAN_WIDTH <= n; i += SP_SCAN_WIDTH) {
		unsigned m = nul_ends ? sp_scan_mask2(p + i, '\t', '\0') :
		    sp_scan_mask1(p + i, '\t');

		if (!nul_ends && sp_scan_mask1(p + i, '\0') != 0)
			return SIZE_MAX;
		while (m != 0) {
			size_t j = i + sp_scan_first(m);

			m &= m - 1;
			p[j] = '\0';
			END_FIELD(j);
		}
	}
	for (; i < n; i++) {
		if (p[i] == '\t' || (nul_ends && p[i] == '\0')) {
			p[i] = '\0';
			END_FIELD(i);
		} else if (p[i] == '\0') {
			return SIZE_MAX;
		}
	}
	END_FIELD(n);
	return nf;
}

/* Both kinds, each with its test folded in. */
static size_t
split(struct sp_reader *r, size_t want)
{
	return split_at(r, want, 0);
}

static void
split_rest(struct sp_reader *r)
{
	split_at(r, r->ncols, 1);
}

/*
 * Stores wanted field nf, from byte start to the TAB at end (made a NUL);
 * returns the next wanted column.
 */
static size_t
take_field(struct sp_reader *r, size_t nf, size_t start, size_t end)
{
	r->buf[end] = '\0';
	r->f[nf].p = r->buf + start;
	r->f[nf].n = end - start;
	return r->next_want[nf + 1];
}

/*
 * split for a reader that wants some columns: only their fields are
 * stored, and a wide window that ends none of them is only counted (its
 * TABs stay TABs).  Most stages read a fifth of the columns, and storing
 * every field was a third of their time.
 */
static size_t
split_wanted(struct sp_reader *r)
{
	const char *p = r->buf;
	size_t n = r->len, nf = 0, start = 0, i;
	size_t next = r->next_want[0];
	int nul;

	/* The last window reads past the line into the block's padding. */
	for (i = 0; i < n; i += SP_SCAN_WIDE) {
		uint64_t m = sp_scan_wide(p + i, '\t', '\0', &nul);

		if (n - i < SP_SCAN_WIDE) {
			uint64_t in = ((uint64_t)1 << (n - i)) - 1;
			int any;

			m &= in;
			nul = nul && (sp_scan_wide(p + i, '\0', '\0', &any) &
				      in) != 0;
		}
		if (nul)
			return SIZE_MAX;
		if (m == 0)
			continue;
		if (next >= nf + sp_scan_count(m)) {
			nf += sp_scan_count(m);
			start = i + sp_scan_last64(m) + 1;
			continue;
		}
		for (; m != 0; m &= m - 1) {
			size_t j = i + sp_scan_first64(m);

			if (nf == next)
				next = take_field(r, nf, start, j);
			nf++;
			start = j + 1;
		}
	}
	if (nf == next)
		take_field(r, nf, start, n);
	return nf + 1;
}

#undef END_FIELD

void
sp_reader_split_all(struct sp_reader *r)
{
	if (!r->partial)
		return;
	split_rest(r);
	r->partial = 0;
}

void
sp_reader_want(struct sp_reader *r, int col)
{
	if (col < 0 || (size_t)col >= r->ncols)
		return;
	if (r->next_want == NULL) {
		r->next_want = sp_xcalloc(r->ncols + 1, sizeof *r->next_want);
		for (size_t i = 0; i <= r->ncols; i++)
			r->next_want[i] = SIZE_MAX;
	}
	/* next_want never decreases: stop at the first that is nearer. */
	for (size_t i = (size_t)col + 1; i-- > 0;) {
		if (r->next_want[i] <= (size_t)col)
			break;
		r->next_want[i] = (size_t)col;
	}
}

/*
 * A header line in another of the family's output formats: the stages
 * read the TSV records, and the line says which option made it.
 */
static int
has_pair(const char *s, size_t n, char a, char b)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == a && s[i + 1] == b)
			return 1;
	return 0;
}

static const char *
other_format(const char *s, size_t n)
{
	if (n == 0 || memchr(s, '\t', n) != NULL)
		return NULL;
	if (s[0] == '"' && has_pair(s, n, '"', ','))
		return "CSV (--csv?)";
	if (s[0] == '{' || s[0] == '[')
		return "JSON (--json?)";
	if (has_pair(s, n, ' ', ' '))
		return "an aligned table (--plain?)";
	return NULL;
}

/*
 * A number, signed or not: no column's name is one.
 */
static int
is_number(const char *p, size_t n)
{
	size_t i = 0, digits = 0;

	if (i < n && p[i] == '-')
		i++;
	for (; i < n && p[i] >= '0' && p[i] <= '9'; i++)
		digits++;
	if (i < n && p[i] == '.')
		for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			digits++;
	return digits > 0 && i == n;
}

/*
 * A first line of several fields that holds a value no column's name can
 * be (a number: an id, a count, a size; a flag, "--time") is a record
 * whose header grep, sort or tail left behind.  Only values tell: a
 * user's own column may be named anything (design.md passes it through).
 */
static int
looks_like_record(const struct sp_reader *r, size_t nf)
{
	if (nf < 2)
		return 0;
	for (size_t i = 0; i < nf; i++) {
		const char *p = r->f[i].p;
		size_t n = r->f[i].n;

		if (is_number(p, n) || (n > 2 && p[0] == '-' && p[1] == '-'))
			return 1;
	}
	return 0;
}

static int
take_header(struct sp_reader *r)
{
	const char *other;
	size_t nf, i;

	if (memchr(r->buf, '\0', r->len) != NULL) {
		set_nul_err(r);
		return -1;
	}
	if ((other = other_format(r->buf, r->len)) != NULL) {
		set_err(r, "line 1 is %s: the stages read TAB-separated "
			"records, each program's default output (drop the "
			"option)", other);
		return -1;
	}
	r->header_line = sp_xstrndup(r->buf, r->len);
	r->header_len = r->len;
	nf = 1;
	for (i = 0; i < r->len; i++)
		nf += r->buf[i] == '\t';
	r->f = sp_xgrow(r->f, &r->fcap, nf, sizeof *r->f);
	split(r, nf);
	r->ncols = nf;
	r->cols = sp_xcalloc(nf, sizeof *r->cols);
	if (looks_like_record(r, nf)) {
		set_err(r, "line 1 is a record, not a header: the stages find "
			"their columns by the names on line 1; keep it where "
			"you filter (awk 'NR == 1 || /TIMEOUT/', not grep "
			"TIMEOUT; sort or tail only the lines after it)");
		return -1;
	}
	for (i = 0; i < nf; i++) {
		if (r->f[i].n == 0) {
			set_err(r, "header column %zu has no name", i + 1);
			return -1;
		}
		r->cols[i] = sp_xstrndup(r->f[i].p, r->f[i].n);
	}
	return 0;
}

/* Reads the header of the file just opened; later files must agree. */
static int
read_header(struct sp_reader *r)
{
	int rc = read_line(r);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (r->header_line != NULL)
			return 0;	/* an empty later file adds nothing */
		set_err(r, "no header line (empty input)");
		r->line = 0;
		sp_buf_clear(&r->err);
		sp_buf_printf(&r->err, "%s: no header line (empty input)",
			      r->name);
		return -1;
	}
	if (r->header_line == NULL)
		return take_header(r);
	if (r->len != r->header_len ||
	    memcmp(r->buf, r->header_line, r->len) != 0) {
		set_err(r, "header differs from the first input's");
		return -1;
	}
	return 0;
}

static void
reader_init(struct sp_reader *r)
{
	memset(r, 0, sizeof *r);
}

int
sp_reader_open(struct sp_reader *r, char *const *paths, size_t npaths)
{
	static char *stdin_path[] = { "-" };
	int rc;

	reader_init(r);
	if (npaths == 0) {
		paths = stdin_path;
		npaths = 1;
	}
	r->paths = sp_xcalloc(npaths, sizeof *r->paths);
	for (size_t i = 0; i < npaths; i++)
		r->paths[i] = sp_xstrdup(paths[i]);
	r->npaths = npaths;
	rc = open_next(r);
	if (rc <= 0)
		return -1;
	return read_header(r);
}

int
sp_reader_open_stream(struct sp_reader *r, FILE *fp, const char *name)
{
	reader_init(r);
	r->fp = fp;
	r->name = name;
	/* Not owned: a stream given to us is never closed by us. */
	return read_header(r);
}

int
sp_reader_next(struct sp_reader *r)
{
	for (;;) {
		int rc;
		size_t nf;

		if (r->fp == NULL)
			return 0;
		rc = read_line(r);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			if (r->npaths == 0) {
				r->fp = NULL;	/* a stream: not ours to close */
				return 0;
			}
			rc = open_next(r);
			if (rc <= 0)
				return rc;
			if (read_header(r) < 0)
				return -1;
			continue;
		}
		/* A header repeated mid-stream (cat a.tsv b.tsv) is skipped. */
		if (r->len == r->header_len &&
		    memcmp(r->buf, r->header_line, r->len) == 0)
			continue;
		r->partial = r->next_want != NULL;
		nf = r->partial ? split_wanted(r) : split(r, r->ncols);
		if (nf == SIZE_MAX) {
			set_nul_err(r);
			return -1;
		}
		if (nf != r->ncols) {
			set_err(r, "%zu fields, the header has %zu", nf,
				r->ncols);
			return -1;
		}
		return 1;
	}
}

void
sp_reader_close(struct sp_reader *r)
{
	if (r->fp && r->fp != stdin && r->npaths > 0)
		fclose(r->fp);
	for (size_t i = 0; i < r->npaths; i++)
		free(r->paths[i]);
	free(r->paths);
	for (size_t i = 0; i < r->ncols; i++)
		free(r->cols[i]);
	free(r->cols);
	free(r->header_line);
	free(r->blk);
	free(r->f);
	free(r->next_want);
	sp_buf_free(&r->err);
	memset(r, 0, sizeof *r);
}

int
sp_reader_col(const struct sp_reader *r, const char *name)
{
	for (size_t i = 0; i < r->ncols; i++)
		if (strcmp(r->cols[i], name) == 0)
			return (int)i;
	return -1;
}

int
sp_reader_need(const struct sp_reader *r, const char *name,
	       const char *added_by)
{
	int i = sp_reader_col(r, name);

	if (i >= 0)
		return i;
	/* A named file is said, as every other input error says it: of
	 * several inputs, the user is to know which one lacks it. */
	if (r->name == NULL || strcmp(r->name, "<stdin>") == 0)
		sp_die(SP_EXIT_USAGE, "no column '%s' (pipe through %s first)",
		       name, added_by);
	sp_die(SP_EXIT_USAGE, "%s: no column '%s' (pipe through %s first)",
	       r->name, name, added_by);
}

void
sp_open_or_die(struct sp_reader *r, char *const *paths, size_t npaths)
{
	if (sp_reader_open(r, paths, npaths) < 0)
		sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&r->err));
}

int
sp_next_or_die(struct sp_reader *r)
{
	int rc = sp_reader_next(r);

	if (rc < 0)
		sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&r->err));
	return rc;
}

void
sp_reader_die(const struct sp_reader *r, const char *fmt, ...)
{
	va_list ap;
	struct sp_buf b = { 0 };

	sp_buf_printf(&b, "%s:%lu: ", r->name ? r->name : "<stdin>", r->line);
	sp_buf_adds(&b, fmt);
	va_start(ap, fmt);
	/* The format is ours plus a fixed prefix; no user text in it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	sp_vdie(SP_EXIT_USAGE, b.p, ap);
#pragma GCC diagnostic pop
}

/* ---------------------------------------------------------------- fields */

int
sp_slice_eq(struct sp_slice s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && memcmp(s.p, lit, n) == 0;
}

/*
 * Plain decimals only: an optional sign, digits with at most one point,
 * an optional exponent.  No hex, inf, nan or white space, which strtod
 * would take.  Up to 15 significant digits are exact with one division.
 */
int
sp_field_num(struct sp_slice s, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
		1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	const char *p = s.p, *end = s.p + s.n;
	unsigned long long mant = 0;
	int digits = 0, frac = 0, neg = 0, seen_point = 0, any = 0;

	if (s.n == 0)
		return 0;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (; p < end; p++) {
		if (*p >= '0' && *p <= '9') {
			any = 1;
			if (digits >= 15)
				goto slow;
			if (mant != 0 || *p != '0')
				digits++;
			mant = mant * 10 + (unsigned)(*p - '0');
			frac += seen_point;
		} else if (*p == '.' && !seen_point) {
			seen_point = 1;
		} else if (*p == 'e' || *p == 'E') {
			goto slow;
		} else {
			return -1;
		}
	}
	if (!any)
		return -1;
	*out = (double)mant / pow10[frac > 15 ? 15 : frac];
	if (frac > 15)
		goto slow;
	if (neg)
		*out = -*out;
	return 1;
slow:
	for (p = s.p; p < end; p++)
		if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' ||
		      *p == 'E' || *p == '-' || *p == '+'))
			return -1;
	{
		char tmp[64], *e;
		double v;

		if (s.n >= sizeof tmp)
			return -1;	/* no decimal needs 64 characters */
		memcpy(tmp, s.p, s.n);
		tmp[s.n] = '\0';
		errno = 0;
		v = strtod(tmp, &e);
		if (*e != '\0' || e == tmp || v != v || v > 1e300 ||
		    v < -1e300)
			return -1;
		*out = v;
	}
	return 1;
}

/* ---------------------------------------------------------------- kinds */

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

static int
in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

enum sp_kind
sp_column_kind(const char *name)
{
	static const char *const fractions[] = { "rate", "ci_low", "ci_high",
		"comparison", "share", "cum_share", "gpu_util", NULL };
	static const char *const numbers[] = { "attempt", "uid", "exit_code",
		"signal", "derived_exit_code", "open", "req_cpus",
		"alloc_cpus", "ntasks", "alloc_gpus", "nnodes", "max_pages",
		"rss_imbalance", "names", "runs", "completed", "failed",
		"cancelled", "noop", "problems", "compute", "trials", "bad",
		"p", "count", "risk_cut_off", "risk_judged", NULL };
	/* sp-size's figures, in the unit its "unit" column names (a row's
	 * unit, so none in the name); their words are the _text columns. */
	static const char *const advice[] = { "requested", "target",
		"observed", NULL };

	if (ends_with(name, "_s"))
		return SP_KIND_SECONDS;
	if (ends_with(name, "_b"))
		return SP_KIND_BYTES;
	if (ends_with(name, "_h"))
		return SP_KIND_HOURS;
	if (ends_with(name, "_hz") || ends_with(name, "_j"))
		return SP_KIND_NUMBER;
	/* sp-show --table: a share of what was requested. */
	if (ends_with(name, "_eff"))
		return SP_KIND_FRACTION;
	if (in_list(name, fractions))
		return SP_KIND_FRACTION;
	if (in_list(name, numbers) || in_list(name, advice))
		return SP_KIND_NUMBER;
	return SP_KIND_TEXT;
}

/* ---------------------------------------------------------------- writer */

void
sp_writer_init(struct sp_writer *w, FILE *out, enum sp_format fmt)
{
	int width;

	memset(w, 0, sizeof *w);
	w->out = out;
	w->fmt = fmt;
	if (fmt == SP_FMT_PLAIN && (width = sp_term_width(fileno(out))) > 0)
		w->width = width < SP_SHOW_MIN_WIDTH ? SP_SHOW_MIN_WIDTH :
			   (size_t)width;
}

void
sp_writer_width(struct sp_writer *w, size_t width)
{
	w->width = width;
}

void
sp_writer_plain_columns(struct sp_writer *w, const char *const *names)
{
	w->plain_only = names;
}

static int
plain_shown(const struct sp_writer *w, const char *name)
{
	if (w->plain_only == NULL)
		return 1;
	for (const char *const *n = w->plain_only; *n; n++)
		if (strcmp(*n, name) == 0)
			return 1;
	return 0;
}

/* A column of a name already kept (sp-group --rollup --by partition
 * leads with a copy of one) is shown once: the first. */
static int
plain_kept(const struct sp_writer *w, const size_t *map, size_t keep,
	   size_t c)
{
	for (size_t i = 0; i < keep; i++)
		if (strcmp(w->cols[map[i]], w->cols[c]) == 0)
			return 1;
	return 0;
}

/* The columns --plain does not show taken out of its table. */
static void
plain_select(struct sp_writer *w)
{
	size_t rows, keep = 0, k = 0;
	size_t *map;

	if (w->plain_only == NULL || w->ncols == 0)
		return;
	map = sp_xcalloc(w->ncols, sizeof *map);
	for (size_t c = 0; c < w->ncols; c++)
		if (plain_shown(w, w->cols[c]) && !plain_kept(w, map, keep, c))
			map[keep++] = c;
	if (keep == 0 || keep == w->ncols) {
		free(map);
		return;
	}
	rows = w->nplain / w->ncols;
	for (size_t r = 0; r < rows; r++)
		for (size_t i = 0; i < keep; i++)
			w->plain_off[k++] = w->plain_off[r * w->ncols + map[i]];
	for (size_t c = 0, i = 0; c < w->ncols; c++)
		if (i < keep && map[i] == c)
			i++;
		else
			free(w->cols[c]);
	for (size_t i = 0; i < keep; i++) {
		w->kinds[i] = w->kinds[map[i]];
		w->cols[i] = w->cols[map[i]];
	}
	w->ncols = keep;
	w->nplain = k;
	free(map);
}

void
sp_writer_column(struct sp_writer *w, const char *name)
{
	size_t kcap = w->colcap;

	/* Doubling: a million pass-through columns must not copy n^2. */
	w->cols = sp_xgrow(w->cols, &w->colcap, w->ncols + 1, sizeof *w->cols);
	w->kinds = sp_xgrow(w->kinds, &kcap, w->ncols + 1, sizeof *w->kinds);
	w->cols[w->ncols] = sp_xstrdup(name);
	w->kinds[w->ncols] = sp_column_kind(name);
	w->ncols++;
}

void
sp_writer_columns(struct sp_writer *w, const char *const *names)
{
	for (; *names; names++)
		sp_writer_column(w, *names);
}

void
sp_writer_column_kind(struct sp_writer *w, const char *name,
		      enum sp_kind kind)
{
	sp_writer_column(w, name);
	w->kinds[w->ncols - 1] = kind;
}

void
sp_writer_columns_from(struct sp_writer *w, const struct sp_reader *r)
{
	for (size_t i = 0; i < r->ncols; i++)
		sp_writer_column(w, r->cols[i]);
}

/*
 * Every byte of output passes here; the streams are ours alone, so the
 * per-call locking of fwrite and putc is pure cost (a third of sp-group's
 * time at a million records).
 */
static void
write_failed(struct sp_writer *w)
{
	sp_die(SP_EXIT_USAGE, "%s:", w->out == stdout ? "<stdout>" : "output");
}

static void
put(struct sp_writer *w, const char *p, size_t n)
{
	/* Stop at the first failed write, while errno still says why. */
	if (n && fwrite_unlocked(p, 1, n, w->out) != n)
		write_failed(w);
}

static void
put_char(struct sp_writer *w, char c)
{
	if (putc_unlocked(c, w->out) == EOF)
		write_failed(w);
}

/*
 * A TSV record is gathered here and handed to stdio whole: one call per
 * record rather than two per field.
 */
static inline void
line_add(struct sp_writer *w, const char *p, size_t n)
{
	struct sp_buf *b = &w->line;

	if (n == 0)
		return;
	if (b->cap - b->len <= n)
		sp_buf_reserve(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void plain_cell(struct sp_writer *w, const char *p, size_t n);
static void write_failed(struct sp_writer *w) __attribute__((noreturn));

static void
csv_put(struct sp_writer *w, const char *p, size_t n)
{
	if (n)
		csv_fwrite(w->out, p, n);
	else if (w->ncols == 1)
		/* A row of one empty field would be an empty line, which
		 * every CSV reader skips: the row would be lost. */
		fputs("\"\"", w->out);
}

void
sp_writer_header(struct sp_writer *w)
{
	if (w->header_done)
		return;
	w->header_done = 1;
	switch (w->fmt) {
	case SP_FMT_TSV:
		for (size_t i = 0; i < w->ncols; i++) {
			if (i)
				putc('\t', w->out);
			fputs(w->cols[i], w->out);
		}
		putc('\n', w->out);
		break;
	case SP_FMT_CSV:
		for (size_t i = 0; i < w->ncols; i++) {
			if (i)
				putc(',', w->out);
			csv_put(w, w->cols[i], strlen(w->cols[i]));
		}
		putc('\n', w->out);
		break;
	case SP_FMT_PLAIN:
		/* Column names come from the input too: a terminal must not
		 * see their escapes either. */
		for (size_t i = 0; i < w->ncols; i++) {
			sp_buf_clear(&w->scratch);
			sp_text_clean(&w->scratch, w->cols[i],
					    strlen(w->cols[i]), 0);
			plain_cell(w, w->scratch.p, w->scratch.len);
		}
		return;
	case SP_FMT_JSON:
		break;
	}
	/* Downstream sees the columns before any data, and a broken pipe
	 * is found now rather than after the whole input was read. */
	if (fflush(w->out) != 0)
		write_failed(w);
}

/* The JSON number grammar, so a numeric column stays valid JSON. */
static int
is_json_number(const char *p, size_t n)
{
	size_t i = 0;

	if (i < n && p[i] == '-')
		i++;
	if (i >= n)
		return 0;
	if (p[i] == '0') {
		i++;
	} else if (p[i] >= '1' && p[i] <= '9') {
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
	} else {
		return 0;
	}
	if (i < n && p[i] == '.') {
		size_t start = ++i;
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
		if (i == start)
			return 0;
	}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		size_t start;
		i++;
		if (i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		start = i;
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
		if (i == start)
			return 0;
	}
	return i == n;
}

static void
plain_cell(struct sp_writer *w, const char *p, size_t n)
{
	w->plain_off = sp_xgrow(w->plain_off, &w->plaincap, w->nplain + 2,
				sizeof *w->plain_off);
	w->plain_off[w->nplain++] = w->plain.len;
	sp_buf_add(&w->plain, p, n);
	sp_buf_addc(&w->plain, '\0');
}

/* The human form of a field for --plain: units, n/a, visible escapes. */
static void
plain_field(struct sp_writer *w, enum sp_kind kind, const char *p, size_t n)
{
	struct sp_buf *s = &w->scratch;
	double v;

	sp_buf_clear(s);
	if (n == 0) {
		sp_buf_adds(s, "n/a");
	} else if (kind != SP_KIND_TEXT &&
		   sp_field_num((struct sp_slice){ p, n }, &v) == 1) {
		switch (kind) {
		case SP_KIND_SECONDS: sp_fmt_duration(s, v); break;
		case SP_KIND_BYTES: sp_fmt_bytes(s, v); break;
		case SP_KIND_HOURS: sp_buf_printf(s, "%.1f", v); break;
		case SP_KIND_FRACTION: sp_fmt_percent(s, v); break;
		default: sp_text_clean(s, p, n, 0); break;
		}
	} else if (memchr(p, '\\', n) == NULL) {
		sp_text_clean(s, p, n, 0);
	} else {
		/*
		 * Shown decoded, never as "\n" on the screen; a cell is one
		 * line, so a line break or tab in it is a space.
		 */
		struct sp_buf d = { 0 };

		sp_field_decode(&d, p, n);
		for (size_t i = 0; i < d.len; i++)
			if (d.p[i] == '\n' || d.p[i] == '\r' || d.p[i] == '\t')
				d.p[i] = ' ';
		sp_text_clean(s, sp_buf_str(&d), d.len, 0);
		sp_buf_free(&d);
	}
	plain_cell(w, s->p, s->len);
}

void
sp_writer_field(struct sp_writer *w, const char *p, size_t n)
{
	size_t i = w->fieldi++;
	enum sp_kind kind;

	if (i >= w->ncols)
		sp_die(SP_EXIT_USAGE, "internal error: record has more "
		       "fields than the header's %zu", w->ncols);
	/* TSV, the pipeline's format, first: every field of it comes here. */
	if (w->fmt == SP_FMT_TSV) {
		if (i)
			line_add(w, "\t", 1);
		line_add(w, p, n);
		return;
	}
	kind = w->kinds[i];
	switch (w->fmt) {
	case SP_FMT_TSV:
		break;		/* written above */
	case SP_FMT_CSV:
		if (i)
			putc(',', w->out);
		sp_buf_clear(&w->scratch);
		sp_field_decode(&w->scratch, p, n);
		csv_put(w, w->scratch.p, w->scratch.len);
		break;
	case SP_FMT_JSON:
		sp_buf_clear(&w->scratch);
		sp_buf_adds(&w->scratch, i ? "," : "{");
		sp_json_string(&w->scratch, w->cols[i], strlen(w->cols[i]));
		sp_buf_addc(&w->scratch, ':');
		if (n == 0) {
			sp_buf_adds(&w->scratch, "null");
		} else if (kind != SP_KIND_TEXT && is_json_number(p, n)) {
			sp_buf_add(&w->scratch, p, n);
		} else {
			struct sp_buf dec = { 0 };
			sp_field_decode(&dec, p, n);
			sp_json_string(&w->scratch, sp_buf_str(&dec), dec.len);
			sp_buf_free(&dec);
		}
		put(w, w->scratch.p, w->scratch.len);
		break;
	case SP_FMT_PLAIN:
		plain_field(w, kind, p, n);
		break;
	}
}

void
sp_writer_slice(struct sp_writer *w, struct sp_slice s)
{
	sp_writer_field(w, s.p, s.n);
}

void
sp_writer_str(struct sp_writer *w, const char *s)
{
	sp_writer_field(w, s, strlen(s));
}

void
sp_writer_raw(struct sp_writer *w, const char *p, size_t n)
{
	struct sp_buf *enc = &w->rawbuf;

	sp_buf_clear(enc);
	sp_field_encode(enc, p, n);
	sp_writer_field(w, sp_buf_str(enc), enc->len);
}

void
sp_writer_printf(struct sp_writer *w, const char *fmt, ...)
{
	struct sp_buf b = { 0 };
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0) {
		sp_buf_reserve(&b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b.p, (size_t)n + 1, fmt, ap);
		va_end(ap);
		b.len = (size_t)n;
	}
	sp_writer_raw(w, sp_buf_str(&b), b.len);
	sp_buf_free(&b);
}

void
sp_writer_num(struct sp_writer *w, double v)
{
	struct sp_buf *s = &w->rawbuf;

	sp_buf_clear(s);
	sp_fmt_num(s, v);
	sp_writer_field(w, sp_buf_str(s), s->len);
}

void
sp_writer_int(struct sp_writer *w, long long v)
{
	/* By hand: snprintf cost more than the rest of a rollup's row. */
	char digits[24], *d = digits + sizeof digits;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
	    (unsigned long long)v;

	do
		*--d = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--d = '-';
	sp_writer_field(w, d, (size_t)(digits + sizeof digits - d));
}

void
sp_writer_empty(struct sp_writer *w)
{
	sp_writer_field(w, "", 0);
}

/* Whether the fields lie one after another, as the reader splits them. */
static int
fields_adjoin(const struct sp_reader *r)
{
	for (size_t i = 0; i + 1 < r->ncols; i++)
		if (r->f[i + 1].p != r->f[i].p + r->f[i].n + 1)
			return 0;
	return 1;
}

void
sp_writer_fields_from(struct sp_writer *w, const struct sp_reader *r)
{
	const char *first, *last;
	size_t span, at;
	char *out;

	/* Splitting the rest changes no field: the reader is as given. */
	sp_reader_split_all((struct sp_reader *)r);
	if (w->fmt != SP_FMT_TSV || r->ncols == 0 ||
	    w->fieldi + r->ncols > w->ncols || !fields_adjoin(r)) {
		for (size_t i = 0; i < r->ncols; i++)
			sp_writer_field(w, r->f[i].p, r->f[i].n);
		return;
	}
	/*
	 * The reader's fields lie in one line, each TAB made a NUL: one
	 * copy with the TABs put back is the whole record, where a write
	 * per field was most of a pass-through's time.
	 */
	first = r->f[0].p;
	last = r->f[r->ncols - 1].p + r->f[r->ncols - 1].n;
	span = (size_t)(last - first);
	if (w->fieldi > 0)
		line_add(w, "\t", 1);
	sp_buf_reserve(&w->line, span);
	at = w->line.len;
	line_add(w, first, span);
	out = w->line.p + at;
	for (size_t i = 0; i + 1 < r->ncols; i++)
		out[r->f[i].p - first + (ptrdiff_t)r->f[i].n] = '\t';
	w->fieldi += r->ncols;
}

void
sp_writer_end(struct sp_writer *w)
{
	if (w->fieldi != w->ncols)
		sp_die(SP_EXIT_USAGE, "internal error: record of %zu fields, "
		       "the header has %zu", w->fieldi, w->ncols);
	w->fieldi = 0;
	switch (w->fmt) {
	case SP_FMT_TSV:
		line_add(w, "\n", 1);
		put(w, w->line.p, w->line.len);
		w->line.len = 0;
		break;
	case SP_FMT_CSV:
		put_char(w, '\n');
		break;
	case SP_FMT_JSON:
		fputs(w->ncols ? "}\n" : "{}\n", w->out);
		break;
	case SP_FMT_PLAIN:
		break;
	}
	/* A failure inside stdio's own buffering shows only as the flag. */
	if (ferror_unlocked(w->out))
		write_failed(w);
}

/* Cells a text column may be cut to at least: its name, and room for a
 * character and the ellipsis. */
#define PLAIN_MIN_CELLS 4

/* Cells the table takes when no column is wider than its width. */
static size_t
plain_total(const size_t *width, size_t ncols)
{
	size_t t = 2 * (ncols - 1);

	for (size_t c = 0; c < ncols; c++)
		t += width[c];
	return t;
}

/*
 * Narrows the text columns, widest first, until the table fits w->width
 * or every text column is at its floor: the level every wider column is
 * cut to is found by bisection, so a cell of megabytes costs no loop per
 * cell it loses.
 */
static void
plain_fit(const struct sp_writer *w, size_t *width)
{
	size_t *floor, total = plain_total(width, w->ncols), lo = 0, hi = 0;

	if (w->width == 0 || total <= w->width)
		return;
	floor = sp_xcalloc(w->ncols, sizeof *floor);
	for (size_t c = 0; c < w->ncols; c++) {
		const char *name = w->plain.p + w->plain_off[c];

		floor[c] = width[c];
		if (w->kinds[c] == SP_KIND_TEXT) {
			size_t min = sp_text_width(name, strlen(name));

			if (min < PLAIN_MIN_CELLS)
				min = PLAIN_MIN_CELLS;
			floor[c] = min < width[c] ? min : width[c];
		}
		if (width[c] > hi)
			hi = width[c];
	}
	/* The highest level at which the table fits, or 0. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2, t = 2 * (w->ncols - 1);

		for (size_t c = 0; c < w->ncols; c++)
			t += width[c] > mid && mid > floor[c] ? mid :
			     width[c] > mid ? floor[c] : width[c];
		if (t <= w->width)
			lo = mid;
		else
			hi = mid - 1;
	}
	for (size_t c = 0; c < w->ncols; c++)
		if (width[c] > lo)
			width[c] = lo > floor[c] ? lo : floor[c];
	free(floor);
}

/* A cell in at most cells columns: cut, with an ellipsis, when wider. */
static void
plain_put_cell(struct sp_writer *w, const char *cell, size_t dw,
	       size_t cells)
{
	const char *dots = sp_term_locale_utf8() ? "\xe2\x80\xa6" : "...";
	size_t ndots = sp_text_width(dots, strlen(dots));

	if (dw <= cells) {
		fputs(cell, w->out);
		return;
	}
	if (cells <= ndots) {
		fwrite(cell, 1, sp_text_fit(cell, strlen(cell), cells), w->out);
		return;
	}
	fwrite(cell, 1, sp_text_fit(cell, strlen(cell), cells - ndots),
	       w->out);
	fputs(dots, w->out);
}

/*
 * A table that does not fit even with every text column at its name's
 * width: each line is cut at the width, the columns past it lost rather
 * than wrapped onto the next line.
 */
static void
plain_put_line(struct sp_writer *w, const struct sp_buf *line)
{
	const char *dots = sp_term_locale_utf8() ? "\xe2\x80\xa6" : "...";
	size_t ndots = sp_text_width(dots, strlen(dots));
	size_t cells = sp_text_width(line->p, line->len);

	if (w->width == 0 || cells <= w->width || w->width <= ndots) {
		fwrite(line->p, 1, line->len, w->out);
	} else {
		fwrite(line->p, 1, sp_text_fit(line->p, line->len,
					       w->width - ndots), w->out);
		fputs(dots, w->out);
	}
	putc('\n', w->out);
}

static void
plain_flush(struct sp_writer *w)
{
	size_t rows, *width;
	struct sp_buf line = { 0 };
	FILE *out = w->out, *mem;
	char *text = NULL;
	size_t textlen = 0;
	int cut;

	if (w->ncols == 0 || w->nplain == 0)
		return;
	rows = w->nplain / w->ncols;
	width = sp_xcalloc(w->ncols, sizeof *width);
	for (size_t i = 0; i < rows * w->ncols; i++) {
		const char *c = w->plain.p + w->plain_off[i];
		size_t dw = sp_text_width(c, strlen(c));
		if (dw > width[i % w->ncols])
			width[i % w->ncols] = dw;
	}
	plain_fit(w, width);
	/* A table that still does not fit is laid out a line at a time in
	 * memory, and each line cut; one that fits goes straight out. */
	cut = w->width > 0 && plain_total(width, w->ncols) > w->width;
	mem = cut ? open_memstream(&text, &textlen) : out;
	if (mem == NULL)
		sp_die(SP_EXIT_USAGE, "out of memory");
	w->out = mem;
	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < w->ncols; c++) {
			const char *cell = w->plain.p +
				w->plain_off[r * w->ncols + c];
			size_t dw = sp_text_width(cell, strlen(cell));
			size_t pad = dw < width[c] ? width[c] - dw : 0;
			int right = r > 0 && w->kinds[c] != SP_KIND_TEXT;
			int last = c + 1 == w->ncols;

			if (c)
				fputs("  ", w->out);
			if (right)
				for (; pad; pad--)
					putc(' ', w->out);
			plain_put_cell(w, cell, dw, width[c]);
			if (!last)
				for (; pad; pad--)
					putc(' ', w->out);
		}
		if (!cut) {
			putc('\n', out);
			continue;
		}
		fflush(mem);
		sp_buf_clear(&line);
		sp_buf_add(&line, text, textlen);
		rewind(mem);
		textlen = 0;
		w->out = out;
		plain_put_line(w, &line);
		w->out = mem;
	}
	w->out = out;
	if (cut)
		fclose(mem);
	free(text);
	sp_buf_free(&line);
	free(width);
}

void
sp_writer_finish(struct sp_writer *w)
{
	if (!w->header_done)
		sp_writer_header(w);
	if (w->fmt == SP_FMT_PLAIN) {
		plain_select(w);
		plain_flush(w);
	}
	fflush(w->out);
	for (size_t i = 0; i < w->ncols; i++)
		free(w->cols[i]);
	free(w->cols);
	free(w->kinds);
	free(w->plain_off);
	sp_buf_free(&w->plain);
	sp_buf_free(&w->scratch);
	sp_buf_free(&w->rawbuf);
	sp_buf_free(&w->line);
	memset(w, 0, sizeof *w);
}

int
sp_format_option(int opt, enum sp_format *fmt)
{
	switch (opt) {
	case SP_OPT_PLAIN: *fmt = SP_FMT_PLAIN; return 1;
	case SP_OPT_JSON: *fmt = SP_FMT_JSON; return 1;
	case SP_OPT_CSV: *fmt = SP_FMT_CSV; return 1;
	case SP_OPT_TSV: *fmt = SP_FMT_TSV; return 1;
	}
	return 0;
}
