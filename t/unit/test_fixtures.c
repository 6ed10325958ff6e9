/*
 * Real data from the first day: every sacct dump under ../shared/fixtures
 * goes through the units and hostlist layers.  Every NodeList expands (or
 * is "None assigned"), every memory value, duration and timestamp parses
 * or is a recognised unknown, and nothing is SP_VAL_BAD.  A row whose
 * field count is not its layout's is counted as shifted and not read by
 * position, since its columns cannot be trusted.
 *
 * The counts asserted per file were taken from these files and matched
 * by an independent script.  README.md's claims were checked too: no row
 * here has a '|' inside a name, but the hpc-cost-simulator dump mixes two
 * formats (846 of its 878 rows lack the trailing Partition field) and
 * holds none of the 0n, 2T, INVALID or "None" Start it is said to.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sp.h"
#include "tap.h"

#define MiB 1048576.0

/* The field order of each folder, from fixtures/README.md. */
static const struct layout {
	const char *dir;
	const char *fields;	/* NULL: the file's first line names them */
} layouts[] = {
	{ "xdmod", "JobID JobIDRaw Cluster Partition QOS Account Group GID "
	  "User UID Submit Eligible Start End Elapsed ExitCode State NNodes "
	  "NCPUS ReqCPUS ReqMem ReqTRES AllocTRES Timelimit NodeList "
	  "JobName" },
	{ "hpc-cost-simulator", "State JobID ReqCPUS ReqMem ReqNodes "
	  "Constraints Submit Eligible Start Elapsed Suspended End ExitCode "
	  "DerivedExitCode AllocNodes NCPUS MaxDiskRead MaxDiskWrite MaxPages "
	  "MaxRSS MaxVMSize CPUTime UserCPU SystemCPU TotalCPU Partition" },
	{ "slurm2sql", NULL },
};

enum kind { K_NONE, K_NODES, K_NNODES, K_REQMEM, K_BYTES, K_DURATION,
	    K_TIME };

static const struct {
	const char *name;
	enum kind kind;
} columns[] = {
	{ "NodeList", K_NODES }, { "NNodes", K_NNODES },
	{ "ReqMem", K_REQMEM },
	{ "MaxRSS", K_BYTES }, { "AveRSS", K_BYTES },
	{ "MaxVMSize", K_BYTES }, { "AveVMSize", K_BYTES },
	{ "MaxDiskRead", K_BYTES }, { "MaxDiskWrite", K_BYTES },
	{ "AveDiskRead", K_BYTES }, { "AveDiskWrite", K_BYTES },
	{ "Timelimit", K_DURATION }, { "Elapsed", K_DURATION },
	{ "TotalCPU", K_DURATION }, { "UserCPU", K_DURATION },
	{ "SystemCPU", K_DURATION }, { "CPUTime", K_DURATION },
	{ "MinCPU", K_DURATION }, { "AveCPU", K_DURATION },
	{ "Suspended", K_DURATION },
	{ "Submit", K_TIME }, { "Eligible", K_TIME }, { "Start", K_TIME },
	{ "End", K_TIME },
};

struct counts {
	long rows, shifted;
	long lists, none, names, nnodes_differ;
	long mem_ok, mem_unknown, per_cpu;
	long dur_ok, dur_unknown;
	long time_ok, time_unknown;
	long bad;
};

/*
 * What each file must give.  Found by running, then counted again by an
 * independent script over the same files; ReqMem per CPU in pozidriv is
 * its 10587 + 21 + 18 values carrying the 2^31 bit.
 */
#define COUNTS(rows_, shifted_, lists_, none_, names_, differ_, mem_ok_, \
	       mem_unknown_, per_cpu_, dur_ok_, dur_unknown_, time_ok_, \
	       time_unknown_) \
	{ .rows = rows_, .shifted = shifted_, .lists = lists_, \
	  .none = none_, .names = names_, .nnodes_differ = differ_, \
	  .mem_ok = mem_ok_, .mem_unknown = mem_unknown_, \
	  .per_cpu = per_cpu_, .dur_ok = dur_ok_, \
	  .dur_unknown = dur_unknown_, .time_ok = time_ok_, \
	  .time_unknown = time_unknown_, .bad = 0 }

static const struct expect {
	const char *file;
	struct counts c;
} expected[] = {
	/*                                  rows  shift lists none names diff
	 *                                  mem   unkn  cpu   dur  unkn  time unkn */
	{ "hpc-cost-simulator/sacct-output-v2.txt",
	  COUNTS(878, 846, 0, 0, 0, 0, 80, 80, 0, 192, 0, 128, 0) },
	{ "slurm2sql/test-data1.txt",
	  COUNTS(5, 0, 5, 0, 5, 0, 24, 16, 0, 30, 5, 12, 3) },
	{ "slurm2sql/test-data2.txt",
	  COUNTS(5, 0, 5, 0, 5, 0, 24, 16, 0, 30, 5, 12, 3) },
	{ "slurm2sql/test-data3.txt",
	  COUNTS(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0) },
	{ "xdmod/accounting-logs-with-job-arrays.log",
	  COUNTS(6, 0, 6, 0, 192, 0, 6, 0, 6, 12, 0, 24, 0) },
	{ "xdmod/accounting-logs.log",
	  COUNTS(4, 0, 4, 0, 41, 1, 3, 1, 2, 7, 1, 15, 1) },
	{ "xdmod/non-ended-job-state.log",
	  COUNTS(2, 0, 2, 0, 2, 0, 2, 0, 0, 4, 0, 7, 1) },
	{ "xdmod/pozidriv.log",
	  COUNTS(11704, 0, 11285, 419, 11298, 0, 11704, 0, 10626, 23350, 58,
		 46816, 0) },
	{ "xdmod/unknown-job-state.log",
	  COUNTS(2, 0, 2, 0, 2, 0, 2, 0, 0, 4, 0, 7, 1) },
	{ "xdmod/utf8-multibyte-chars.log",
	  COUNTS(1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 0, 4, 0) },
};

struct table {
	char **name;
	enum kind *kind;
	size_t n;
	char delim;
};

static void
table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	free(t->kind);
	memset(t, 0, sizeof *t);
}

static enum kind
kind_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof columns / sizeof columns[0]; i++)
		if (strcmp(columns[i].name, name) == 0)
			return columns[i].kind;
	return K_NONE;
}

static void
table_set(struct table *t, const char *line, char delim)
{
	const char *p = line, *e;
	size_t cap = 0;

	t->delim = delim;
	for (;;) {
		e = strchr(p, delim);
		if (e == NULL)
			e = p + strlen(p);
		t->name = sp_xgrow(t->name, &cap, t->n + 1, sizeof *t->name);
		t->name[t->n++] = sp_xstrndup(p, (size_t)(e - p));
		if (*e == '\0')
			break;
		p = e + 1;
	}
	t->kind = sp_xcalloc(t->n, sizeof *t->kind);
	for (cap = 0; cap < t->n; cap++)
		t->kind[cap] = kind_of(t->name[cap]);
}

/* Splits in place; returns the number of fields (may exceed max). */
static size_t
split(char *line, char delim, char **f, size_t max)
{
	size_t n = 0;
	char *p = line, *e;

	for (;;) {
		e = strchr(p, delim);
		if (n < max)
			f[n] = p;
		n++;
		if (e == NULL)
			break;
		*e = '\0';
		p = e + 1;
	}
	return n;
}

static void
note_bad(struct counts *c, const char *file, long line, const char *col,
	 const char *value)
{
	if (c->bad++ < 5)
		diag("%s:%ld: %s \"%s\" is SP_VAL_BAD", file, line, col, value);
}

static void
count_val(struct counts *c, int rc, long *okc, long *unknown,
	  const char *file, long line, const char *col, const char *value)
{
	if (rc == SP_VAL_OK)
		(*okc)++;
	else if (rc == SP_VAL_UNKNOWN)
		(*unknown)++;
	else
		note_bad(c, file, line, col, value);
}

static void
check_row(const struct table *t, char **f, struct counts *c,
	  struct sp_names *nodes, const char *file, long line)
{
	long nnodes = -1;
	size_t i;
	double v;
	int64_t epoch;
	char scope;
	int rc;

	sp_names_clear(nodes);
	for (i = 0; i < t->n; i++) {
		size_t n = strlen(f[i]);

		switch (t->kind[i]) {
		case K_NODES:
			if (sp_hostlist_expand(f[i], n, nodes) < 0) {
				note_bad(c, file, line, t->name[i], f[i]);
			} else if (nodes->n == 0) {
				c->none++;
			} else {
				c->lists++;
				c->names += (long)nodes->n;
			}
			break;
		case K_NNODES:
			if (sp_strtol_full(f[i], &nnodes) < 0)
				nnodes = -1;
			break;
		case K_REQMEM:
		case K_BYTES:
			rc = sp_parse_mem(f[i], n, t->kind[i] == K_REQMEM ?
					  MiB : 1, t->kind[i] == K_REQMEM, &v,
					  &scope);
			count_val(c, rc, &c->mem_ok, &c->mem_unknown, file, line,
				  t->name[i], f[i]);
			if (rc == SP_VAL_OK && t->kind[i] == K_REQMEM &&
			    scope == 'c')
				c->per_cpu++;
			break;
		case K_DURATION:
			rc = sp_parse_duration(f[i], n, &v);
			count_val(c, rc, &c->dur_ok, &c->dur_unknown, file, line,
				  t->name[i], f[i]);
			break;
		case K_TIME:
			rc = sp_parse_time(f[i], n, &epoch);
			count_val(c, rc, &c->time_ok, &c->time_unknown, file,
				  line, t->name[i], f[i]);
			break;
		case K_NONE:
			break;
		}
	}
	/* A list that disagrees with NNodes is worth knowing about. */
	if (nnodes >= 0 && nodes->n > 0 && (long)nodes->n != nnodes) {
		if (c->nnodes_differ++ < 3)
			diag("%s:%ld: NNodes %ld, NodeList has %zu names", file,
			     line, nnodes, nodes->n);
	}
}

static const struct layout *
layout_of(const char *dir)
{
	size_t i;

	for (i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
		if (strcmp(layouts[i].dir, dir) == 0)
			return &layouts[i];
	return NULL;
}

static int
read_file(const char *path, const char *rel, const struct layout *lay,
	  struct counts *c)
{
	struct table t = { 0 };
	struct sp_names nodes = { 0 };
	char *line = NULL, **f = NULL;
	size_t cap = 0, nf;
	ssize_t len;
	long lineno = 0;
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		return -1;
	if (lay->fields != NULL)
		table_set(&t, lay->fields, ' ');
	t.delim = '|';
	while ((len = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (t.n == 0) {
			/*
			 * README.md says every dump is '|'-delimited, but
			 * slurm2sql's test-data3 is CSV: its header says so.
			 */
			table_set(&t, line, strchr(line, '|') == NULL &&
				  strchr(line, ',') != NULL ? ',' : '|');
			if (t.delim == ',')
				diag("%s: the header has no '|' but has ',': "
				     "read as comma-separated", rel);
			f = sp_xcalloc(t.n, sizeof *f);
			continue;
		}
		if (f == NULL)
			f = sp_xcalloc(t.n, sizeof *f);
		c->rows++;
		nf = split(line, t.delim, f, t.n);
		if (nf != t.n) {
			if (c->shifted++ < 2)
				diag("%s:%ld: %zu fields, the layout has %zu: "
				     "shifted, not read", rel, lineno, nf, t.n);
			continue;
		}
		check_row(&t, f, c, &nodes, rel, lineno);
	}
	free(line);
	free(f);
	fclose(fp);
	table_free(&t);
	sp_names_free(&nodes);
	return 0;
}

static const struct counts *
expected_of(const char *rel)
{
	size_t i;

	for (i = 0; i < sizeof expected / sizeof expected[0]; i++)
		if (strcmp(expected[i].file, rel) == 0)
			return &expected[i].c;
	return NULL;
}

static void
check_counts(const char *rel, const struct counts *got,
	     const struct counts *want)
{
#define SAME(field, what) is_int(want->field, got->field, "%s: %s", rel, what)
	SAME(rows, "rows");
	SAME(shifted, "rows shifted (field count not the layout's)");
	SAME(lists, "NodeLists expanded");
	SAME(none, "NodeLists that are none");
	SAME(names, "node names");
	SAME(nnodes_differ, "lists whose length is not NNodes");
	SAME(mem_ok, "memory values read");
	SAME(mem_unknown, "memory values unknown");
	SAME(per_cpu, "ReqMem values per CPU");
	SAME(dur_ok, "durations read");
	SAME(dur_unknown, "durations unknown");
	SAME(time_ok, "timestamps read");
	SAME(time_unknown, "timestamps unknown");
	SAME(bad, "values SP_VAL_BAD");
#undef SAME
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file two levels down, LICENSE and README excepted. */
static size_t
list_files(const char *top, char ***out)
{
	DIR *d = opendir(top), *sub;
	struct dirent *e, *g;
	struct sp_buf path = { 0 };
	struct stat st;
	size_t n = 0, cap = 0;
	char **v = NULL;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		sp_buf_clear(&path);
		sp_buf_printf(&path, "%s/%s", top, e->d_name);
		if (stat(path.p, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if ((sub = opendir(path.p)) == NULL)
			continue;
		while ((g = readdir(sub)) != NULL) {
			if (g->d_name[0] == '.' ||
			    strncmp(g->d_name, "LICENSE", 7) == 0 ||
			    strncmp(g->d_name, "README", 6) == 0)
				continue;
			v = sp_xgrow(v, &cap, n + 1, sizeof *v);
			sp_buf_clear(&path);
			sp_buf_printf(&path, "%s/%s", e->d_name, g->d_name);
			v[n++] = sp_xstrdup(path.p);
		}
		closedir(sub);
	}
	closedir(d);
	sp_buf_free(&path);
	if (n > 0)
		qsort(v, n, sizeof *v, by_name);
	*out = v;
	return n;
}

int
main(void)
{
	const char *top = fixtures_dir();
	struct sp_buf path = { 0 };
	char **files = NULL;
	size_t n, i, seen = 0;

	if (top == NULL)
		skip_all("../shared/fixtures is absent");
	plan_lazy();
	n = list_files(top, &files);
	ok(n > 0, "fixture files found under %s", top);
	for (i = 0; i < n; i++) {
		struct counts c = { 0 };
		const struct counts *want = expected_of(files[i]);
		const struct layout *lay;
		char *slash = strchr(files[i], '/');

		*slash = '\0';
		lay = layout_of(files[i]);
		*slash = '/';
		sp_buf_clear(&path);
		sp_buf_printf(&path, "%s/%s", top, files[i]);
		if (!ok(lay != NULL && want != NULL,
			"%s has a known layout and expected counts", files[i]))
			continue;
		seen++;
		if (!ok(read_file(path.p, files[i], lay, &c) == 0, "%s read",
			files[i]))
			continue;
		diag("%s: %ld rows (%ld shifted); %ld lists (%ld none) of %ld "
		     "names; memory %ld ok %ld unknown (%ld ReqMem per CPU); durations %ld ok %ld "
		     "unknown; times %ld ok %ld unknown; %ld bad", files[i],
		     c.rows, c.shifted, c.lists, c.none, c.names, c.mem_ok,
		     c.mem_unknown, c.per_cpu, c.dur_ok, c.dur_unknown, c.time_ok,
		     c.time_unknown, c.bad);
		check_counts(files[i], &c, want);
	}
	is_int(sizeof expected / sizeof expected[0], (long long)seen,
	       "every expected fixture was found");
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	sp_buf_free(&path);
	return done_testing();
}
