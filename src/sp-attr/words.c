/*
 * words.c - reading the few words that matter: what a shell command does,
 * the job id sbatch answered with, and a line's leading time.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdint.h>
#include <string.h>

#include "sp.h"
#include "attr.h"

static int
is_word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

static int
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int
is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int
attr_has_word(const char *p, size_t n, const char *word)
{
	size_t wn = strlen(word);
	const char *q = p, *end;

	if (n == 0)
		return 0;
	end = p + n;
	while ((size_t)(end - q) >= wn) {
		const char *h = memmem(q, (size_t)(end - q), word, wn);

		if (h == NULL)
			return 0;
		if ((h == p || !is_word_char((unsigned char)h[-1])) &&
		    (h + wn == end || !is_word_char((unsigned char)h[wn])))
			return 1;
		q = h + 1;
	}
	return 0;
}

/* ------------------------------------------------------------ commands */

/*
 * Programs that only show what already exists: "Submitted batch job" in
 * their output is an earlier submission shown again (cat driver.log,
 * grep Submitted *.out), not one made now.
 */
static const char *const readers[] = {
	"cat", "tac", "head", "tail", "less", "more", "grep", "egrep",
	"fgrep", "zgrep", "rg", "ag", "ack", "zcat", "bzcat", "xzcat",
	"zless", "awk", "gawk", "mawk", "sed", "cut", "sort", "uniq", "wc",
	"jq", "ls", "cd", "pwd", "echo", "printf", "find", "diff", "cmp",
	"comm", "file", "stat", "du", "df", "tree", "git", "sacct", "squeue",
	"scontrol", "sinfo", "sstat", "sprio", "sshare", "seff", "sreport",
	"tr", "column", "nl", "od", "xxd", "hexdump", "strings", "which",
	"type", "realpath", "readlink", "dirname", "basename", "date",
	"sleep", "true", "false", "test", "[", "watch", NULL
};

/* Words that run the word after them, or open a compound command. */
static const char *const prefixes[] = {
	"sudo", "env", "nohup", "time", "command", "builtin", "exec", "nice",
	"do", "then", "else", "elif", "if", "while", "until", "!", "{", "}",
	NULL
};

/* Segments that run nothing themselves. */
static const char *const neutral[] = {
	"done", "fi", "esac", "for", "case", "in", ";;", NULL
};

static int
in_list(const char *w, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && memcmp(*list, w, n) == 0)
			return 1;
	return 0;
}

/* NAME=value before a command. */
static int
is_assignment(const char *w, size_t n)
{
	size_t i = 0;

	if (n == 0 || is_digit((unsigned char)w[0]))
		return 0;
	while (i < n && ((w[i] >= 'a' && w[i] <= 'z') ||
	       (w[i] >= 'A' && w[i] <= 'Z') || is_digit((unsigned char)w[i]) ||
	       w[i] == '_'))
		i++;
	return i > 0 && i < n && w[i] == '=';
}

/* A byte that ends a simple command, outside quotes. */
static int
ends_segment(const char *p, size_t i, size_t n)
{
	char c = p[i];

	if (c == '&')		/* 2>&1 and &> redirect; they end nothing */
		return !((i > 0 && (p[i - 1] == '>' || p[i - 1] == '<')) ||
			 (i + 1 < n && p[i + 1] == '>'));
	return c == ';' || c == '|' || c == '\n' || c == '(' || c == ')' ||
	       c == '`';
}

/*
 * The segment's verdict: 1 it only reads, 0 it may run anything, -1 it
 * runs nothing (empty, or "done").
 */
static int
segment_reads(const char *p, size_t n)
{
	size_t i = 0;

	for (;;) {
		size_t s, e;
		const char *w;

		while (i < n && (is_blank((unsigned char)p[i])))
			i++;
		if (i == n)
			return -1;
		s = i;
		while (i < n && !is_blank((unsigned char)p[i]))
			i++;
		e = i;
		w = p + s;
		if (is_assignment(w, e - s) || in_list(w, e - s, prefixes))
			continue;
		if (in_list(w, e - s, neutral))
			return -1;
		/* /usr/bin/cat is cat */
		for (size_t k = e; k > s; k--)
			if (p[k - 1] == '/') {
				w = p + k;
				break;
			}
		return in_list(w, (size_t)(p + e - w), readers);
	}
}

static int
only_reads(const char *cmd, size_t n)
{
	size_t start = 0;
	char quote = 0;
	int any = 0;

	for (size_t i = 0; i <= n; i++) {
		int v;

		if (i < n && quote) {
			if (cmd[i] == quote)
				quote = 0;
			else if (cmd[i] == '\\' && quote == '"' && i + 1 < n)
				i++;
			continue;
		}
		if (i < n && (cmd[i] == '\'' || cmd[i] == '"')) {
			quote = cmd[i];
			continue;
		}
		if (i < n && cmd[i] == '\\' && i + 1 < n) {
			i++;
			continue;
		}
		if (i < n && !ends_segment(cmd, i, n))
			continue;
		v = segment_reads(cmd + start, i - start);
		if (v == 0)
			return 0;
		any |= v == 1;
		start = i + 1;
	}
	return any;
}

int
attr_command_kind(const char *cmd, size_t n)
{
	int kind = 0;

	if (n == 0)
		return 0;
	if (attr_has_word(cmd, n, "sbatch")) {
		kind |= ATTR_CMD_SBATCH;
		if (memmem(cmd, n, "--parsable", 10) != NULL)
			kind |= ATTR_CMD_PARSABLE;
	} else if (only_reads(cmd, n)) {
		kind |= ATTR_CMD_READER;
	}
	return kind;
}

/* ------------------------------------------------------------ job ids */

static int
is_cluster_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c) || c == '_' || c == '-' || c == '.';
}

/* Up to ATTR_ID_DIGITS digits as a 32-bit id; the length read, or 0. */
static size_t
read_id(const char *p, size_t n, uint32_t *job)
{
	uint64_t v = 0;
	size_t i = 0;

	while (i < n && is_digit((unsigned char)p[i])) {
		if (i == ATTR_ID_DIGITS)
			return 0;
		v = v * 10 + (uint64_t)(p[i] - '0');
		i++;
	}
	if (i == 0 || v == 0 || v > UINT32_MAX)
		return 0;
	*job = (uint32_t)v;
	return i;
}

/* A cluster name at p: its length, or 0 when there is none or it is too long. */
static size_t
read_cluster(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && is_cluster_char((unsigned char)p[i])) {
		if (i == ATTR_CLUSTER_MAX)
			return 0;
		i++;
	}
	return i;
}

int
attr_after_needle(const char *p, size_t n, uint32_t *job,
		  const char **cluster, size_t *cluster_n)
{
	static const char on[] = " on cluster ";
	size_t i = read_id(p, n, job), k;

	*cluster = NULL;
	*cluster_n = 0;
	if (i == 0)
		return 0;
	/* 123abc is no id; 123\n (a JSON escape) and 123. are. */
	if (i < n && ((p[i] >= 'a' && p[i] <= 'z') ||
		      (p[i] >= 'A' && p[i] <= 'Z') || p[i] == '_'))
		return 0;
	if (n - i > sizeof on - 1 && memcmp(p + i, on, sizeof on - 1) == 0) {
		i += sizeof on - 1;
		k = read_cluster(p + i, n - i);
		if (k > 0) {
			*cluster = p + i;
			*cluster_n = k;
		}
	}
	return 1;
}

int
attr_bare_id(const char *p, size_t n, uint32_t *job, const char **cluster,
	     size_t *cluster_n)
{
	size_t i = 0, k;

	*cluster = NULL;
	*cluster_n = 0;
	while (n > 0 && is_blank((unsigned char)p[n - 1]))
		n--;
	while (i < n && is_blank((unsigned char)p[i]))
		i++;
	k = read_id(p + i, n - i, job);
	if (k == 0)
		return 0;
	i += k;
	if (i == n)
		return 1;
	if (p[i] != ';')
		return 0;
	i++;
	k = read_cluster(p + i, n - i);
	if (k == 0 || i + k != n)
		return 0;
	*cluster = p + i;
	*cluster_n = k;
	return 1;
}

/* ------------------------------------------------------------- times */

static int
two_digits(const char *p, int *v)
{
	if (!is_digit((unsigned char)p[0]) || !is_digit((unsigned char)p[1]))
		return 0;
	*v = (p[0] - '0') * 10 + (p[1] - '0');
	return 1;
}

int
attr_stamp(const char *p, size_t n, int64_t *civil)
{
	char iso[19];
	size_t i = 0;
	int64_t t;

	if (n > 0 && p[0] == '[')
		i = 1;
	if (n - i < sizeof iso)
		return 0;
	memcpy(iso, p + i, sizeof iso);
	if (iso[10] != 'T' && iso[10] != ' ')
		return 0;
	iso[10] = 'T';
	if (sp_parse_time(iso, sizeof iso, &t) != SP_VAL_OK)
		return 0;
	i += sizeof iso;
	if (i < n && (p[i] == '.' || p[i] == ',')) {
		i++;
		while (i < n && is_digit((unsigned char)p[i]))
			i++;
	}
	if (i < n && p[i] == 'Z') {
		t = sp_civil_local(t);
	} else if (i < n && (p[i] == '+' || p[i] == '-')) {
		int hh, mm, sign = p[i] == '-' ? -1 : 1;
		size_t m = i + 3 + (i + 3 < n && p[i + 3] == ':');

		if (m + 2 <= n && two_digits(p + i + 1, &hh) &&
		    two_digits(p + m, &mm) && hh <= 14 && mm <= 59)
			t = sp_civil_local(t - sign * (hh * 3600 + mm * 60));
	}
	*civil = t;
	return 1;
}
