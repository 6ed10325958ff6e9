/*
 * sp-submit - sbatch, with the workload's history read at the moment it
 * matters.
 *
 * Names the workload as sbatch will name the job, reads its runs for
 * the submitting user through sp-fetch (and its store), and says on
 * standard error what that history says of this submission's requests:
 * the failures it would repeat, and sp-size's advice.  Then runs sbatch
 * with exactly the arguments it was given (the default), or with the
 * advice written in (--apply), or submits nothing and answers by its
 * exit status (--check).  Its own options come first and are only its
 * long ones; every other argument is sbatch's, passed on untouched.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sp.h"
#include "sp_exec.h"
#include "sp_opt.h"
#include "sp_rewrite.h"
#include "sp_sbatch.h"
#include "sp_script_fix.h"
#include "sp_submit.h"
#include "sp_workload.h"
#include "sp-submit/submit.h"

static const char usage_text[] =
	"usage: sp-submit [--check | --apply [--in-place]] [--since time]\n"
	"                 [sbatch-option ...] script [script-argument ...]\n"
	"       sp-submit --hook\n";

static const char help_text[] =
	"\n"
	"sbatch, after the workload's history has been read: what it says of "
	"this\n"
	"submission's requests on standard error, then sbatch with exactly "
	"these\n"
	"arguments.  sp-submit's own options come first; every other "
	"argument is\n"
	"sbatch's, passed on as it is.\n"
	"      --check             submit nothing: exit 0 when nothing "
	"critical\n"
	"                          applies, 1 when the submission repeats a "
	"failure,\n"
	"                          2 on error (the history unreadable too)\n"
	"      --apply             submit a copy of the script with the "
	"advice written\n"
	"                          in (sp-size --script), the change as a "
	"diff on\n"
	"                          standard error\n"
	"      --in-place          with --apply: the script itself rewritten, "
	"the\n"
	"                          original kept as script~\n"
	"      --since time        the history from this time, as sacct "
	"takes it\n"
	"                          (default: now-30days)\n"
	"      --hook              a coding agent's PreToolUse call on "
	"standard input\n"
	"                          (tool_input.command): exit 2 blocks an "
	"sbatch that\n"
	"                          repeats a failure, with the reason\n";

enum mode { MODE_SUBMIT, MODE_CHECK, MODE_APPLY, MODE_HOOK };
enum { OPT_CHECK = 0x2000, OPT_APPLY, OPT_IN_PLACE, OPT_HOOK, OPT_SINCE };

struct options {
	enum mode mode;
	int modes, in_place, since_given;
	const char *since;	/* the window's start, as sacct takes it */
	size_t first;		/* sbatch's first argument in argv */
};

/*
 * sp-submit's own options are the leading arguments that are exactly
 * one of them: never an abbreviation, never after sbatch's first, so
 * that no argument meant for sbatch is ever taken here.
 */
static size_t
own_prefix(int argc, char **argv)
{
	static const char *const own[] = { "--check", "--apply",
		"--in-place", "--hook", "--help", "-h", "--version", NULL };
	int i;

	for (i = 1; i < argc; i++) {
		const char *const *o;

		if (strncmp(argv[i], "--since=", 8) == 0)
			continue;
		if (strcmp(argv[i], "--since") == 0) {
			/* Its value is the next argument, whatever it is. */
			if (i + 1 < argc)
				i++;
			continue;
		}
		for (o = own; *o && strcmp(*o, argv[i]) != 0; o++)
			;
		if (*o == NULL)
			break;
	}
	return (size_t)i;
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "apply", no_argument, NULL, OPT_APPLY },
		{ "in-place", no_argument, NULL, OPT_IN_PLACE },
		{ "hook", no_argument, NULL, OPT_HOOK },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ NULL, 0, NULL, 0 }
	};
	struct sp_opts common = { .usage = usage_text, .help = help_text,
				  .formatless = 1 };
	int n = (int)own_prefix(argc, argv);
	int ch;

	memset(o, 0, sizeof *o);
	o->first = (size_t)n;
	o->since = SP_SUBMIT_SINCE;
	while ((ch = sp_getopt(n, argv, "", longopts, NULL, &common)) != -1) {
		switch (ch) {
		case OPT_CHECK:
			o->mode = MODE_CHECK;
			o->modes++;
			break;
		case OPT_APPLY:
			o->mode = MODE_APPLY;
			o->modes++;
			break;
		case OPT_HOOK:
			o->mode = MODE_HOOK;
			o->modes++;
			break;
		case OPT_IN_PLACE:
			o->in_place = 1;
			break;
		case OPT_SINCE:
			if (*optarg == '\0')
				sp_die(SP_EXIT_USAGE, "--since needs a time");
			o->since = optarg;
			o->since_given = 1;
			break;
		}
	}
	if (o->modes > 1)
		sp_die(SP_EXIT_USAGE, "--check, --apply and --hook are "
		       "different uses; choose one");
	if (o->in_place && o->mode != MODE_APPLY)
		sp_die(SP_EXIT_USAGE, "--in-place writes the advice into the "
		       "script: add --apply");
	if (o->mode == MODE_HOOK && o->since_given)
		sp_die(SP_EXIT_USAGE, "--hook's checks read the default "
		       "window: no --since");
	if (o->mode == MODE_HOOK && o->first < (size_t)argc)
		sp_die(SP_EXIT_USAGE, "--hook reads the call on standard "
		       "input: no other argument");
}

/* The value of an option the submission gives, or NULL. */
static const char *
given(const struct submission *s, const char *name)
{
	const struct sp_sopt *x = sp_script_opt(&s->eff, name);

	return x != NULL ? x->value : NULL;
}

static int
whole(const char *v, double *out)
{
	char *end;
	long n;

	if (v == NULL)
		return -1;
	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || *end != '\0' || errno != 0 || n <= 0)
		return -1;
	*out = (double)n;
	return 0;
}

/* What the submission asks, as sbatch will read it. */
static void
requests(const struct submission *s, struct sp_submission *r)
{
	const char *v;
	struct sp_sbtime t;
	struct sp_sbmem m;
	double cpt = 1, tasks = 1, nodes, n;

	memset(r, 0, sizeof *r);
	r->mem_b = r->time_s = r->cpus = NAN;
	if ((v = given(s, "time")) != NULL && sp_sbatch_time(v, &t) == 0) {
		r->time_s = t.s;
		r->time_text = v;
	}
	if ((v = given(s, "cpus-per-task")) != NULL && whole(v, &r->cpus) == 0)
		r->cpus_text = v;
	r->nodelist = given(s, "nodelist");
	r->exclude = given(s, "exclude");
	if (whole(given(s, "cpus-per-task"), &n) == 0)
		cpt = n;
	/* The tasks on a node: --ntasks-per-node, else -n over -N. */
	if (whole(given(s, "ntasks-per-node"), &n) == 0)
		tasks = n;
	else if (whole(given(s, "ntasks"), &n) == 0)
		tasks = whole(given(s, "nodes"), &nodes) == 0 ?
		    ceil(n / nodes) : NAN;
	/* The last of --mem and --mem-per-cpu wins, as for sbatch. */
	{
		const struct sp_sopt *mem = sp_script_opt(&s->eff, "mem");
		const struct sp_sopt *per = sp_script_opt(&s->eff,
							  "mem-per-cpu");

		if (per != NULL && (mem == NULL || per > mem) &&
		    per->value != NULL && sp_sbatch_mem(per->value, &m) == 0) {
			r->mem_text = per->value;
			if (isnan(tasks))
				r->mem_why = "the tasks per node are not settled";
			else
				r->mem_b = m.bytes * cpt * tasks;
		} else if (mem != NULL && mem->value != NULL &&
			   sp_sbatch_mem(mem->value, &m) == 0) {
			r->mem_text = mem->value;
			if (m.bytes > 0)
				r->mem_b = m.bytes;
			else
				r->mem_why = "--mem=0 asks for a node's whole "
				    "memory";
		}
	}
}

/* The script as sbatch will read it; 0, or -1 with why. */
static int
read_script(struct submission *s, struct sp_buf *why)
{
	struct sp_buf err = { 0 };

	if (s->path == NULL)
		return 0;
	if (sp_rewrite_read(s->path, &s->text) != 0) {
		sp_buf_printf(why, "%s: %s", s->path, strerror(errno));
		return -1;
	}
	if (sp_script_parse(&s->script, s->text.p ? s->text.p : "",
			    s->text.len, &err) != 0) {
		sp_buf_printf(why, "%s:%s", s->path, sp_buf_str(&err));
		sp_buf_free(&err);
		return -1;
	}
	s->script_ok = 1;
	return 0;
}

static void
submission_init(struct submission *s, char **args, size_t nargs)
{
	struct sp_script none;

	memset(s, 0, sizeof *s);
	s->args = args;
	s->nargs = nargs;
	s->script_at = sp_script_cmdline(&s->cmdline, args, nargs);
	if (s->script_at < nargs && sp_script_opt(&s->cmdline, "wrap") == NULL)
		s->path = args[s->script_at];
	memset(&none, 0, sizeof none);
	sp_script_overlay(&s->eff, &none, &s->cmdline);
}

static void
submission_free(struct submission *s)
{
	sp_script_free(&s->script);
	sp_script_free(&s->cmdline);
	sp_script_free(&s->eff);
	sp_buf_free(&s->text);
}

/* The job's name, as sbatch gives it, when no script file names it. */
static const char *
name_path(const struct submission *s)
{
	if (s->path != NULL)
		return s->path;
	return sp_script_opt(&s->cmdline, "wrap") ? "wrap" : "sbatch";
}

/* What is said, and whether it is critical: 0, 1, or -1 with why. */
struct judged {
	int critical;
	int found;
	struct sp_histset set;
	struct sp_nodes *nodes;	/* the workload's placements */
	struct sp_site site;
	long wl;		/* in set; -1 none */
	struct sp_size_site ss;
	/* The workload's verdict and its --exclude advice (has_ex), made
	 * once: what is said and what --apply writes render them. */
	struct sp_wl_verdict wv;
	struct sp_advice ex;
	int has_ex;
};

static int
judge(struct submission *s, const char *since, struct judged *jd,
      struct sp_buf *why)
{
	struct sp_script_who who;
	struct sp_submission req;
	struct sp_submit_verdict v = { 0 };
	struct sp_buf note = { 0 }, none = { 0 }, label = { 0 };
	const char *user = sp_user_name();
	double budget;
	int rc = -1;

	memset(jd, 0, sizeof *jd);
	jd->wl = -1;
	if (user == NULL) {
		sp_buf_adds(why, "whose history it is cannot be told: set USER");
		return -1;
	}
	if (sp_exec_timeout(&budget, why) != 0)
		return -1;
	sp_script_who(&s->eff, name_path(s), &who);
	sp_workload_fold(&label, who.name, strlen(who.name));
	jd->nodes = sp_nodes_new(SP_METRIC_HANG);
	if (history_read(user, since, sp_buf_str(&label), budget, &jd->set,
			 jd->nodes, &jd->site, why) != 0)
		goto out;
	rc = 0;
	jd->wl = sp_script_find(&jd->set, &who, user, &note, &none);
	if (jd->wl < 0)
		goto out;
	{
		const struct sp_hist *h = sp_histset_hist(&jd->set,
							  (size_t)jd->wl);

		sp_wl_site(&jd->site, &jd->set, h, &jd->ss);
		sp_wl_verdict(h, &jd->ss, 1, &jd->wv);
		jd->has_ex = sp_wl_exclude_of(jd->nodes, &jd->set,
					      (size_t)jd->wl, &jd->ex);
		requests(s, &req);
		sp_submit_judge(h, who.name, &jd->wv, jd->has_ex ? &jd->ex :
				NULL, &req,
				(double)sp_civil_local((int64_t)time(NULL)),
				&v);
	}
	jd->found = 1;
	jd->critical = v.critical;
	fputs(sp_buf_str(&v.text), stderr);
out:
	sp_submit_verdict_free(&v);
	sp_script_who_free(&who);
	sp_buf_free(&note);
	sp_buf_free(&none);
	sp_buf_free(&label);
	return rc;
}

static void
judged_free(struct judged *jd)
{
	if (jd->nodes != NULL)
		sp_nodes_free(jd->nodes);
	jd->nodes = NULL;
	sp_wl_verdict_free(&jd->wv);
	sp_advice_free(&jd->ex);
	sp_histset_free(&jd->set);
	sp_site_free(&jd->site);
}

/* --apply: the workload's advice, written into the submission. */
static int
apply(struct submission *s, struct judged *jd, int in_place)
{
	const struct sp_advice *use[SP_FLAG_N] = { 0 };

	if (!jd->found) {
		sp_warn("no history of this workload: submitted as it is");
		submit_exec(s->args, s->nargs);
	}
	for (int f = 0; f < SP_FLAG_N; f++)
		if (jd->wv.has[f])
			use[f] = &jd->wv.adv[f];
	return apply_and_submit(s, use, jd->has_ex ? &jd->ex : NULL,
				in_place);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct submission s;
	struct judged jd;
	struct sp_buf why = { 0 };
	int rc;

	sp_setprog(argv[0]);
	parse_options(argc, argv, &o);
	if (o.mode == MODE_HOOK)
		return hook_main(argv[0]);
	submission_init(&s, argv + o.first, (size_t)argc - o.first);
	if (s.path == NULL && o.mode != MODE_SUBMIT &&
	    (o.mode == MODE_APPLY || sp_script_opt(&s.cmdline, "wrap") == NULL))
		sp_die(SP_EXIT_USAGE, "%s reads the batch script: name it "
		       "(sbatch [option ...] script)", o.mode == MODE_APPLY ?
		       "--apply" : "--check");
	if (read_script(&s, &why) != 0) {
		/* sbatch will say what it makes of the script itself. */
		if (o.mode != MODE_SUBMIT)
			sp_die(SP_EXIT_USAGE, "%s", sp_buf_str(&why));
		sp_warn("%s: not checked; submitted as given",
			sp_buf_str(&why));
		submit_exec(s.args, s.nargs);
	}
	if (s.script_ok) {
		sp_script_free(&s.eff);
		sp_script_overlay(&s.eff, &s.script, &s.cmdline);
	}
	if (s.path == NULL && o.mode == MODE_SUBMIT &&
	    sp_script_opt(&s.cmdline, "wrap") == NULL)
		/* The script comes on standard input, sbatch's to read. */
		submit_exec(s.args, s.nargs);
	if (judge(&s, o.since, &jd, &why) != 0) {
		if (o.mode == MODE_CHECK)
			sp_die(SP_EXIT_USAGE, "history not read: %s",
			       sp_buf_str(&why));
		sp_warn("history not read (%s): submitted as given",
			sp_buf_str(&why));
		submit_exec(s.args, s.nargs);
	}
	switch (o.mode) {
	case MODE_CHECK:
		rc = jd.critical ? SP_EXIT_FAIL : SP_EXIT_OK;
		break;
	case MODE_APPLY:
		rc = apply(&s, &jd, o.in_place);
		break;
	default:
		if (jd.critical)
			sp_warn("submitted as asked (sp-submit --apply writes "
				"the advice in)");
		judged_free(&jd);
		submit_exec(s.args, s.nargs);
		rc = SP_EXIT_USAGE;
	}
	judged_free(&jd);
	submission_free(&s);
	sp_buf_free(&why);
	return rc;
}
