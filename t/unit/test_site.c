/*
 * test_site.c - the site facts from scontrol and sinfo, through the fake
 * commands in t/fake (put first on PATH here).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "sp.h"
#include "sp_site.h"

static void
use_fakes(void)
{
	const char *top = getenv("SP_TOP");
	struct sp_buf dir = { 0 }, path = { 0 };

	sp_buf_printf(&dir, "%s/t/fake", top ? top : ".");
	if (access(sp_buf_str(&dir), X_OK) != 0)
		skip_all("no t/fake (run from the top of the tree, or set SP_TOP)");
	sp_buf_printf(&path, "%s:%s", sp_buf_str(&dir), getenv("PATH"));
	setenv("PATH", sp_buf_str(&path), 1);
	unsetenv("SLURMPAST_NO_SITE");
	unsetenv("SLURMPAST_TIMEOUT");
	sp_buf_free(&dir);
	sp_buf_free(&path);
}

int
main(void)
{
	struct sp_site s;
	double cores, mem;
	const char *tmp = getenv("TMPDIR");
	struct sp_buf conf = { 0 };
	FILE *f;
	int fd;

	use_fakes();
	plan_lazy();

	sp_site_load(&s);
	ok(s.known, "scontrol answered");
	is_int(SP_GATHER_LINUX, s.gather, "JobAcctGatherType linux");
	is_double(30, s.gather_freq_s, 0, "JobAcctGatherFrequency task=30");
	ok(s.gpuutil_tracked, "gres/gpuutil in AccountingStorageTRES");
	is_string("22.05.8", s.version ? s.version : "(none)", "SLURM_VERSION");
	sp_site_free(&s);

	sp_buf_printf(&conf, "%s/sp-site-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(conf.p);
	f = fd < 0 ? NULL : fdopen(fd, "w");
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
	unlink(conf.p);
	sp_buf_free(&conf);
	unsetenv("FAKE_SCONTROL_CONFIG");

	setenv("FAKE_SCONTROL_MODE", "fail", 1);
	sp_site_load(&s);
	ok(!s.known && s.gather == SP_GATHER_UNKNOWN && isnan(s.gather_freq_s),
	    "a failing scontrol leaves everything unknown");
	sp_site_free(&s);
	setenv("FAKE_SCONTROL_MODE", "sleep", 1);
	setenv("SLURMPAST_TIMEOUT", "0.2", 1);
	sp_site_load(&s);
	ok(!s.known, "a silent scontrol is given up on");
	sp_site_free(&s);
	unsetenv("SLURMPAST_TIMEOUT");
	unsetenv("FAKE_SCONTROL_MODE");

	setenv("SLURMPAST_NO_SITE", "1", 1);
	sp_site_load(&s);
	ok(!s.known, "SLURMPAST_NO_SITE=1 asks nothing");
	ok(!sp_site_partition_ceiling("test", &cores, &mem),
	    "nor sinfo");
	unsetenv("SLURMPAST_NO_SITE");

	ok(sp_site_partition_ceiling("test", &cores, &mem),
	    "sinfo answers for partition test");
	is_double(48, cores, 0, "the largest node's cores, '+' stripped");
	is_double(196608.0 * 1048576, mem, 0, "and memory, MB to bytes");
	ok(!sp_site_partition_ceiling("nosuch", &cores, &mem) && isnan(cores),
	    "a partition without nodes: unknown");
	setenv("PATH", "/nonexistent", 1);
	ok(!sp_site_partition_ceiling("test", &cores, &mem),
	    "no sinfo: unknown");
	sp_site_load(&s);
	ok(!s.known, "no scontrol: unknown");
	sp_site_free(&s);
	return done_testing();
}
