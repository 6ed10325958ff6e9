/*
 * sp_opt.c - the options every program shares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp_opt.h"
#include "sp_util.h"

static const char common_help[] =
"  -h, --help              this text\n"
"      --version           the version\n";

static const struct option help_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, SP_OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};
static const struct option format_options[] = {
	SP_FORMAT_OPTIONS,
	{ NULL, 0, NULL, 0 }
};
static const struct option log_options[] = {
	{ "no-logs", no_argument, NULL, SP_OPT_NO_LOGS },
	{ "log-dir", required_argument, NULL, SP_OPT_LOG_DIR },
	{ NULL, 0, NULL, 0 }
};
static const struct option term_options[] = {
	{ "ascii", no_argument, NULL, SP_OPT_ASCII },
	{ "no-color", no_argument, NULL, SP_OPT_NO_COLOR },
	{ "no-colour", no_argument, NULL, SP_OPT_NO_COLOR },
	{ NULL, 0, NULL, 0 }
};

static const struct option pager_options[] = {
	{ "no-pager", no_argument, NULL, SP_OPT_NO_PAGER },
	{ NULL, 0, NULL, 0 }
};

static size_t
options_count(const struct option *opts)
{
	size_t n = 0;

	while (opts[n].name != NULL)
		n++;
	return n;
}

static void
options_append(struct option *to, size_t *n, const struct option *from)
{
	size_t k = options_count(from);

	memcpy(to + *n, from, k * sizeof *from);
	*n += k;
}

/* The program's own first (so longindex is theirs), then the shared
 * ones it offers, then the zero entry getopt_long ends on. */
static struct option *
options_merge(const struct option *own, const struct sp_opts *o)
{
	size_t n = 0, cap = options_count(own) + options_count(help_options)
	    + options_count(format_options) + options_count(log_options)
	    + options_count(term_options) + options_count(pager_options) + 1;
	struct option *all = sp_xcalloc(cap, sizeof *all);

	options_append(all, &n, own);
	options_append(all, &n, help_options);
	if (!o->formatless)
		options_append(all, &n, format_options);
	if (o->logs != NULL)
		options_append(all, &n, log_options);
	if (o->term != NULL)
		options_append(all, &n, term_options);
	if (o->no_pager != NULL)
		options_append(all, &n, pager_options);
	return all;
}

static void __attribute__((noreturn))
help(const struct sp_opts *o)
{
	fputs(o->usage, stdout);
	if (o->help != NULL) {
		fputs(o->help, stdout);
		fputs(common_help, stdout);
	}
	if (o->help_more != NULL)
		o->help_more();
	sp_stdout_close();
	exit(SP_EXIT_OK);
}

/* One format, however often it is asked for; two are a guess. */
static void
format(struct sp_opts *o, enum sp_format fmt, const char *opt)
{
	if (o->fmt_opt != NULL && fmt != o->fmt)
		sp_die(SP_EXIT_USAGE, "%s and %s are different outputs: "
		       "choose one", o->fmt_opt, opt);
	o->fmt = fmt;
	o->fmt_opt = opt;
}

static void
logs_settle(struct sp_log_opts *l)
{
	if (l != NULL && l->off && l->ndirs > 0) {
		sp_warn("--log-dir has no effect with --no-logs");
		l->ndirs = 0;
	}
}

int
sp_getopt(int argc, char *const argv[], const char *own_short,
	  const struct option *own_long, int *longindex, struct sp_opts *o)
{
	enum sp_format fmt;
	int ch;

	if (o->shortopts == NULL) {
		size_t n = strlen(own_short);

		o->shortopts = sp_xmalloc(n + 3);
		memcpy(o->shortopts, ":h", 2);
		memcpy(o->shortopts + 2, own_short, n + 1);
		o->longopts = options_merge(own_long, o);
		opterr = 0;
	}
	for (;;) {
		ch = getopt_long(argc, argv, o->shortopts, o->longopts,
				 longindex);
		switch (ch) {
		case -1:
			free(o->shortopts);
			o->shortopts = NULL;
			free(o->longopts);
			o->longopts = NULL;
			logs_settle(o->logs);
			/* A person at a terminal reads the table, as the
			 * front door shows it; a pipe gets the records. */
			if (o->no_pager != NULL && o->fmt_opt == NULL &&
			    !o->formatless && isatty(STDOUT_FILENO))
				o->fmt = SP_FMT_PLAIN;
			return -1;
		case 'h':
			help(o);
		case SP_OPT_VERSION:
			sp_print_version();
			sp_stdout_close();
			exit(SP_EXIT_OK);
		case SP_OPT_NO_LOGS:
			o->logs->off = 1;
			break;
		case SP_OPT_LOG_DIR:
			o->logs->dirs = sp_xrealloc(o->logs->dirs,
			    (o->logs->ndirs + 1) * sizeof *o->logs->dirs);
			o->logs->dirs[o->logs->ndirs++] = optarg;
			break;
		case SP_OPT_ASCII:
			o->term->ascii = 1;
			break;
		case SP_OPT_NO_COLOR:
			o->term->no_color = 1;
			break;
		case SP_OPT_NO_PAGER:
			*o->no_pager = 1;
			break;
		case ':':
			sp_die(SP_EXIT_USAGE, "option '%s' needs a value",
			       argv[optind - 1]);
		case '?':
			sp_die_unknown_option(optopt, argv[optind - 1]);
		default:
			if (!sp_format_option(ch, &fmt))
				return ch;
			format(o, fmt, argv[optind - 1]);
		}
	}
}
