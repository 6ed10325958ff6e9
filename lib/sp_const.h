/*
 * sp_const.h - every threshold of the toolkit, in one place.  They are
 * heuristics calibrated on real clusters; recalibrating means editing a
 * number here, never a literal in a program.
 */
#ifndef SP_CONST_H
#define SP_CONST_H

/* An allocation computed nothing: ran longer than this ... */
#define SP_NOOP_MIN_ELAPSED_S	300.0
/* ... while its work steps used less CPU than this. */
#define SP_NOOP_MAX_CPU_S	10.0
/* A hang killed this soon was already noticed. */
#define SP_NOOP_NOTICED_S	900.0
/* Idle CPU is explained by I/O at this volume and rate. */
#define SP_IO_MIN_BYTES		(10.0 * 1024 * 1024 * 1024)
#define SP_IO_MIN_RATE		(100.0 * 1024 * 1024)

/* Compute = GPU-hours x this + core-hours. */
#define SP_GPU_CORE_RATIO	16.0

#endif
