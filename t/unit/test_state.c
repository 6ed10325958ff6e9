/*
 * The states the rules tell apart (sp_state.h): one table for every
 * stage, which ones are failures, and which explain an idle allocation.
 */
#include <string.h>

#include "sp.h"
#include "tap.h"

static enum sp_state
of(const char *s)
{
	return sp_state_of((struct sp_slice){ s, strlen(s) });
}

int
main(void)
{
	static const char *const failed[] = { "FAILED", "TIMEOUT",
		"OUT_OF_MEMORY", "NODE_FAIL", "BOOT_FAIL", "DEADLINE" };
	static const char *const idle[] = { "OUT_OF_MEMORY", "NODE_FAIL",
		"PREEMPTED", "BOOT_FAIL", "DEADLINE" };
	struct sp_buf b = { 0 };
	int nfailed = 0, nidle = 0;

	plan_lazy();
	for (int s = 0; s < SP_ST_OTHER; s++)
		is_int(s, of(sp_state_name((enum sp_state)s)),
		       "%s reads back", sp_state_name((enum sp_state)s));
	is_int(SP_ST_OTHER, of("RUNNING"), "RUNNING is none of them");
	is_int(SP_ST_OTHER, of("completed"), "case counts");
	is_int(SP_ST_OTHER, of("COMPLETED "), "so does a space");
	is_int(SP_ST_OTHER, of(""), "empty is OTHER");
	is_string("OTHER", sp_state_name(SP_ST_OTHER), "OTHER's name");
	is_string("OTHER", sp_state_name((enum sp_state)99), "out of range");
	for (size_t i = 0; i < sizeof failed / sizeof *failed; i++)
		ok(sp_state_failed(of(failed[i])), "%s is a failure",
		   failed[i]);
	for (int s = 0; s < SP_ST_N; s++)
		nfailed += sp_state_failed((enum sp_state)s);
	is_int(6, nfailed, "and nothing else is");
	for (size_t i = 0; i < sizeof idle / sizeof *idle; i++)
		ok(sp_state_explains_idle(of(idle[i])),
		   "%s explains an idle allocation", idle[i]);
	for (int s = 0; s < SP_ST_N; s++)
		nidle += sp_state_explains_idle((enum sp_state)s);
	is_int(5, nidle, "and nothing else does (TIMEOUT, CANCELLED do not)");
	sp_state_failed_list(&b);
	is_string("FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL,BOOT_FAIL,DEADLINE",
		  sp_buf_str(&b), "the failures as sacct --state takes them");
	sp_buf_free(&b);
	return done_testing();
}
