/*
 * sp_sacct_fields.c - the sacct fields slurmpast reads: their names and
 * older spellings, and the --format a site's sacct can answer.
 */
#include <string.h>

#include "sp_sacct_int.h"

static const struct {
	const char *name;
	int mandatory;
} fields[SP_SF_COUNT] = {
#define SP_X(id, name, mandatory) { name, mandatory },
	SP_SACCT_FIELDS(SP_X)
#undef SP_X
	{ "ConsumedEnergy", 0 },
};

static int
lc(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int
sp_sacct_same_ci(const char *s, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (word[i] == '\0' || lc((unsigned char)s[i]) !=
		    lc((unsigned char)word[i]))
			return 0;
	return word[n] == '\0';
}

void
sp_sacct_trim(const char **s, size_t *n)
{
	while (*n > 0 && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' ||
	    (*s)[*n - 1] == '\r'))
		(*n)--;
}

int
sp_sacct_field_id(const char *name, size_t n)
{
	int i;

	sp_sacct_trim(&name, &n);
	for (i = 0; i < SP_SF_COUNT; i++)
		if (sp_sacct_same_ci(name, n, fields[i].name))
			return i;
	if (sp_sacct_same_ci(name, n, "Reserved"))
		return SP_SF_PLANNED;
	return -1;
}

/* 1 when the helpformat text lists the word (case-insensitively). */
static int
listed(const char *text, size_t n, const char *word)
{
	size_t i = 0, j;

	while (i < n) {
		while (i < n && (text[i] == ' ' || text[i] == '\t' ||
		    text[i] == '\n' || text[i] == '\r' || text[i] == ','))
			i++;
		j = i;
		while (j < n && !(text[j] == ' ' || text[j] == '\t' ||
		    text[j] == '\n' || text[j] == '\r' || text[j] == ','))
			j++;
		if (j > i && sp_sacct_same_ci(text + i, j - i, word))
			return 1;
		i = j;
	}
	return 0;
}

int
sp_sacct_format(const char *help, size_t n, struct sp_buf *format,
		struct sp_buf *err)
{
	const char *name;
	int i;

	for (i = 0; i < SP_SF_CONSUMEDENERGY; i++) {
		name = fields[i].name;
		if (help != NULL && !listed(help, n, name)) {
			if (i == SP_SF_PLANNED && listed(help, n, "Reserved"))
				name = "Reserved";
			else if (fields[i].mandatory) {
				sp_buf_printf(err, "this sacct has no field "
				    "'%s', which slurmpast needs (sacct "
				    "--helpformat)", name);
				return -1;
			} else
				continue;
		}
		if (format->len > 0)
			sp_buf_addc(format, ',');
		sp_buf_adds(format, name);
	}
	return 0;
}


/* ------------------------------------------------------------- kinds */

/*
 * What each field can hold, for placing the extra fields of a row that
 * a delimiter inside a value split too far (sp_sacct.c, rejoin): only a
 * free-text field can have taken them, and a placement stands only when
 * every other field then reads as what sacct prints there.
 */
static const unsigned char kinds[SP_SF_COUNT] = {
	[SP_SF_JOBID] = SP_SACCT_K_JOBID, [SP_SF_JOBIDRAW] = SP_SACCT_K_JOBID,
	[SP_SF_JOBNAME] = SP_SACCT_K_TEXT, [SP_SF_USER] = SP_SACCT_K_WORD,
	[SP_SF_UID] = SP_SACCT_K_COUNT, [SP_SF_ACCOUNT] = SP_SACCT_K_WORD,
	[SP_SF_CLUSTER] = SP_SACCT_K_WORD, [SP_SF_PARTITION] = SP_SACCT_K_WORD,
	[SP_SF_QOS] = SP_SACCT_K_WORD, [SP_SF_STATE] = SP_SACCT_K_STATE,
	[SP_SF_EXITCODE] = SP_SACCT_K_EXIT,
	[SP_SF_DERIVEDEXITCODE] = SP_SACCT_K_EXIT,
	[SP_SF_REASON] = SP_SACCT_K_ANY, [SP_SF_FLAGS] = SP_SACCT_K_WORD,
	[SP_SF_SUBMIT] = SP_SACCT_K_TIME, [SP_SF_ELIGIBLE] = SP_SACCT_K_TIME,
	[SP_SF_START] = SP_SACCT_K_TIME, [SP_SF_END] = SP_SACCT_K_TIME,
	[SP_SF_ELAPSED] = SP_SACCT_K_DURATION,
	[SP_SF_ELAPSEDRAW] = SP_SACCT_K_COUNT,
	[SP_SF_TIMELIMIT] = SP_SACCT_K_DURATION,
	[SP_SF_TIMELIMITRAW] = SP_SACCT_K_COUNT,
	[SP_SF_PLANNED] = SP_SACCT_K_DURATION, [SP_SF_REQMEM] = SP_SACCT_K_MEM,
	[SP_SF_REQCPUS] = SP_SACCT_K_COUNT, [SP_SF_REQTRES] = SP_SACCT_K_TRES,
	[SP_SF_CONSTRAINTS] = SP_SACCT_K_TEXT,
	[SP_SF_ALLOCTRES] = SP_SACCT_K_TRES,
	[SP_SF_ALLOCCPUS] = SP_SACCT_K_COUNT,
	[SP_SF_ALLOCNODES] = SP_SACCT_K_COUNT, [SP_SF_NCPUS] = SP_SACCT_K_COUNT,
	[SP_SF_NNODES] = SP_SACCT_K_COUNT, [SP_SF_NTASKS] = SP_SACCT_K_COUNT,
	[SP_SF_NODELIST] = SP_SACCT_K_NODES,
	[SP_SF_TOTALCPU] = SP_SACCT_K_DURATION,
	[SP_SF_USERCPU] = SP_SACCT_K_DURATION,
	[SP_SF_SYSTEMCPU] = SP_SACCT_K_DURATION,
	[SP_SF_CPUTIME] = SP_SACCT_K_DURATION,
	[SP_SF_CPUTIMERAW] = SP_SACCT_K_COUNT,
	[SP_SF_AVECPU] = SP_SACCT_K_DURATION,
	[SP_SF_MINCPU] = SP_SACCT_K_DURATION,
	[SP_SF_MINCPUNODE] = SP_SACCT_K_WORD,
	[SP_SF_MINCPUTASK] = SP_SACCT_K_COUNT,
	[SP_SF_AVECPUFREQ] = SP_SACCT_K_WORD, [SP_SF_MAXRSS] = SP_SACCT_K_MEM,
	[SP_SF_MAXRSSNODE] = SP_SACCT_K_WORD, [SP_SF_AVERSS] = SP_SACCT_K_MEM,
	[SP_SF_MAXVMSIZE] = SP_SACCT_K_MEM, [SP_SF_MAXPAGES] = SP_SACCT_K_MEM,
	[SP_SF_MAXDISKREAD] = SP_SACCT_K_MEM,
	[SP_SF_MAXDISKWRITE] = SP_SACCT_K_MEM,
	[SP_SF_TRESUSAGEINTOT] = SP_SACCT_K_TRES,
	[SP_SF_TRESUSAGEOUTTOT] = SP_SACCT_K_TRES,
	[SP_SF_TRESUSAGEINMAX] = SP_SACCT_K_TRES,
	[SP_SF_TRESUSAGEINAVE] = SP_SACCT_K_TRES,
	[SP_SF_CONSUMEDENERGYRAW] = SP_SACCT_K_COUNT,
	[SP_SF_REQGRES] = SP_SACCT_K_WORD, [SP_SF_ALLOCGRES] = SP_SACCT_K_WORD,
	[SP_SF_WORKDIR] = SP_SACCT_K_PATH, [SP_SF_COMMENT] = SP_SACCT_K_TEXT,
	[SP_SF_STDOUT] = SP_SACCT_K_PATH, [SP_SF_STDERR] = SP_SACCT_K_PATH,
	[SP_SF_SUBMITLINE] = SP_SACCT_K_TEXT,
	[SP_SF_CONSUMEDENERGY] = SP_SACCT_K_WORD,
};

/* Free-text fields of sacct that slurmpast does not read. */
static const char *const other_text[] = {
	"AdminComment", "SystemComment", "Extra", "Container", "StdIn",
	"Licenses", NULL
};

int
sp_sacct_kind(const char *name, size_t n)
{
	int sf = sp_sacct_field_id(name, n), i;

	if (sf >= 0)
		return kinds[sf];
	sp_sacct_trim(&name, &n);
	for (i = 0; other_text[i]; i++)
		if (sp_sacct_same_ci(name, n, other_text[i]))
			return SP_SACCT_K_TEXT;
	return SP_SACCT_K_ANY;
}

int
sp_sacct_kind_holds_text(int kind)
{
	return kind == SP_SACCT_K_TEXT || kind == SP_SACCT_K_PATH;
}

static int
has_blank(struct sp_slice v)
{
	size_t i;

	for (i = 0; i < v.n; i++)
		if (is_space((unsigned char)v.p[i]))
			return 1;
	return 0;
}

static int
all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!is_digit((unsigned char)s[i]))
			return 0;
	return n > 0;
}

/* OUT_OF_MEMORY, OUT_OF_ME+, CANCELLED by 1234: what sacct prints. */
static int
state_like(struct sp_slice v)
{
	size_t i = 0;

	while (i < v.n && ((v.p[i] >= 'A' && v.p[i] <= 'Z') || v.p[i] == '_'))
		i++;
	if (i == 0)
		return 0;
	if (i < v.n && v.p[i] == '+')
		i++;
	if (i == v.n)
		return 1;
	return v.n - i > 4 && memcmp(v.p + i, " by ", 4) == 0 &&
	    all_digits(v.p + i + 4, v.n - i - 4);
}

/* "cpu=4,mem=8G,gres/gpu=1": every item is key=value. */
static int
tres_like(struct sp_slice v)
{
	const char *p = v.p, *end = v.p + v.n;

	if (has_blank(v))
		return 0;
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *e = comma ? comma : end;

		if (memchr(p, '=', (size_t)(e - p)) == NULL)
			return 0;
		p = comma ? comma + 1 : end;
	}
	return 1;
}

int
sp_sacct_kind_fits(int kind, struct sp_slice v)
{
	double d;
	const char *colon;

	if (v.n == 0 || kind == SP_SACCT_K_ANY || kind == SP_SACCT_K_TEXT)
		return 1;
	switch (kind) {
	case SP_SACCT_K_JOBID:
		return is_digit((unsigned char)v.p[0]) && !has_blank(v);
	case SP_SACCT_K_WORD:
		return !has_blank(v);
	case SP_SACCT_K_NODES:
		return !has_blank(v) || (v.n == 13 &&
		    memcmp(v.p, "None assigned", 13) == 0);
	case SP_SACCT_K_PATH:
		/* sacct prints paths whole: WorkDir and the expanded StdOut. */
		return v.p[0] == '/';
	case SP_SACCT_K_COUNT:
		return all_digits(v.p, v.n) || sp_is_sentinel(v.p, v.n);
	case SP_SACCT_K_TIME:
		return sp_parse_time(v.p, v.n, NULL) != SP_VAL_BAD ||
		    sp_is_sentinel(v.p, v.n);
	case SP_SACCT_K_DURATION:
		return sp_parse_duration(v.p, v.n, &d) != SP_VAL_BAD;
	case SP_SACCT_K_MEM:
		return sp_parse_mem(v.p, v.n, 1.0, 0, &d, NULL) != SP_VAL_BAD;
	case SP_SACCT_K_STATE:
		return state_like(v);
	case SP_SACCT_K_EXIT:
		colon = memchr(v.p, ':', v.n);
		if (colon == NULL)
			return all_digits(v.p, v.n);
		return all_digits(v.p, (size_t)(colon - v.p)) &&
		    all_digits(colon + 1, v.n - (size_t)(colon - v.p) - 1);
	case SP_SACCT_K_TRES:
		return tres_like(v);
	}
	return 1;
}
