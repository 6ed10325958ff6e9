/*
 * sp_script_fix.c - the advice written into a batch script: each sizing
 * option's value rewritten in the script's own spelling, or left with
 * the reason, a comment above it either way.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sp_hostlist.h"
#include "sp_record.h"
#include "sp_sbatch.h"
#include "sp_script_fix.h"
#include "sp_units.h"

struct edit {
	size_t line, off, len;
	char *text;
};

struct cmt {
	size_t line;
	char *text;
	/* "As advised": an earlier comment that begins with head and ends
	 * with tail said the same, and stays instead (used). */
	char *head, *tail;
	int used;
};

struct fixer {
	const struct sp_script *s;
	const struct sp_advice *const *adv;
	const struct sp_advice *exclude;	/* NULL: none */
	struct sp_script_fix *fx;
	int add;
	struct edit *edits;
	size_t nedits, editcap;
	struct cmt *cmts;		/* comments above a line */
	size_t ncmts, cmtcap;
	struct cmt *adds;		/* lines added (add) */
	size_t nadds, addcap;
	double cpt;			/* cores per task, rewritten; NaN
					 * unknown */
	struct sp_buf t, t2;		/* scratch */
};

/* ------------------------------------------------------------ the who */

static char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return sp_xstrdup(slash ? slash + 1 : path);
}

/* Any GPU asked for: --gpus, --gpus-per-*, or a gpu entry of --gres;
 * a count that cannot be read asks for some. */
static int
asks_gpus(const struct sp_script *s)
{
	static const char *const names[] = { "gpus", "gpus-per-node",
		"gpus-per-task", "gpus-per-socket", NULL };
	const struct sp_sopt *g = sp_script_opt(s, "gres");
	struct sp_sbgpu gpu;
	int rc;

	for (const char *const *n = names; *n; n++) {
		const struct sp_sopt *x = sp_script_opt(s, *n);

		if (x != NULL && x->value != NULL &&
		    (sp_sbatch_gpus(x->value, 0, &gpu) != 1 || gpu.count > 0))
			return 1;
	}
	if (g == NULL || g->value == NULL)
		return 0;
	rc = sp_sbatch_gpus(g->value, 1, &gpu);
	return rc < 0 || (rc == 1 && gpu.count > 0);
}

void
sp_script_who(const struct sp_script *s, const char *path,
	      struct sp_script_who *w)
{
	const struct sp_sopt *name = sp_script_opt(s, "job-name");
	const struct sp_sopt *part = sp_script_opt(s, "partition");

	memset(w, 0, sizeof *w);
	if (name != NULL && name->value != NULL) {
		w->name = sp_xstrdup(name->value);
	} else {
		/* sbatch names a job after its script's file. */
		w->name = base_name(path);
		w->name_from_file = 1;
	}
	if (part != NULL && part->value != NULL && part->value[0] != '\0')
		w->partition = sp_xstrdup(part->value);
	w->gpu = asks_gpus(s);
}

void
sp_script_who_free(struct sp_script_who *w)
{
	free(w->name);
	free(w->partition);
	memset(w, 0, sizeof *w);
}

/* ------------------------------------------------------------ helpers */

static void
vtext(struct sp_buf *out, const char *fmt, va_list ap)
{
	struct sp_buf raw = { 0 };

	sp_buf_vprintf(&raw, fmt, ap);
	/* Script values and record fields: never a line break, never a
	 * control character that a terminal or a shell would obey. */
	sp_text_clean(out, sp_buf_str(&raw), raw.len, 0);
	sp_buf_free(&raw);
}

static void
comment(struct fixer *f, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
comment(struct fixer *f, size_t line, const char *fmt, ...)
{
	struct sp_buf b = { 0 };
	va_list ap;

	sp_buf_adds(&b, SP_SCRIPT_MARK);
	va_start(ap, fmt);
	vtext(&b, fmt, ap);
	va_end(ap);
	f->cmts = sp_xgrow(f->cmts, &f->cmtcap, f->ncmts + 1, sizeof *f->cmts);
	f->cmts[f->ncmts++] = (struct cmt){ .line = line, .text = b.p };
}

static void
note(struct fixer *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
note(struct fixer *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtext(&f->fx->notes, fmt, ap);
	va_end(ap);
	sp_buf_addc(&f->fx->notes, '\n');
}

/* The last comment may stand for an earlier one that changed the value
 * to this one for the same reason: "--mem 128G -> 94G: <r>". */
static void
as_before(struct fixer *f, const char *label, const char *r)
{
	struct cmt *c = &f->cmts[f->ncmts - 1];
	struct sp_buf b = { 0 };

	sp_buf_adds(&b, SP_SCRIPT_MARK);
	sp_text_clean(&b, label, strlen(label), 0);
	sp_buf_addc(&b, ' ');
	c->head = sp_xstrdup(sp_buf_str(&b));
	sp_buf_clear(&b);
	sp_buf_adds(&b, ": ");
	sp_text_clean(&b, r, strlen(r), 0);
	c->tail = sp_xstrdup(sp_buf_str(&b));
	sp_buf_free(&b);
}

static void
add_line(struct fixer *f, const char *text)
{
	f->adds = sp_xgrow(f->adds, &f->addcap, f->nadds + 1, sizeof *f->adds);
	f->adds[f->nadds++] = (struct cmt){ .text = sp_xstrdup(text) };
}

/* The value of option x becomes new, quoted as the old one was. */
static void
edit(struct fixer *f, const struct sp_sopt *x, const char *new)
{
	struct sp_buf b = { 0 };
	size_t n;
	const char *line = sp_script_line(f->s, x->vat.line, &n);

	sp_sbatch_requote(&b, line + x->vat.off, x->vat.len, x->value, new);
	f->edits = sp_xgrow(f->edits, &f->editcap, f->nedits + 1,
			    sizeof *f->edits);
	f->edits[f->nedits++] = (struct edit){ x->vat.line, x->vat.off,
		x->vat.len, b.p ? b.p : sp_xstrdup("") };
}

/* What the verdict rests on; a hold says what to do instead. */
static const char *
reason(struct fixer *f, const struct sp_advice *a)
{
	sp_buf_clear(&f->t2);
	sp_buf_adds(&f->t2, sp_buf_str(&a->basis));
	if (a->verdict == SP_V_HOLD && a->caution.len > 0)
		sp_buf_printf(&f->t2, "; %s", sp_buf_str(&a->caution));
	return sp_buf_str(&f->t2);
}

static int
whole(const char *v, double *out)
{
	long n;

	if (v == NULL || sp_strtol_full(v, &n) != 0 || n < 0)
		return -1;
	*out = (double)n;
	return 0;
}

static double
opt_whole(const struct sp_script *s, const char *name)
{
	const struct sp_sopt *x = sp_script_opt(s, name);
	double v;

	return x != NULL && whole(x->value, &v) == 0 ? v : NAN;
}

/* -N as one count (N, or N-N); NaN for a range or none. */
static double
nodes_asked(const struct sp_script *s)
{
	const struct sp_sopt *x = sp_script_opt(s, "nodes");
	const char *dash;
	double lo, hi;
	char *first;

	if (x == NULL || x->value == NULL)
		return NAN;
	dash = strchr(x->value, '-');
	if (dash == NULL)
		return whole(x->value, &lo) == 0 ? lo : NAN;
	first = sp_xstrndup(x->value, (size_t)(dash - x->value));
	lo = whole(first, &lo) == 0 ? lo : NAN;
	free(first);
	if (whole(dash + 1, &hi) != 0 || hi != lo)
		return NAN;
	return lo;
}

/*
 * The nodes the job gets, when the script settles it: -N as one count,
 * or one node when neither -N nor several tasks are asked.  why says
 * otherwise.
 */
static double
nodes(const struct sp_script *s, const char **why)
{
	double n = nodes_asked(s), tasks = opt_whole(s, "ntasks");

	if (sp_known(n) && n > 0)
		return n;
	if (sp_script_opt(s, "nodes") != NULL) {
		*why = "-N gives a range of nodes";
		return NAN;
	}
	if (sp_script_opt(s, "ntasks") == NULL || tasks == 1)
		return 1;
	*why = "-n asks for several tasks without -N, so the nodes are "
	    "Slurm's choice";
	return NAN;
}

/* The CPUs each node holds for the job, cores per task as rewritten. */
static double
cpus_per_node(struct fixer *f, const char **why)
{
	const struct sp_script *s = f->s;
	double per_node = opt_whole(s, "ntasks-per-node");
	double tasks = opt_whole(s, "ntasks"), n;

	if (sp_script_opt(s, "exclusive") != NULL) {
		*why = "--exclusive gives the job whole nodes";
		return NAN;
	}
	if (!sp_known(f->cpt)) {
		*why = "-c is not a count";
		return NAN;
	}
	if (sp_known(per_node) && per_node > 0)
		return f->cpt * per_node;
	if (sp_script_opt(s, "ntasks") == NULL)
		return f->cpt;
	n = nodes(s, why);
	if (!sp_known(n) || !sp_known(tasks))
		return NAN;
	return f->cpt * ceil(tasks / n);
}

/* ------------------------------------------------------ one option */

/* The verdict's comment, and the edit for a raise or a lower; r is
 * the reason. */
static void
verdict(struct fixer *f, const struct sp_advice *a, const struct sp_sopt *x,
	const char *label, double have, const char *new, const char *why,
	const char *r)
{
	switch (a->verdict) {
	case SP_V_RAISE:
	case SP_V_LOWER:
		if (new == NULL) {
			comment(f, x->line, "%s %s left as it is: %s; the "
				"advice is %s: %s", label, x->value, why,
				sp_buf_str(&a->suggestion), r);
			f->fx->commented++;
		} else if (strcmp(new, x->value) == 0) {
			comment(f, x->line, "%s %s as advised: %s", label,
				x->value, r);
			as_before(f, label, r);
		} else {
			edit(f, x, new);
			comment(f, x->line, "%s %s -> %s: %s", label, x->value,
				new, r);
			f->fx->changed++;
		}
		return;
	case SP_V_HOLD:
		/* Below the size the hold keeps, the script dies as the
		 * killed runs did: raised to it. */
		if (new != NULL && new[0] != '\0' && sp_known(have) &&
		    have < a->target && strcmp(new, x->value) != 0) {
			edit(f, x, new);
			comment(f, x->line, "%s %s -> %s, the size the hold "
				"keeps: %s", label, x->value, new, r);
			f->fx->changed++;
			return;
		}
		comment(f, x->line, "%s %s held: %s", label, x->value, r);
		f->fx->commented++;
		return;
	case SP_V_REFUSE:
		comment(f, x->line, "%s %s left as it is: %s", label, x->value,
			r);
		f->fx->commented++;
		return;
	case SP_V_CAPPED:
		comment(f, x->line, "%s %s capped: %s", label, x->value, r);
		f->fx->commented++;
		return;
	case SP_V_KEEP:
		/* The verdict is on what the runs asked; say so when this
		 * script asks for something else. */
		if (sp_known(have) && sp_known(a->requested) &&
		    fabs(have - a->requested) > 0.005 * a->requested) {
			comment(f, x->line, "%s %s is not what the runs asked "
				"(%s), which the advice keeps: %s", label,
				x->value, sp_buf_str(&a->requested_txt), r);
			f->fx->commented++;
		}
		return;
	}
}


/*
 * The advice a on option x (label, as the comments name it), whose value
 * reads as have (in the flag's unit, NaN unknown).  new is the value the
 * advice gives it in the script's spelling; NULL when it cannot be
 * written there, and why says why.  how, when not NULL, says how the
 * new value was reached, before the reason.
 */
static void
apply_how(struct fixer *f, const struct sp_advice *a,
	  const struct sp_sopt *x, const char *label, double have,
	  const char *new, const char *why, const char *how)
{
	struct sp_buf r = { 0 };

	if (how != NULL)
		sp_buf_printf(&r, "%s; ", how);
	sp_buf_adds(&r, reason(f, a));
	verdict(f, a, x, label, have, new, why, sp_buf_str(&r));
	sp_buf_free(&r);
}

static void
apply(struct fixer *f, const struct sp_advice *a, const struct sp_sopt *x,
      const char *label, double have, const char *new, const char *why)
{
	apply_how(f, a, x, label, have, new, why, NULL);
}

/* A flag the script does not set: added with add, else said. */
static void
absent(struct fixer *f, const struct sp_advice *a)
{
	if (a->sbatch.len == 0)
		return;
	if (!f->add) {
		note(f, "%s is not in the script; the advice is %s (%s): "
		     "--add adds it", sp_flag_name(a->flag),
		     sp_buf_str(&a->suggestion), sp_buf_str(&a->basis));
		return;
	}
	sp_buf_clear(&f->t);
	sp_buf_adds(&f->t, SP_SCRIPT_MARK);
	sp_buf_printf(&f->t, "%s added: ", sp_buf_str(&a->suggestion));
	sp_text_clean(&f->t, sp_buf_str(&a->basis), a->basis.len, 0);
	add_line(f, sp_buf_str(&f->t));
	add_line(f, sp_buf_str(&a->sbatch));
	f->fx->added++;
}

/* ------------------------------------------------------------ by flag */

static int
actionable(const struct sp_advice *a)
{
	return (sp_verdict_actionable(a->verdict) ||
		a->verdict == SP_V_HOLD) && sp_known(a->target);
}

static void
fix_time(struct fixer *f, const struct sp_advice *a)
{
	const struct sp_sopt *x = sp_script_opt(f->s, "time");
	struct sp_sbtime t;

	if (x == NULL || x->value == NULL) {
		absent(f, a);
		return;
	}
	if (sp_sbatch_time(x->value, &t) != 0) {
		apply(f, a, x, "--time", NAN, NULL,
		      "not a time sbatch reads");
		return;
	}
	sp_buf_clear(&f->t);
	if (actionable(a))
		sp_sbatch_time_spell(&f->t, &t, a->target);
	apply(f, a, x, "--time", t.s, sp_buf_str(&f->t), NULL);
}

/* --mem-per-cpu: the advice per node over the CPUs a node holds. */
static void
fix_mem_per_cpu(struct fixer *f, const struct sp_advice *a,
		const struct sp_sopt *x, const struct sp_sbmem *m)
{
	const char *why = NULL;
	double cpn = cpus_per_node(f, &why);
	struct sp_buf how = { 0 };

	if (!sp_known(cpn) || cpn <= 0) {
		sp_buf_printf(&how, "per CPU, and %s", why ? why :
			      "the CPUs a node holds are not known");
		apply(f, a, x, "--mem-per-cpu", NAN, NULL, sp_buf_str(&how));
		sp_buf_free(&how);
		return;
	}
	sp_buf_clear(&f->t);
	if (actionable(a)) {
		/* Whole megabytes, up: never less than the node needs. */
		sp_sbatch_mem_spell(&f->t, m,
				    ceil(a->target / cpn / SP_MIB) * SP_MIB);
		sp_mem_spell(&how, a->target);
		sp_buf_printf(&how, " a node over %g CPUs a node", cpn);
	}
	apply_how(f, a, x, "--mem-per-cpu", m->bytes * cpn, sp_buf_str(&f->t),
		  NULL, how.len > 0 ? sp_buf_str(&how) : NULL);
	sp_buf_free(&how);
}

static void
fix_mem(struct fixer *f, const struct sp_advice *a)
{
	static const char *const names[] = { "mem", "mem-per-cpu",
		"mem-per-gpu" };
	const struct sp_sopt *x = NULL;
	struct sp_sbmem m;
	int given = 0;

	for (size_t i = 0; i < 3; i++) {
		const struct sp_sopt *o = sp_script_opt(f->s, names[i]);

		if (o != NULL && o->value != NULL) {
			x = o;
			given++;
		}
	}
	if (given == 0) {
		absent(f, a);
		return;
	}
	if (given > 1) {
		note(f, "--mem, --mem-per-cpu and --mem-per-gpu exclude each "
		     "other, and sbatch refuses the script: left as they are");
		return;
	}
	if (sp_sbatch_mem(x->value, &m) != 0) {
		apply(f, a, x, strcmp(x->name, "mem") == 0 ? "--mem" :
		      x->name, NAN, NULL, "not a size sbatch reads");
		return;
	}
	if (strcmp(x->name, "mem-per-cpu") == 0) {
		fix_mem_per_cpu(f, a, x, &m);
		return;
	}
	if (strcmp(x->name, "mem-per-gpu") == 0) {
		apply(f, a, x, "--mem-per-gpu", NAN, NULL, "per GPU, and the "
		      "advice is a node's");
		return;
	}
	sp_buf_clear(&f->t);
	if (actionable(a))
		sp_sbatch_mem_spell(&f->t, &m, a->target);
	/* --mem=0 asks for a whole node's memory: unknown here. */
	apply(f, a, x, "--mem", m.bytes > 0 ? m.bytes : NAN, sp_buf_str(&f->t),
	      NULL);
}

static void
fix_cpus(struct fixer *f, const struct sp_advice *a)
{
	const struct sp_sopt *x = sp_script_opt(f->s, "cpus-per-task");
	double have;

	if (x == NULL || x->value == NULL) {
		absent(f, a);
		return;
	}
	if (whole(x->value, &have) != 0 || have == 0) {
		apply(f, a, x, "--cpus-per-task", NAN, NULL,
		      "not a count sbatch reads");
		return;
	}
	sp_buf_clear(&f->t);
	if (actionable(a))
		sp_buf_printf(&f->t, "%.0f", a->target);
	apply(f, a, x, "--cpus-per-task", have, sp_buf_str(&f->t), NULL);
}

/* One GPU option: the total (--gpus) or per node (--gres,
 * --gpus-per-node); per task or socket it is not written. */
static void
fix_gpu_opt(struct fixer *f, const struct sp_advice *a,
	    const struct sp_sopt *x)
{
	int gres = strcmp(x->name, "gres") == 0;
	int per_node = gres || strcmp(x->name, "gpus-per-node") == 0;
	struct sp_sbgpu g;
	const char *why = NULL;
	double n = 1, have;
	struct sp_buf label = { 0 };
	int rc = sp_sbatch_gpus(x->value, gres, &g);

	if (rc == 0)
		return;
	sp_buf_printf(&label, "--%s", x->name);
	if (rc < 0) {
		apply(f, a, x, sp_buf_str(&label), NAN, NULL,
		      "not a GPU count sbatch reads");
	} else if (strcmp(x->name, "gpus-per-task") == 0 ||
		   strcmp(x->name, "gpus-per-socket") == 0) {
		apply(f, a, x, sp_buf_str(&label), NAN, NULL, "the advice is "
		      "the job's GPUs, not a task's or a socket's");
	} else if (per_node && !sp_known(n = nodes(f->s, &why))) {
		sp_buf_clear(&f->t);
		sp_buf_printf(&f->t, "per node, and %s", why);
		apply(f, a, x, sp_buf_str(&label), NAN, NULL,
		      sp_buf_str(&f->t));
	} else {
		have = g.count * n;
		sp_buf_clear(&f->t);
		/* Per node, rounded up: never fewer than the job needs. */
		if (actionable(a))
			sp_sbatch_gpus_spell(&f->t, x->value, &g,
					     ceil(a->target / n));
		apply(f, a, x, sp_buf_str(&label), have, sp_buf_str(&f->t),
		      NULL);
	}
	sp_buf_free(&label);
}

static void
fix_gpus(struct fixer *f, const struct sp_advice *a)
{
	static const char *const names[] = { "gpus", "gres", "gpus-per-node",
		"gpus-per-task", "gpus-per-socket", NULL };

	for (const char *const *n = names; *n; n++) {
		const struct sp_sopt *x = sp_script_opt(f->s, *n);

		if (x != NULL && x->value != NULL)
			fix_gpu_opt(f, a, x);
	}
}

/*
 * --exclude (-x): the machines the node rule names join those the script
 * already leaves out, whose reasons are the script's own, so none is
 * dropped; the list is written compressed, as scontrol would.
 */
static void
fix_exclude(struct fixer *f, const struct sp_advice *a)
{
	static const char pre[] = "--exclude=";
	const struct sp_sopt *x = sp_script_opt(f->s, "exclude");
	const struct sp_sopt *w = sp_script_opt(f->s, "nodelist");
	const char *want_list = sp_buf_str(&a->suggestion);
	struct sp_names have = { 0 }, want = { 0 }, on = { 0 };
	struct sp_buf list = { 0 };
	size_t added = 0;
	int clash = 0;

	if (strncmp(want_list, pre, sizeof pre - 1) == 0)
		want_list += sizeof pre - 1;
	sp_hostlist_expand(want_list, strlen(want_list), &want);
	/* A machine both asked for and left out: sbatch refuses. */
	if (w != NULL && w->value != NULL && strchr(w->value, '/') == NULL) {
		sp_hostlist_expand(w->value, strlen(w->value), &on);
		for (size_t i = 0; i < want.n && !clash; i++)
			clash = sp_names_has(&on, sp_names_at(&want, i));
		if (clash) {
			note(f, "--nodelist asks for a machine the advice "
			     "leaves out (%s): --exclude not written; %s",
			     sp_buf_str(&a->suggestion),
			     sp_buf_str(&a->basis));
			goto out;
		}
	}
	if (x == NULL || x->value == NULL) {
		absent(f, a);
		goto out;
	}
	if (strchr(x->value, '/') != NULL) {
		apply(f, a, x, "--exclude", NAN, NULL, "it names a file of "
		      "machines, which sbatch reads and this does not");
		goto out;
	}
	sp_hostlist_expand(x->value, strlen(x->value), &have);
	for (size_t i = 0; i < want.n; i++)
		if (!sp_names_has(&have, sp_names_at(&want, i))) {
			sp_names_add(&have, sp_names_at(&want, i),
				     strlen(sp_names_at(&want, i)));
			added++;
		}
	/* Nothing to add: the value as written, "as advised". */
	if (added == 0)
		sp_buf_adds(&list, x->value);
	else
		sp_hostlist_compress(&have, &list);
	apply(f, a, x, "--exclude", NAN, sp_buf_str(&list), NULL);
out:
	sp_names_free(&have);
	sp_names_free(&want);
	sp_names_free(&on);
	sp_buf_free(&list);
}

/* ------------------------------------------------------------- output */

/* Which flag an option sizes, as a bit; 0 none. */
static unsigned
flag_bit(const struct sp_sopt *x)
{
	static const struct { const char *name; enum sp_flag f; } map[] = {
		{ "time", SP_FLAG_TIME }, { "mem", SP_FLAG_MEM },
		{ "mem-per-cpu", SP_FLAG_MEM }, { "mem-per-gpu", SP_FLAG_MEM },
		{ "cpus-per-task", SP_FLAG_CPUS }, { "gpus", SP_FLAG_GPUS },
		{ "gres", SP_FLAG_GPUS }, { "gpus-per-node", SP_FLAG_GPUS },
		{ "gpus-per-task", SP_FLAG_GPUS },
		{ "gpus-per-socket", SP_FLAG_GPUS },
		{ "exclude", SP_FLAG_EXCLUDE },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(x->name, map[i].name) == 0)
			return 1u << map[i].f;
	return 0;
}

static int
ours(const struct sp_script *s, size_t i)
{
	size_t n, m = strlen(SP_SCRIPT_MARK);
	const char *p = sp_script_line(s, i, &n);

	return n >= m && memcmp(p, SP_SCRIPT_MARK, m) == 0;
}

/*
 * The comments an earlier run wrote: ours, in the first block, directly
 * above (through other such comments) a directive that sets a flag
 * advised now.  stale[i] is 1 + that directive's line for each, 0 for
 * every other line.
 */
static void
find_stale(const struct fixer *f, size_t *stale)
{
	const struct sp_script *s = f->s;
	unsigned advised = 0, *bits = sp_xcalloc(s->nlines + 1, sizeof *bits);
	size_t below = 0;

	for (int k = 0; k < SP_FLAG_N; k++)
		if (f->adv[k] != NULL)
			advised |= 1u << k;
	if (f->exclude != NULL)
		advised |= 1u << SP_FLAG_EXCLUDE;
	for (size_t i = 0; i < s->nopts; i++)
		bits[s->opts[i].line] |= flag_bit(&s->opts[i]);
	for (size_t i = s->first_cmd; i-- > 0;) {
		if (s->lines[i].directive)
			below = (bits[i] & advised) != 0 ? i + 1 : 0;
		else if (!ours(s, i))
			below = 0;
		else
			stale[i] = below;
	}
	free(bits);
}

static int
by_place(const void *x, const void *y)
{
	const struct edit *a = x, *b = y;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return (a->off > b->off) - (a->off < b->off);
}

/* Line's text with its edits (sorted by place), into out. */
static void
apply_edits(struct fixer *f, size_t line, struct sp_buf *out)
{
	size_t n, at = 0;
	const char *p = sp_script_line(f->s, line, &n);

	sp_buf_clear(out);
	for (size_t i = 0; i < f->nedits; i++) {
		const struct edit *e = &f->edits[i];

		if (e->line != line || e->off < at)
			continue;
		sp_buf_add(out, p + at, e->off - at);
		sp_buf_adds(out, e->text);
		at = e->off + e->len;
	}
	sp_buf_add(out, p + at, n - at);
}

static int
edited(const struct fixer *f, size_t line)
{
	for (size_t i = 0; i < f->nedits; i++)
		if (f->edits[i].line == line)
			return 1;
	return 0;
}

/* A stale comment that says what a new one would: it stays. */
static int
still_said(struct fixer *f, size_t line, size_t directive)
{
	size_t n;
	const char *p = sp_script_line(f->s, line, &n);

	for (size_t k = 0; k < f->ncmts; k++) {
		struct cmt *c = &f->cmts[k];
		size_t h, t;

		if (c->line != directive || c->head == NULL || c->used)
			continue;
		h = strlen(c->head);
		t = strlen(c->tail);
		if (n >= h + t && memcmp(p, c->head, h) == 0 &&
		    memcmp(p + n - t, c->tail, t) == 0) {
			c->used = 1;
			return 1;
		}
	}
	return 0;
}

static void
emit_adds(struct fixer *f, enum sp_eol eol)
{
	for (size_t i = 0; i < f->nadds; i++)
		sp_rewrite_add(&f->fx->rw, f->adds[i].text,
			       strlen(f->adds[i].text), eol);
}

static void
emit(struct fixer *f)
{
	const struct sp_script *s = f->s;
	struct sp_rewrite *rw = &f->fx->rw;
	size_t *stale = sp_xcalloc(s->nlines + 1, sizeof *stale);
	struct sp_buf line = { 0 };
	/* Added lines go after the last directive, else the shebang. */
	long after = s->last_directive >= 0 ? s->last_directive :
	    s->shebang ? 0 : -1;

	find_stale(f, stale);
	sp_sort(f->edits, f->nedits, sizeof *f->edits, by_place);
	sp_rewrite_init(rw, s->text, s->lines, s->nlines);
	if (after < 0)
		emit_adds(f, s->nlines > 0 ? s->lines[0].eol : SP_EOL_LF);
	for (size_t i = 0; i < s->nlines; i++) {
		if (stale[i] && still_said(f, i, stale[i] - 1)) {
			sp_rewrite_keep(rw, i);
			continue;
		}
		if (stale[i]) {
			sp_rewrite_drop(rw, i);
			continue;
		}
		for (size_t k = 0; k < f->ncmts; k++)
			if (f->cmts[k].line == i && !f->cmts[k].used)
				sp_rewrite_add(rw, f->cmts[k].text,
					       strlen(f->cmts[k].text),
					       s->lines[i].eol);
		if (edited(f, i)) {
			apply_edits(f, i, &line);
			sp_rewrite_change(rw, i, line.p, line.len);
		} else {
			sp_rewrite_keep(rw, i);
		}
		if ((long)i == after)
			emit_adds(f, s->lines[i].eol);
	}
	sp_rewrite_finish(rw);
	sp_buf_free(&line);
	free(stale);
}

void
sp_script_fix(struct sp_script_fix *fx, const struct sp_script *s,
	      const struct sp_advice *const adv[SP_FLAG_N],
	      const struct sp_advice *exclude, int add)
{
	struct fixer f = { 0 };
	const struct sp_advice *c = adv[SP_FLAG_CPUS];
	const struct sp_sopt *cx;
	double cpt;

	memset(fx, 0, sizeof *fx);
	f.s = s;
	f.adv = adv;
	f.exclude = exclude;
	f.fx = fx;
	f.add = add;
	/* Cores per task as the script will ask: --mem-per-cpu follows a
	 * count rewritten, or added. */
	cx = sp_script_opt(s, "cpus-per-task");
	cpt = cx == NULL ? 1 : opt_whole(s, "cpus-per-task");
	if (c != NULL && actionable(c) &&
	    (cx != NULL ? sp_known(cpt) && cpt > 0 : add))
		cpt = c->target;
	f.cpt = sp_known(cpt) && cpt > 0 ? cpt : NAN;

	if (adv[SP_FLAG_TIME])
		fix_time(&f, adv[SP_FLAG_TIME]);
	if (adv[SP_FLAG_MEM])
		fix_mem(&f, adv[SP_FLAG_MEM]);
	if (adv[SP_FLAG_CPUS])
		fix_cpus(&f, adv[SP_FLAG_CPUS]);
	if (adv[SP_FLAG_GPUS])
		fix_gpus(&f, adv[SP_FLAG_GPUS]);
	if (exclude != NULL && exclude->suggestion.len > 0)
		fix_exclude(&f, exclude);
	emit(&f);

	for (size_t i = 0; i < f.nedits; i++)
		free(f.edits[i].text);
	for (size_t i = 0; i < f.ncmts; i++) {
		free(f.cmts[i].text);
		free(f.cmts[i].head);
		free(f.cmts[i].tail);
	}
	for (size_t i = 0; i < f.nadds; i++)
		free(f.adds[i].text);
	free(f.edits);
	free(f.cmts);
	free(f.adds);
	sp_buf_free(&f.t);
	sp_buf_free(&f.t2);
}

void
sp_script_fix_free(struct sp_script_fix *fx)
{
	sp_rewrite_free(&fx->rw);
	sp_buf_free(&fx->notes);
	memset(fx, 0, sizeof *fx);
}
