/*
 * json.c - one Claude Code transcript line, walked as a stream.
 *
 * A line is one message: {"sessionId":..., "timestamp":..., "cwd":...,
 * "message":{"content":[...blocks...]}, "toolUseResult":{...}}.  The
 * assistant's Bash call is a content block {"type":"tool_use","id":...,
 * "name":"Bash","input":{"command":...}}; its output comes in a later
 * user line as a block {"type":"tool_result","tool_use_id":...,
 * "content":...} (text, or text blocks), and as "toolUseResult":
 * {"stdout":...}.  A "!" command typed by the user is two user lines whose
 * content is "<bash-input>...</bash-input>", then "<bash-stdout>...".
 *
 * The walk is fed the line in pieces of any size and keeps only bounded
 * state: the container path (a few levels), the strings that matter
 * (session, time, directory, the block's id, name and command) each up
 * to a limit, and the needles found on the way.  Every other string is
 * skipped sixteen bytes at a time.  Nothing of a message's text is kept.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sp.h"
#include "sp_scan.h"
#include "attr.h"

/* Levels of the path followed; deeper containers are only counted. */
#define DEPTH		8
#define KEY_MAX		16
#define PREFIX_MAX	16	/* more than "<bash-stdout>" */

enum key {
	K_OTHER, K_SESSIONID, K_TIMESTAMP, K_CWD, K_TYPE, K_MESSAGE,
	K_CONTENT, K_ID, K_NAME, K_TOOL_USE_ID, K_INPUT, K_COMMAND, K_TEXT,
	K_TOOLUSERESULT, K_STDOUT
};

static const char *const key_names[] = {
	"", "sessionId", "timestamp", "cwd", "type", "message", "content",
	"id", "name", "tool_use_id", "input", "command", "text",
	"toolUseResult", "stdout", NULL
};

/* What a string value is, by where it lies. */
enum role {
	R_NONE, R_SESSION, R_STAMP, R_CWD, R_TYPE, R_ID, R_NAME, R_TUID,
	R_COMMAND,
	R_RESULT,	/* a tool_result's content */
	R_TUR,		/* toolUseResult's stdout, or toolUseResult as text */
	R_TEXT		/* the user's words: content as text, a text block */
};

enum lex {
	L_VALUE, L_KEY, L_COLON, L_AFTER, L_STRING, L_ESC, L_UESC, L_SCALAR,
	L_DONE, L_BAD
};

/* The --parsable answer, looked for line by line in an output. */
enum bare { B_OFF, B_START, B_DIGITS, B_CLUSTER, B_TRAIL, B_SKIP };

struct field {
	struct sp_buf b;
	size_t max;
	int over;		/* longer than max: unknown */
	/*
	 * Written with an escape.  An id, a name or a tag Claude Code never
	 * escapes is not taken from such a field: the bytes memmem finds
	 * (scan.c) are the raw ones, and a line must give the same whether
	 * or not it was looked at.
	 */
	int escaped;
};

struct attr_json {
	enum lex st;
	int depth;
	struct {
		char array;
		unsigned char key;	/* the member being read (objects) */
	} stk[DEPTH];

	/* the current string */
	int in_key;
	enum role role;
	int slow;			/* decoded byte by byte */
	struct field *sink;		/* where its bytes go, if anywhere */
	unsigned uval;
	int ucount;
	char keybuf[KEY_MAX];
	size_t keyn;
	int keyover;
	char prefix[PREFIX_MAX];	/* a user text's first bytes */
	size_t prefixn;
	int bang_out;			/* it is "<bash-stdout>..." */
	int bang_in;			/* the line holds "<bash-input>..." */
	int bang_seen;			/* ... or "<bash-stdout>..." */

	/* the --parsable detector */
	enum bare bare;
	uint32_t bjob;
	int bdigits;
	char bcl[ATTR_CLUSTER_MAX];
	size_t bcln;

	/* the line */
	unsigned long serial;		/* lines walked, this one's number */
	struct field session, stamp, cwd, type, text;
	int claude;			/* it looks like a transcript line */
	int has_stdout;			/* toolUseResult has stdout */
	struct field ltuid;		/* the first tool_result's call */
	int nresults;

	/* the content block being read */
	size_t block;			/* blocks begun, the current one's number */
	int in_block;
	struct field bid, bname, btuid, bcmd;
	size_t block_hits;		/* hits from here on lie in it */

	struct attr_hit *hits;
	size_t nhits, hitcap;
};

static void
field_init(struct field *f, size_t max)
{
	memset(f, 0, sizeof *f);
	f->max = max;
}

static void
field_clear(struct field *f)
{
	sp_buf_clear(&f->b);
	f->over = f->escaped = 0;
}

static void
field_put(struct field *f, char c)
{
	if (f->over)
		return;
	if (f->b.len >= f->max) {
		f->over = 1;
		return;
	}
	sp_buf_addc(&f->b, c);
}

/* The field's text, or NULL (unknown: empty or too long). */
static const char *
field_val(const struct field *f, size_t *n)
{
	if (f->over || f->b.len == 0) {
		*n = 0;
		return NULL;
	}
	*n = f->b.len;
	return f->b.p;
}

static int
field_is(const struct field *f, const char *s)
{
	size_t n = strlen(s);

	return !f->over && !f->escaped && f->b.len == n &&
	       memcmp(f->b.p, s, n) == 0;
}

/* An id as written, with no escape: NULL when there is none. */
static const char *
field_id(const struct field *f, size_t *n)
{
	if (f->escaped) {
		*n = 0;
		return NULL;
	}
	return field_val(f, n);
}

struct attr_json *
attr_json_new(void)
{
	struct attr_json *j = sp_xcalloc(1, sizeof *j);

	field_init(&j->session, ATTR_FIELD_MAX);
	field_init(&j->stamp, ATTR_FIELD_MAX);
	field_init(&j->cwd, ATTR_FIELD_MAX);
	field_init(&j->type, ATTR_FIELD_MAX);
	field_init(&j->text, ATTR_COMMAND_MAX);
	field_init(&j->ltuid, sizeof ((struct attr_call *)0)->id);
	field_init(&j->bid, sizeof ((struct attr_call *)0)->id);
	field_init(&j->bname, ATTR_FIELD_MAX);
	field_init(&j->btuid, sizeof ((struct attr_call *)0)->id);
	field_init(&j->bcmd, ATTR_COMMAND_MAX);
	return j;
}

void
attr_json_free(struct attr_json *j)
{
	if (j == NULL)
		return;
	{
		struct field *f[] = { &j->session, &j->stamp, &j->cwd,
			&j->type, &j->text, &j->ltuid, &j->bid, &j->bname,
			&j->btuid, &j->bcmd };

		for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
			sp_buf_free(&f[i]->b);
	}
	free(j->hits);
	free(j);
}

void
attr_json_begin(struct attr_json *j)
{
	j->st = L_VALUE;
	j->depth = 0;
	j->serial++;
	j->claude = j->has_stdout = j->nresults = 0;
	j->bang_in = j->bang_seen = 0;
	j->in_block = 0;
	j->block = 0;
	j->nhits = 0;
	j->block_hits = 0;
	field_clear(&j->session);
	field_clear(&j->stamp);
	field_clear(&j->cwd);
	field_clear(&j->type);
	field_clear(&j->text);
	field_clear(&j->ltuid);
}

int
attr_json_claude(const struct attr_json *j)
{
	return j->claude;
}

/* ------------------------------------------------------------- paths */

static int
key_at(const struct attr_json *j, int d, enum key k)
{
	return !j->stk[d].array && j->stk[d].key == k;
}

/* Inside message.content's array, at the level of its blocks. */
static int
in_content(const struct attr_json *j)
{
	return j->depth >= 3 && key_at(j, 0, K_MESSAGE) &&
	       key_at(j, 1, K_CONTENT) && j->stk[2].array;
}

static enum role
role_here(const struct attr_json *j)
{
	int d = j->depth;

	if (d < 1 || d > DEPTH || j->stk[0].array)
		return R_NONE;
	if (d == 1) {
		switch (j->stk[0].key) {
		case K_SESSIONID: return R_SESSION;
		case K_TIMESTAMP: return R_STAMP;
		case K_CWD: return R_CWD;
		case K_TYPE: return R_TYPE;
		case K_TOOLUSERESULT: return R_TUR;
		default: return R_NONE;
		}
	}
	if (d == 2) {
		if (key_at(j, 0, K_MESSAGE) && key_at(j, 1, K_CONTENT))
			return R_TEXT;
		if (key_at(j, 0, K_TOOLUSERESULT) && key_at(j, 1, K_STDOUT))
			return R_TUR;
		return R_NONE;
	}
	if (!in_content(j) || j->stk[3].array)
		return R_NONE;
	if (d == 4) {
		switch (j->stk[3].key) {
		case K_ID: return R_ID;
		case K_NAME: return R_NAME;
		case K_TOOL_USE_ID: return R_TUID;
		case K_CONTENT: return R_RESULT;
		case K_TEXT: return R_TEXT;
		default: return R_NONE;
		}
	}
	if (d == 5 && j->stk[3].key == K_INPUT && key_at(j, 4, K_COMMAND))
		return R_COMMAND;
	if (d == 6 && j->stk[3].key == K_CONTENT && j->stk[4].array &&
	    key_at(j, 5, K_TEXT))
		return R_RESULT;
	return R_NONE;
}

/* ------------------------------------------------------------ blocks */

static void
block_begin(struct attr_json *j)
{
	j->in_block = 1;
	j->block++;
	j->block_hits = j->nhits;
	field_clear(&j->bid);
	field_clear(&j->bname);
	field_clear(&j->btuid);
	field_clear(&j->bcmd);
}

/*
 * A block is complete: a Bash call is remembered until its output comes;
 * a tool result settles the kind of the command behind each needle in it.
 */
static void
block_end(struct attr_json *j, struct attr_scan *s)
{
	size_t n;
	const char *id = field_id(&j->bid, &n);
	const char *tuid;

	j->in_block = 0;
	if (id && field_is(&j->bname, "Bash"))
		attr_ring_add(&s->ring, id, n,
			      j->bcmd.over ? 0 :
			      attr_command_kind(sp_buf_str(&j->bcmd.b),
						j->bcmd.b.len));
	tuid = field_id(&j->btuid, &n);
	if (tuid == NULL)
		return;
	{
		struct attr_call *call = attr_ring_find(&s->ring, tuid, n);

		for (size_t h = j->block_hits; h < j->nhits; h++)
			if (j->hits[h].role == R_RESULT &&
			    j->hits[h].block == j->block)
				j->hits[h].kind = call ? call->kind : -1;
		if (call && !call->answered) {
			call->answered = j->serial;
			if (call->kind & ATTR_CMD_PARSABLE)
				s->ring.awaiting--;
		}
	}
	if (j->nresults++ == 0) {
		field_clear(&j->ltuid);
		sp_buf_add(&j->ltuid.b, tuid, n);
	}
}

/* ------------------------------------------------------------- hits */

static struct attr_hit *
new_hit(struct attr_json *j, uint32_t job, const char *cluster,
	size_t cluster_n)
{
	struct attr_hit *h;

	j->hits = sp_xgrow(j->hits, &j->hitcap, j->nhits + 1, sizeof *j->hits);
	h = &j->hits[j->nhits++];
	h->job = job;
	h->cluster_n = cluster_n;
	if (cluster_n)
		memcpy(h->cluster, cluster, cluster_n);
	h->role = j->bang_out ? -R_TEXT : (int)j->role;
	h->block = j->in_block ? j->block : 0;
	h->kind = -1;
	return h;
}

void
attr_json_hit(struct attr_json *j, uint32_t job, const char *cluster,
	      size_t cluster_n)
{
	/* Only inside a string value: a key, or a needle astride an escape,
	 * is no output. */
	if (j->st != L_STRING || j->in_key)
		return;
	if (j->role == R_TEXT && !j->bang_out) {
		/* A user's words quote; unless the line is no transcript's. */
		new_hit(j, job, cluster, cluster_n)->role = R_NONE;
		return;
	}
	new_hit(j, job, cluster, cluster_n);
}

/* The --parsable detector, fed the output's decoded bytes. */
static void
bare_emit(struct attr_json *j)
{
	new_hit(j, j->bjob, j->bcl, j->bcln);
}

static void
bare_byte(struct attr_json *j, unsigned char c)
{
	int eol = c == '\n' || (c == '<' && j->bang_out);

	switch (j->bare) {
	case B_OFF:
		return;
	case B_START:
		if (c >= '0' && c <= '9') {
			j->bjob = (uint32_t)(c - '0');
			j->bdigits = 1;
			j->bcln = 0;
			j->bare = B_DIGITS;
		} else if (!(c == ' ' || c == '\t' || c == '\r' || eol)) {
			j->bare = B_SKIP;
		}
		return;
	case B_DIGITS:
		if (c >= '0' && c <= '9') {
			uint64_t v = (uint64_t)j->bjob * 10 + (c - '0');

			if (++j->bdigits > ATTR_ID_DIGITS || v > UINT32_MAX)
				j->bare = B_SKIP;
			else
				j->bjob = (uint32_t)v;
			return;
		}
		if (c == ';') {
			j->bare = B_CLUSTER;
			return;
		}
		break;
	case B_CLUSTER:
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		    c == '.') {
			if (j->bcln == ATTR_CLUSTER_MAX)
				j->bare = B_SKIP;
			else
				j->bcl[j->bcln++] = (char)c;
			return;
		}
		if (j->bcln == 0) {
			j->bare = eol ? B_START : B_SKIP;
			return;
		}
		break;
	case B_TRAIL:
		break;
	case B_SKIP:
		if (eol)
			j->bare = B_START;
		return;
	}
	/* after an id (and cluster): blanks, then the end of the line */
	if (c == ' ' || c == '\t' || c == '\r') {
		j->bare = B_TRAIL;
	} else if (eol) {
		if (j->bjob != 0)
			bare_emit(j);
		j->bare = B_START;
	} else {
		j->bare = B_SKIP;
	}
}

static void
bare_end(struct attr_json *j)
{
	if ((j->bare == B_DIGITS || j->bare == B_TRAIL ||
	     (j->bare == B_CLUSTER && j->bcln > 0)) && j->bjob != 0)
		bare_emit(j);
	j->bare = B_OFF;
}

/* ----------------------------------------------------------- strings */

/*
 * The output of a --parsable call is read for bare ids once: in the
 * first line that answers it (its tool_result and toolUseResult alike).
 */
static int
awaits_answer(const struct attr_json *j, struct attr_scan *s,
	      const struct field *tuid)
{
	struct attr_call *call;
	const char *id;
	size_t n;

	if ((id = field_id(tuid, &n)) == NULL)
		return 0;
	call = attr_ring_find(&s->ring, id, n);
	return call && (call->kind & ATTR_CMD_PARSABLE) &&
	       (call->answered == 0 || call->answered == j->serial);
}

static void
string_begin(struct attr_json *j, struct attr_scan *s)
{
	j->sink = NULL;
	j->slow = 0;
	j->bare = B_OFF;
	j->bang_out = 0;
	j->prefixn = 0;
	j->keyn = 0;
	j->keyover = 0;
	if (j->in_key) {
		j->role = R_NONE;
		j->slow = 1;
		return;
	}
	j->role = role_here(j);
	switch (j->role) {
	case R_SESSION: j->sink = &j->session; break;
	case R_STAMP: j->sink = &j->stamp; break;
	case R_CWD: j->sink = &j->cwd; break;
	case R_TYPE: j->sink = &j->type; break;
	case R_ID: j->sink = &j->bid; break;
	case R_NAME: j->sink = &j->bname; break;
	case R_TUID: j->sink = &j->btuid; break;
	case R_COMMAND: j->sink = &j->bcmd; break;
	case R_RESULT:
		if (awaits_answer(j, s, &j->btuid))
			j->bare = B_START;
		break;
	case R_TUR:
		if (j->nresults > 0 && awaits_answer(j, s, &j->ltuid))
			j->bare = B_START;
		break;
	case R_TEXT:
		j->slow = 1;	/* until its first bytes are known */
		break;
	default:
		break;
	}
	if (j->sink)
		field_clear(j->sink);
	j->slow |= j->sink != NULL || j->bare != B_OFF;
}

/* Whether the first n bytes of a user text may still begin tag. */
static int
may_be(const struct attr_json *j, const char *tag)
{
	size_t n = strlen(tag);

	return j->prefixn <= n && memcmp(j->prefix, tag, j->prefixn) == 0;
}

/* A user text's first bytes say whether it is a "!" command or output. */
static void
prefix_byte(struct attr_json *j, struct attr_scan *s, char c)
{
	static const char in[] = "<bash-input>", out[] = "<bash-stdout>";

	j->prefix[j->prefixn++] = c;
	if (j->prefixn == sizeof in - 1 && may_be(j, in)) {
		field_clear(&j->text);
		sp_buf_add(&j->text.b, j->prefix, j->prefixn);
		j->sink = &j->text;
		j->bang_in = 1;
	} else if (j->prefixn == sizeof out - 1 && may_be(j, out)) {
		j->bang_out = j->bang_seen = 1;
		if (s->bang_pending)
			j->bare = B_START;
		else
			j->slow = 0;
	} else if (!may_be(j, in) && !may_be(j, out)) {
		j->slow = 0;	/* plain words: skipped from here on */
	}
}

/* One decoded byte of a string. */
static void
string_byte(struct attr_json *j, struct attr_scan *s, char c)
{
	if (j->in_key) {
		if (j->keyn < KEY_MAX)
			j->keybuf[j->keyn++] = c;
		else
			j->keyover = 1;
		return;
	}
	if (j->role == R_TEXT && j->sink == NULL && !j->bang_out) {
		prefix_byte(j, s, c);
		return;
	}
	if (j->sink)
		field_put(j->sink, c);
	if (j->bare != B_OFF)
		bare_byte(j, (unsigned char)c);
}

/*
 * An escape in the current string: what it is written into is marked,
 * and a user text's first bytes so written are no tag.
 */
static void
escaped(struct attr_json *j)
{
	if (j->in_key)
		return;
	if (j->sink != NULL)
		j->sink->escaped = 1;
	else if (j->role == R_TEXT && !j->bang_out)
		j->slow = 0;
}

/* A \uXXXX escape's code unit, as UTF-8 (a lone surrogate as U+FFFD). */
static void
unicode_unit(struct attr_json *j, struct attr_scan *s, unsigned u)
{
	char c[4];
	size_t n;

	if (u >= 0xd800 && u <= 0xdfff)
		u = 0xfffd;
	n = sp_utf8_put(c, u);
	for (size_t i = 0; i < n; i++)
		string_byte(j, s, c[i]);
}

static enum key
key_of(const char *k, size_t n)
{
	for (int i = 1; key_names[i]; i++)
		if (strlen(key_names[i]) == n && memcmp(key_names[i], k, n) == 0)
			return (enum key)i;
	return K_OTHER;
}

static void
string_end(struct attr_json *j, struct attr_scan *s)
{
	(void)s;
	if (j->in_key) {
		enum key k = j->keyover ? K_OTHER : key_of(j->keybuf, j->keyn);

		if (j->depth >= 1 && j->depth <= DEPTH)
			j->stk[j->depth - 1].key = (unsigned char)k;
		if (j->depth == 1 && (k == K_SESSIONID || k == K_MESSAGE ||
				      k == K_TYPE))
			j->claude = 1;
		if (j->depth == 2 && k == K_STDOUT &&
		    key_at(j, 0, K_TOOLUSERESULT))
			j->has_stdout = 1;
		j->st = L_COLON;
		return;
	}
	if (j->bare != B_OFF)
		bare_end(j);
	j->sink = NULL;
	j->st = L_AFTER;
}

/*
 * The bytes of a string up to its closing quote; returns how many were
 * used.  A string nobody reads is skipped to its next quote or backslash
 * sixteen bytes at a time.
 */
static size_t
string_run(struct attr_json *j, struct attr_scan *s, const char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		char c;

		if (!j->slow) {
			while (i + SP_SCAN_WIDTH <= n) {
				unsigned m = sp_scan_mask2(p + i, '"', '\\');

				if (m) {
					i += sp_scan_first(m);
					break;
				}
				i += SP_SCAN_WIDTH;
			}
			while (i < n && p[i] != '"' && p[i] != '\\')
				i++;
			if (i == n)
				return n;
		}
		c = p[i++];
		if (c == '"') {
			string_end(j, s);
			return i;
		}
		if (c == '\\') {
			j->st = L_ESC;
			return i;
		}
		string_byte(j, s, c);
	}
	return i;
}

/* ------------------------------------------------------------ the lexer */

static void
push(struct attr_json *j, struct attr_scan *s, int array)
{
	if (in_content(j) && j->depth == 3 && !array)
		block_begin(j);
	if (j->depth < DEPTH) {
		j->stk[j->depth].array = (char)array;
		j->stk[j->depth].key = K_OTHER;
	}
	j->depth++;
	j->st = array ? L_VALUE : L_KEY;
	(void)s;
}

static void
pop(struct attr_json *j, struct attr_scan *s)
{
	j->depth--;
	if (j->depth == 3 && j->in_block && in_content(j))
		block_end(j, s);
	j->st = j->depth == 0 ? L_DONE : L_AFTER;
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static char
unescape(char c)
{
	switch (c) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case 'b': return '\b';
	case 'f': return '\f';
	default: return c;	/* " \ / and anything lenient */
	}
}

void
attr_json_feed(struct attr_json *j, struct attr_scan *s, const char *p,
	       size_t n)
{
	size_t i = 0;

	while (i < n) {
		char c = p[i];
		int hex;

		switch (j->st) {
		case L_STRING:
			i += string_run(j, s, p + i, n - i);
			continue;
		case L_ESC:
			i++;
			escaped(j);
			if (c == 'u') {
				j->st = L_UESC;
				j->ucount = 0;
				j->uval = 0;
			} else {
				j->st = L_STRING;
				if (j->slow)
					string_byte(j, s, unescape(c));
			}
			continue;
		case L_UESC:
			i++;
			hex = sp_hex_digit(c);
			if (hex < 0) {
				j->st = L_BAD;
				continue;
			}
			j->uval = j->uval * 16 + (unsigned)hex;
			if (++j->ucount == 4) {
				j->st = L_STRING;
				if (j->slow)
					unicode_unit(j, s, j->uval);
			}
			continue;
		case L_SCALAR:
			if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			    c == '.' || c == '+' || c == '-' ||
			    (c >= 'A' && c <= 'Z')) {
				i++;
				continue;
			}
			j->st = L_AFTER;
			continue;
		case L_BAD:
			return;
		default:
			break;
		}
		i++;
		if (is_space(c))
			continue;
		switch (j->st) {
		case L_VALUE:
			if (c == '{') {
				push(j, s, 0);
			} else if (c == '[') {
				push(j, s, 1);
			} else if (c == '"') {
				j->in_key = 0;
				j->st = L_STRING;
				string_begin(j, s);
			} else if (c == ']' && j->depth > 0 &&
				   (j->depth > DEPTH || j->stk[j->depth - 1].array)) {
				pop(j, s);
			} else if (c == '-' || (c >= '0' && c <= '9') ||
				   c == 't' || c == 'f' || c == 'n') {
				j->st = L_SCALAR;
			} else {
				j->st = L_BAD;
			}
			break;
		case L_KEY:
			if (c == '"') {
				j->in_key = 1;
				j->st = L_STRING;
				string_begin(j, s);
			} else if (c == '}') {
				pop(j, s);
			} else {
				j->st = L_BAD;
			}
			break;
		case L_COLON:
			j->st = c == ':' ? L_VALUE : L_BAD;
			break;
		case L_AFTER: {
			int array;

			if (j->depth == 0) {	/* a bare value as the line */
				j->st = L_BAD;
				break;
			}
			array = j->depth > DEPTH || j->stk[j->depth - 1].array;

			if (c == ',')
				j->st = array ? L_VALUE : L_KEY;
			else if (c == (array ? ']' : '}'))
				pop(j, s);
			else
				j->st = L_BAD;
			break;
		}
		case L_DONE:
			j->st = L_BAD;
			break;
		default:
			break;
		}
	}
}

/* ------------------------------------------------------- the verdicts */

/* A session id as Claude Code writes one: a UUID's letters. */
static int
session_ok(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
		      (p[i] >= '0' && p[i] <= '9') || p[i] == '-' || p[i] == '_'))
			return 0;
	return n > 0;
}

/*
 * Whether a needle is a submission.  A tool's output is when the command
 * behind it was a shell's that does more than show files (a Read of a log
 * is a mention, so is a cat); output with no known call counts when the
 * result is a shell's (it has stdout).  A "!" command's output counts
 * likewise.  Words typed or written are mentions.
 */
static int
submitted(const struct attr_json *j, const struct attr_scan *s,
	  const struct attr_hit *h, int tur_kind)
{
	switch (h->role) {
	case R_RESULT:
		if (h->kind >= 0)
			return !(h->kind & ATTR_CMD_READER);
		return j->has_stdout;
	case R_TUR:
		return tur_kind < 0 || !(tur_kind & ATTR_CMD_READER);
	case -R_TEXT:
		return field_is(&j->type, "user") &&
		       !(s->bang_kind & ATTR_CMD_READER);
	default:
		return 0;
	}
}

/* A "!" command seen: its output, in the next user line, is judged by it. */
static void
bang_input(struct attr_json *j, struct attr_scan *s)
{
	static const char in[] = "<bash-input>", end[] = "</bash-input>";
	const char *p, *e;
	size_t n;

	if (!field_is(&j->type, "user") || j->text.over || j->text.b.len == 0)
		return;
	p = j->text.b.p + sizeof in - 1;
	n = j->text.b.len - (sizeof in - 1);
	e = memmem(p, n, end, sizeof end - 1);
	if (e != NULL)
		n = (size_t)(e - p);
	s->bang_kind = attr_command_kind(p, n);
	s->bang_pending = (s->bang_kind & ATTR_CMD_PARSABLE) != 0;
}

void
attr_json_end(struct attr_json *j, struct attr_scan *s, int cut)
{
	const char *session, *dir, *stamp;
	size_t sn, dn, tn;
	int64_t at = 0;
	int at_known, tur_kind = -1;

	/* A line cut short: what was read of its block still counts. */
	if (cut && j->in_block && j->st != L_BAD)
		block_end(j, s);
	if (j->st == L_BAD)
		j->nhits = 0;	/* no structure to judge the needles by */
	if (j->bang_in && j->st != L_BAD)
		bang_input(j, s);
	if (j->nresults == 1 && !j->ltuid.over) {
		struct attr_call *call = attr_ring_find(&s->ring,
						       j->ltuid.b.p,
						       j->ltuid.b.len);

		if (call)
			tur_kind = call->kind;
	}
	session = field_val(&j->session, &sn);
	if (session && !session_ok(session, sn))
		session = NULL;
	dir = field_val(&j->cwd, &dn);
	stamp = field_val(&j->stamp, &tn);
	at_known = stamp && attr_stamp(stamp, tn, &at);
	for (size_t i = 0; i < j->nhits; i++) {
		const struct attr_hit *h = &j->hits[i];

		/* A JSON line that is no transcript's: a needle is a needle. */
		if (!j->claude) {
			attr_scan_claim(s, h->job, h->cluster, h->cluster_n, NULL,
					0, NULL, 0, at, at_known);
			continue;
		}
		if (submitted(j, s, h, tur_kind))
			attr_scan_claim(s, h->job, h->cluster, h->cluster_n,
					session, sn, dir, dn, at, at_known);
	}
	if (j->bang_seen)
		s->bang_pending = 0;
	j->nhits = 0;
}
