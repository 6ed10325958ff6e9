/*
 * test_site.c - the site facts from scontrol and sinfo, through the fake
 * commands in t/fake (put first on PATH here): asked at once, kept in a
 * file for the run, and the whole process group of a command that does
 * not answer ended.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "sp.h"
#include "sp_site.h"

static struct sp_buf dir;	/* a scratch directory */

static void
use_fakes(void)
{
	const char *top = getenv("SP_TOP");
	const char *tmp = getenv("TMPDIR");
	struct sp_buf fake = { 0 }, path = { 0 };

	sp_buf_printf(&fake, "%s/t/fake", top ? top : ".");
	if (access(sp_buf_str(&fake), X_OK) != 0)
		skip_all("no t/fake (run from the top of the tree, or set SP_TOP)");
	sp_buf_printf(&path, "%s:%s", sp_buf_str(&fake), getenv("PATH"));
	setenv("PATH", sp_buf_str(&path), 1);
	unsetenv("SLURMPAST_NO_SITE");
	unsetenv("SLURMPAST_TIMEOUT");
	unsetenv("SLURMPAST_SITE");
	sp_buf_printf(&dir, "%s/sp-site-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir.p) == NULL)
		skip_all("cannot make a temporary directory");
	sp_buf_free(&fake);
	sp_buf_free(&path);
}

/* A file in the scratch directory (the buffer is the caller's). */
static const char *
scratch(struct sp_buf *b, const char *name)
{
	sp_buf_clear(b);
	sp_buf_printf(b, "%s/%s", sp_buf_str(&dir), name);
	return sp_buf_str(b);
}

static char *
slurp(const char *path)
{
	struct sp_buf b = { 0 };
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return sp_xstrdup("");
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sp_buf_add(&b, buf, n);
	fclose(f);
	if (b.p == NULL)
		return sp_xstrdup("");
	return b.p;
}

/* 1 when the process is gone or a zombie, within about 5 s. */
static int
ends(pid_t pid)
{
	struct timespec tick = { 0, 50000000 };
	char path[64], *stat;
	int i, gone = 0;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	for (i = 0; i < 100 && !gone; i++) {
		stat = slurp(path);
		gone = *stat == '\0' || strstr(stat, ") Z ") != NULL ||
		    strstr(stat, ") X ") != NULL;
		free(stat);
		if (!gone)
			nanosleep(&tick, NULL);
	}
	return gone;
}

static void
test_config(void)
{
	struct sp_site s;
	struct sp_buf conf = { 0 };
	FILE *f;

	sp_site_load(&s);
	ok(s.known, "scontrol answered");
	is_int(SP_GATHER_LINUX, s.gather, "JobAcctGatherType linux");
	is_double(30, s.gather_freq_s, 0, "JobAcctGatherFrequency task=30");
	ok(s.gpuutil_tracked, "gres/gpuutil in AccountingStorageTRES");
	is_string("22.05.8", s.version ? s.version : "(none)", "SLURM_VERSION");
	is_string("", sp_buf_str(&s.missing), "nothing missing");
	sp_site_free(&s);

	f = fopen(scratch(&conf, "config"), "w");
	if (f == NULL)
		skip_all("cannot write a temporary file");
	fputs("JobAcctGatherType = jobacct_gather/cgroup\n"
	    "JobAcctGatherFrequency = 10\n"
	    "AccountingStorageTRES = cpu,mem,gres/gpu,gres/gpumem\n", f);
	fclose(f);
	setenv("FAKE_SCONTROL_CONFIG", conf.p, 1);
	sp_site_load(&s);
	is_int(SP_GATHER_CGROUP, s.gather, "JobAcctGatherType cgroup");
	is_double(10, s.gather_freq_s, 0, "a bare frequency");
	ok(!s.gpuutil_tracked, "gres/gpumem is not gres/gpuutil");
	ok(s.version == NULL, "no SLURM_VERSION: unknown");
	sp_site_free(&s);
	sp_buf_free(&conf);
	unsetenv("FAKE_SCONTROL_CONFIG");
}

static void
test_partitions(void)
{
	struct sp_site s;
	double cores, mem;

	sp_site_load(&s);
	ok(s.parts_known, "sinfo answered");
	ok(sp_site_partition_ceiling(&s, "test", 4, &cores, &mem),
	    "partition test is known");
	is_double(48, cores, 0, "the largest node's cores, '+' stripped");
	is_double(196608.0 * 1048576, mem, 0, "and memory, MB to bytes");
	ok(sp_site_partition_ceiling(&s, "gpu", 3, &cores, &mem) &&
	    cores == 64, "every partition from one sinfo call");
	ok(!sp_site_partition_ceiling(&s, "nosuch", 6, &cores, &mem) &&
	    isnan(cores), "a partition without nodes: unknown");
	ok(!sp_site_partition_ceiling(&s, "tes", 3, &cores, &mem),
	    "a name is matched whole");
	sp_site_free(&s);
}

static void
test_failures(void)
{
	struct sp_site s;
	double cores, mem;
	const char *path = getenv("PATH");
	char *saved = sp_xstrdup(path ? path : "");

	setenv("FAKE_SCONTROL_MODE", "fail", 1);
	sp_site_load(&s);
	ok(!s.known && s.gather == SP_GATHER_UNKNOWN && isnan(s.gather_freq_s),
	    "a failing scontrol leaves everything unknown");
	ok(s.parts_known, "while sinfo still answers");
	is_string("", sp_buf_str(&s.missing), "a stage asking for itself "
	    "is quiet: its caveats say what is unknown");
	sp_site_free(&s);
	sp_site_ask(&s, NULL, 5);
	is_string("how memory and CPU are gathered (scontrol: exit status 1: "
	    "scontrol: fatal: Could not establish a configuration source)",
	    sp_buf_str(&s.missing), "asked for a run, the fact not had is "
	    "named, with why");
	sp_site_free(&s);

	/* Long enough for the failing sinfo to answer on a loaded machine
	 * under valgrind (0.3 s was not); the sleeping scontrol never does. */
	setenv("FAKE_SCONTROL_MODE", "sleep", 1);
	setenv("FAKE_SINFO_MODE", "fail", 1);
	setenv("SLURMPAST_TIMEOUT", "4", 1);
	sp_site_ask(&s, NULL, sp_site_timeout());
	ok(!s.known && !s.parts_known, "a silent scontrol is given up on");
	is_string("how memory and CPU are gathered (scontrol: no answer "
	    "within 4s); the partitions' largest nodes (sinfo: exit status "
	    "1: sinfo: error: slurm_load_partitions: Unable to contact slurm "
	    "controller (connect failure))", sp_buf_str(&s.missing),
	    "both said in one line");
	sp_site_free(&s);
	unsetenv("SLURMPAST_TIMEOUT");
	unsetenv("FAKE_SCONTROL_MODE");
	unsetenv("FAKE_SINFO_MODE");

	setenv("SLURMPAST_NO_SITE", "1", 1);
	sp_site_load(&s);
	ok(!s.known && !s.parts_known, "SLURMPAST_NO_SITE=1 asks nothing");
	ok(!sp_site_partition_ceiling(&s, "test", 4, &cores, &mem),
	    "nor sinfo");
	sp_site_free(&s);
	unsetenv("SLURMPAST_NO_SITE");

	setenv("PATH", "/nonexistent", 1);
	sp_site_load(&s);
	ok(!s.known && !s.parts_known, "no scontrol, no sinfo: unknown");
	is_string("", sp_buf_str(&s.missing), "and no Slurm here is no news");
	sp_site_free(&s);
	setenv("PATH", saved, 1);
	free(saved);
}

/* Both commands run at once: each answers only once the other started. */
static void
test_concurrent(void)
{
	struct sp_site s;
	struct sp_buf log = { 0 };
	char *text;

	setenv("FAKE_SITE_LOG", scratch(&log, "meet.log"), 1);
	setenv("FAKE_SCONTROL_MODE", "meet", 1);
	setenv("FAKE_SINFO_MODE", "meet", 1);
	setenv("SLURMPAST_TIMEOUT", "8", 1);
	sp_site_load(&s);
	ok(s.known && s.parts_known, "scontrol and sinfo ran at the same time");
	text = slurp(sp_buf_str(&log));
	ok(strncmp(text, "start ", 6) == 0 && strstr(text, "end") >
	    strstr(strstr(text, "start ") + 1, "start "),
	    "both started before either ended");
	free(text);
	sp_site_free(&s);
	unsetenv("FAKE_SITE_LOG");
	unsetenv("FAKE_SCONTROL_MODE");
	unsetenv("FAKE_SINFO_MODE");
	unsetenv("SLURMPAST_TIMEOUT");
	sp_buf_free(&log);
}

/* A command given up on ends with what it started. */
static void
test_group(void)
{
	struct sp_site s;
	struct sp_buf pidf = { 0 };
	char *text;
	long pid;

	setenv("FAKE_CHILD_PID", scratch(&pidf, "child.pid"), 1);
	setenv("FAKE_SCONTROL_MODE", "child", 1);
	setenv("SLURMPAST_TIMEOUT", "1", 1);
	sp_site_load(&s);
	ok(!s.known, "scontrol with a child is given up on");
	text = slurp(sp_buf_str(&pidf));
	pid = atol(text);
	ok(pid > 0, "its child started");
	ok(pid > 0 && ends((pid_t)pid), "and ended with it");
	if (pid > 0)
		kill((pid_t)pid, SIGKILL);
	free(text);
	sp_site_free(&s);
	unsetenv("FAKE_CHILD_PID");
	unsetenv("FAKE_SCONTROL_MODE");
	unsetenv("SLURMPAST_TIMEOUT");
	sp_buf_free(&pidf);
}

/* SLURMPAST_SITE: asked once, read by the stages after. */
static void
test_file(void)
{
	struct sp_site s, t;
	struct sp_buf file = { 0 }, log = { 0 }, err = { 0 };
	double cores, mem;
	char *text;
	FILE *f;

	setenv("SLURMPAST_SITE", scratch(&file, "site"), 1);
	setenv("FAKE_SITE_LOG", scratch(&log, "asked.log"), 1);
	sp_site_load(&s);
	ok(s.known && s.parts_known, "the first stage asks");
	sp_site_load(&t);
	ok(t.known && t.gather == SP_GATHER_LINUX && t.gather_freq_s == 30 &&
	    t.gpuutil_tracked && t.version && strcmp(t.version, "22.05.8") == 0,
	    "the next reads every config fact from the file");
	ok(sp_site_partition_ceiling(&t, "test", 4, &cores, &mem) &&
	    cores == 48 && mem == 196608.0 * 1048576, "and the partitions");
	text = slurp(sp_buf_str(&log));
	ok(strstr(text, "start scontrol show config\n") != NULL &&
	    strstr(text, "start sinfo -h -a -N -o %R %c %m\n") != NULL &&
	    strlen(text) == strlen("start scontrol show config\n"
	    "start sinfo -h -a -N -o %R %c %m\n"
	    "end scontrol\nend sinfo\n"), "Slurm was asked once");
	free(text);
	sp_site_free(&s);
	sp_site_free(&t);

	/* What was not had is kept as not had: not asked again. */
	unlink(sp_buf_str(&file));
	unlink(sp_buf_str(&log));
	setenv("FAKE_SCONTROL_MODE", "fail", 1);
	sp_site_load(&s);
	unsetenv("FAKE_SCONTROL_MODE");
	sp_site_load(&t);
	ok(!t.known && t.parts_known, "a fact not had stays unknown");
	is_string("", sp_buf_str(&t.missing), "and the reader says nothing");
	sp_site_free(&s);
	sp_site_free(&t);

	/* A damaged or foreign file is never trusted. */
	f = fopen(sp_buf_str(&file), "w");
	fputs("JobAcctGatherType = jobacct_gather/cgroup\n", f);
	fclose(f);
	ok(sp_site_read(&t, sp_buf_str(&file), &err) == -1 && !t.known,
	    "a file without the first line is not read");
	ok(err.len > strlen(sp_buf_str(&file)) &&
	    strcmp(sp_buf_str(&err) + strlen(sp_buf_str(&file)),
	    ":1: not a slurmpast site file") == 0, "and says where");
	sp_site_free(&t);
	sp_site_load(&s);
	ok(s.known && s.gather == SP_GATHER_LINUX,
	    "a stage asks Slurm instead");
	ok(strstr(sp_buf_str(&s.missing), "not a slurmpast site file; asked "
	    "Slurm instead") != NULL, "and says so");
	sp_site_free(&s);
	sp_site_load(&t);
	ok(t.known && t.missing.len == 0, "and the file is whole again");
	sp_site_free(&t);

	/* -M: the cluster asked goes to both commands, and into the file. */
	unlink(sp_buf_str(&log));
	sp_site_ask(&s, "other", 5);
	ok(s.known && s.parts_known, "-M other: both answer");
	ok(sp_site_write(&s, sp_buf_str(&file), &err) == 0, "written");
	sp_site_free(&s);
	sp_site_read(&t, sp_buf_str(&file), &err);
	is_string("other", t.cluster ? t.cluster : "(none)",
	    "the file keeps the cluster");
	sp_site_free(&t);
	text = slurp(sp_buf_str(&log));
	ok(strstr(text, "start scontrol -M other show config\n") != NULL &&
	    strstr(text, "start sinfo -h -a -N -o %R %c %m -M other\n") != NULL,
	    "both commands were given -M other");
	free(text);

	unsetenv("SLURMPAST_SITE");
	unsetenv("FAKE_SITE_LOG");
	unlink(sp_buf_str(&file));
	unlink(sp_buf_str(&log));
	sp_buf_free(&file);
	sp_buf_free(&log);
	sp_buf_free(&err);
}

int
main(void)
{
	use_fakes();
	plan_lazy();
	test_config();
	test_partitions();
	test_failures();
	test_concurrent();
	test_group();
	test_file();
	rmdir(sp_buf_str(&dir));
	sp_buf_free(&dir);
	return done_testing();
}
