/*
 * json.c - sp-show --json: one line a job holding every value of its
 * record (numbers as JSON numbers, unknown as null), the values derived
 * from it, the site's gather settings, its steps, its logs and its
 * findings.
 */
#include <math.h>
#include <string.h>

#include "show.h"
#include "sp_postmortem.h"

static void
json_cstr(struct sp_buf *b, const char *s)
{
	if (s == NULL)
		sp_buf_adds(b, "null");
	else
		sp_json_string(b, s, strlen(s));
}

static void
json_num(struct sp_buf *b, double v)
{
	if (!isfinite(v))
		sp_buf_adds(b, "null");
	else
		sp_fmt_num(b, v);
}

static void
json_key(struct sp_buf *b, const char *key, int *first)
{
	if (!*first)
		sp_buf_addc(b, ',');
	*first = 0;
	sp_json_string(b, key, strlen(key));
	sp_buf_addc(b, ':');
}

/* A field in record form: null when empty, a number for numeric kinds. */
static void
json_field(struct sp_buf *b, const char *col, struct sp_slice s)
{
	double v;

	if (s.n == 0) {
		sp_buf_adds(b, "null");
		return;
	}
	if (sp_column_kind(col) != SP_KIND_TEXT &&
	    sp_field_num(s, &v) == 1 && isfinite(v)) {
		sp_fmt_num(b, v);
		return;
	}
	{
		struct sp_buf d = { 0 };

		sp_field_decode(&d, s.p, s.n);
		sp_json_string(b, sp_buf_str(&d), d.len);
		sp_buf_free(&d);
	}
}

/*
 * Every field of a record under its column's name; a quantity (seconds,
 * bytes, a fraction) also in words under NAME_text, null when unknown.
 */
static void
json_record(struct sp_buf *b, const struct run *R, const struct rec *r,
	    int *first)
{
	struct sp_buf key = { 0 }, text = { 0 };

	for (size_t i = 0; i < r->nf; i++) {
		const char *col = R->r.cols[i];
		enum sp_kind kind = sp_column_kind(col);
		double v;

		json_key(b, col, first);
		json_field(b, col, r->f[i]);
		if (kind == SP_KIND_TEXT || kind == SP_KIND_NUMBER)
			continue;
		sp_buf_clear(&key);
		sp_buf_printf(&key, "%s_text", col);
		json_key(b, key.p, first);
		sp_buf_clear(&text);
		if (sp_field_num(r->f[i], &v) == 1 &&
		    sp_postmortem_human(&text, col, v))
			sp_json_string(b, text.p, text.len);
		else
			sp_buf_adds(b, "null");
	}
	sp_buf_free(&key);
	sp_buf_free(&text);
}

static const char *
gather_name(const struct sp_site *s)
{
	if (!s->known)
		return NULL;
	switch (s->gather) {
	case SP_GATHER_LINUX:
		return "linux";
	case SP_GATHER_CGROUP:
		return "cgroup";
	case SP_GATHER_NONE:
		return "none";
	default:
		return NULL;
	}
}
static void
json_log(struct sp_buf *b, const struct sp_log *l, int with_tail)
{
	int first = 1;

	sp_buf_addc(b, '{');
	json_key(b, "path", &first);
	json_cstr(b, l->path);
	json_key(b, "status", &first);
	json_cstr(b, sp_log_status_name(l->status));
	json_key(b, "how", &first);
	json_cstr(b, l->path ? sp_log_how_name(l->how) : NULL);
	json_key(b, "role", &first);
	json_cstr(b, l->path ? sp_log_role_name(l->role) : NULL);
	json_key(b, "owner", &first);
	json_cstr(b, l->owner);
	if (with_tail) {
		const char *from;
		size_t len;

		json_key(b, "size_b", &first);
		json_num(b, l->size_b);
		json_key(b, "tail", &first);
		sp_log_last_lines(l, SP_SHOW_LOG_LINES, &from, &len);
		sp_json_string(b, from, len);
	}
	sp_buf_addc(b, '}');
}

static void
json_derived(struct sp_buf *b, const struct sp_jobcalc *c,
	     const struct sp_job *j)
{
	int first = 1;

#define D(name, v) json_key(b, name, &first); json_num(b, v);
	sp_buf_addc(b, '{');
	D("cores", c->cores)
	D("gpus", c->gpus)
	D("tasks", c->tasks)
	D("cpus_per_task", c->cpus_per_task)
	D("cpu_capacity_s", c->cpu_capacity_s)
	D("cpu_util", c->cpu_util)
	D("busy_cores", c->busy_cores)
	D("sys_fraction", c->sys_fraction)
	D("walltime_used", c->walltime_used)
	D("mem_limit_b", c->mem_limit_b)
	D("mem_used", c->mem_used)
	json_key(b, "peak_trustworthy", &first);
	sp_buf_adds(b, isnan(c->mem_limit_b) || isnan(j->max_rss_b) ? "null" :
		    c->rss_above_limit ? "false" : "true");
	D("io_b", c->io_b)
	D("io_rate", c->io_rate)
	D("straggler", c->straggler)
	D("imbalance", c->imbalance)
	D("wait_s", c->wait_s)
	D("samples", c->samples)
	D("core_h", c->core_hours)
	D("gpu_h", c->gpu_hours)
	json_key(b, "noop", &first);
	sp_buf_adds(b, !c->noop_known ? "null" : c->noop ? "true" : "false");
	sp_buf_addc(b, '}');
#undef D
}

void
json_job(struct run *R, const struct shown *s)
{
	const struct held *h = s->h;
	const struct sp_jobcalc *c = s->calc;
	const struct sp_logs *logs = s->logs;
	const struct sp_findings *f = s->findings;
	struct sp_buf *b = &R->out;
	int first = 1;

	sp_buf_addc(b, '{');
	json_key(b, "slurmpast", &first);
	json_cstr(b, SP_VERSION);
	json_record(b, R, &h->alloc, &first);
	json_key(b, "derived", &first);
	json_derived(b, c, &h->alloc.j);
	json_key(b, "site", &first);
	{
		int f2 = 1;

		sp_buf_addc(b, '{');
		json_key(b, "gather", &f2);
		json_cstr(b, gather_name(&R->site));
		json_key(b, "gather_freq_s", &f2);
		json_num(b, R->site.known ? R->site.gather_freq_s : NAN);
		sp_buf_addc(b, '}');
	}
	json_key(b, "steps", &first);
	sp_buf_addc(b, '[');
	for (size_t i = 0; i < h->nsteps; i++) {
		int f2 = 1;

		if (i)
			sp_buf_addc(b, ',');
		sp_buf_addc(b, '{');
		json_record(b, R, &h->steps[i], &f2);
		sp_buf_addc(b, '}');
	}
	sp_buf_addc(b, ']');
	json_key(b, "log", &first);
	{
		int f2 = 1;
		const char *status = NULL;

		if (logs->not_started)
			status = "not-started";
		else if (logs->n > 0)
			status = "found";
		else if (logs->expected.path != NULL)
			status = sp_log_status_name(logs->expected.status);
		else if (logs->looked)
			status = "absent";
		sp_buf_addc(b, '{');
		json_key(b, "status", &f2);
		json_cstr(b, status);
		json_key(b, "files", &f2);
		sp_buf_addc(b, '[');
		for (size_t i = 0; i < logs->n; i++) {
			if (i)
				sp_buf_addc(b, ',');
			json_log(b, &logs->v[i], 1);
		}
		sp_buf_addc(b, ']');
		json_key(b, "expected", &f2);
		json_log(b, &logs->expected, 0);
		sp_buf_addc(b, '}');
	}
	json_key(b, "findings", &first);
	sp_buf_addc(b, '[');
	for (size_t i = 0; i < f->n; i++) {
		int f2 = 1;

		if (i)
			sp_buf_addc(b, ',');
		sp_buf_addc(b, '{');
		json_key(b, "code", &f2);
		json_cstr(b, f->v[i].code);
		json_key(b, "severity", &f2);
		json_cstr(b, sp_severity_name(f->v[i].severity));
		json_key(b, "evidence", &f2);
		json_cstr(b, f->v[i].evidence);
		json_key(b, "action", &f2);
		json_cstr(b, f->v[i].action);
		sp_buf_addc(b, '}');
	}
	sp_buf_adds(b, "]}\n");
}
