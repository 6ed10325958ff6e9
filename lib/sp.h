/* sp.h - the slurmpast library, one header for programs. */
#ifndef SP_H
#define SP_H

#include "sp_util.h"
#include "sp_spool.h"
#include "sp_record.h"
#include "sp_units.h"
#include "sp_hostlist.h"
#include "sp_stats.h"
#include "sp_const.h"
#include "sp_job.h"
#include "sp_state.h"
#include "sp_suggest.h"

#endif
