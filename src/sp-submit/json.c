/*
 * json.c - the two values a PreToolUse call carries for sp-submit
 * --hook: tool_input.command (a string, or an argument vector) and cwd.
 * The whole text is checked as JSON (RFC 8259): a call that is not
 * JSON is said to be so, never half read.
 */
#include <stdlib.h>
#include <string.h>

#include "sp_const.h"
#include "sp_text.h"
#include "hook.h"

struct jp {
	const char *p, *end;
	int depth;
	struct hook_call *call;
};

static void
ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int
hex4(const char *p, unsigned *u)
{
	*u = 0;
	for (int i = 0; i < 4; i++) {
		int d = sp_hex_digit(p[i]);

		if (d < 0)
			return -1;
		*u = *u << 4 | (unsigned)d;
	}
	return 0;
}

/*
 * A string at j->p (its opening quote), decoded into out (NULL: only
 * checked).  *nul is set when it holds U+0000, which no C string can.
 */
static int
string(struct jp *j, struct sp_buf *out, int *nul)
{
	if (j->p >= j->end || *j->p != '"')
		return -1;
	j->p++;
	while (j->p < j->end) {
		unsigned char c = (unsigned char)*j->p++;
		unsigned u, lo;
		char utf8[4];

		if (c == '"')
			return 0;
		if (c < 0x20)
			return -1;
		if (c != '\\') {
			if (out)
				sp_buf_addc(out, (char)c);
			continue;
		}
		if (j->p >= j->end)
			return -1;
		c = (unsigned char)*j->p++;
		switch (c) {
		case '"': case '\\': case '/':
			break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u':
			if (j->end - j->p < 4 || hex4(j->p, &u) != 0)
				return -1;
			j->p += 4;
			if (u >= 0xD800 && u < 0xDC00 && j->end - j->p >= 6 &&
			    j->p[0] == '\\' && j->p[1] == 'u' &&
			    hex4(j->p + 2, &lo) == 0 && lo >= 0xDC00 &&
			    lo < 0xE000) {
				j->p += 6;
				u = 0x10000 + ((u - 0xD800) << 10) +
				    (lo - 0xDC00);
			} else if (u >= 0xD800 && u < 0xE000) {
				u = 0xFFFD;	/* a lone half */
			}
			if (u == 0 && nul)
				*nul = 1;
			if (out && u != 0)
				sp_buf_add(out, utf8, sp_utf8_put(utf8, u));
			continue;
		default:
			return -1;
		}
		if (out)
			sp_buf_addc(out, (char)c);
	}
	return -1;
}

static int value(struct jp *j);

static int
number(struct jp *j)
{
	const char *s = j->p;

	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return -1;
	if (*j->p == '0')
		j->p++;
	else
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return -1;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return -1;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	return j->p > s ? 0 : -1;
}

static int
word(struct jp *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return -1;
	j->p += n;
	return 0;
}

/* The elements of an array; with argv, each a string kept there. */
static int
array(struct jp *j, struct hook_argv *argv)
{
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return 0;
	}
	for (;;) {
		ws(j);
		if (argv != NULL && j->p < j->end && *j->p == '"') {
			struct sp_buf b = { 0 };

			if (string(j, &b, &argv->nul) != 0) {
				sp_buf_free(&b);
				return -1;
			}
			argv->v = sp_xgrow(argv->v, &argv->cap, argv->n + 1,
					   sizeof *argv->v);
			argv->v[argv->n++] = sp_xstrdup(sp_buf_str(&b));
			sp_buf_free(&b);
		} else {
			if (argv != NULL)
				argv->other = 1;
			if (value(j) != 0)
				return -1;
		}
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == ']') {
			j->p++;
			return 0;
		}
		return -1;
	}
}

/* An object's members; level 0 is the call, 1 its tool_input. */
static int
object(struct jp *j, int level)
{
	struct sp_buf key = { 0 };
	int rc = -1;

	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		return 0;
	}
	for (;;) {
		struct hook_call *c = j->call;

		ws(j);
		sp_buf_clear(&key);
		if (string(j, &key, NULL) != 0)
			break;
		ws(j);
		if (j->p >= j->end || *j->p != ':')
			break;
		j->p++;
		ws(j);
		if (level == 0 && strcmp(sp_buf_str(&key), "tool_input") == 0 &&
		    j->p < j->end && *j->p == '{') {
			if (++j->depth > SP_HOOK_JSON_DEPTH)
				break;
			if (object(j, 1) != 0)
				break;
			j->depth--;
		} else if (level == 0 && strcmp(sp_buf_str(&key), "cwd") == 0 &&
			   j->p < j->end && *j->p == '"') {
			sp_buf_clear(&c->cwd);
			c->have_cwd = 1;
			if (string(j, &c->cwd, &c->cwd_nul) != 0)
				break;
		} else if (level == 1 &&
			   strcmp(sp_buf_str(&key), "command") == 0 &&
			   j->p < j->end && (*j->p == '"' || *j->p == '[')) {
			c->have_command = 1;
			if (*j->p == '"') {
				sp_buf_clear(&c->command);
				if (string(j, &c->command, &c->command_nul) != 0)
					break;
			} else {
				c->is_argv = 1;
				if (++j->depth > SP_HOOK_JSON_DEPTH ||
				    array(j, &c->argv) != 0)
					break;
				j->depth--;
			}
		} else if (value(j) != 0) {
			break;
		}
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			rc = 0;
		}
		break;
	}
	sp_buf_free(&key);
	return rc;
}

static int
value(struct jp *j)
{
	int rc;

	ws(j);
	if (j->p >= j->end)
		return -1;
	switch (*j->p) {
	case '{':
	case '[':
		/* Nesting is bounded: a call nested a million deep is not
		 * one, and must not take the stack with it. */
		if (++j->depth > SP_HOOK_JSON_DEPTH)
			return -1;
		rc = *j->p == '{' ? object(j, 2) : array(j, NULL);
		j->depth--;
		return rc;
	case '"':
		return string(j, NULL, NULL);
	case 't':
		return word(j, "true");
	case 'f':
		return word(j, "false");
	case 'n':
		return word(j, "null");
	default:
		return number(j);
	}
}

int
hook_json(const char *text, size_t len, struct hook_call *call)
{
	struct jp j = { text, text + len, 0, call };

	ws(&j);
	if (j.p >= j.end || *j.p != '{')
		return -1;
	j.depth = 1;
	if (object(&j, 0) != 0)
		return -1;
	ws(&j);
	return j.p == j.end ? 0 : -1;
}

void
hook_call_free(struct hook_call *c)
{
	for (size_t i = 0; i < c->argv.n; i++)
		free(c->argv.v[i]);
	free(c->argv.v);
	sp_buf_free(&c->command);
	sp_buf_free(&c->cwd);
	memset(c, 0, sizeof *c);
}
