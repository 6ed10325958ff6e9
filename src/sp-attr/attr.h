/*
 * attr.h - the parts of sp-attr: where each job was submitted from.
 *
 *   claims.c   the job ids found, each with the sources that claim it,
 *              and the rule that picks one source for a record
 *   scan.c     one file read once, in large blocks: only the lines that
 *              may hold a submission are looked at closely
 *   json.c     a Claude Code transcript line, walked as a stream so that
 *              a line of any length is never held whole
 *   words.c    what a command does (submits, only reads, --parsable) and
 *              what follows "Submitted batch job"
 *   walk.c     the files named, directories walked in name order
 */
#ifndef ATTR_H
#define ATTR_H

#include <stddef.h>
#include <stdint.h>

#include "sp_intern.h"
#include "sp_util.h"

/* sbatch's answer, and what --parsable prints instead. */
#define ATTR_NEEDLE		"Submitted batch job "
#define ATTR_NEEDLE_LEN		(sizeof ATTR_NEEDLE - 1)
/* Slurm's job ids are 32-bit: a longer run of digits is not one. */
#define ATTR_ID_DIGITS		10
/* A cluster name longer than this is not taken for one. */
#define ATTR_CLUSTER_MAX	64
/*
 * Bytes after a needle that are kept in the buffer while a long line
 * streams through, so that the id and cluster after it are whole.
 */
#define ATTR_LOOKAHEAD		(ATTR_NEEDLE_LEN + ATTR_ID_DIGITS + \
				 sizeof " on cluster " + ATTR_CLUSTER_MAX + 8)
/* The buffer: a line up to this long is looked at whole. */
#define ATTR_BUF_DEFAULT	(4u << 20)
#define ATTR_BUF_MIN		4096
/*
 * In a text file, a line longer than this is neither an sbatch command
 * whose next line is its --parsable answer nor that answer.  Shorter than
 * any buffer, so a line is judged the same however it was read.
 */
#define ATTR_CMDLINE_MAX	2048
_Static_assert(ATTR_CMDLINE_MAX < ATTR_BUF_MIN && 4 * ATTR_LOOKAHEAD <
	       ATTR_BUF_MIN, "a short line fits any buffer");
/* A file's kind is told by its first bytes, fewer than any buffer holds. */
#define ATTR_SNIFF		256
_Static_assert(ATTR_SNIFF <= ATTR_BUF_MIN, "a buffer holds the first bytes");
/*
 * A captured command or the text of a "!" command longer than this is
 * not read as one (its kind is unknown); a session id, time or directory
 * longer than ATTR_FIELD_MAX is unknown.
 */
#define ATTR_COMMAND_MAX	(1u << 20)
#define ATTR_FIELD_MAX		(64u << 10)
/* A transcript session as a source: "claude-code:<session id>". */
#define ATTR_SESSION_PREFIX "claude-code:"
/* The Bash calls remembered until their output arrives. */
#define ATTR_RING		256

/* ------------------------------------------------------------ claims */

/* One source's claim on a job id (on a cluster, when it says which). */
struct attr_claim {
	uint32_t job;
	long cluster;		/* in clusters, or -1 when not said */
	size_t source;		/* in sources */
	long dir;		/* in dirs, or -1 */
	int64_t at;		/* civil local time, as sacct prints it */
	int at_known;
	size_t seen;		/* order of discovery: ties go to the first */
	size_t next;		/* the job's next claim + 1, 0 at the end */
};

struct attr_claims {
	struct sp_intern sources;	/* "claude-code:<id>" or a path */
	struct sp_intern dirs;		/* session working directories */
	struct sp_intern clusters;
	struct attr_claim *v;
	size_t n, cap;
	/* open addressing on job: claim index + 1 of the job's first */
	size_t *slot;
	size_t slotcap, jobs;
};

struct attr_found {
	const struct attr_claim *claim;	/* NULL: no source */
	const struct attr_claim *rival;	/* another source's claim, if any */
	int far;	/* claims existed, all too far from the submit time */
};

void attr_claims_init(struct attr_claims *c);
void attr_claims_free(struct attr_claims *c);
/* Adds a claim; a source's repeated claim keeps its earliest time. */
void attr_claim_add(struct attr_claims *c, uint32_t job, const char *cluster,
		    size_t cluster_n, size_t source, long dir, int64_t at,
		    int at_known);
/*
 * The claim that applies to a record: job id, cluster (NULL or empty:
 * unknown), submit time (submit_known 0: unknown).  Claims on another
 * cluster never apply; of the rest, those more than SP_ATTR_WINDOW_S from
 * the submit time do not either; the earliest timed claim wins, then an
 * untimed one, then the first found.
 */
void attr_claims_find(const struct attr_claims *c, uint32_t job,
		      const char *cluster, size_t cluster_n, int64_t submit,
		      int submit_known, struct attr_found *out);
/* Every claim in job order (then cluster, then discovery): for --claims. */
size_t *attr_claims_sorted(const struct attr_claims *c);
/*
 * Every claim as a line "job cluster source time dir" ('-' for unknown),
 * in that order (appended to b): what the tests compare.
 */
void attr_claims_dump(const struct attr_claims *c, struct sp_buf *b);

/* ------------------------------------------------------------- words */

/* What a shell command does, as far as its words tell. */
enum {
	ATTR_CMD_SBATCH = 1,	/* runs sbatch */
	ATTR_CMD_PARSABLE = 2,	/* ... with --parsable */
	ATTR_CMD_READER = 4	/* only shows what exists (cat, grep, ...) */
};
int attr_command_kind(const char *cmd, size_t n);
/* Whether word (letters, digits, '-') stands alone in p: "sbatch". */
int attr_has_word(const char *p, size_t n, const char *word);

/*
 * What follows "Submitted batch job ": the id and, with -M, " on cluster
 * NAME".  p points after the needle, n bytes readable.  Returns 1 with
 * *job and the cluster set (cluster_n 0 when none), 0 when no id follows.
 */
int attr_after_needle(const char *p, size_t n, uint32_t *job,
		      const char **cluster, size_t *cluster_n);
/* A --parsable answer: the whole text is "N" or "N;cluster" (blanks around). */
int attr_bare_id(const char *p, size_t n, uint32_t *job,
		 const char **cluster, size_t *cluster_n);
/*
 * A time at the start of p: "2026-01-05T10:00:00" or with a space, an
 * optional fraction, and Z or an offset (then moved to local time); in
 * brackets or not.  Returns 1 and the civil local time, or 0.
 */
int attr_stamp(const char *p, size_t n, int64_t *civil);

/* -------------------------------------------------------------- scan */

struct attr_ring {
	struct attr_call {
		char id[64];
		size_t id_n;
		int kind;
		/* the walked line its output came in (0: not yet) */
		unsigned long answered;
	} e[ATTR_RING];
	size_t next, n;
	size_t awaiting;	/* --parsable calls whose output is to come */
};

/*
 * One Claude Code transcript line walked as a stream (json.c).  Only
 * lines that may hold a submission are walked; the walk keeps what
 * the line says about itself (session, time, directory) and the few
 * strings that matter, each bounded, and records where in the line each
 * needle lies.
 */
struct attr_hit {
	uint32_t job;
	char cluster[ATTR_CLUSTER_MAX];
	size_t cluster_n;
	int role;
	size_t block;		/* the content block it lies in */
	int kind;		/* the command's, where known at the hit */
};

struct attr_json;
struct attr_scan;

struct attr_json *attr_json_new(void);
void attr_json_free(struct attr_json *j);
void attr_json_begin(struct attr_json *j);
void attr_json_feed(struct attr_json *j, struct attr_scan *s,
		    const char *p, size_t n);
/* A needle found at the walk's current place. */
void attr_json_hit(struct attr_json *j, uint32_t job, const char *cluster,
		   size_t cluster_n);
/* The line is over (cut: the file ended inside it); claims are made. */
void attr_json_end(struct attr_json *j, struct attr_scan *s, int cut);
/* 1 when the walk's last line was a Claude Code transcript line. */
int attr_json_claude(const struct attr_json *j);

/* Everything a file's scan keeps (scan.c); json.c reads a few fields. */
struct attr_scan {
	struct attr_claims *claims;
	const char *path;
	size_t path_source;		/* the path as a source */
	long path_session;		/* a session named by the path, or -1 */
	struct attr_ring ring;		/* the file's recent Bash calls */
	int bang_kind;			/* the last "!" command's kind */
	int bang_pending;		/* its --parsable answer not yet read */
	struct sp_buf src;		/* scratch for source names */
};

/* The Bash call with this id, or NULL. */
struct attr_call *attr_ring_find(struct attr_ring *r, const char *id,
				 size_t n);
void attr_ring_add(struct attr_ring *r, const char *id, size_t n, int kind);

/* A claim from the file being scanned. */
void attr_scan_claim(struct attr_scan *s, uint32_t job, const char *cluster,
		     size_t cluster_n, const char *session, size_t session_n,
		     const char *dir, size_t dir_n, int64_t at, int at_known);

struct attr_stats {
	unsigned long files;		/* read */
	unsigned long skipped;		/* binary, or a shell history */
	unsigned long long bytes;
	unsigned long cut;		/* transcripts whose last line was cut */
	struct sp_buf cut_first;	/* the first of them */
};

/*
 * Reads one open file (fd, named path) once, adding its claims.  bufcap
 * 0 means ATTR_BUF_DEFAULT.  Returns 0, or -1 with errno set by read(2).
 */
int attr_scan_fd(struct attr_claims *c, int fd, const char *path,
		 size_t bufcap, struct attr_stats *st);

/* -------------------------------------------------------------- walk */

/*
 * Scans each path: a file is read whatever it is, a directory walked
 * (in name order, each directory and file once, whatever the links);
 * under a directory only regular files are read.  Dies (exit 2) naming
 * the path that cannot be read.
 */
void attr_walk(struct attr_claims *c, char *const *paths, size_t npaths,
	       size_t bufcap, struct attr_stats *st);

#endif
