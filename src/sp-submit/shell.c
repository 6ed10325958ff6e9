/*
 * shell.c - the sbatch commands in a shell command line, found as the
 * shell would split it (POSIX sh's quoting, operators, redirections and
 * here-documents) without running or expanding anything.
 */
#include <stdlib.h>
#include <string.h>

#include "hook.h"

struct word {
	struct sp_buf text;
	const char *unknown;	/* an expansion: its value is not here */
};

struct scan {
	const char *p;
	const char *cwd;	/* the call's directory; NULL ours */
	struct word *w;
	size_t nw, wcap;
	int redirect;		/* the next word is a redirection's target */
	char *dir;		/* after a cd: where the commands run */
	const char *dir_unknown;
	struct heredoc {
		struct sp_buf word;	/* its delimiter */
		int strip;		/* <<-: leading tabs stripped */
	} *heredoc;			/* waiting for the line's end */
	size_t nheredoc, heredoccap;
	int heredoc_next;	/* the next word is a delimiter (<<-: 2) */
	struct hook_found *out;
};

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
is_op(char c)
{
	return c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' ||
	    c == ')' || c == '<' || c == '>';
}

static const char *
base(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash ? slash + 1 : s;
}

/* A word of the assignment form NAME=value. */
static int
assignment(const char *s)
{
	const char *p = s;

	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
	      *p == '_'))
		return 0;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
	       (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	return *p == '=';
}

static char *
join(const char *dir, const char *path)
{
	struct sp_buf b = { 0 };

	if (path[0] == '/' || dir == NULL)
		return sp_xstrdup(path);
	sp_buf_printf(&b, "%s/%s", dir, path);
	return b.p;
}

static void
cd(struct scan *s, struct word *w, size_t n)
{
	const char *home = getenv("HOME");
	const char *here = s->dir ? s->dir : s->cwd;
	size_t i = 1;
	char *to;

	while (i < n && (strcmp(sp_buf_str(&w[i].text), "-L") == 0 ||
			 strcmp(sp_buf_str(&w[i].text), "-P") == 0))
		i++;
	if (i < n && strcmp(sp_buf_str(&w[i].text), "--") == 0)
		i++;
	if (i < n && w[i].unknown) {
		s->dir_unknown = "cd to a directory named by an expansion";
		return;
	}
	if (i < n && strcmp(sp_buf_str(&w[i].text), "-") == 0) {
		s->dir_unknown = "cd -";
		return;
	}
	if (i >= n && (home == NULL || *home == '\0')) {
		s->dir_unknown = "cd with no HOME";
		return;
	}
	to = join(here, i < n ? sp_buf_str(&w[i].text) : home);
	/* Only a path from the root leaves an unknown directory behind. */
	if (to[0] == '/')
		s->dir_unknown = NULL;
	free(s->dir);
	s->dir = to;
}

/* The simple command read so far: a cd followed, an sbatch kept. */
static void
command(struct scan *s)
{
	static const char *const wrappers[] = { "env", "command", "exec",
		"nohup", "time", "builtin", NULL };
	struct word *w = s->w;
	size_t n = s->nw, i = 0;
	const char *name;
	struct hook_sbatch *sb;

	for (;;) {
		int wrapped = 0;

		while (i < n && !w[i].unknown && assignment(sp_buf_str(&w[i].text)))
			i++;
		if (i >= n)
			break;
		for (const char *const *x = wrappers; *x; x++)
			if (strcmp(sp_buf_str(&w[i].text), *x) == 0)
				wrapped = 1;
		if (!wrapped)
			break;
		i++;
		/* A wrapper's own options (env -i, time -p). */
		while (i < n && sp_buf_str(&w[i].text)[0] == '-')
			i++;
	}
	if (i >= n)
		goto done;
	name = base(sp_buf_str(&w[i].text));
	if (strcmp(sp_buf_str(&w[i].text), "cd") == 0) {
		cd(s, w + i, n - i);
		goto done;
	}
	if (strcmp(name, "sbatch") != 0 || w[i].unknown)
		goto done;
	s->out->v = sp_xgrow(s->out->v, &s->out->cap, s->out->n + 1,
			     sizeof *s->out->v);
	sb = &s->out->v[s->out->n++];
	memset(sb, 0, sizeof *sb);
	sb->args = sp_xcalloc(n - i, sizeof *sb->args);
	for (size_t k = i + 1; k < n; k++) {
		if (w[k].unknown && sb->unknown == NULL)
			sb->unknown = w[k].unknown;
		sb->args[sb->nargs++] = sp_xstrdup(sp_buf_str(&w[k].text));
	}
	if (s->dir_unknown != NULL && sb->unknown == NULL)
		sb->unknown = s->dir_unknown;
	sb->dir = sp_xstrdup(s->dir ? s->dir : s->cwd ? s->cwd : ".");
done:
	for (size_t k = 0; k < s->nw; k++)
		sp_buf_free(&s->w[k].text);
	s->nw = 0;
	s->redirect = 0;
}

/* After a line's end: the bodies of its here-documents, skipped. */
static void
heredocs(struct scan *s)
{
	for (size_t h = 0; h < s->nheredoc; h++) {
		const char *d = sp_buf_str(&s->heredoc[h].word);
		size_t dn = strlen(d);

		while (*s->p) {
			const char *line = s->p, *nl = strchr(line, '\n');
			size_t n = nl ? (size_t)(nl - line) : strlen(line);

			s->p = nl ? nl + 1 : line + n;
			if (s->heredoc[h].strip)
				while (n > 0 && *line == '\t') {
					line++;
					n--;
				}
			if (n == dn && memcmp(line, d, dn) == 0)
				break;
		}
		sp_buf_free(&s->heredoc[h].word);
	}
	s->nheredoc = 0;
}

/* One word from s->p: quotes removed, escapes taken, expansions noted. */
static void
read_word(struct scan *s, struct word *w)
{
	const char *p = s->p;
	const char *home = getenv("HOME");

	memset(w, 0, sizeof *w);
	if (*p == '~' && (p[1] == '/' || p[1] == '\0' || is_blank(p[1]) ||
			  is_op(p[1]))) {
		if (home == NULL)
			w->unknown = "~ with no HOME";
		else
			sp_buf_adds(&w->text, home);
		p++;
	} else if (*p == '~') {
		w->unknown = "~user";
	}
	while (*p && !is_blank(*p) && !is_op(*p)) {
		char c = *p++;

		if (c == '\\') {
			if (*p == '\n') {
				p++;
				continue;
			}
			if (*p)
				sp_buf_addc(&w->text, *p++);
			continue;
		}
		if (c == '\'') {
			while (*p && *p != '\'')
				sp_buf_addc(&w->text, *p++);
			if (*p)
				p++;
			continue;
		}
		if (c == '"') {
			while (*p && *p != '"') {
				if (*p == '\\' && (p[1] == '$' || p[1] == '`' ||
						   p[1] == '"' || p[1] == '\\' ||
						   p[1] == '\n')) {
					if (p[1] != '\n')
						sp_buf_addc(&w->text, p[1]);
					p += 2;
					continue;
				}
				if (*p == '$' || *p == '`')
					w->unknown = "an expansion ($ or `)";
				sp_buf_addc(&w->text, *p++);
			}
			if (*p)
				p++;
			continue;
		}
		if (c == '$' || c == '`')
			w->unknown = "an expansion ($ or `)";
		else if (c == '*' || c == '?')
			w->unknown = "a pattern (* or ?)";
		sp_buf_addc(&w->text, c);
	}
	s->p = p;
}

/* An operator at s->p; a redirection marks the word after it. */
static void
op(struct scan *s)
{
	const char *p = s->p;

	if (*p == '<' || *p == '>' || (*p == '&' && p[1] == '>')) {
		if (p[0] == '<' && p[1] == '<' && p[2] != '<') {
			s->heredoc_next = p[2] == '-' ? 2 : 1;
			p += p[2] == '-' ? 3 : 2;
		} else {
			while (*p == '<' || *p == '>' || *p == '&' || *p == '|')
				p++;
			if (*p == '-')
				p++;
			s->redirect = 1;
		}
		s->p = p;
		return;
	}
	command(s);
	if (*p == '\n') {
		s->p = p + 1;
		heredocs(s);
		return;
	}
	/* && || ;; |& and the single ones end a command alike. */
	if ((p[0] == '&' || p[0] == '|' || p[0] == ';') &&
	    (p[1] == p[0] || (p[0] == '|' && p[1] == '&')))
		p++;
	s->p = p + 1;
}

void
hook_shell(const char *cmd, const char *cwd, struct hook_found *out)
{
	struct scan s;

	memset(&s, 0, sizeof s);
	s.p = cmd;
	s.cwd = cwd;
	s.out = out;
	while (*s.p) {
		struct word w;
		const char *start;

		if (is_blank(*s.p)) {
			s.p++;
			continue;
		}
		if (s.p[0] == '\\' && s.p[1] == '\n') {
			s.p += 2;
			continue;
		}
		/* A word that begins with '#' begins a comment. */
		if (*s.p == '#') {
			while (*s.p && *s.p != '\n')
				s.p++;
			continue;
		}
		if (is_op(*s.p) || (s.p[0] == '&' && s.p[1] == '>')) {
			op(&s);
			continue;
		}
		start = s.p;
		read_word(&s, &w);
		/* 2>file: the digits before a redirection are its fd. */
		if ((*s.p == '<' || *s.p == '>') &&
		    strspn(start, "0123456789") == (size_t)(s.p - start)) {
			sp_buf_free(&w.text);
			continue;
		}
		if (s.heredoc_next) {
			s.heredoc = sp_xgrow(s.heredoc, &s.heredoccap,
					     s.nheredoc + 1, sizeof *s.heredoc);
			s.heredoc[s.nheredoc].word = w.text;
			s.heredoc[s.nheredoc++].strip = s.heredoc_next == 2;
			s.heredoc_next = 0;
			continue;
		}
		if (s.redirect) {
			s.redirect = 0;
			sp_buf_free(&w.text);
			continue;
		}
		s.w = sp_xgrow(s.w, &s.wcap, s.nw + 1, sizeof *s.w);
		s.w[s.nw++] = w;
	}
	command(&s);
	for (size_t h = 0; h < s.nheredoc; h++)
		sp_buf_free(&s.heredoc[h].word);
	free(s.heredoc);
	free(s.w);
	free(s.dir);
}

void
hook_found_free(struct hook_found *f)
{
	for (size_t i = 0; i < f->n; i++) {
		for (size_t k = 0; k < f->v[i].nargs; k++)
			free(f->v[i].args[k]);
		free(f->v[i].args);
		free(f->v[i].dir);
	}
	free(f->v);
	memset(f, 0, sizeof *f);
}
