/*
 * sp_sbatch.h - the values of sbatch's sizing options as sbatch reads
 * them, and a new figure written back in the spelling the script used.
 *
 *   --time     minutes, minutes:seconds, hours:minutes:seconds, days-hours,
 *              days-hours:minutes, days-hours:minutes:seconds; UNLIMITED,
 *              INFINITE or -1 for no limit
 *   --mem      a whole number and an optional unit letter K, M, G or T
 *   (and       (powers of 1024, either case; none is M); sbatch ignores
 *   -per-cpu,  what follows the letter ("4GB" is 4G), so it is kept
 *   -per-gpu)
 *   GPUs       --gpus, --gpus-per-node, --gpus-per-task: [type:]count;
 *              --gres: a comma list whose gpu entry is gpu[:type][:count]
 *              (a count left out is 1)
 *
 * Written back, a figure keeps the form: a script that gives minutes
 * gets minutes, one that pads the hours to two digits gets them padded,
 * one that writes megabytes gets megabytes.  Where the form cannot hold
 * the figure exactly (91 minutes as days-hours, 94G in terabytes) the
 * next finer form of the same kind is used, never a rounded figure.
 */
#ifndef SP_SBATCH_H
#define SP_SBATCH_H

#include <stddef.h>
#include "sp_util.h"

enum sp_tform { SP_TF_MIN, SP_TF_MIN_SEC, SP_TF_HMS, SP_TF_DAYS_H,
		SP_TF_DAYS_HM, SP_TF_DAYS_HMS, SP_TF_UNLIMITED };

struct sp_sbtime {
	enum sp_tform form;
	int pad;		/* the leading field written in two digits */
	double s;		/* seconds; NaN for no limit */
};

/* Reads a --time value: 0, or -1 when sbatch would refuse it. */
int sp_sbatch_time(const char *v, struct sp_sbtime *t);
/* seconds (whole, above zero) in the form of as, appended. */
void sp_sbatch_time_spell(struct sp_buf *b, const struct sp_sbtime *as,
			  double seconds);

struct sp_sbmem {
	double bytes;
	char unit;		/* 'K' 'M' 'G' 'T' as written (either case);
				 * 0: none written, megabytes */
	const char *tail;	/* what followed the letter, kept */
};

/* Reads a memory value: 0, or -1 when sbatch would refuse it. */
int sp_sbatch_mem(const char *v, struct sp_sbmem *m);
/* bytes (whole KiB or more) in the unit of as, or the next finer unit
 * that holds it exactly, appended. */
void sp_sbatch_mem_spell(struct sp_buf *b, const struct sp_sbmem *as,
			 double bytes);

struct sp_sbgpu {
	double count;
	size_t off, len;	/* the count's bytes in the value; len 0:
				 * none written, ":count" goes at off */
};

/*
 * The GPU count of an option's value: gres is 1 for --gres (a list),
 * 0 for the others.  Returns 1 with *g set, 0 when a --gres list asks
 * for no GPU, -1 when it cannot be read (or names GPUs twice).
 */
int sp_sbatch_gpus(const char *v, int gres, struct sp_sbgpu *g);
/* The value v with its count set to count, appended. */
void sp_sbatch_gpus_spell(struct sp_buf *b, const char *v,
			  const struct sp_sbgpu *g, double count);

/*
 * A new value written where raw (the old value's bytes in the script,
 * which read as old) was: plain when the old was plain, in the same
 * quotes when the old was quoted whole, else plain, or in double quotes
 * when the new needs them.  Appended.
 */
void sp_sbatch_requote(struct sp_buf *b, const char *raw, size_t rawlen,
		       const char *old, const char *new);

#endif
