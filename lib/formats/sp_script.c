/*
 * sp_script.c - a batch script's lines and the options its #SBATCH
 * directives give, read as sbatch (Slurm 22.05) reads them.
 */
#include <stdlib.h>
#include <string.h>

#include "sp_script.h"

#define MAGIC "#SBATCH"
#define MAGIC_LEN (sizeof MAGIC - 1)

enum { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

/* sbatch's options (Slurm 22.05's sbatch(1)), sorted by name: the long
 * name, the short letter (0 none), and whether a value follows. */
static const struct sbopt {
	const char *name;
	char letter;
	char arg;
} sbopts[] = {
	{ "account", 'A', ARG_REQUIRED },
	{ "acctg-freq", 0, ARG_REQUIRED },
	{ "array", 'a', ARG_REQUIRED },
	{ "batch", 0, ARG_REQUIRED },
	{ "bb", 0, ARG_REQUIRED },
	{ "bbf", 0, ARG_REQUIRED },
	{ "begin", 'b', ARG_REQUIRED },
	{ "chdir", 'D', ARG_REQUIRED },
	{ "cluster-constraint", 0, ARG_REQUIRED },
	{ "clusters", 'M', ARG_REQUIRED },
	{ "comment", 0, ARG_REQUIRED },
	{ "constraint", 'C', ARG_REQUIRED },
	{ "container", 0, ARG_REQUIRED },
	{ "contiguous", 0, ARG_NONE },
	{ "core-spec", 'S', ARG_REQUIRED },
	{ "cores-per-socket", 0, ARG_REQUIRED },
	{ "cpu-freq", 0, ARG_REQUIRED },
	{ "cpus-per-gpu", 0, ARG_REQUIRED },
	{ "cpus-per-task", 'c', ARG_REQUIRED },
	{ "deadline", 0, ARG_REQUIRED },
	{ "delay-boot", 0, ARG_REQUIRED },
	{ "dependency", 'd', ARG_REQUIRED },
	{ "distribution", 'm', ARG_REQUIRED },
	{ "error", 'e', ARG_REQUIRED },
	{ "exclude", 'x', ARG_REQUIRED },
	{ "exclusive", 0, ARG_OPTIONAL },
	{ "export", 0, ARG_REQUIRED },
	{ "export-file", 0, ARG_REQUIRED },
	{ "extra-node-info", 'B', ARG_REQUIRED },
	{ "get-user-env", 0, ARG_OPTIONAL },
	{ "gid", 0, ARG_REQUIRED },
	{ "gpu-bind", 0, ARG_REQUIRED },
	{ "gpu-freq", 0, ARG_REQUIRED },
	{ "gpus", 'G', ARG_REQUIRED },
	{ "gpus-per-node", 0, ARG_REQUIRED },
	{ "gpus-per-socket", 0, ARG_REQUIRED },
	{ "gpus-per-task", 0, ARG_REQUIRED },
	{ "gres", 0, ARG_REQUIRED },
	{ "gres-flags", 0, ARG_REQUIRED },
	{ "help", 'h', ARG_NONE },
	{ "hint", 0, ARG_REQUIRED },
	{ "hold", 'H', ARG_NONE },
	{ "ignore-pbs", 0, ARG_NONE },
	{ "input", 'i', ARG_REQUIRED },
	{ "job-name", 'J', ARG_REQUIRED },
	{ "kill-on-invalid-dep", 0, ARG_REQUIRED },
	{ "licenses", 'L', ARG_REQUIRED },
	{ "mail-type", 0, ARG_REQUIRED },
	{ "mail-user", 0, ARG_REQUIRED },
	{ "mcs-label", 0, ARG_REQUIRED },
	{ "mem", 0, ARG_REQUIRED },
	{ "mem-bind", 0, ARG_REQUIRED },
	{ "mem-per-cpu", 0, ARG_REQUIRED },
	{ "mem-per-gpu", 0, ARG_REQUIRED },
	{ "mincpus", 0, ARG_REQUIRED },
	{ "network", 0, ARG_REQUIRED },
	{ "nice", 0, ARG_OPTIONAL },
	{ "no-kill", 'k', ARG_OPTIONAL },
	{ "no-requeue", 0, ARG_NONE },
	{ "nodefile", 'F', ARG_REQUIRED },
	{ "nodelist", 'w', ARG_REQUIRED },
	{ "nodes", 'N', ARG_REQUIRED },
	{ "ntasks", 'n', ARG_REQUIRED },
	{ "ntasks-per-core", 0, ARG_REQUIRED },
	{ "ntasks-per-gpu", 0, ARG_REQUIRED },
	{ "ntasks-per-node", 0, ARG_REQUIRED },
	{ "ntasks-per-socket", 0, ARG_REQUIRED },
	{ "open-mode", 0, ARG_REQUIRED },
	{ "output", 'o', ARG_REQUIRED },
	{ "overcommit", 'O', ARG_NONE },
	{ "oversubscribe", 's', ARG_NONE },
	{ "parsable", 0, ARG_NONE },
	{ "partition", 'p', ARG_REQUIRED },
	{ "power", 0, ARG_REQUIRED },
	{ "prefer", 0, ARG_REQUIRED },
	{ "priority", 0, ARG_REQUIRED },
	{ "profile", 0, ARG_REQUIRED },
	{ "propagate", 0, ARG_OPTIONAL },
	{ "qos", 'q', ARG_REQUIRED },
	{ "quiet", 'Q', ARG_NONE },
	{ "reboot", 0, ARG_NONE },
	{ "requeue", 0, ARG_NONE },
	{ "reservation", 0, ARG_REQUIRED },
	{ "signal", 0, ARG_REQUIRED },
	{ "sockets-per-node", 0, ARG_REQUIRED },
	{ "spread-job", 0, ARG_NONE },
	{ "switches", 0, ARG_REQUIRED },
	{ "test-only", 0, ARG_NONE },
	{ "thread-spec", 0, ARG_REQUIRED },
	{ "threads-per-core", 0, ARG_REQUIRED },
	{ "time", 't', ARG_REQUIRED },
	{ "time-min", 0, ARG_REQUIRED },
	{ "tmp", 0, ARG_REQUIRED },
	{ "uid", 0, ARG_REQUIRED },
	{ "usage", 0, ARG_NONE },
	{ "use-min-nodes", 0, ARG_NONE },
	{ "verbose", 'v', ARG_NONE },
	{ "version", 'V', ARG_NONE },
	{ "wait", 'W', ARG_NONE },
	{ "wait-all-nodes", 0, ARG_REQUIRED },
	{ "wckey", 0, ARG_REQUIRED },
	{ "wrap", 0, ARG_REQUIRED },
};

#define NSBOPTS (sizeof sbopts / sizeof sbopts[0])

/* isspace(3) in the C locale, as sbatch splits. */
static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	    c == '\r';
}

/* One argument: where it lies, and its text with where each byte was. */
struct arg {
	size_t line, start, end;	/* raw, in the line */
	struct sp_buf text;
	size_t *raw;			/* raw offset of each byte of text */
	size_t rawcap;
};

struct args {
	struct arg *v;
	size_t n, cap;
};

static void
note(struct sp_script *s, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
note(struct sp_script *s, size_t line, const char *fmt, ...)
{
	struct sp_buf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	sp_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	s->notes = sp_xgrow(s->notes, &s->notecap, s->nnotes + 1,
			    sizeof *s->notes);
	s->notes[s->nnotes].line = line;
	s->notes[s->nnotes].text = sp_xstrdup(sp_buf_str(&b));
	s->nnotes++;
	sp_buf_free(&b);
}

static void
split_lines(struct sp_script *s)
{
	size_t off = 0;

	while (off < s->len) {
		const char *nl = memchr(s->text + off, '\n', s->len - off);
		struct sp_sline *l;

		s->lines = sp_xgrow(s->lines, &s->linecap, s->nlines + 1,
				    sizeof *s->lines);
		l = &s->lines[s->nlines++];
		l->off = off;
		l->directive = 0;
		if (nl == NULL) {
			l->len = s->len - off;
			l->eol = SP_EOL_NONE;
			off = s->len;
			continue;
		}
		l->len = (size_t)(nl - (s->text + off));
		l->eol = SP_EOL_LF;
		if (l->len > 0 && s->text[off + l->len - 1] == '\r') {
			l->len--;
			l->eol = SP_EOL_CRLF;
			s->crlf++;
		}
		off = (size_t)(nl - s->text) + 1;
	}
}

/* sbatch reads a line as a C string: a NUL ends it. */
static size_t
c_len(const char *p, size_t n)
{
	const char *z = memchr(p, '\0', n);

	return z ? (size_t)(z - p) : n;
}

/* A command: the first byte that is not blank is not '#'. */
static int
is_command(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (is_space(p[i]))
			continue;
		return p[i] != '#';
	}
	return 0;
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* Whether word (lowercase) is in p[0..n), case aside. */
static int
has_word(const char *p, size_t n, const char *word)
{
	size_t w = strlen(word);

	for (size_t i = 0; i + w <= n; i++) {
		size_t k = 0;

		while (k < w && lower((unsigned char)p[i + k]) == word[k])
			k++;
		if (k == w)
			return 1;
	}
	return 0;
}

static void
arg_add(struct arg *a, char c, size_t raw)
{
	a->raw = sp_xgrow(a->raw, &a->rawcap, a->text.len + 1, sizeof *a->raw);
	a->raw[a->text.len] = raw;
	sp_buf_addc(&a->text, c);
}

/*
 * The next argument of p[*at..n), as sbatch's get_argument splits it.
 * Returns 1 with an argument in *a, 0 when the line has no more (an
 * empty one ends it too, as for sbatch), -1 with err set.
 */
static int
next_arg(const char *p, size_t n, size_t *at, struct arg *a,
	 struct sp_buf *err)
{
	size_t k = *at;
	char quote = 0;
	int escaped = 0;

	while (k < n && is_space(p[k]))
		k++;
	if (k >= n)
		return 0;
	if (p[k] == ':') {
		sp_buf_printf(err, "an argument begins with ':', which sbatch "
			      "refuses");
		return -1;
	}
	a->start = k;
	sp_buf_clear(&a->text);
	while (k < n && (quote || !is_space(p[k]))) {
		char c = p[k];

		if (escaped) {
			escaped = 0;
		} else if (c == '\\') {
			escaped = 1;
			k++;
			continue;
		} else if (quote) {
			if (c == quote) {
				quote = 0;
				k++;
				continue;
			}
		} else if (c == '"' || c == '\'') {
			quote = c;
			k++;
			continue;
		} else if (c == '#') {
			break;
		}
		arg_add(a, c, k);
		k++;
	}
	if (quote) {
		sp_buf_printf(err, "unmatched %c, which sbatch refuses", quote);
		return -1;
	}
	a->end = k;
	*at = k;
	return a->text.len > 0;
}

static int
read_args(struct sp_script *s, size_t line, struct args *v, struct sp_buf *err)
{
	const char *p = s->text + s->lines[line].off + MAGIC_LEN;
	size_t n = c_len(p, s->lines[line].len - MAGIC_LEN), at = 0;

	for (;;) {
		struct arg *a;
		int rc;

		v->v = sp_xgrow(v->v, &v->cap, v->n + 1, sizeof *v->v);
		a = &v->v[v->n];
		memset(a, 0, sizeof *a);
		rc = next_arg(p, n, &at, a, err);
		if (rc <= 0) {
			sp_buf_free(&a->text);
			free(a->raw);
			return rc;
		}
		/* Offsets from the line's start, magic word included. */
		a->line = line;
		a->start += MAGIC_LEN;
		a->end += MAGIC_LEN;
		for (size_t i = 0; i < a->text.len; i++)
			a->raw[i] += MAGIC_LEN;
		v->n++;
	}
}

static void
args_free(struct args *v)
{
	for (size_t i = 0; i < v->n; i++) {
		sp_buf_free(&v->v[i].text);
		free(v->v[i].raw);
	}
	free(v->v);
}

/* ------------------------------------------------------------ options */

static const struct sbopt *
by_letter(char c)
{
	for (size_t i = 0; i < NSBOPTS; i++)
		if (sbopts[i].letter == c)
			return &sbopts[i];
	return NULL;
}

/*
 * The option a long name names, as getopt_long finds it: the exact name,
 * else the one name it is a prefix of.  NULL with *ambiguous set when it
 * is a prefix of several.
 */
static const struct sbopt *
by_name(const char *name, size_t n, int *ambiguous)
{
	const struct sbopt *found = NULL;

	*ambiguous = 0;
	for (size_t i = 0; i < NSBOPTS; i++) {
		if (strncmp(sbopts[i].name, name, n) != 0)
			continue;
		if (sbopts[i].name[n] == '\0')
			return &sbopts[i];
		if (found != NULL)
			*ambiguous = 1;
		found = &sbopts[i];
	}
	return *ambiguous ? NULL : found;
}

static struct sp_sopt *
add_opt(struct sp_script *s, const struct sbopt *o, char letter, size_t line)
{
	struct sp_sopt *x;

	s->opts = sp_xgrow(s->opts, &s->optcap, s->nopts + 1, sizeof *s->opts);
	x = &s->opts[s->nopts++];
	memset(x, 0, sizeof *x);
	x->name = o->name;
	x->letter = letter;
	x->form = SP_SFORM_NONE;
	x->line = line;
	return x;
}

/*
 * The value: the text of argument a from byte i on.  Its bytes as
 * written begin right after the '=' or the letter (a quote there is the
 * value's), or with the argument when it is one of its own.
 */
static void
set_value(struct sp_sopt *x, const struct arg *a, size_t i,
	  enum sp_sform form)
{
	size_t from = form == SP_SFORM_SEP ? a->start : a->raw[i - 1] + 1;

	x->form = form;
	x->value = sp_xstrndup(sp_buf_str(&a->text) + i, a->text.len - i);
	x->vat.line = a->line;
	x->vat.off = from;
	x->vat.len = a->end - from;
}

/* A long option at args[*i]; *i moves past what it read. */
static void
long_opt(struct sp_script *s, const struct args *v, size_t *i)
{
	const struct arg *a = &v->v[*i];
	const char *name = a->text.p + 2;
	const char *eq = memchr(name, '=', a->text.len - 2);
	size_t n = eq ? (size_t)(eq - name) : a->text.len - 2;
	const struct sbopt *o;
	struct sp_sopt *x;
	int ambiguous;

	(*i)++;
	o = by_name(name, n, &ambiguous);
	if (o == NULL) {
		note(s, a->line, "'--%.*s' is %s sbatch option", (int)n, name,
		     ambiguous ? "an ambiguous abbreviation of an" :
		     "not an");
		return;
	}
	x = add_opt(s, o, 0, a->line);
	if (eq != NULL) {
		if (o->arg == ARG_NONE)
			note(s, a->line, "'--%s' takes no value", o->name);
		else
			set_value(x, a, (size_t)(eq - a->text.p) + 1,
				  SP_SFORM_EQ);
	} else if (o->arg == ARG_REQUIRED) {
		if (*i >= v->n) {
			note(s, a->line, "'--%s' needs a value", o->name);
			return;
		}
		set_value(x, &v->v[*i], 0, SP_SFORM_SEP);
		(*i)++;
	}
}

/* Short options at args[*i], grouped as getopt allows (-Hc4). */
static void
short_opts(struct sp_script *s, const struct args *v, size_t *i)
{
	const struct arg *a = &v->v[*i];

	(*i)++;
	for (size_t k = 1; k < a->text.len; k++) {
		const struct sbopt *o = by_letter(a->text.p[k]);
		struct sp_sopt *x;

		if (o == NULL) {
			note(s, a->line, "'-%c' is not an sbatch option",
			     a->text.p[k]);
			return;
		}
		x = add_opt(s, o, a->text.p[k], a->line);
		if (o->arg != ARG_REQUIRED)
			continue;
		if (k + 1 < a->text.len) {
			set_value(x, a, k + 1, SP_SFORM_ATTACHED);
		} else if (*i < v->n) {
			set_value(x, &v->v[*i], 0, SP_SFORM_SEP);
			(*i)++;
		} else {
			note(s, a->line, "'-%c' needs a value", o->letter);
		}
		return;
	}
}

/* getopt_long over every argument, stopping at one that is not an option
 * (sbatch's option string begins with '+'); returns the index of that
 * one (v->n: none). */
static size_t
scan_opts(struct sp_script *s, const struct args *v)
{
	size_t i = 0;

	while (i < v->n) {
		const struct arg *a = &v->v[i];
		const char *t = sp_buf_str(&a->text);

		if (strcmp(t, "--") == 0) {
			i++;
			break;
		}
		if (t[0] == '-' && t[1] == '-')
			long_opt(s, v, &i);
		else if (t[0] == '-' && t[1] != '\0')
			short_opts(s, v, &i);
		else
			break;
	}
	return i;
}

static void
read_opts(struct sp_script *s, const struct args *v)
{
	size_t i = scan_opts(s, v);

	if (i < v->n)
		note(s, v->v[i].line, "'%s' is not an option: sbatch reads no "
		     "directive after it, and refuses the script",
		     v->v[i].text.p);
}

int
sp_script_parse(struct sp_script *s, const char *text, size_t len,
		struct sp_buf *err)
{
	struct args v = { 0 };
	int rc = 0;

	memset(s, 0, sizeof *s);
	s->text = sp_xmalloc(len + 1);
	if (len > 0)
		memcpy(s->text, text, len);
	s->text[len] = '\0';
	s->len = len;
	s->last_directive = -1;
	split_lines(s);
	s->first_cmd = s->nlines;
	s->shebang = s->nlines > 0 && s->lines[0].len >= 2 &&
	    memcmp(s->text, "#!", 2) == 0;
	for (size_t i = 0; i < s->nlines && rc == 0; i++) {
		const char *p = s->text + s->lines[i].off;
		size_t n = c_len(p, s->lines[i].len);

		if (n < MAGIC_LEN || memcmp(p, MAGIC, MAGIC_LEN) != 0) {
			if (is_command(p, n)) {
				s->first_cmd = i;
				break;
			}
			continue;
		}
		if (has_word(p, n, "hetjob") || has_word(p, n, "packjob")) {
			sp_buf_printf(err, "%zu: a heterogeneous job (hetjob): "
				      "its components are sized apart", i + 1);
			rc = -1;
			break;
		}
		s->lines[i].directive = 1;
		s->last_directive = (long)i;
		if (read_args(s, i, &v, err) < 0) {
			struct sp_buf msg = { 0 };

			sp_buf_printf(&msg, "%zu: %s", i + 1, sp_buf_str(err));
			sp_buf_clear(err);
			sp_buf_adds(err, sp_buf_str(&msg));
			sp_buf_free(&msg);
			rc = -1;
		}
	}
	if (rc == 0)
		read_opts(s, &v);
	args_free(&v);
	return rc;
}

void
sp_script_free(struct sp_script *s)
{
	for (size_t i = 0; i < s->nopts; i++)
		free(s->opts[i].value);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i].text);
	free(s->opts);
	free(s->notes);
	free(s->lines);
	free(s->text);
	memset(s, 0, sizeof *s);
}

const struct sp_sopt *
sp_script_opt(const struct sp_script *s, const char *name)
{
	for (size_t i = s->nopts; i-- > 0;)
		if (strcmp(s->opts[i].name, name) == 0)
			return &s->opts[i];
	return NULL;
}

const char *
sp_script_line(const struct sp_script *s, size_t i, size_t *len)
{
	*len = s->lines[i].len;
	return s->text + s->lines[i].off;
}

size_t
sp_script_cmdline(struct sp_script *s, char *const *argv, size_t argc)
{
	struct args v = { 0 };
	size_t first;

	memset(s, 0, sizeof *s);
	s->last_directive = -1;
	v.v = sp_xcalloc(argc + 1, sizeof *v.v);
	v.cap = argc + 1;
	/* Each argument is one already: its bytes are where they lie. */
	for (size_t i = 0; i < argc; i++) {
		struct arg *a = &v.v[v.n++];
		size_t n = strlen(argv[i]);

		a->line = i;
		a->start = 0;
		a->end = n;
		for (size_t k = 0; k < n; k++)
			arg_add(a, argv[i][k], k);
	}
	first = scan_opts(s, &v);
	args_free(&v);
	return first;
}

void
sp_script_overlay(struct sp_script *s, const struct sp_script *a,
		  const struct sp_script *b)
{
	const struct sp_script *from[2] = { a, b };

	memset(s, 0, sizeof *s);
	s->last_directive = -1;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < from[k]->nopts; i++) {
			struct sp_sopt *x;

			s->opts = sp_xgrow(s->opts, &s->optcap, s->nopts + 1,
					   sizeof *s->opts);
			x = &s->opts[s->nopts++];
			*x = from[k]->opts[i];
			if (x->value != NULL)
				x->value = sp_xstrdup(x->value);
		}
}
