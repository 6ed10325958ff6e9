/*
 * sp_site.c - the site facts sacct does not carry, from scontrol and
 * sinfo, asked at once and kept for the run in a small file.  Never
 * fails: a command that is absent, slow or says something else leaves
 * its facts unknown, and the stage that needs them says so.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp_site.h"
#include "sp_exec.h"
#include "sp_const.h"
#include "sp_units.h"

/* The first line of a site file; a file without it is not one of ours. */
#define SITE_MAGIC "slurmpast site facts 1"

static int
skipped(void)
{
	const char *v = getenv("SLURMPAST_NO_SITE");

	return v != NULL && strcmp(v, "1") == 0;
}

double
sp_site_timeout(void)
{
	struct sp_buf msg = { 0 };
	double t;

	if (sp_exec_timeout(&t, &msg) != 0 || t > SP_SITE_TIMEOUT_S)
		t = SP_SITE_TIMEOUT_S;
	sp_buf_free(&msg);
	return t;
}

void
sp_site_unknown(struct sp_site *s)
{
	memset(s, 0, sizeof *s);
	s->gather = SP_GATHER_UNKNOWN;
	s->gather_freq_s = NAN;
}

/* "task=30,energy=0" or a bare "30": the task sampling period. */
static double
gather_freq(const char *v)
{
	const char *p = strstr(v, "task=");
	char *end;
	double d;

	p = p ? p + 5 : v;
	d = strtod(p, &end);
	if (end == p || (*end != '\0' && *end != ',') || !isfinite(d) || d < 0)
		return NAN;
	return d;
}

/* 1 when the comma list holds the item exactly. */
static int
has_item(const char *list, const char *item)
{
	size_t n = strlen(item);
	const char *p = list;

	while (*p) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && strncmp(p, item, n) == 0)
			return 1;
		p += len + (e != NULL);
	}
	return 0;
}

static void
trim(char **s, char **e)
{
	while (*s < *e && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' ||
	    (*e)[-1] == '\r'))
		(*e)--;
}

/* One "Key = Value" line of scontrol show config. */
static int
config_line(struct sp_site *s, char *line)
{
	char *eq = strchr(line, '='), *ks = line, *ke, *vs, *ve;

	if (eq == NULL)
		return 0;
	ke = eq;
	vs = eq + 1;
	ve = line + strlen(line);
	trim(&ks, &ke);
	trim(&vs, &ve);
	*ke = '\0';
	*ve = '\0';
	if (strcmp(ks, "JobAcctGatherType") == 0) {
		if (strcmp(vs, "jobacct_gather/linux") == 0)
			s->gather = SP_GATHER_LINUX;
		else if (strcmp(vs, "jobacct_gather/cgroup") == 0)
			s->gather = SP_GATHER_CGROUP;
		else if (strcmp(vs, "jobacct_gather/none") == 0)
			s->gather = SP_GATHER_NONE;
	} else if (strcmp(ks, "JobAcctGatherFrequency") == 0)
		s->gather_freq_s = gather_freq(vs);
	else if (strcmp(ks, "AccountingStorageTRES") == 0)
		s->gpuutil_tracked = has_item(vs, "gres/gpuutil");
	else if (strcmp(ks, "SLURM_VERSION") == 0) {
		free(s->version);
		s->version = sp_xstrdup(vs);
	} else
		return 0;
	return 1;
}

/* A number sinfo may end with '+' (more than one value): the largest. */
static int
sinfo_num(const char *s, const char *e, double *out)
{
	char *end;
	double d;

	if (s == e)
		return 0;
	d = strtod(s, &end);
	if (end == s || !isfinite(d) || d < 0)
		return 0;
	if (end < e && *end == '+')
		end++;
	if (end != e)
		return 0;
	*out = d;
	return 1;
}

static struct sp_site_part *
part_of(struct sp_site *s, const char *name, size_t n)
{
	struct sp_site_part *p;
	size_t i;

	for (i = 0; i < s->nparts; i++)
		if (strlen(s->parts[i].name) == n &&
		    memcmp(s->parts[i].name, name, n) == 0)
			return &s->parts[i];
	s->parts = sp_xgrow(s->parts, &s->partcap, s->nparts + 1,
	    sizeof *s->parts);
	p = &s->parts[s->nparts++];
	p->name = sp_xstrndup(name, n);
	p->cores = NAN;
	p->mem_b = NAN;
	return p;
}

static void
larger(double *have, double v)
{
	if (isnan(*have) || v > *have)
		*have = v;
}

/*
 * sinfo -N -o "%R %c %m": a node of a partition per line, its cores and
 * memory in MB.  A partition's ceiling is its largest node.
 */
static void
sinfo_lines(struct sp_site *s, const char *p, size_t len)
{
	const char *end = p + len;
	double c, m;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *a = memchr(p, ' ', (size_t)(le - p));
		const char *b = a ? memchr(a + 1, ' ', (size_t)(le - a - 1)) :
		    NULL;

		if (a && b && a > p && sinfo_num(a + 1, b, &c) &&
		    sinfo_num(b + 1, le, &m)) {
			struct sp_site_part *pt = part_of(s, p,
			    (size_t)(a - p));

			larger(&pt->cores, c);
			larger(&pt->mem_b, m * SP_MIB);
		}
		p = nl ? nl + 1 : end;
	}
}

static void
config_lines(struct sp_site *s, struct sp_buf *out)
{
	char *line, *save = NULL;
	int facts = 0;

	if (out->len == 0)
		return;
	for (line = strtok_r(out->p, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		facts += config_line(s, line);
	s->known = facts > 0;
}

/* Why a command's facts were not had; nothing when it is not installed. */
static int
why_not(const struct sp_exec *x, struct sp_buf *why)
{
	struct sp_buf line = { 0 };
	size_t i;

	if (x->exec_errno == ENOENT)
		return 0;
	sp_exec_describe(x, why);
	sp_exec_err_line(x, &line);
	if (line.len && !x->timed_out) {
		sp_buf_adds(why, ": ");
		/* Its words, on one line. */
		for (i = 0; i < line.len; i++)
			sp_buf_addc(why, (unsigned char)line.p[i] < 0x20 ?
			    ' ' : line.p[i]);
	}
	sp_buf_free(&line);
	return 1;
}

static void
note(struct sp_site *s, const char *what, const char *cmd,
     const struct sp_exec *x)
{
	struct sp_buf why = { 0 };

	if (why_not(x, &why)) {
		if (s->missing.len)
			sp_buf_adds(&s->missing, "; ");
		sp_buf_printf(&s->missing, "%s (%s: %s)", what, cmd,
		    sp_buf_str(&why));
	}
	sp_buf_free(&why);
}

void
sp_site_ask(struct sp_site *s, const char *cluster, double timeout_s)
{
	char *config[] = { "scontrol", "show", "config", NULL, NULL, NULL };
	char *sinfo[] = { "sinfo", "-h", "-a", "-N", "-o", "%R %c %m", NULL,
		NULL, NULL };
	char *const *argv[2];
	struct sp_exec x[2];
	struct sp_buf out[2];

	sp_site_unknown(s);
	if (cluster != NULL && *cluster) {
		s->cluster = sp_xstrdup(cluster);
		config[1] = "-M";
		config[2] = (char *)cluster;
		config[3] = "show";
		config[4] = "config";
		sinfo[6] = "-M";
		sinfo[7] = (char *)cluster;
	}
	argv[0] = config;
	argv[1] = sinfo;
	memset(out, 0, sizeof out);
	sp_exec_capture_all(x, argv, 2, timeout_s, out);
	if (x[0].exec_errno == 0 && !x[0].timed_out && x[0].exit_code == 0 &&
	    x[0].term_signal == 0)
		config_lines(s, &out[0]);
	if (!s->known)
		note(s, "how memory and CPU are gathered", "scontrol", &x[0]);
	if (x[1].exec_errno == 0 && !x[1].timed_out && x[1].exit_code == 0 &&
	    x[1].term_signal == 0) {
		s->parts_known = 1;
		sinfo_lines(s, out[1].p, out[1].len);
	} else
		note(s, "the partitions' largest nodes", "sinfo", &x[1]);
	sp_exec_free(&x[0]);
	sp_exec_free(&x[1]);
	sp_buf_free(&out[0]);
	sp_buf_free(&out[1]);
}

/* --------------------------------------------------------- the file */

static const char *const gathers[] = {
	[SP_GATHER_UNKNOWN] = "unknown", [SP_GATHER_LINUX] = "linux",
	[SP_GATHER_CGROUP] = "cgroup", [SP_GATHER_NONE] = "none"
};

/* A number as the file keeps it: empty for unknown. */
static void
put_num(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.17g", v);
}

int
sp_site_write(const struct sp_site *s, const char *path, struct sp_buf *err)
{
	struct sp_buf tmp = { 0 };
	FILE *f;
	size_t i;
	int fd, rc = 0;

	sp_buf_printf(&tmp, "%s.XXXXXX", path);
	fd = mkstemp(tmp.p);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (f == NULL) {
		sp_buf_printf(err, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		sp_buf_free(&tmp);
		return -1;
	}
	fprintf(f, "%s\n", SITE_MAGIC);
	fprintf(f, "cluster\t%s\n", s->cluster ? s->cluster : "");
	fprintf(f, "scontrol\t%d\n", s->known);
	fprintf(f, "gather\t%s\n", gathers[s->gather]);
	fputs("gather_freq_s\t", f);
	put_num(f, s->gather_freq_s);
	fprintf(f, "\ngpuutil_tracked\t%d\n", s->gpuutil_tracked);
	fprintf(f, "version\t%s\n", s->version ? s->version : "");
	fprintf(f, "sinfo\t%d\n", s->parts_known);
	for (i = 0; i < s->nparts; i++) {
		fprintf(f, "partition\t%s\t", s->parts[i].name);
		put_num(f, s->parts[i].cores);
		fputc('\t', f);
		put_num(f, s->parts[i].mem_b);
		fputc('\n', f);
	}
	if (fflush(f) != 0 || ferror(f))
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	if (rc == 0 && rename(tmp.p, path) != 0)
		rc = -1;
	if (rc != 0) {
		sp_buf_printf(err, "%s: %s", path, strerror(errno));
		unlink(tmp.p);
	}
	sp_buf_free(&tmp);
	return rc;
}

/* The TAB-separated fields of a line, in place. */
static size_t
split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;

	f[n++] = line;
	for (; *line && n < max; line++)
		if (*line == '\t') {
			*line = '\0';
			f[n++] = line + 1;
		}
	return n;
}

static int
file_num(const char *v, double *out)
{
	if (*v == '\0') {
		*out = NAN;
		return 0;
	}
	return sp_strtod_full(v, out);
}

/* One line of a site file into s: 0, or -1 when it is not one. */
static int
file_line(struct sp_site *s, char *line)
{
	char *f[4];
	size_t n = split_tabs(line, f, 4), i;

	if (n == 2 && strcmp(f[0], "cluster") == 0) {
		free(s->cluster);
		s->cluster = *f[1] ? sp_xstrdup(f[1]) : NULL;
	} else if (n == 2 && strcmp(f[0], "scontrol") == 0)
		s->known = strcmp(f[1], "1") == 0;
	else if (n == 2 && strcmp(f[0], "gather") == 0) {
		for (i = 0; i < sizeof gathers / sizeof gathers[0]; i++)
			if (strcmp(f[1], gathers[i]) == 0)
				break;
		if (i == sizeof gathers / sizeof gathers[0])
			return -1;
		s->gather = (enum sp_gather)i;
	} else if (n == 2 && strcmp(f[0], "gather_freq_s") == 0)
		return file_num(f[1], &s->gather_freq_s);
	else if (n == 2 && strcmp(f[0], "gpuutil_tracked") == 0)
		s->gpuutil_tracked = strcmp(f[1], "1") == 0;
	else if (n == 2 && strcmp(f[0], "version") == 0) {
		free(s->version);
		s->version = *f[1] ? sp_xstrdup(f[1]) : NULL;
	} else if (n == 2 && strcmp(f[0], "sinfo") == 0)
		s->parts_known = strcmp(f[1], "1") == 0;
	else if (n == 4 && strcmp(f[0], "partition") == 0 && *f[1]) {
		struct sp_site_part *p = part_of(s, f[1], strlen(f[1]));

		if (file_num(f[2], &p->cores) != 0 ||
		    file_num(f[3], &p->mem_b) != 0)
			return -1;
	} else
		return -1;
	return 0;
}

int
sp_site_read(struct sp_site *s, const char *path, struct sp_buf *err)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	int rc = 0;

	sp_site_unknown(s);
	if (f == NULL) {
		sp_buf_printf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (lineno == 1 ? strcmp(line, SITE_MAGIC) != 0 :
		    file_line(s, line) != 0) {
			sp_buf_printf(err, "%s:%lu: not a slurmpast site file",
			    path, lineno);
			rc = -1;
		}
	}
	if (rc == 0 && (ferror(f) || lineno == 0)) {
		sp_buf_printf(err, "%s: %s", path, lineno == 0 ?
		    "empty, not a slurmpast site file" : strerror(errno));
		rc = -1;
	}
	free(line);
	fclose(f);
	if (rc != 0) {
		sp_site_free(s);
		sp_site_unknown(s);
	}
	return rc;
}

/* --------------------------------------------------------- for a stage */

void
sp_site_load(struct sp_site *s)
{
	const char *path = getenv("SLURMPAST_SITE");
	struct sp_buf err = { 0 };

	sp_site_unknown(s);
	if (skipped())
		return;
	if (path == NULL || *path == '\0') {
		/*
		 * Asked for this stage alone: quiet, as its caveats already
		 * say what is unknown (every run on a machine whose Slurm is
		 * not configured would say it again).  The line is for
		 * whoever asks on a whole run's behalf.
		 */
		sp_site_ask(s, NULL, sp_site_timeout());
		sp_buf_clear(&s->missing);
		return;
	}
	if (access(path, F_OK) == 0) {
		if (sp_site_read(s, path, &err) == 0) {
			sp_buf_free(&err);
			return;
		}
		/* Damaged: said, and asked again rather than trusted. */
		sp_buf_printf(&s->missing, "SLURMPAST_SITE: %s; asked Slurm "
		    "instead", sp_buf_str(&err));
		sp_buf_clear(&err);
	}
	{
		struct sp_buf said = s->missing;

		sp_site_ask(s, NULL, sp_site_timeout());
		if (said.len) {
			sp_buf_adds(&said, s->missing.len ? "; " : "");
			sp_buf_add(&said, s->missing.p, s->missing.len);
			sp_buf_free(&s->missing);
			s->missing = said;
		}
	}
	/* For the stages after this one; they ask nothing. */
	if (sp_site_write(s, path, &err) != 0) {
		if (s->missing.len)
			sp_buf_adds(&s->missing, "; ");
		sp_buf_printf(&s->missing, "cannot keep them in "
		    "SLURMPAST_SITE: %s", sp_buf_str(&err));
	}
	sp_buf_free(&err);
}

void
sp_site_warn(const struct sp_site *s)
{
	if (s->missing.len)
		sp_warn("site facts not had: %s", sp_buf_str(&s->missing));
}

void
sp_site_free(struct sp_site *s)
{
	size_t i;

	free(s->version);
	s->version = NULL;
	free(s->cluster);
	s->cluster = NULL;
	for (i = 0; i < s->nparts; i++)
		free(s->parts[i].name);
	free(s->parts);
	s->parts = NULL;
	s->nparts = s->partcap = 0;
	sp_buf_free(&s->missing);
}

int
sp_site_partition_ceiling(const struct sp_site *s, const char *partition,
			  size_t n, double *cores, double *mem_b)
{
	size_t i;

	*cores = NAN;
	*mem_b = NAN;
	for (i = 0; i < s->nparts; i++)
		if (strlen(s->parts[i].name) == n &&
		    memcmp(s->parts[i].name, partition, n) == 0) {
			*cores = s->parts[i].cores;
			*mem_b = s->parts[i].mem_b;
			return 1;
		}
	return 0;
}
