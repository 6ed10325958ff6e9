/*
 * The advice written into a batch script: each verdict's line and
 * comment, every spelling kept, --mem-per-cpu and per-node GPUs
 * converted, flags added only when asked, earlier comments replaced (a
 * second run changes nothing), the file's line ends and last byte kept;
 * the unified diff of a rewrite; and the history a script's runs belong
 * to, or the nearest names that have one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_script_fix.h"
#include "tap.h"
#include "testhist.h"

static struct sp_advice adv[SP_FLAG_N];
static const struct sp_advice *use[SP_FLAG_N];

static void
none(void)
{
	for (int f = 0; f < SP_FLAG_N; f++) {
		sp_advice_free(&adv[f]);
		memset(&adv[f], 0, sizeof adv[f]);
		use[f] = NULL;
	}
}

/* Advice on flag f as sp_size_advise would give it. */
static void
give(enum sp_flag f, enum sp_verdict v, double requested, double target,
     const char *basis, const char *caution)
{
	struct sp_advice *a = &adv[f];

	a->flag = f;
	a->verdict = v;
	a->requested = requested;
	a->target = target;
	if (!isnan(requested))
		sp_suggest_spell(&a->requested_txt, f, requested);
	if (sp_verdict_actionable(v) || (v == SP_V_KEEP && isnan(requested))) {
		sp_buf_printf(&a->suggestion, "%s=", sp_flag_name(f));
		sp_suggest_spell(&a->suggestion, f, target);
		sp_buf_printf(&a->sbatch, "#SBATCH %s",
			      sp_buf_str(&a->suggestion));
	}
	sp_buf_adds(&a->basis, basis);
	sp_buf_adds(&a->caution, caution ? caution : "");
	use[f] = a;
}

static struct sp_buf out, notes;

/* The script text with the advice applied: the new text, the notes. */
static const char *
fix(const char *text, int add)
{
	struct sp_script s;
	struct sp_script_fix fx;
	struct sp_buf err = { 0 };

	sp_buf_clear(&out);
	sp_buf_clear(&notes);
	if (sp_script_parse(&s, text, strlen(text), &err) != 0) {
		sp_buf_adds(&out, sp_buf_str(&err));
		sp_buf_free(&err);
		return sp_buf_str(&out);
	}
	sp_script_fix(&fx, &s, use, NULL, add);
	sp_rewrite_text(&fx.rw, &out);
	sp_buf_adds(&notes, sp_buf_str(&fx.notes));
	sp_script_fix_free(&fx);
	sp_script_free(&s);
	return sp_buf_str(&out);
}

#define MEM_BASIS "largest peak of 993 runs within their limit: 71.9 GiB " \
	"(job 53615427), x 1.30"
#define TIME_BASIS "longest of 975 completed runs took 01:29:58"

static void
test_verdicts(void)
{
	none();
	give(SP_FLAG_MEM, SP_V_LOWER, 128 * GIB, 94 * GIB, MEM_BASIS, NULL);
	give(SP_FLAG_TIME, SP_V_LOWER, 8 * 3600, 7200, TIME_BASIS, NULL);
	is_string("#!/bin/bash\n"
		  "#SBATCH -J rollout-gen\n"
		  "# slurmpast: --mem 128G -> 94G: " MEM_BASIS "\n"
		  "#SBATCH --mem=94G\n"
		  "# slurmpast: --time 480 -> 120: " TIME_BASIS "\n"
		  "#SBATCH -t 120\n"
		  "run\n",
		  fix("#!/bin/bash\n#SBATCH -J rollout-gen\n"
		      "#SBATCH --mem=128G\n#SBATCH -t 480\nrun\n", 0),
		  "a lower: the value in the script's spelling, the reason "
		  "above it");
	is_string("", sp_buf_str(&notes), "  nothing to say besides");

	none();
	give(SP_FLAG_TIME, SP_V_HOLD, 8 * 3600, NAN, "blocked, not slow: 67 "
	     "of the 80 timeouts used under 10 CPU-seconds", "fix the "
	     "blocking call");
	give(SP_FLAG_MEM, SP_V_REFUSE, 4 * GIB, NAN, "needs 3 runs with a "
	     "peak or a kill at a known limit; there were 2", "MaxRSS reads "
	     "high");
	give(SP_FLAG_CPUS, SP_V_CAPPED, 64, 64, "at this partition's ceiling "
	     "of 64 cores per node", NULL);
	give(SP_FLAG_GPUS, SP_V_KEEP, 2, 2, "the busiest run kept 1.9 of its "
	     "2 GPUs busy", NULL);
	is_string("#!/bin/bash\n"
		  "# slurmpast: --time 08:00:00 held: blocked, not slow: 67 of "
		  "the 80 timeouts used under 10 CPU-seconds; fix the blocking "
		  "call\n"
		  "# slurmpast: --mem 4G left as it is: needs 3 runs with a "
		  "peak or a kill at a known limit; there were 2\n"
		  "#SBATCH --time=08:00:00 --mem 4G\n"
		  "# slurmpast: --cpus-per-task 64 capped: at this partition's "
		  "ceiling of 64 cores per node\n"
		  "#SBATCH -c64 --gpus=2\n",
		  fix("#!/bin/bash\n#SBATCH --time=08:00:00 --mem 4G\n"
		      "#SBATCH -c64 --gpus=2\n", 0),
		  "hold, refuse, capped: the line as it is and why; keep: "
		  "nothing");

	none();
	give(SP_FLAG_MEM, SP_V_KEEP, 128 * GIB, 130 * GIB, "largest peak of "
	     "12 runs: 100 GiB; 130G would do, within 20% of the request",
	     NULL);
	is_string("#!/bin/sh\n"
		  "# slurmpast: --mem 32G is not what the runs asked (128G), "
		  "which the advice keeps: largest peak of 12 runs: 100 GiB; "
		  "130G would do, within 20% of the request\n"
		  "#SBATCH --mem=32G\n",
		  fix("#!/bin/sh\n#SBATCH --mem=32G\n", 0),
		  "a keep of what the runs asked, over a script that asks "
		  "otherwise, says so");
	is_string("#!/bin/sh\n#SBATCH --mem=131072\n",
		  fix("#!/bin/sh\n#SBATCH --mem=131072\n", 0),
		  "  the same request in another unit is the same");

}

static void
test_spellings(void)
{
	none();
	give(SP_FLAG_MEM, SP_V_LOWER, 128 * GIB, 94 * GIB, MEM_BASIS, NULL);
	give(SP_FLAG_TIME, SP_V_RAISE, 3600, 9000, TIME_BASIS, NULL);
	give(SP_FLAG_CPUS, SP_V_LOWER, 16, 10, "the busiest kept 7.8 busy",
	     NULL);
	is_string("#!/bin/sh\n"
		  "# slurmpast: --time 1:00:00 -> 2:30:00: " TIME_BASIS "\n"
		  "# slurmpast: --mem 131072 -> 96256: " MEM_BASIS "\n"
		  "# slurmpast: --cpus-per-task 16 -> 10: the busiest kept 7.8 "
		  "busy\n"
		  "#SBATCH --mem \"96256\" -t2:30:00 -c 10  # sized by hand\n",
		  fix("#!/bin/sh\n#SBATCH --mem \"131072\" -t1:00:00 -c 16  "
		      "# sized by hand\n", 0),
		  "three options on one line: each value in its own spelling, "
		  "quotes and the comment kept");

	is_string("#!/bin/sh\n"
		  "# slurmpast: --mem zz left as it is: not a size sbatch "
		  "reads; the advice is --mem=94G: " MEM_BASIS "\n"
		  "#SBATCH --mem=zz\n",
		  fix("#!/bin/sh\n#SBATCH --mem=zz\n", 0),
		  "a value sbatch would refuse is left, with the advice");
}

static void
test_per_cpu_and_gpus(void)
{
	none();
	give(SP_FLAG_MEM, SP_V_LOWER, 128 * GIB, 94 * GIB, MEM_BASIS, NULL);
	give(SP_FLAG_CPUS, SP_V_LOWER, 16, 10, "the busiest kept 7.8 busy",
	     NULL);
	is_string("#!/bin/sh\n"
		  "# slurmpast: --mem-per-cpu 8G -> 9626M: 94G a node over 10 "
		  "CPUs a node; " MEM_BASIS "\n"
		  "#SBATCH --mem-per-cpu=9626M\n"
		  "# slurmpast: --cpus-per-task 16 -> 10: the busiest kept 7.8 "
		  "busy\n"
		  "#SBATCH -c 10\n",
		  fix("#!/bin/sh\n#SBATCH --mem-per-cpu=8G\n#SBATCH -c 16\n", 0),
		  "--mem-per-cpu: the node's advice over the CPUs as rewritten");
	is_string("#!/bin/sh\n"
		  "# slurmpast: --mem-per-cpu 8G -> 2407M: 94G a node over 40 "
		  "CPUs a node; " MEM_BASIS "\n"
		  "#SBATCH --mem-per-cpu=2407M\n"
		  "#SBATCH -n 8 -N 2\n"
		  "# slurmpast: --cpus-per-task 16 -> 10: the busiest kept 7.8 "
		  "busy\n"
		  "#SBATCH -c 10\n",
		  fix("#!/bin/sh\n#SBATCH --mem-per-cpu=8G\n#SBATCH -n 8 -N 2\n"
		      "#SBATCH -c 16\n", 0),
		  "  four tasks a node");
	fix("#!/bin/sh\n#SBATCH --mem-per-cpu=8G\n#SBATCH -n 8\n", 0);
	ok(strstr(sp_buf_str(&out), "# slurmpast: --mem-per-cpu 8G left as "
		  "it is: per CPU, and -n asks for several tasks without -N, "
		  "so the nodes are Slurm's choice; the advice is --mem=94G: ")
	   != NULL, "  tasks a node unknown: left, and why");

	none();
	give(SP_FLAG_GPUS, SP_V_LOWER, 8, 6, "the busiest kept 4.6 of 8 busy",
	     NULL);
	is_string("#!/bin/sh\n"
		  "#SBATCH -N 2\n"
		  "# slurmpast: --gres gpu:a100:4,lscratch:10 -> "
		  "gpu:a100:3,lscratch:10: the busiest kept 4.6 of 8 busy\n"
		  "#SBATCH --gres=gpu:a100:3,lscratch:10\n",
		  fix("#!/bin/sh\n#SBATCH -N 2\n"
		      "#SBATCH --gres=gpu:a100:4,lscratch:10\n", 0),
		  "--gres is per node: the job's GPUs over its nodes");
	is_string("#!/bin/sh\n"
		  "# slurmpast: --gpus 8 -> 6: the busiest kept 4.6 of 8 busy\n"
		  "#SBATCH -G 6\n",
		  fix("#!/bin/sh\n#SBATCH -G 8\n", 0), "-G is the job's");
	fix("#!/bin/sh\n#SBATCH --gpus-per-task=1 -n 8\n", 0);
	ok(strstr(sp_buf_str(&out), "--gpus-per-task 1 left as it is: the "
		  "advice is the job's GPUs, not a task's or a socket's") !=
	   NULL, "per task: left, and why");
}

static void
test_add_and_again(void)
{
	const char *once;

	none();
	give(SP_FLAG_MEM, SP_V_KEEP, NAN, 94 * GIB, MEM_BASIS, NULL);
	give(SP_FLAG_TIME, SP_V_LOWER, 8 * 3600, 7200, TIME_BASIS, NULL);
	is_string("#!/bin/sh\n#SBATCH -J x\n\nrun\n",
		  fix("#!/bin/sh\n#SBATCH -J x\n\nrun\n", 0),
		  "a flag the script lacks is not added");
	is_string("--time is not in the script; the advice is "
		  "--time=02:00:00 (" TIME_BASIS "): --add adds it\n"
		  "--mem is not in the script; the advice is --mem=94G ("
		  MEM_BASIS "): --add adds it\n", sp_buf_str(&notes),
		  "  but said");
	is_string("#!/bin/sh\n#SBATCH -J x\n"
		  "# slurmpast: --time=02:00:00 added: " TIME_BASIS "\n"
		  "#SBATCH --time=02:00:00\n"
		  "# slurmpast: --mem=94G added: " MEM_BASIS "\n"
		  "#SBATCH --mem=94G\n\nrun\n",
		  fix("#!/bin/sh\n#SBATCH -J x\n\nrun\n", 1),
		  "with add, after the last directive");
	is_string("#!/bin/sh\n"
		  "# slurmpast: --time=02:00:00 added: " TIME_BASIS "\n"
		  "#SBATCH --time=02:00:00\n"
		  "# slurmpast: --mem=94G added: " MEM_BASIS "\n"
		  "#SBATCH --mem=94G",
		  fix("#!/bin/sh", 1),
		  "  after the #! line when there is none; no last newline "
		  "still none");

	/* Twice: the second run changes nothing. */
	none();
	give(SP_FLAG_MEM, SP_V_LOWER, 128 * GIB, 94 * GIB, MEM_BASIS, NULL);
	give(SP_FLAG_TIME, SP_V_LOWER, 8 * 3600, 7200, TIME_BASIS, NULL);
	once = sp_xstrdup(fix("#!/bin/sh\n#SBATCH --mem=128G\n"
			      "#SBATCH --time=08:00:00\nrun\n", 0));
	is_string(once, fix(once, 0), "a second run changes nothing");
	/* The history changed: the old comment goes, the new one says so. */
	adv[SP_FLAG_MEM].target = 90 * GIB;
	fix(once, 0);
	ok(strstr(sp_buf_str(&out), "# slurmpast: --mem 128G -> 94G") == NULL,
	   "a new figure: the old comment goes");
	ok(strstr(sp_buf_str(&out), "# slurmpast: --mem 94G -> 90G: ") != NULL,
	   "  and the new one says what changed");
	ok(strstr(sp_buf_str(&out), "# slurmpast: --time 08:00:00 -> 02:00:00: "
		  TIME_BASIS "\n#SBATCH --time=02:00:00\n") != NULL,
	   "  the other stays as it was");
	free((char *)once);
}

static void
test_ends(void)
{
	none();
	give(SP_FLAG_MEM, SP_V_LOWER, 128 * GIB, 94 * GIB, MEM_BASIS, NULL);
	is_string("#!/bin/sh\r\n# slurmpast: --mem 128G -> 94G: " MEM_BASIS
		  "\r\n#SBATCH --mem=94G\r\nrun\r\n",
		  fix("#!/bin/sh\r\n#SBATCH --mem=128G\r\nrun\r\n", 0),
		  "CR LF lines: the comment gets them too");
	is_string("#!/bin/sh\n# slurmpast: --mem 128G -> 94G: " MEM_BASIS
		  "\n#SBATCH --mem=94G",
		  fix("#!/bin/sh\n#SBATCH --mem=128G", 0),
		  "no newline at the end stays so");
	is_string("#!/bin/sh\nrun\n#SBATCH --mem=128G\n",
		  fix("#!/bin/sh\nrun\n#SBATCH --mem=128G\n", 0),
		  "an #SBATCH line after the first command is left alone");
	is_string("#!/bin/sh\n#SBATCH --comment=\"a\x1b[2Jb\"\n"
		  "# slurmpast: --mem 128G -> 94G: " MEM_BASIS "\n"
		  "#SBATCH --mem=94G\n",
		  fix("#!/bin/sh\n#SBATCH --comment=\"a\x1b[2Jb\"\n"
		      "#SBATCH --mem=128G\n", 0),
		  "the rest byte for byte");
}

/* ---------------------------------------------------------- the diff */

static const char *
diff(const char *text, int add)
{
	static struct sp_buf d;
	struct sp_script s;
	struct sp_script_fix fx;
	struct sp_buf err = { 0 };

	sp_buf_clear(&d);
	sp_script_parse(&s, text, strlen(text), &err);
	sp_script_fix(&fx, &s, use, NULL, add);
	sp_rewrite_diff(&fx.rw, "job.sh", &d);
	sp_script_fix_free(&fx);
	sp_script_free(&s);
	sp_buf_free(&err);
	return sp_buf_str(&d);
}

static void
test_diff(void)
{
	none();
	give(SP_FLAG_MEM, SP_V_LOWER, 128 * GIB, 94 * GIB, "b", NULL);
	is_string("--- job.sh\n+++ job.sh\n"
		  "@@ -1,6 +1,7 @@\n"
		  " #!/bin/sh\n"
		  " #SBATCH -J x\n"
		  "-#SBATCH --mem=128G\n"
		  "+# slurmpast: --mem 128G -> 94G: b\n"
		  "+#SBATCH --mem=94G\n"
		  " a\n"
		  " b\n"
		  " c\n",
		  diff("#!/bin/sh\n#SBATCH -J x\n#SBATCH --mem=128G\na\nb\nc\n"
		       "d\ne\n", 0),
		  "three lines of context, as diff -u");
	is_string("--- job.sh\n+++ job.sh\n"
		  "@@ -1,2 +1,3 @@\n"
		  " #!/bin/sh\n"
		  "-#SBATCH --mem=128G\n"
		  "\\ No newline at end of file\n"
		  "+# slurmpast: --mem 128G -> 94G: b\n"
		  "+#SBATCH --mem=94G\n"
		  "\\ No newline at end of file\n",
		  diff("#!/bin/sh\n#SBATCH --mem=128G", 0),
		  "no newline at the end: said on both sides");
	is_string("", diff("#!/bin/sh\n#SBATCH -J x\n", 0),
		  "nothing changed: no diff");
}

/* Two hunks, numbered right: a rewrite made by hand. */
static void
test_hunks(void)
{
	static const char text[] = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
	struct sp_script s;
	struct sp_rewrite rw;
	struct sp_buf d = { 0 }, err = { 0 }, t = { 0 };

	sp_script_parse(&s, text, strlen(text), &err);
	sp_rewrite_init(&rw, s.text, s.lines, s.nlines);
	for (size_t i = 0; i < s.nlines; i++) {
		if (i == 1)
			sp_rewrite_drop(&rw, i);
		else if (i == 10)
			sp_rewrite_change(&rw, i, "eleven", 6);
		else
			sp_rewrite_keep(&rw, i);
		if (i == 10)
			sp_rewrite_add(&rw, "new", 3, SP_EOL_LF);
	}
	sp_rewrite_finish(&rw);
	sp_rewrite_diff(&rw, "f", &d);
	is_string("--- f\n+++ f\n"
		  "@@ -1,5 +1,4 @@\n 1\n-2\n 3\n 4\n 5\n"
		  "@@ -8,5 +7,6 @@\n 8\n 9\n 10\n-11\n+eleven\n+new\n 12\n",
		  sp_buf_str(&d), "two hunks, each numbered on both sides");
	sp_rewrite_text(&rw, &t);
	is_string("1\n3\n4\n5\n6\n7\n8\n9\n10\neleven\nnew\n12\n",
		  sp_buf_str(&t), "  the text it describes");
	is_int(3, (long long)sp_rewrite_changes(&rw), "  three lines differ");
	sp_rewrite_free(&rw);
	sp_script_free(&s);
	sp_buf_free(&d);
	sp_buf_free(&t);
	sp_buf_free(&err);
}

/* ---------------------------------------------------------- the find */

static const char *
find(const char *name, const char *partition, int gpu, const char *user)
{
	static struct sp_buf b;
	struct sp_script_who w = { (char *)name, 0, (char *)partition, gpu };
	struct sp_buf note = { 0 }, why = { 0 };
	long i = sp_script_find(&set, &w, user, &note, &why);

	sp_buf_clear(&b);
	if (i < 0)
		sp_buf_printf(&b, "none: %s", sp_buf_str(&why));
	else
		sp_buf_printf(&b, "%s%s%s", set.v[i].key, note.len ? " | " : "",
			      sp_buf_str(&note));
	sp_buf_free(&note);
	sp_buf_free(&why);
	return sp_buf_str(&b);
}

static void
test_find(void)
{
	static const char *const keys[] = {
		"alice/gpu/gpu/rollout-gen", "alice/debug/gpu/rollout-gen",
		"alice/cpu/cpu/rollout-gen", "alice/gpu/gpu/rollout-gem",
		"alice/gpu/gpu/eval-s#", "bob/gpu/gpu/rollout-gen",
	};
	static const int runs[] = { 5, 2, 1, 3, 4, 2 };

	sp_buf_clear(&rows);
	for (size_t k = 0; k < 6; k++)
		for (int r = 0; r < runs[k]; r++)
			ROW(.id = N(100 * (double)k + r), .state = "COMPLETED",
			    .start = k == 1 ? "2026-02-01T00:00:00" :
			    "2026-01-01T00:00:00", .el = "60", .key = keys[k]);
	load();
	sp_histset_finish(&set);

	is_string("alice/gpu/gpu/rollout-gen",
		  find("rollout-gen", "gpu", 1, "alice"),
		  "one partition: the key sp-group gives");
	is_string("alice/debug/gpu/rollout-gen | no partition in the script, "
		  "and the job name ran in debug (2 runs) and gpu (5 runs): "
		  "advised for the first, where it ran last (-p in the script "
		  "chooses)", find("rollout-gen", NULL, 1, "alice"),
		  "no partition: the newest run's, and said");
	is_string("alice/gpu/gpu/rollout-gen", find("rollout-gen", "gpu,cpu",
		  1, "alice"), "a list: among those");
	is_string("alice/cpu/cpu/rollout-gen", find("rollout-gen", NULL, 0,
		  "alice"), "no GPUs: the runs without");
	is_string("alice/gpu/gpu/eval-s#", find("eval-s17", "gpu", 1,
		  "alice"), "digits fold as sp-group folds them");
	is_string("none: no history for job name 'rollout-gen', user alice, "
		  "partition long, with GPUs; nearest with history: "
		  "alice/debug/gpu/rollout-gen (2 runs), alice/cpu/cpu/"
		  "rollout-gen (1 run), alice/gpu/gpu/rollout-gen (5 runs)",
		  find("rollout-gen", "long", 1, "alice"),
		  "no history: the same name elsewhere, newest first");
	is_string("none: no history for job name 'rollout-gne', user alice, "
		  "partition gpu, with GPUs; nearest with history: "
		  "alice/gpu/gpu/rollout-gen (5 runs), alice/gpu/gpu/"
		  "rollout-gem (3 runs), alice/debug/gpu/rollout-gen (2 runs)",
		  find("rollout-gne", "gpu", 1, "alice"),
		  "  then by edits (two each here), most runs first");
	is_string("none: no history for job name 'x9', workload x#, user "
		  "alice, any partition, without GPUs; no workload of alice's "
		  "is near it", find("x9", NULL, 0, "alice"),
		  "  a short name is near no other");
	is_string("none: no history for job name 'rollout-gen', user carol, "
		  "any partition, with GPUs; the name ran for other users: "
		  "alice/debug/gpu/rollout-gen (2 runs), bob/gpu/gpu/"
		  "rollout-gen (2 runs), alice/cpu/cpu/rollout-gen (1 run) "
		  "(-u alice advises from theirs)",
		  find("rollout-gen", NULL, 1, "carol"),
		  "  a user with none: who ran the name, and -u for theirs");
	is_string("none: no history for job name 'x9', workload x#, user "
		  "root, any partition, without GPUs; root has no job in this "
		  "history: -u names whose script it is",
		  find("x9", NULL, 0, "root"),
		  "  a user with no job at all: -u");
}

int
main(void)
{
	plan_lazy();
	test_verdicts();
	test_spellings();
	test_per_cpu_and_gpus();
	test_add_and_again();
	test_ends();
	test_diff();
	test_hunks();
	test_find();
	none();
	sp_buf_free(&out);
	sp_buf_free(&notes);
	return done_testing();
}
