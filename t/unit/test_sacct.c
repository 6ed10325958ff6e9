/*
 * test_sacct.c - every sacct trap of reference-rules.md 1.2-1.4, each
 * with a case that reads wrong without its handling, and the numbers the
 * reference gives.  Every input is also fed one byte at a time: the
 * records must not depend on where the reads happen to split.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "sp.h"
#include "sp_sacct.h"

/* What the parser wrote: one string per column per record. */
struct got {
	char **cell;		/* n * SP_JC_COUNT */
	size_t n, cap;
	struct sp_buf tsv;	/* every record as a line, to compare runs */
	size_t emitted_before_finish;
};

static struct got G;
static struct sp_sacct_stats ST;
static struct sp_buf ERR;

static void
collect(void *ctx, const struct sp_sacct_rec *r)
{
	struct got *g = ctx;
	struct sp_buf b = { 0 };
	int i;

	g->cell = sp_xgrow(g->cell, &g->cap, (g->n + 1) * SP_JC_COUNT,
	    sizeof *g->cell);
	for (i = 0; i < SP_JC_COUNT; i++) {
		sp_buf_clear(&b);
		if (sp_sacct_col_is_num(i))
			sp_fmt_num(&b, r->num[i]);
		else
			sp_buf_add(&b, r->text[i].p, r->text[i].n);
		g->cell[g->n * SP_JC_COUNT + i] = sp_xstrdup(sp_buf_str(&b));
		if (i)
			sp_buf_addc(&g->tsv, '\t');
		sp_field_encode(&g->tsv, b.p ? b.p : "", b.len);
	}
	sp_buf_addc(&g->tsv, '\n');
	g->n++;
	sp_buf_free(&b);
}

static void
got_free(struct got *g)
{
	size_t i;

	for (i = 0; i < g->n * SP_JC_COUNT; i++)
		free(g->cell[i]);
	free(g->cell);
	sp_buf_free(&g->tsv);
	memset(g, 0, sizeof *g);
}

/* Parses text fed in pieces of chunk bytes (0: whole); -1 on error. */
static int
parse_into(struct got *g, const char *fields, int delim, int steps,
	   const char *text, size_t chunk)
{
	struct sp_sacct p;
	struct sp_sacct_config cfg;
	size_t n = strlen(text), i, k;
	int rc = 0;

	memset(&cfg, 0, sizeof cfg);
	cfg.delim = delim;
	cfg.fields = fields;
	cfg.steps = steps;
	cfg.emit = collect;
	cfg.ctx = g;
	sp_sacct_init(&p, &cfg);
	if (chunk == 0)
		chunk = n ? n : 1;
	for (i = 0; i < n && rc == 0; i += k) {
		k = n - i < chunk ? n - i : chunk;
		rc = sp_sacct_feed(&p, text + i, k);
	}
	g->emitted_before_finish = g->n;
	if (rc == 0)
		rc = sp_sacct_finish(&p);
	ST = p.st;
	sp_buf_clear(&ERR);
	sp_buf_adds(&ERR, sp_buf_str(&p.err));
	sp_sacct_free(&p);
	return rc;
}

/*
 * Parses '|'-text whole into G, and again byte by byte: both must give
 * the same records.  For delim 0x1f, every '!' of the text becomes 0x1f.
 */
static int
parse(const char *fields, int delim, int steps, const char *text)
{
	struct got bytewise = { 0 };
	struct sp_sacct_stats whole;
	char *t = sp_xstrdup(text), *c;
	int rc;

	if (delim == 0x1f)
		for (c = t; *c; c++)
			if (*c == '!')
				*c = 0x1f;
	got_free(&G);
	rc = parse_into(&G, fields, delim, steps, t, 0);
	whole = ST;
	parse_into(&bytewise, fields, delim, steps, t, 1);
	if (!ok(strcmp(sp_buf_str(&G.tsv), sp_buf_str(&bytewise.tsv)) == 0,
	    "  (the same records when read one byte at a time)"))
		diag("whole:\n%s\nbytewise:\n%s", sp_buf_str(&G.tsv),
		    sp_buf_str(&bytewise.tsv));
	ST = whole;
	got_free(&bytewise);
	free(t);
	return rc;
}

static int
col(const char *name)
{
	int i;

	for (i = 0; sp_job_column_names[i]; i++)
		if (strcmp(sp_job_column_names[i], name) == 0)
			return i;
	fprintf(stderr, "no column %s\n", name);
	abort();
}

static const char *
cell(size_t row, const char *name)
{
	if (row >= G.n)
		return "<no such record>";
	return G.cell[row * SP_JC_COUNT + col(name)];
}

#define IS(row, name, want, what) \
	is_string(want, cell(row, name), "%s", what)

static struct sp_slice
S(const char *s)
{
	struct sp_slice x;

	x.p = s;
	x.n = strlen(s);
	return x;
}

/* ------------------------------------------------------------------ */

static void
test_sentinels(void)
{
	const char *f = "JobID,JobName,Partition,State,End,Timelimit,NodeList,"
	    "Elapsed,TotalCPU,MaxRSS,Planned";

	parse(f, '|', 0,
	    "1|None|None|COMPLETED|Unknown|Partition_Limit|None assigned|"
	    "NaN|inf|1e999|INVALID\n"
	    "2|(null)|p|COMPLETED|2026-01-02T03:04:05|UNLIMITED|n[1-2]|"
	    "00:01:00|00:00:30|1024K|00:00:07\n");
	is_int(2, (long long)G.n, "sentinels: two records");
	IS(0, "name", "None", "a job named None keeps its name (free text)");
	IS(0, "partition", "None", "a partition named None stays");
	IS(0, "end", "", "End Unknown is empty");
	IS(0, "timelimit_s", "", "Partition_Limit is unknown");
	IS(0, "nodelist", "", "None assigned is no node");
	IS(0, "elapsed_s", "", "Elapsed NaN is unknown, not 0");
	IS(0, "total_cpu_s", "", "TotalCPU inf is unknown");
	IS(0, "max_rss_b", "", "MaxRSS 1e999 is unknown");
	IS(0, "wait_s", "", "Reserved=INVALID is unknown");
	IS(1, "timelimit_s", "", "UNLIMITED is unknown");
	IS(1, "end", "2026-01-02T03:04:05", "a timestamp is carried as printed");
	IS(1, "wait_s", "7", "Planned is the queue wait");
	IS(1, "max_rss_b", "1048576", "K is 1024 bytes");
}

static void
test_reassembly(void)
{
	const char *f = "JobID,JobName,State,SubmitLine";

	/* sacct's own mode (0x1F, written '!' here). */
	parse(f, 0x1f, 0,
	    "garbage before any record\n"
	    "JobID!JobName!State!SubmitLine\n"
	    "101!a!COMPLETED!sbatch --wrap 'echo\n"
	    "2 nodes\n"
	    "3|x\n"
	    "\n"
	    "end'\n"
	    "102!b!FAILED!sbatch b.sh\n");
	is_int(2, (long long)G.n, "reassembly: a newline in SubmitLine makes no "
	    "phantom job");
	IS(0, "submit_line", "sbatch --wrap 'echo\n2 nodes\n3|x\n\nend'",
	    "continuation lines join the row they continue, blank line and all");
	IS(1, "jobid", "102", "the next record starts at a digit-led id");
	is_int(1, (long long)ST.stray, "the line before the first record is "
	    "counted, not read");
	is_int(1, (long long)ST.headers, "the header line is skipped");
	is_int(3, (long long)ST.continued, "three lines of text continued a row");

	/* '|': a digit-led continuation with white space is no record. */
	parse(f, '|', 0,
	    "103|a|COMPLETED|sbatch --wrap 'echo\n"
	    "2 nodes|3 tasks'\n"
	    "104|b|FAILED|sbatch b.sh\n");
	is_int(2, (long long)G.n, "'2 nodes|...' starts no phantom job");
	IS(0, "submit_line", "sbatch --wrap 'echo\n2 nodes|3 tasks'",
	    "the '|' inside the command line is rejoined into it");
	IS(1, "jobid", "104", "the job after it is read");
	is_int(1, (long long)ST.rejoined, "the rejoined row is counted");
	is_int(0, (long long)ST.shifted, "and not as dropped");

	/* A trailing blank line does not grow the last field. */
	parse(f, '|', 0, "105|c|COMPLETED|sbatch c.sh\n\n\n");
	IS(0, "submit_line", "sbatch c.sh", "trailing blank lines are not text");

	/* CRLF dumps: the CR is no part of the last field. */
	parse(f, '|', 0, "106|d|COMPLETED|sbatch d.sh\r\n");
	IS(0, "submit_line", "sbatch d.sh", "a CR before the LF is dropped");
}

static void
test_delimiters(void)
{
	const char *f = "JobID,JobName,State,Constraints";

	/* 0x1F: a '|' in a name is just a character. */
	parse(f, 0x1f, 0, "201!a|b!COMPLETED!x|y\n");
	IS(0, "name", "a|b", "with 0x1F a '|' in JobName is read whole");
	IS(0, "constraints", "x|y", "and in Constraints");

	/*
	 * '|': the extra fields go back into the one free-text field they
	 * can belong to, where every other field then reads as its kind.
	 */
	parse(f, '|', 1,
	    "202|a|b|COMPLETED|c\n"
	    "202.batch|batch|COMPLETED|\n"
	    "203|ok|FAILED|x|y\n"
	    "203.batch|bat|ch|FAILED|\n"
	    "204|fine|COMPLETED|\n");
	is_int(5, (long long)G.n, "every row is read");
	IS(0, "name", "a|b", "a '|' in JobName is rejoined");
	IS(0, "constraints", "c", "the field after it is its own");
	IS(2, "constraints", "x|y", "a '|' in Constraints is rejoined");
	IS(3, "name", "bat|ch", "so is a step's");
	is_int(3, (long long)ST.rejoined, "three rows rejoined");
	is_int(0, (long long)ST.shifted, "none dropped");

	/*
	 * Two free-text fields either of which could hold the extra field:
	 * no guess.  A dropped step costs its job the step figures, never
	 * the job; a dropped allocation row leaves its attempt out.
	 */
	parse("JobID,JobName,State,TotalCPU,MaxRSS,SubmitLine,Comment", '|', 1,
	    "205|j|COMPLETED|00:00:09||sbatch j.sh|\n"
	    "205.batch|batch|COMPLETED|00:00:05|2G|x|y|z\n"
	    "205.0|0|COMPLETED|00:00:04|1G||\n"
	    "206|k|b|COMPLETED|00:00:01||sbatch k.sh|c|d\n"
	    "206.batch|batch|COMPLETED|00:00:01|1G||\n"
	    "207|ok|COMPLETED|00:00:02||sbatch ok.sh|\n");
	is_int(3, (long long)G.n, "205 and its surviving step, and 207");
	IS(0, "jobid", "205", "the job that lost a step is written");
	IS(0, "total_cpu_s", "9", "its CPU is its own row's, not the 4 s left");
	IS(0, "max_rss_b", "", "its peak is unknown, not the 1G left");
	IS(1, "step", "0", "the step that could be read is written");
	IS(2, "jobid", "207", "206 is left out: its own row fits no placement");
	is_int(2, (long long)ST.shifted, "two rows dropped");
	is_int(1, (long long)ST.lost_steps, "one of them a step of a kept job");
	is_int(1, (long long)ST.partial, "one job with its step figures "
	    "from its own row");
	is_int(1, (long long)ST.damaged, "one attempt left out");

	/* A path is absolute: that tells WorkDir from the command line. */
	parse("JobID,State,WorkDir,SubmitLine", '|', 0,
	    "208|COMPLETED|/home/a|srun sh -c 'zcat in.gz | sort | uniq -c'\n");
	IS(0, "submit_line", "srun sh -c 'zcat in.gz | sort | uniq -c'",
	    "two '|' rejoined into SubmitLine");
	IS(0, "workdir", "/home/a", "WorkDir keeps its own value");
	parse("JobID,State,StdOut,StdErr,SubmitLine", '|', 0,
	    "209|COMPLETED|/o|/e|a | b\n");
	IS(0, "stderr", "/e", "a path never takes a spilled command line");
	IS(0, "submit_line", "a | b", "that holds blanks");
	parse("JobID,State,StdOut,StdErr,SubmitLine", '|', 0,
	    "209|COMPLETED|/o|/e|a|b\n");
	is_int(0, (long long)G.n, "StdErr or SubmitLine could hold it: dropped");
	is_int(1, (long long)ST.shifted, "and counted");

	/* A NUL byte: the record format cannot carry it. */
	got_free(&G);
	{
		static const char t[] = "207|a\0b|COMPLETED|\n208|b|FAILED|\n";
		struct sp_sacct p;
		struct sp_sacct_config cfg;

		memset(&cfg, 0, sizeof cfg);
		cfg.delim = '|';
		cfg.fields = f;
		cfg.emit = collect;
		cfg.ctx = &G;
		sp_sacct_init(&p, &cfg);
		sp_sacct_feed(&p, t, sizeof t - 1);
		sp_sacct_finish(&p);
		is_int(1, (long long)p.st.nul_rows, "a row holding NUL is counted");
		is_int(1, (long long)G.n, "and dropped; the next job is read");
		IS(0, "jobid", "208", "208 survives");
		sp_sacct_free(&p);
	}

	/* Short of trailing fields: read, those fields unknown, counted. */
	parse("JobID,JobName,State,Elapsed,Partition", '|', 0,
	    "210|a|COMPLETED|00:01:00\n"
	    "211|b|FAILED\n"
	    "212|c|FAILED|00:00:09|p\n");
	is_int(3, (long long)G.n, "short rows are read");
	IS(0, "elapsed_s", "60", "the fields they have are theirs");
	IS(0, "partition", "", "the missing one is unknown");
	IS(1, "state", "FAILED", "a row two short keeps its state");
	IS(1, "elapsed_s", "", "and its missing fields are unknown");
	is_int(2, (long long)ST.short_rows, "two short rows counted");
	is_int(3, (long long)ST.short_fewest, "the fewest fields one had");
	is_int(4, (long long)ST.short_most, "the most");
}

static void
test_steps_and_ids(void)
{
	const char *f = "JobID,State,TotalCPU";

	parse(f, '|', 1,
	    "300_4|COMPLETED|\n"
	    "300_4.batch|COMPLETED|00:10\n"
	    "300_5|COMPLETED|\n"
	    "300_5.batch|COMPLETED|00:20\n"
	    "301+0|COMPLETED|\n"
	    "301+0.0|COMPLETED|00:30\n"
	    "301+1|COMPLETED|\n"
	    "301+1.0|COMPLETED|00:40\n"
	    "302.batch|COMPLETED|00:50\n"
	    "303|COMPLETED|\n");
	is_int(9, (long long)G.n, "4 array/het allocations + 4 steps + 1 job");
	IS(0, "array_job", "300", "array job of 300_4");
	IS(0, "array_task", "4", "array task of 300_4");
	IS(0, "total_cpu_s", "10", "300_4.batch belongs to 300_4");
	IS(1, "step", "batch", "--steps: the step record names its step");
	IS(1, "jobid", "300_4", "--steps: and carries the allocation's id");
	IS(2, "total_cpu_s", "20", "300_5 is its own job");
	IS(4, "jobid", "301+0", "het component 0");
	IS(4, "total_cpu_s", "30", "301+0.0 belongs to 301+0");
	IS(6, "total_cpu_s", "40", "301+1.0 belongs to 301+1");
	IS(8, "jobid", "303", "the last job");
	is_int(1, (long long)ST.orphans, "a step without its allocation row is "
	    "dropped and counted");
	IS(0, "step", "", "an allocation record has no step");

	parse(f, '|', 0, "4103947_[1-3]|PENDING|\n");
	IS(0, "array_task", "[1-3]", "an unexpanded array keeps its range");
}

static void
test_requeue_and_recycled(void)
{
	const char *f = "JobID,User,UID,Cluster,State,Submit,NodeList";
	struct sp_buf b = { 0 };

	/* Attempts printed newest first: numbered by Submit. */
	parse(f, '|', 1,
	    "400|alice|1001|c1|COMPLETED|2026-01-02T00:00:00|n2\n"
	    "400.batch||||COMPLETED||n2\n"
	    "400|alice|1001|c1|NODE_FAIL|2026-01-01T00:00:00|n1\n"
	    "400.batch||||CANCELLED||n1\n");
	is_int(4, (long long)G.n, "requeue: two attempts, each with its step");
	IS(0, "attempt", "0", "the older attempt is 0");
	IS(0, "state", "NODE_FAIL", "attempt 0 is the NODE_FAIL");
	IS(1, "nodelist", "n1", "its step stays with it (positional attach)");
	IS(1, "attempt", "0", "the step carries its attempt");
	IS(2, "attempt", "1", "the newer attempt is 1");
	IS(3, "nodelist", "n2", "and keeps its own step");

	/*
	 * Slurm 22.05's sacct -D prints by submit time: the next attempt of
	 * a requeued job comes after the jobs submitted in between.
	 */
	parse(f, '|', 0,
	    "410|alice|1001|c1|REQUEUED|2026-01-01T00:00:00|n1\n"
	    "411|alice|1001|c1|COMPLETED|2026-01-01T00:00:05|n2\n"
	    "412|bob|1002|c1|NODE_FAIL|2026-01-01T00:00:06|n3\n"
	    "410|alice|1001|c1|NODE_FAIL|2026-01-01T00:01:00|n1\n"
	    "412|carol|1003|c1|COMPLETED|2026-01-01T00:02:00|n3\n"
	    "410|alice|1001|c1|COMPLETED|2026-01-01T00:03:00|n4\n"
	    "413|alice|1001|c1|COMPLETED|2026-01-01T00:04:00|n4\n"
	    "410|alice|1001|c1|COMPLETED|2026-03-01T00:00:00|n4\n");
	sp_buf_clear(&b);
	for (size_t i = 0; i < G.n; i++)
		sp_buf_printf(&b, "%s:%s ", cell(i, "jobid"), cell(i, "attempt"));
	is_string("410:0 411:0 412:0 410:1 412:0 410:2 413:0 410:0 ",
	    sp_buf_str(&b),
	    "a requeued job's later attempts are numbered wherever they come; "
	    "another user's job under the id is not one; after the attempt "
	    "that ended the job, the id starts afresh");
	sp_buf_clear(&b);

	/* Recycled ids: another cluster, uid or user is another job. */
	parse(f, '|', 0,
	    "500|alice|1001|c1|COMPLETED|2026-01-01T00:00:00|\n"
	    "500|alice|1001|c2|FAILED|2026-01-02T00:00:00|\n"
	    "500|bob|1002||FAILED|2026-01-03T00:00:00|\n"
	    "500|carol|||FAILED|2026-01-04T00:00:00|\n"
	    "500|dave|||FAILED|2026-01-05T00:00:00|\n"
	    "500|dave|||COMPLETED|2026-01-06T00:00:00|\n");
	for (size_t i = 0; i < G.n; i++)
		sp_buf_adds(&b, cell(i, "attempt"));
	is_string("000001", sp_buf_str(&b), "a different cluster, uid or user "
	    "restarts the attempts; the same identity continues them");
	sp_buf_free(&b);

	/* The Mercury case: a counter reset, the same cluster. */
	parse(f, '|', 0,
	    "510|carol|42310|tessera|COMPLETED|2026-01-09T16:02:00|\n"
	    "510|bob|41877|tessera|COMPLETED|2026-03-10T11:15:00|\n");
	IS(1, "user", "bob", "a recycled id on the same cluster ...");
	IS(1, "attempt", "0", "... is another user's job, not an attempt");

	parse(f, '|', 0,
	    "600||||FAILED|2026-01-01T00:00:00|\n"
	    "600||||COMPLETED|2026-01-02T00:00:00|\n");
	IS(1, "attempt", "1", "rows with blank identity are one job's attempts");

	/* Streaming: a job is written as soon as the next job starts. */
	parse(f, '|', 0,
	    "700|a|1|c|COMPLETED|2026-01-01T00:00:00|\n"
	    "701|a|1|c|COMPLETED|2026-01-01T00:00:00|\n"
	    "702|a|1|c|COMPLETED|2026-01-01T00:00:00|\n");
	is_int(1, (long long)G.emitted_before_finish, "jobs are written while "
	    "reading: only the last two wait for the end");
}

static void
test_states(void)
{
	struct sp_slice st, by;
	const char *f = "JobID,State,End,ExitCode,DerivedExitCode";

	sp_sacct_state(S("OUT_OF_ME+"), &st, &by);
	is_int(13, (long long)st.n, "OUT_OF_ME+ expands");
	ok(st.n == 13 && memcmp(st.p, "OUT_OF_MEMORY", 13) == 0,
	    "OUT_OF_ME+ is OUT_OF_MEMORY");
	sp_sacct_state(S("CANCELLED by 940740146"), &st, &by);
	ok(st.n == 9 && by.n == 9 && memcmp(by.p, "940740146", 9) == 0,
	    "CANCELLED by 940740146: state CANCELLED, by 940740146");
	sp_sacct_state(S("REQUEUE+"), &st, &by);
	ok(st.n == 8, "an ambiguous cut state stays as printed");

	parse(f, '|', 0,
	    "800|OUT_OF_ME+|2026-01-01T00:00:00|0:125|0:0\n"
	    "801|CANCELLED by 1000||0:15|2:0\n"
	    "802|RUNNING|Unknown|0:0|0:0\n"
	    "803|PENDING||0:0|0:0\n"
	    "804||Unknown|0:0|0:0\n"
	    "805|RUNNING|2020-06-30T19:24:08|0:0|0:0\n"
	    "806|REQUEUED|2026-01-01T00:00:00|0:0|0:0\n");
	IS(0, "state", "OUT_OF_MEMORY", "the record says OUT_OF_MEMORY");
	IS(0, "signal", "125", "ExitCode 0:125: signal 125");
	IS(1, "state", "CANCELLED", "state is one word");
	IS(1, "cancelled_by", "1000", "cancelled_by is the uid");
	IS(1, "exit_code", "0", "exit code of 0:15");
	IS(1, "signal", "15", "signal of 0:15");
	IS(1, "derived_exit_code", "2", "DerivedExitCode is kept");
	IS(1, "open", "0", "CANCELLED with no End is not open");
	IS(2, "open", "1", "RUNNING with End Unknown is open");
	IS(3, "open", "1", "PENDING with no End is open");
	IS(4, "open", "0", "an empty State is not open");
	IS(5, "open", "1", "RUNNING with an End (the query window) is open");
	IS(6, "open", "0", "a REQUEUED attempt that ended is closed");
}

/* States slurmpast does not know are kept, and counted apart. */
static void
test_unknown_states(void)
{
	struct sp_sacct p;
	struct sp_sacct_config cfg;
	const char *t = "JobID|State\n1|FOO\n2|BAR\n3|FOO\n4|COMPLETED\n"
	    "5|OUT_OF_ME+\n6|LAUNCH_FAILED\n";

	got_free(&G);
	memset(&cfg, 0, sizeof cfg);
	cfg.delim = SP_SACCT_DETECT;
	cfg.emit = collect;
	cfg.ctx = &G;
	sp_sacct_init(&p, &cfg);
	sp_sacct_feed(&p, t, strlen(t));
	sp_sacct_finish(&p);
	is_int(6, (long long)G.n, "every record is written");
	IS(0, "state", "FOO", "an unknown state is kept as printed");
	is_int(3, (long long)p.st.unknown_states, "three records in states "
	    "slurmpast does not know");
	is_int(2, (long long)p.odd_states.n, "two such states");
	is_string("FOO", sp_intern_str(&p.odd_states, 0), "the first named");
	ok(sp_sacct_state_known(S("LAUNCH_FAILED")) &&
	    !sp_sacct_state_known(S("FOO")), "state_known");
	sp_sacct_free(&p);
}

static void
test_times(void)
{
	const char *f = "JobID,State,Elapsed,ElapsedRaw,Timelimit,TimelimitRaw,"
	    "TotalCPU,UserCPU,SystemCPU,CPUTime,CPUTimeRAW";

	parse(f, '|', 0,
	    "900|COMPLETED|00:01:00|61|01:00:00|90|00:00.539|30:30.919|"
	    "1-00:00:00|00:10:00|\n"
	    "901|COMPLETED|1-02:03:04||2-00:00:00||05:31:39|||00:10:00|700\n");
	IS(0, "elapsed_s", "61", "ElapsedRaw wins over Elapsed");
	IS(0, "timelimit_s", "5400", "TimelimitRaw is minutes");
	IS(0, "total_cpu_s", "0.539", "00:00.539 is MM:SS.mmm, 0.539 s");
	IS(0, "user_cpu_s", "1830.919", "30:30.919 is 1830.919 s");
	IS(0, "sys_cpu_s", "86400", "D-HH:MM:SS");
	IS(1, "elapsed_s", "93784", "Elapsed parsed when ElapsedRaw is absent");
	IS(1, "timelimit_s", "172800", "Timelimit parsed");
	IS(1, "total_cpu_s", "19899", "HH:MM:SS");
	IS(1, "cpu_time_s", "700", "CPUTimeRAW is preferred over CPUTime");
}

static void
test_memory(void)
{
	const char *f = "JobID,State,NNodes,NCPUS,AllocCPUS,ReqCPUS,ReqMem,"
	    "AllocTRES,ReqTRES,MaxRSS";

	parse(f, '|', 0,
	    /* the demo: ReqMem 0n, the limit from AllocTRES */
	    "1000|COMPLETED|1|6|6|6|0n|billing=6,cpu=6,gres/gpu=1,mem=80G,"
	    "node=1||\n"
	    /* --mem=100G on 2 nodes: AllocTRES is the total */
	    "1001|COMPLETED|2|8|8|8|100Gn|cpu=8,mem=200G,node=2||\n"
	    /* per CPU, no AllocTRES: x cpus */
	    "1002|COMPLETED|4|48|48|48|3000Mc|||\n"
	    /* a bare ReqMem is MiB */
	    "1003|COMPLETED|1|1|1|1|16|||\n"
	    /* Slurm 16: per-CPU bit leaked into ReqMem (pozidriv 996759) */
	    "1004|COMPLETED|1|8|8|8|2147486448Mn|cpu=8,mem=22400M,node=1||\n"
	    /* Slurm 15: AllocTRES per node (xdmod 4107166) */
	    "1005|CANCELLED by 102216|3|36|36|36|48000Mn|billing=36,cpu=36,"
	    "mem=48000M,node=3||\n"
	    /* nothing says: unknown, not zero */
	    "1006|COMPLETED|1|1|1|1|0n|cpu=1,node=1||\n"
	    /* only ReqTRES says */
	    "1007|PENDING|1|||4|0n||cpu=4,mem=8G,node=1|\n"
	    /* Slurm 15: AllocTRES held the per-CPU request (xdmod 4103947) */
	    "1008|TIMEOUT|32|256||256|3000Mc|billing=256,cpu=256,mem=3000M,"
	    "node=32||\n");
	IS(0, "mem_limit_total_b", "85899345920", "ReqMem 0n: AllocTRES mem=80G");
	IS(0, "mem_limit_node_b", "85899345920", "one node: the same per node");
	IS(1, "mem_limit_node_b", "107374182400", "--mem is per node: 100G");
	IS(1, "mem_limit_total_b", "214748364800", "AllocTRES mem=200G is the "
	    "total");
	IS(2, "mem_limit_total_b", "150994944000", "3000Mc x 48 CPUs");
	IS(2, "mem_limit_node_b", "37748736000", "per node: total / 4");
	IS(3, "mem_limit_total_b", "16777216", "ReqMem=16 is 16 MiB");
	IS(4, "mem_limit_total_b", "23488102400", "2147486448Mn is 2800 MiB per "
	    "CPU: 22400 MiB");
	IS(5, "mem_limit_total_b", "150994944000", "48000Mn on 3 nodes is 144000 "
	    "MiB even where AllocTRES says 48000M");
	IS(5, "mem_limit_node_b", "50331648000", "per node 48000 MiB");
	IS(6, "mem_limit_total_b", "", "0n and no mem= in TRES: unknown");
	IS(7, "mem_limit_total_b", "8589934592", "else ReqTRES mem=");
	IS(7, "alloc_cpus", "", "a pending job holds no CPUs yet");
	IS(7, "req_cpus", "4", "but asked for 4");
	IS(8, "mem_limit_total_b", "805306368000", "3000Mc x 256 CPUs is 768000 "
	    "MiB, not the 3000M AllocTRES says");
	IS(8, "mem_limit_node_b", "25165824000", "24000 MiB per node of 32");
}

static void
test_cpu_fold(void)
{
	const char *f = "JobID,State,Elapsed,NCPUS,NTasks,TotalCPU,UserCPU,"
	    "SystemCPU,CPUTime,AveCPU,MinCPU,MinCPUNode,MinCPUTask";

	parse(f, '|', 0,
	    "1100|COMPLETED|00:10:00|2||00:00:01|||00:20:00||||\n"
	    "1100.batch|COMPLETED|00:10:00|2|1|01:00|00:50|00:10|00:20:00||||\n"
	    "1100.extern|COMPLETED|00:10:30|2|1|10:00|10:00|00:00|00:21:00||||\n"
	    "1100.0|COMPLETED|00:09:00|2|8|02:00|01:30|00:30|00:18:00|01:00:00|"
	    "00:12:00|n7|5\n"
	    "1100.1|COMPLETED|00:01:00|2|4|00:00|00:00|00:00|00:02:00|00:00:10|"
	    "00:00:01|n8|1\n");
	IS(0, "total_cpu_s", "180", "CPU is summed over work steps, not "
	    ".extern (batch 60 + step 0 120)");
	IS(0, "user_cpu_s", "140", "user CPU summed the same way");
	IS(0, "sys_cpu_s", "40", "system CPU summed the same way");
	IS(0, "cpu_time_s", "1200", "the denominator: the widest span");
	IS(0, "ntasks", "8", "NTasks: the largest step's when the allocation "
	    "has none");
	IS(0, "ave_cpu_s", "3600", "straggler inputs from the first work step "
	    "with more than one task (AveCPU 1 h)");
	IS(0, "min_cpu_s", "720", "MinCPU 12 min");
	IS(0, "min_cpu_node", "n7", "MinCPUNode");
	IS(0, "min_cpu_task", "5", "MinCPUTask");

	/* No step has a value: the allocation's own. */
	parse(f, '|', 0, "1101|COMPLETED|00:10:00|1||00:05:00|||||||\n");
	IS(0, "total_cpu_s", "300", "without steps, the allocation's TotalCPU");
	IS(0, "cpu_time_s", "600", "elapsed x CPUs when sacct gives no CPUTime");

	/* A running job: its steps read zero until they are sampled. */
	parse("JobID,State,End,TotalCPU", '|', 0,
	    "1102|RUNNING|Unknown|00:00:00\n"
	    "1102.batch|RUNNING|Unknown|00:00:00\n");
	IS(0, "total_cpu_s", "", "a running job's zero CPU is no reading");
}

static void
test_memory_fold(void)
{
	const char *f = "JobID,State,NNodes,ReqMem,MaxRSS,MaxRSSNode,AveRSS";

	parse(f, '|', 0,
	    "1200|COMPLETED|1|4Gn|||\n"
	    "1200.batch|COMPLETED|1||3G|n1|1G\n"
	    "1200.extern|COMPLETED|1||6G|n1|6G\n"
	    "1201|OUT_OF_MEMORY|1|4Gn|||\n"
	    "1201.batch|OUT_OF_MEMORY|1||5G|n2|5G\n"
	    "1201.extern|COMPLETED|1||6G|n2|6G\n"
	    "1202|COMPLETED|1|4Gn|||\n"
	    "1202.batch|COMPLETED|1||1G|n3|1G\n"
	    "1202.extern|COMPLETED|1||2G|n3|2G\n"
	    "1202.0|COMPLETED|1||3G|n3|512M\n");
	IS(0, "max_rss_b", "3221225472", "extern phantom over the limit: the "
	    "work steps' peak (3G)");
	IS(0, "max_rss_step", "batch", "named by its step");
	IS(0, "rss_imbalance", "3", "MaxRSS / AveRSS of the work step");
	IS(1, "max_rss_b", "6442450944", "a work step over the limit too: the "
	    "extern peak stands");
	IS(1, "max_rss_step", "extern", "and names .extern");
	IS(1, "max_rss_node", "n2", "MaxRSSNode of that step");
	IS(2, "max_rss_b", "3221225472", "below the limit: the maximum over "
	    "steps");
	IS(2, "max_rss_step", "0", "reached by step 0");
	IS(2, "ave_rss_b", "536870912", "AveRSS of the step that peaked");
	IS(2, "rss_imbalance", "6", "imbalance: the worst work step (3G/512M)");
}

static void
test_gpus(void)
{
	struct sp_slice e = S("");

	is_double(2, sp_sacct_gpus(S("cpu=4,gres/gpu=2,mem=8G"), e, e, e), 0,
	    "gres/gpu=2");
	is_double(3, sp_sacct_gpus(S("cpu=4,gres/gpu:a100=2,gres/gpu:v100=1"),
	    e, e, e), 0, "typed gres/gpu:a100=2 + gres/gpu:v100=1");
	is_double(4, sp_sacct_gpus(S("gres/gpu=4,gres/gpu:a100=4,"
	    "gres/gpumem=40G,gres/gpuutil=90"), e, e, e), 0,
	    "untyped wins over typed; gpumem and gpuutil are not GPUs");
	is_double(0, sp_sacct_gpus(S("cpu=4,gres/gpumem=40G,gres/gpuutil=9"),
	    e, e, e), 0, "gpumem/gpuutil alone: no GPU");
	is_double(2, sp_sacct_gpus(S("cpu=4"), e, S("gpu:tesla:2"), e), 0,
	    "AllocGRES gpu:tesla:2");
	is_double(5, sp_sacct_gpus(e, e, S("gpu:4(IDX:0-3),gpu"), e), 0,
	    "AllocGRES entries summed, bare gpu is 1");
	is_double(1, sp_sacct_gpus(e, S("cpu=1,gres/gpu=1"), e, e), 0,
	    "then ReqTRES");
	is_double(0, sp_sacct_gpus(S("cpu=1,mem=1G"), e, e, e), 0,
	    "no GPU mentioned: 0");
	ok(isnan(sp_sacct_gpus(e, e, e, e)), "no TRES or GRES at all: unknown");
}

static void
test_io_gpu_freq(void)
{
	const char *f = "JobID,State,TRESUsageInTot,TRESUsageOutTot,MaxDiskRead,"
	    "MaxDiskWrite,TRESUsageInAve,TRESUsageInMax,AveCPUFreq,TotalCPU";

	parse(f, '|', 0,
	    "1300|COMPLETED||||||||\n"
	    "1300.batch|COMPLETED|cpu=00:01:00,fs/disk=1000|fs/disk=10|5M|5M|"
	    "gres/gpuutil=40|gres/gpumem=2G,gres/gpuutil=50|2.5G|00:01:00\n"
	    "1300.0|COMPLETED|fs/disk=2000|fs/disk=20|||gres/gpuutil=85|"
	    "gres/gpumem=4G|3.10M|00:10:00\n"
	    "1300.extern|COMPLETED|fs/disk=99999|fs/disk=99999||||"
	    "gres/gpumem=8G||00:00:00\n"
	    "1301|COMPLETED||||||||\n"
	    "1301.batch|COMPLETED|||1M|2M|||800K|\n"
	    "1301.0|COMPLETED|||3M|4M|||188K|\n");
	IS(0, "read_b", "3000", "read: TRES fs/disk summed over work steps");
	IS(0, "write_b", "30", "write: TRESUsageOutTot fs/disk summed");
	IS(0, "gpu_util", "0.85", "GPU utilisation: InAve gpuutil / 100, the "
	    "busiest work step");
	IS(0, "gpu_mem_b", "8589934592", "GPU memory: InMax gpumem, the peak");
	IS(0, "ave_cpu_freq_hz", "3100000000", "3.10M read x1000: 3.1 GHz, of "
	    "the step that worked most");
	IS(1, "read_b", "4194304", "MaxDiskRead when TRES has no fs/disk");
	IS(1, "write_b", "6291456", "MaxDiskWrite summed");
	IS(1, "ave_cpu_freq_hz", "800000000", "800K is 800 MHz");
	is_double(3.1e9, sp_sacct_cpu_freq(S("3.10G")), 1, "3.10G is 3.1 GHz");
	ok(isnan(sp_sacct_cpu_freq(S("188K"))), "188K fits no reading: unknown");
}

static void
test_cpus_nodes(void)
{
	const char *f = "JobID,State,AllocCPUS,NCPUS,ReqCPUS,NNodes,AllocNodes,"
	    "AllocTRES";

	parse(f, '|', 0,
	    "1400|COMPLETED|8|4|2|2|1|cpu=16,node=3\n"
	    "1401|COMPLETED||4|2||1|cpu=16,node=3\n"
	    "1402|COMPLETED|||2|||cpu=16,node=3\n"
	    "1403|COMPLETED|4294967294||2|||\n");
	IS(0, "alloc_cpus", "8", "AllocCPUS first");
	IS(0, "nnodes", "2", "NNodes first");
	IS(1, "alloc_cpus", "4", "then NCPUS");
	IS(1, "nnodes", "1", "then AllocNodes");
	IS(2, "alloc_cpus", "16", "then AllocTRES cpu=");
	IS(2, "nnodes", "3", "then AllocTRES node=");
	IS(3, "alloc_cpus", "", "Slurm's NO_VAL is no count");
}

static void
test_csv_and_header(void)
{
	struct got g = { 0 };

	got_free(&G);
	ok(parse_into(&G, NULL, SP_SACCT_DETECT, 0,
	    "\xef\xbb\xbfJobID,JobName,ReqTRES,Start\n"
	    "1,job1,cpu=1,1970-01-01T03:00:00\n"
	    "2,\"a, \"\"quoted\"\"\nname\",cpu=2,Unknown\n", 0) == 0,
	    "a CSV export with a header reads");
	is_int(2, (long long)G.n, "CSV: two jobs");
	IS(1, "name", "a, \"quoted\"\nname", "CSV quoting and a newline");
	IS(0, "start", "1970-01-01T03:00:00", "CSV Start");

	got_free(&G);
	ok(parse_into(&G, NULL, SP_SACCT_DETECT, 0,
	    "JobID\x1fState\n7\x1f" "COMPLETED\n", 0) == 0,
	    "a 0x1F dump with a header reads");
	IS(0, "state", "COMPLETED", "0x1F detected from the header");

	ok(parse_into(&g, NULL, SP_SACCT_DETECT, 0,
	    "1|2|COMPLETED\n", 0) == -1, "a headerless dump without --fields "
	    "is refused");
	is_string("the first line is not a sacct header (it names no JobID); "
	    "give the fields with --fields", sp_buf_str(&ERR),
	    "and says how to read it");
	got_free(&g);

	/* State first (hpc-cost-simulator's order): JobID is found by name. */
	got_free(&G);
	parse_into(&G, "State,JobID,ReqMem", SP_SACCT_DETECT, 0,
	    "OUT_OF_MEMORY|67108865|100M\n"
	    "OUT_OF_MEMORY|67108865.batch|\n", 0);
	is_int(1, (long long)G.n, "the record-start rule reads the JobID column");
	IS(0, "mem_limit_total_b", "104857600", "ReqMem 100M, unsuffixed: the "
	    "total");
}

static void
test_format(void)
{
	struct sp_buf fmt = { 0 }, err = { 0 };
	const char *site =
	    "Account             AdminComment        AllocCPUS           AllocNodes\n"
	    "AllocTRES           CPUTime             CPUTimeRAW          Elapsed\n"
	    "Eligible            End                 ExitCode            JobID\n"
	    "JobName             MaxRSS              NCPUS               NNodes\n"
	    "NodeList            Partition           Planned             ReqCPUS\n"
	    "ReqMem              ReqTRES             Start               State\n"
	    "Submit              Timelimit           TotalCPU            User\n";

	ok(sp_sacct_format(site, strlen(site), &fmt, &err) == 0,
	    "a site with the mandatory fields");
	is_string("JobID,JobName,User,Account,Partition,State,ExitCode,Submit,"
	    "Eligible,Start,End,Elapsed,Timelimit,Planned,ReqMem,ReqCPUS,ReqTRES,"
	    "AllocTRES,AllocCPUS,AllocNodes,NCPUS,NNodes,NodeList,TotalCPU,"
	    "CPUTime,CPUTimeRAW,MaxRSS", sp_buf_str(&fmt),
	    "asks only for what the site has (no StdOut, Planned)");
	sp_buf_clear(&fmt);
	ok(sp_sacct_format("JobID Reserved State", 20, &fmt, &err) == -1,
	    "a site without MaxRSS fails");
	is_string("this sacct has no field 'JobName', which slurmpast needs "
	    "(sacct --helpformat)", sp_buf_str(&err), "loudly, naming it");
	sp_buf_clear(&fmt);
	sp_buf_clear(&err);
	ok(sp_sacct_format(NULL, 0, &fmt, &err) == 0 &&
	    strstr(sp_buf_str(&fmt), ",Planned,") &&
	    strstr(sp_buf_str(&fmt), ",SubmitLine"),
	    "no probe: every field under its primary spelling");
	is_int(SP_SF_PLANNED, sp_sacct_field_id("reserved", 8),
	    "Reserved reads as Planned");
	sp_buf_free(&fmt);
	sp_buf_free(&err);
}

static void
test_jobs_arg(void)
{
	struct sp_buf b = { 0 };

	sp_sacct_jobs_arg("49046820_[1-20%10],49046820_3,7,49046820", &b);
	is_string("49046820,49046820_3,7", sp_buf_str(&b),
	    "an unexpanded array is asked for as its master id, once");
	sp_buf_clear(&b);
	sp_sacct_jobs_arg("4103947_[1,5],12", &b);
	is_string("4103947,12", sp_buf_str(&b), "commas inside brackets");
	sp_buf_free(&b);
}

static void
test_abandon(void)
{
	struct sp_sacct p;
	struct sp_sacct_config cfg;
	const char *t = "1|COMPLETED\n2|COMPLETED\n3|COMPLETED\n4|COMPLE";

	got_free(&G);
	memset(&cfg, 0, sizeof cfg);
	cfg.delim = '|';
	cfg.fields = "JobID,State";
	cfg.emit = collect;
	cfg.ctx = &G;
	sp_sacct_init(&p, &cfg);
	sp_sacct_feed(&p, t, strlen(t));
	sp_sacct_abandon(&p);
	sp_sacct_free(&p);
	is_int(1, (long long)G.n, "a stream cut short writes only the jobs "
	    "that were complete");
}

/*
 * A TRES key found at every offset across the sixteen-byte windows its
 * commas are looked for in, past keys that begin or end like it, first,
 * last, alone and absent.
 */
static void
test_tres_offsets(void)
{
	struct sp_buf text = { 0 }, want = { 0 }, got = { 0 };
	size_t k, rows = 0;

	for (k = 0; k < 3 * 16; k++) {
		sp_buf_printf(&text, "%zu|COMPLETED|1|0n|", 3000 + k);
		for (size_t x = 0; x < k; x++)
			sp_buf_addc(&text, x % 7 == 6 ? ',' : 'a');
		sp_buf_printf(&text, ",memx=5,xmem=6,mem=%zuM%s\n", k + 1,
		    k % 2 ? ",node=1" : "");
		rows++;
	}
	sp_buf_adds(&text, "3100|COMPLETED|1|0n|mem=7M\n"
	    "3101|COMPLETED|1|0n|mem=8M,cpu=1\n"
	    "3102|COMPLETED|1|0n|cpu=1,mem\n"
	    "3103|COMPLETED|1|0n|cpu=1,memory=9M,me=1,mem=\n"
	    "3104|COMPLETED|1|0n|billing=1,cpu=1,gres/gpu=1,node=1,mem=10M\n");
	parse("JobID,State,NNodes,ReqMem,AllocTRES", '|', 0, sp_buf_str(&text));
	for (k = 0; k < rows; k++)
		sp_buf_printf(&want, "%zu ", (k + 1) << 20);
	sp_buf_adds(&want, "7340032 8388608   10485760");
	for (k = 0; k < rows + 5; k++)
		sp_buf_printf(&got, "%s%s", k ? " " : "",
		    cell(k, "mem_limit_total_b"));
	is_string(sp_buf_str(&want), sp_buf_str(&got),
	    "AllocTRES mem= at every offset, never memx= or xmem=");
	sp_buf_free(&text);
	sp_buf_free(&want);
	sp_buf_free(&got);
}

int
main(void)
{
	plan_lazy();
	test_sentinels();
	test_reassembly();
	test_delimiters();
	test_steps_and_ids();
	test_requeue_and_recycled();
	test_states();
	test_unknown_states();
	test_times();
	test_memory();
	test_tres_offsets();
	test_cpu_fold();
	test_memory_fold();
	test_gpus();
	test_io_gpu_freq();
	test_cpus_nodes();
	test_csv_and_header();
	test_format();
	test_jobs_arg();
	test_abandon();
	got_free(&G);
	sp_buf_free(&ERR);
	return done_testing();
}
