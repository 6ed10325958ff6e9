/*
 * sp_state.h - how a run ended: the states the rules tell apart, for
 * the whole library, and the names of the signals that end runs.
 *
 * sacct has some twenty states; the rules read these ten, and every other
 * one is SP_ST_OTHER.  Which of them are failures, and which already
 * explain an allocation that computed nothing, is said here once.
 */
#ifndef SP_STATE_H
#define SP_STATE_H

#include "sp_record.h"

enum sp_state {
	SP_ST_COMPLETED, SP_ST_FAILED, SP_ST_TIMEOUT, SP_ST_OUT_OF_MEMORY,
	SP_ST_NODE_FAIL, SP_ST_BOOT_FAIL, SP_ST_DEADLINE, SP_ST_CANCELLED,
	SP_ST_PREEMPTED, SP_ST_REQUEUED, SP_ST_OTHER, SP_ST_N
};

/* The state a record's state field names (one word, as sp-fetch writes). */
enum sp_state sp_state_of(struct sp_slice state);
/* "COMPLETED", ...; "OTHER" for SP_ST_OTHER and anything out of range. */
const char *sp_state_name(enum sp_state s);
/* A failure: FAILED TIMEOUT OUT_OF_MEMORY NODE_FAIL BOOT_FAIL DEADLINE. */
int sp_state_failed(enum sp_state s);
/*
 * The end itself says why nothing was computed (OUT_OF_MEMORY NODE_FAIL
 * PREEMPTED BOOT_FAIL DEADLINE): such a run is not counted as a hang.
 */
int sp_state_explains_idle(enum sp_state s);
/* The failure states, comma-separated, as sacct's --state takes them. */
void sp_state_failed_list(struct sp_buf *b);
/* The name of signal n ("SIGKILL"), or NULL when it has none here. */
const char *sp_signal_name(int n);

#endif
