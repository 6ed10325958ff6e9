/*
 * sp_site.c - the site facts sacct does not carry, from scontrol and
 * sinfo.  Never fails: a command that is absent, slow or says something
 * else leaves the fact unknown, and the stage that needs it says so.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_site.h"
#include "sp_exec.h"
#include "sp_const.h"
#include "sp_util.h"

static int
skipped(void)
{
	const char *v = getenv("SLURMPAST_NO_SITE");

	return v != NULL && strcmp(v, "1") == 0;
}

/* The site deadline, shorter still when SLURMPAST_TIMEOUT says so. */
static double
deadline(void)
{
	struct sp_buf msg = { 0 };
	double t;

	if (sp_exec_timeout(&t, &msg) != 0 || t > SP_SITE_TIMEOUT_S)
		t = SP_SITE_TIMEOUT_S;
	sp_buf_free(&msg);
	return t;
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

void
sp_site_load(struct sp_site *s)
{
	char *argv[] = { "scontrol", "show", "config", NULL };
	struct sp_buf out = { 0 };
	struct sp_exec x;
	char *line, *save = NULL;
	int facts = 0;

	memset(s, 0, sizeof *s);
	s->gather = SP_GATHER_UNKNOWN;
	s->gather_freq_s = NAN;
	if (skipped())
		return;
	if (sp_exec_capture(&x, argv, deadline(), &out) == 0 && out.len) {
		for (line = strtok_r(out.p, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save))
			facts += config_line(s, line);
		s->known = facts > 0;
	}
	sp_exec_free(&x);
	sp_buf_free(&out);
}

void
sp_site_free(struct sp_site *s)
{
	free(s->version);
	s->version = NULL;
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

int
sp_site_partition_ceiling(const char *partition, double *cores,
			  double *mem_b)
{
	char *argv[] = { "sinfo", "-h", "-p", (char *)partition, "-N", "-o",
		"%c %m", NULL };
	struct sp_buf out = { 0 };
	struct sp_exec x;
	double c, m, best_c = -1, best_m = -1;
	const char *p, *end;
	int ok;

	*cores = NAN;
	*mem_b = NAN;
	if (skipped() || partition == NULL || *partition == '\0')
		return 0;
	ok = sp_exec_capture(&x, argv, deadline(), &out) == 0;
	p = sp_buf_str(&out);
	end = p + out.len;
	while (ok && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *sp = memchr(p, ' ', (size_t)(le - p));

		if (sp && sinfo_num(p, sp, &c) && sinfo_num(sp + 1, le, &m)) {
			if (c > best_c)
				best_c = c;
			if (m > best_m)
				best_m = m;
		}
		p = nl ? nl + 1 : end;
	}
	sp_exec_free(&x);
	sp_buf_free(&out);
	if (best_c < 0)
		return 0;
	*cores = best_c;
	*mem_b = best_m * 1048576.0;
	return 1;
}
