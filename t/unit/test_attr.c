/*
 * test_attr.c - sp-attr's scanner: what follows sbatch's answer, what a
 * command does, a line's time, the claim rule, and whole files read at
 * every buffer size, so that a line cut across blocks (or longer than
 * the buffer) gives the same claims as one read whole.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sp.h"
#include "tap.h"
#include "../../src/sp-attr/attr.h"

static void
test_after_needle(void)
{
	uint32_t job = 0;
	const char *cl;
	size_t cn;

	ok(attr_after_needle("84000001", 8, &job, &cl, &cn) && job == 84000001 &&
	   cn == 0, "an id at the end");
	ok(attr_after_needle("84000001\\n\"", 11, &job, &cl, &cn) &&
	   job == 84000001, "an id before a JSON escape");
	ok(attr_after_needle("17 on cluster tessera\n", 22, &job, &cl, &cn) &&
	   job == 17 && cn == 7 && memcmp(cl, "tessera", 7) == 0,
	   "-M's cluster");
	ok(attr_after_needle("17 on cluster ", 14, &job, &cl, &cn) && cn == 0,
	   "a cluster cut off is none");
	ok(!attr_after_needle("12345678901", 11, &job, &cl, &cn),
	   "eleven digits are no job id");
	ok(!attr_after_needle("4294967296", 10, &job, &cl, &cn),
	   "past 32 bits is no job id");
	ok(!attr_after_needle("123abc", 6, &job, &cl, &cn), "123abc is no id");
	ok(!attr_after_needle(" 12", 3, &job, &cl, &cn), "no digits");
	ok(!attr_after_needle("0", 1, &job, &cl, &cn), "0 is no job");
}

static void
test_bare(void)
{
	uint32_t job = 0;
	const char *cl;
	size_t cn;

	ok(attr_bare_id("84000002", 8, &job, &cl, &cn) && job == 84000002,
	   "a bare id");
	ok(attr_bare_id("  84000002 \r", 12, &job, &cl, &cn) && job == 84000002,
	   "blanks around");
	ok(attr_bare_id("5;tessera", 9, &job, &cl, &cn) && job == 5 && cn == 7,
	   "id;cluster");
	ok(!attr_bare_id("5;", 2, &job, &cl, &cn), "id; with no cluster");
	ok(!attr_bare_id("5 jobs", 6, &job, &cl, &cn), "words after");
	ok(!attr_bare_id("", 0, &job, &cl, &cn), "empty");
}

static void
test_commands(void)
{
	static const struct {
		const char *cmd;
		int kind;
	} t[] = {
		{ "sbatch train.sh", ATTR_CMD_SBATCH },
		{ "cd run && /usr/bin/sbatch --array=0-9 a.sh", ATTR_CMD_SBATCH },
		{ "jid=$(sbatch --parsable a.sh) && echo $jid",
		  ATTR_CMD_SBATCH | ATTR_CMD_PARSABLE },
		{ "ssh login 'sbatch x.sh'", ATTR_CMD_SBATCH },
		{ "cat slurm_driver.log", ATTR_CMD_READER },
		{ "tail -n 50 out.log 2>&1 | grep Submitted", ATTR_CMD_READER },
		{ "for f in *.log; do cat \"$f\"; done", ATTR_CMD_READER },
		{ "LC_ALL=C grep -h 'a;b' logs/*", ATTR_CMD_READER },
		{ "echo Submitted batch job 5", ATTR_CMD_READER },
		{ "squeue -j 84000002", ATTR_CMD_READER },
		{ "./submit_all.sh", 0 },
		{ "python3 driver.py --n 10", 0 },
		{ "cat list | xargs -n1 ./go.sh", 0 },
		{ "sbatch_wrapper.py", 0 },
		{ "", 0 },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		is_int(t[i].kind, attr_command_kind(t[i].cmd, strlen(t[i].cmd)),
		       "command kind of '%s'", t[i].cmd);
	ok(attr_has_word("x; sbatch", 9, "sbatch"), "a word at the end");
	ok(!attr_has_word("mysbatch", 8, "sbatch"), "inside a word");
}

static void
test_stamps(void)
{
	struct sp_buf b = { 0 };
	int64_t t = 0;
	static const struct {
		const char *in, *want;
	} c[] = {
		{ "2026-01-05T10:00:02.123Z", "2026-01-05T11:00:02" },
		{ "2026-01-05 10:00:02,5 INFO x", "2026-01-05T10:00:02" },
		{ "[2026-01-05T10:00:02] x", "2026-01-05T10:00:02" },
		{ "2026-01-05T10:00:02+02:00", "2026-01-05T09:00:02" },
		{ "2026-01-05T10:00:02-0130", "2026-01-05T12:30:02" },
	};

	/* Civil time here is Paris's: an hour east of UTC in January. */
	setenv("TZ", "CET-1", 1);
	tzset();
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		sp_buf_clear(&b);
		if (attr_stamp(c[i].in, strlen(c[i].in), &t))
			sp_fmt_time(&b, t);
		is_string(c[i].want, sp_buf_str(&b), "time of '%s'", c[i].in);
	}
	ok(!attr_stamp("2026-13-05T10:00:02", 19, &t), "no month 13");
	ok(!attr_stamp("INFO 2026-01-05", 15, &t), "not at the start");
	ok(!attr_stamp("2026-01-05", 10, &t), "a date alone");
	setenv("TZ", "UTC", 1);
	tzset();
	sp_buf_free(&b);
}

static void
test_rule(void)
{
	struct attr_claims c;
	struct attr_found f;
	size_t a, b, d;

	attr_claims_init(&c);
	a = sp_intern(&c.sources, "claude-code:a", 13);
	b = sp_intern(&c.sources, "claude-code:b", 13);
	d = sp_intern(&c.sources, "driver.log", 10);
	/* Job 1: b later than a; the driver without a time. */
	attr_claim_add(&c, 1, NULL, 0, d, -1, 0, 0);
	attr_claim_add(&c, 1, NULL, 0, b, -1, 2000, 1);
	attr_claim_add(&c, 1, NULL, 0, a, -1, 1000, 1);
	attr_claim_add(&c, 1, NULL, 0, a, -1, 1500, 1);	/* a again, later */
	attr_claims_find(&c, 1, NULL, 0, 0, 0, &f);
	ok(f.claim && f.claim->source == a && f.claim->at == 1000,
	   "the earliest timed claim wins, at its earliest time");
	ok(f.rival != NULL, "... and its rival is named");
	/* Job 2: claims on two clusters. */
	attr_claim_add(&c, 2, "c1", 2, a, -1, 1000, 1);
	attr_claim_add(&c, 2, "c2", 2, b, -1, 900, 1);
	attr_claims_find(&c, 2, "c1", 2, 0, 0, &f);
	ok(f.claim && f.claim->source == a && f.rival == NULL,
	   "another cluster's claim never applies");
	attr_claims_find(&c, 2, "c3", 2, 0, 0, &f);
	ok(f.claim == NULL && f.far == 0, "no claim names cluster c3");
	attr_claims_find(&c, 2, NULL, 0, 0, 0, &f);
	ok(f.claim && f.claim->source == b, "an unknown cluster takes any");
	/* Job 3: a claim days away from the submit time. */
	attr_claim_add(&c, 3, NULL, 0, a, -1, 1000, 1);
	attr_claims_find(&c, 3, NULL, 0, 1000 + SP_ATTR_WINDOW_S + 1, 1, &f);
	ok(f.claim == NULL && f.far, "a claim too far from submit is none");
	attr_claims_find(&c, 3, NULL, 0, 1000 + SP_ATTR_WINDOW_S, 1, &f);
	ok(f.claim != NULL, "... at the window's edge it applies");
	/* Job 4: only an untimed claim. */
	attr_claim_add(&c, 4, NULL, 0, d, -1, 0, 0);
	attr_claims_find(&c, 4, NULL, 0, 99999999, 1, &f);
	ok(f.claim && f.claim->source == d, "an untimed claim is never far");
	attr_claims_find(&c, 5, NULL, 0, 0, 0, &f);
	ok(f.claim == NULL && !f.far, "no claim at all");
	attr_claims_free(&c);
}

/* ------------------------------------------------------- whole files */

#define SID "3f1c2a7e-5b6d-4e8f-9a0b-1c2d3e4f5a6b"
#define ENV "\"isSidechain\":false,\"userType\":\"external\"," \
	"\"cwd\":\"/home/alice/proj\",\"sessionId\":\"" SID "\"," \
	"\"version\":\"2.0.49\",\"gitBranch\":\"main\","

#define CALL(id, cmd, t) "{\"parentUuid\":null," ENV "\"message\":{" \
	"\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\"," \
	"\"content\":[{\"type\":\"tool_use\",\"id\":\"" id "\",\"name\":" \
	"\"Bash\",\"input\":{\"command\":\"" cmd "\",\"description\":\"x\"}}]}," \
	"\"type\":\"assistant\",\"uuid\":\"u1\",\"timestamp\":\"" t "\"}\n"
#define RESULT(id, out, t) "{\"parentUuid\":\"u1\"," ENV "\"type\":\"user\"," \
	"\"message\":{\"role\":\"user\",\"content\":[{\"tool_use_id\":\"" id \
	"\",\"type\":\"tool_result\",\"content\":\"" out "\",\"is_error\":" \
	"false}]},\"uuid\":\"u2\",\"timestamp\":\"" t "\",\"toolUseResult\":" \
	"{\"stdout\":\"" out "\",\"stderr\":\"\",\"interrupted\":false," \
	"\"isImage\":false}}\n"

static const char transcript[] =
	"{\"type\":\"summary\",\"summary\":\"Submitted batch job 90\","
	"\"leafUuid\":\"u0\"}\n"
	"{\"parentUuid\":null," ENV "\"type\":\"user\",\"message\":{\"role\":"
	"\"user\",\"content\":\"check job 84000002: Submitted batch job 91\"},"
	"\"uuid\":\"u0\",\"timestamp\":\"2026-01-05T09:59:00.000Z\"}\n"
	CALL("toolu_01", "sbatch train.sh", "2026-01-05T10:00:00.000Z")
	RESULT("toolu_01", "Submitted batch job 84000001\\n",
	       "2026-01-05T10:00:02.500Z")
	CALL("toolu_02", "cat driver.log", "2026-01-05T10:01:00.000Z")
	RESULT("toolu_02", "Submitted batch job 92\\n", "2026-01-05T10:01:01Z")
	CALL("toolu_03", "sbatch --parsable --array=0-3 a.sh",
	     "2026-01-05T10:02:00Z")
	RESULT("toolu_03", "84000003\\n", "2026-01-05T10:02:01Z")
	CALL("toolu_04", "python3 go.py \\\"x\\\"", "2026-01-05T10:03:00Z")
	RESULT("toolu_04", "a\\tb \\\"q\\\"\\u001b[0m\\r\\nSubmitted batch job "
	       "84000004 on cluster tessera\\r\\n", "2026-01-05T10:03:05Z")
	"{\"parentUuid\":null," ENV "\"type\":\"user\",\"message\":{\"role\":"
	"\"user\",\"content\":\"<bash-input>sbatch --parsable b.sh"
	"</bash-input>\"},\"uuid\":\"u5\",\"timestamp\":\"2026-01-05T10:04:00Z\"}\n"
	"{\"parentUuid\":\"u5\"," ENV "\"type\":\"user\",\"message\":{\"role\":"
	"\"user\",\"content\":\"<bash-stdout>84000005</bash-stdout><bash-stderr>"
	"</bash-stderr>\"},\"uuid\":\"u6\",\"timestamp\":\"2026-01-05T10:04:01Z\"}\n"
	CALL("toolu_06", "sbatch z.sh", "2026-01-05T10:05:00Z")
	"{\"parentUuid\":\"u1\"," ENV "\"type\":\"user\",\"message\":{\"role\":"
	"\"user\",\"content\":[{\"tool_use_id\":\"toolu_06\",\"type\":"
	"\"tool_result\",\"content\":\"Submitted batch job 84000006\\nmore";

/* text in a temporary file, to be read again and again. */
static FILE *
text_file(const char *text, size_t n)
{
	FILE *fp = tmpfile();

	if (fp == NULL || fwrite(text, 1, n, fp) != n || fflush(fp) != 0) {
		diag("tmpfile failed");
		exit(1);
	}
	return fp;
}

/* The file read as path, with a buffer of bufcap bytes: its claims. */
static void
scan_file(FILE *fp, const char *path, size_t bufcap, struct sp_buf *out,
	  struct attr_stats *st)
{
	struct attr_claims c;

	if (lseek(fileno(fp), 0, SEEK_SET) != 0) {
		diag("lseek failed");
		exit(1);
	}
	attr_claims_init(&c);
	sp_buf_free(&st->cut_first);
	memset(st, 0, sizeof *st);
	if (attr_scan_fd(&c, fileno(fp), path, bufcap, st) < 0)
		diag("scan failed");
	sp_buf_clear(out);
	attr_claims_dump(&c, out);
	attr_claims_free(&c);
}

static void
scan_text(const char *text, size_t n, const char *path, size_t bufcap,
	  struct sp_buf *out, struct attr_stats *st)
{
	FILE *fp = text_file(text, n);

	scan_file(fp, path, bufcap, out, st);
	fclose(fp);
}

static void
test_transcript(void)
{
	struct sp_buf want = { 0 }, got = { 0 };
	struct attr_stats st = { 0 };
	const char *path = "p/" SID ".jsonl";
	int differ = 0;

	FILE *fp = text_file(transcript, sizeof transcript - 1);

	scan_file(fp, path, 0, &want, &st);
	is_string("84000001 - claude-code:" SID " 2026-01-05T10:00:02 "
		  "/home/alice/proj\n"
		  "84000003 - claude-code:" SID " 2026-01-05T10:02:01 "
		  "/home/alice/proj\n"
		  "84000004 tessera claude-code:" SID " 2026-01-05T10:03:05 "
		  "/home/alice/proj\n"
		  "84000005 - claude-code:" SID " 2026-01-05T10:04:01 "
		  "/home/alice/proj\n"
		  "84000006 - claude-code:" SID " - /home/alice/proj\n",
		  sp_buf_str(&want),
		  "a transcript: submissions only, mentions and a cat left out");
	is_int(1, (long long)st.cut, "its cut last line is counted");
	/* A buffer smaller than the file finds the same. */
	for (size_t cap = ATTR_BUF_MIN; cap < sizeof transcript + 64; cap += 701) {
		scan_file(fp, path, cap, &got, &st);
		if (strcmp(sp_buf_str(&want), sp_buf_str(&got)) != 0) {
			if (differ++ == 0)
				diag("buffer %zu:\n%s", cap, sp_buf_str(&got));
		}
	}
	is_int(0, differ, "the same claims with a smaller buffer");
	fclose(fp);
	sp_buf_free(&st.cut_first);
	sp_buf_free(&want);
	sp_buf_free(&got);
}

/*
 * A line longer than the buffer streams through in pieces: at every
 * buffer size, each needle lands on every side of a cut, and an escape
 * too; the claims are the same as read whole.
 */
static void
test_long_line(void)
{
	struct sp_buf line = { 0 }, want = { 0 }, got = { 0 };
	struct attr_stats st = { 0 };
	const char *path = "p/" SID ".jsonl";
	int differ = 0;
	FILE *fp;

	sp_buf_adds(&line, CALL("toolu_L", "./many.sh", "2026-01-05T10:04:30Z"));
	sp_buf_adds(&line, "{\"sessionId\":\"" SID "\",\"cwd\":\"/p\","
		    "\"type\":\"user\",\"message\":{\"content\":[{"
		    "\"tool_use_id\":\"toolu_L\",\"content\":\"");
	for (int k = 1; k <= 12; k++) {
		for (int i = 0; i < 17 + k * 3; i++)
			sp_buf_adds(&line, "ab \\\"q\\\" \\t\\u001b\\n");
		sp_buf_printf(&line, "Submitted batch job %d\\n", 84000100 + k);
	}
	sp_buf_adds(&line, "\"}]},\"timestamp\":\"2026-01-05T10:04:40Z\"}\n");
	fp = text_file(line.p, line.len);
	scan_file(fp, path, 0, &want, &st);
	{
		long long lines = 0;

		for (const char *p = sp_buf_str(&want); *p; p++)
			lines += *p == '\n';
		is_int(12, lines, "a long line read whole: its twelve answers");
	}
	ok(strstr(sp_buf_str(&want), "84000112 - claude-code:" SID
		  " 2026-01-05T10:04:40 /p\n") != NULL, "... its last answer");
	for (size_t cap = ATTR_BUF_MIN; cap < line.len + 64; cap++) {
		scan_file(fp, path, cap, &got, &st);
		if (strcmp(sp_buf_str(&want), sp_buf_str(&got)) != 0 &&
		    differ++ == 0)
			diag("buffer %zu:\n%s", cap, sp_buf_str(&got));
	}
	is_int(0, differ, "the same claims at every buffer size");
	fclose(fp);
	sp_buf_free(&st.cut_first);
	sp_buf_free(&line);
	sp_buf_free(&want);
	sp_buf_free(&got);
}

static void
test_text(void)
{
	static const char log[] =
		"2026-01-05 11:00:00 INFO Submitted batch job 84000008\n"
		"check job 84000002 later\n"
		"[2026-01-05T11:05:00] + sbatch --parsable j.sh\n"
		"84000010;tessera\n"
		"84000011\n"
		"Submitted batch job 84000012";
	static const char hist[] = "sbatch a.sh\necho Submitted batch job 7\n";
	struct sp_buf got = { 0 };
	struct attr_stats st = { 0 };

	scan_text(log, sizeof log - 1, "logs/driver.log", 0, &got, &st);
	is_string("84000008 - logs/driver.log 2026-01-05T11:00:00 -\n"
		  "84000010 tessera logs/driver.log 2026-01-05T11:05:00 -\n"
		  "84000012 - logs/driver.log - -\n", sp_buf_str(&got),
		  "a driver log: its answers, with the times its lines give");
	scan_text(hist, sizeof hist - 1, "home/.bash_history", 0, &got, &st);
	is_string("", sp_buf_str(&got), "a shell history answers nothing");
	is_int(1, (long long)st.skipped, "... it is not read");
	scan_text("a\0b", 3, "bin", 0, &got, &st);
	is_int(1, (long long)st.skipped, "a binary file is not read");
	scan_text("Submitted batch job 4\n", 22,
		  "x/" SID "/tool-results/toolu_1.txt", 0, &got, &st);
	is_string("4 - claude-code:" SID " - -\n", sp_buf_str(&got),
		  "a session's output kept apart is the session's");
	sp_buf_free(&st.cut_first);
	sp_buf_free(&got);
}

int
main(void)
{
	plan_lazy();
	setenv("TZ", "UTC", 1);
	tzset();
	test_after_needle();
	test_bare();
	test_commands();
	test_stamps();
	test_rule();
	test_transcript();
	test_long_line();
	test_text();
	return done_testing();
}
