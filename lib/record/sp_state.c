/*
 * sp_state.c - the states the rules tell apart.
 */
#include <string.h>

#include "sp_state.h"

static const struct {
	const char *name;
	size_t n;
	unsigned char failed, explains_idle;
} states[SP_ST_N] = {
#define S(name, failed, idle) { name, sizeof name - 1, failed, idle }
	[SP_ST_COMPLETED] = S("COMPLETED", 0, 0),
	[SP_ST_FAILED] = S("FAILED", 1, 0),
	[SP_ST_TIMEOUT] = S("TIMEOUT", 1, 0),
	[SP_ST_OUT_OF_MEMORY] = S("OUT_OF_MEMORY", 1, 1),
	[SP_ST_NODE_FAIL] = S("NODE_FAIL", 1, 1),
	[SP_ST_BOOT_FAIL] = S("BOOT_FAIL", 1, 1),
	[SP_ST_DEADLINE] = S("DEADLINE", 1, 1),
	[SP_ST_CANCELLED] = S("CANCELLED", 0, 0),
	[SP_ST_PREEMPTED] = S("PREEMPTED", 0, 1),
	[SP_ST_REQUEUED] = S("REQUEUED", 0, 0),
	[SP_ST_OTHER] = S("OTHER", 0, 0),
#undef S
};

static int
is(struct sp_slice s, enum sp_state st)
{
	return memcmp(s.p, states[st].name, s.n) == 0 ? 1 : 0;
}

/* By length, then by a letter: every record's state is read here, some
 * of them more than once. */
enum sp_state
sp_state_of(struct sp_slice s)
{
	switch (s.n) {
	case 6:
		return is(s, SP_ST_FAILED) ? SP_ST_FAILED : SP_ST_OTHER;
	case 7:
		return is(s, SP_ST_TIMEOUT) ? SP_ST_TIMEOUT : SP_ST_OTHER;
	case 8:
		return is(s, SP_ST_DEADLINE) ? SP_ST_DEADLINE :
		    is(s, SP_ST_REQUEUED) ? SP_ST_REQUEUED : SP_ST_OTHER;
	case 9:
		switch (s.p[0]) {
		case 'C':
			return is(s, SP_ST_COMPLETED) ? SP_ST_COMPLETED :
			    is(s, SP_ST_CANCELLED) ? SP_ST_CANCELLED :
			    SP_ST_OTHER;
		case 'N':
			return is(s, SP_ST_NODE_FAIL) ? SP_ST_NODE_FAIL :
			    SP_ST_OTHER;
		case 'B':
			return is(s, SP_ST_BOOT_FAIL) ? SP_ST_BOOT_FAIL :
			    SP_ST_OTHER;
		case 'P':
			return is(s, SP_ST_PREEMPTED) ? SP_ST_PREEMPTED :
			    SP_ST_OTHER;
		default:
			return SP_ST_OTHER;
		}
	case 13:
		return is(s, SP_ST_OUT_OF_MEMORY) ? SP_ST_OUT_OF_MEMORY :
		    SP_ST_OTHER;
	default:
		return SP_ST_OTHER;
	}
}

const char *
sp_state_name(enum sp_state s)
{
	return (unsigned)s < SP_ST_N ? states[s].name : "OTHER";
}

int
sp_state_failed(enum sp_state s)
{
	return (unsigned)s < SP_ST_N && states[s].failed;
}

int
sp_state_explains_idle(enum sp_state s)
{
	return (unsigned)s < SP_ST_N && states[s].explains_idle;
}

void
sp_state_failed_list(struct sp_buf *b)
{
	int first = 1;

	for (int s = 0; s < SP_ST_N; s++) {
		if (!states[s].failed)
			continue;
		if (!first)
			sp_buf_addc(b, ',');
		sp_buf_add(b, states[s].name, states[s].n);
		first = 0;
	}
}

const char *
sp_signal_name(int n)
{
	/* Linux numbering, which is what a Slurm cluster runs. */
	switch (n) {
	case 1: return "SIGHUP";
	case 2: return "SIGINT";
	case 3: return "SIGQUIT";
	case 4: return "SIGILL";
	case 6: return "SIGABRT";
	case 7: return "SIGBUS";
	case 8: return "SIGFPE";
	case 9: return "SIGKILL";
	case 11: return "SIGSEGV";
	case 13: return "SIGPIPE";
	case 14: return "SIGALRM";
	case 15: return "SIGTERM";
	case 24: return "SIGXCPU";
	case 25: return "SIGXFSZ";
	default: return NULL;
	}
}
