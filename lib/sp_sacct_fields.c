/*
 * sp_sacct_fields.c - the sacct fields slurmpast reads: their names and
 * older spellings, and the --format a site's sacct can answer.
 */
#include <string.h>

#include "sp_sacct_int.h"

static const struct {
	const char *name;
	int mandatory;
} fields[SP_SF_COUNT] = {
#define SP_X(id, name, mandatory) { name, mandatory },
	SP_SACCT_FIELDS(SP_X)
#undef SP_X
	{ "ConsumedEnergy", 0 },
};

const char *
sp_sacct_field_name(int sf)
{
	return sf >= 0 && sf < SP_SF_COUNT ? fields[sf].name : NULL;
}

int
sp_sacct_field_mandatory(int sf)
{
	return sf >= 0 && sf < SP_SF_COUNT && fields[sf].mandatory;
}

static int
lc(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int
sp_sacct_same_ci(const char *s, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (word[i] == '\0' || lc((unsigned char)s[i]) !=
		    lc((unsigned char)word[i]))
			return 0;
	return word[n] == '\0';
}

int
sp_sacct_field_id(const char *name, size_t n)
{
	int i;

	while (n > 0 && (*name == ' ' || *name == '\t')) {
		name++;
		n--;
	}
	while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '\t' ||
	    name[n - 1] == '\r'))
		n--;
	for (i = 0; i < SP_SF_COUNT; i++)
		if (sp_sacct_same_ci(name, n, fields[i].name))
			return i;
	if (sp_sacct_same_ci(name, n, "Reserved"))
		return SP_SF_PLANNED;
	return -1;
}

/* 1 when the helpformat text lists the word (case-insensitively). */
static int
listed(const char *text, size_t n, const char *word)
{
	size_t i = 0, j;

	while (i < n) {
		while (i < n && (text[i] == ' ' || text[i] == '\t' ||
		    text[i] == '\n' || text[i] == '\r' || text[i] == ','))
			i++;
		j = i;
		while (j < n && !(text[j] == ' ' || text[j] == '\t' ||
		    text[j] == '\n' || text[j] == '\r' || text[j] == ','))
			j++;
		if (j > i && sp_sacct_same_ci(text + i, j - i, word))
			return 1;
		i = j;
	}
	return 0;
}

int
sp_sacct_format(const char *help, size_t n, struct sp_buf *format,
		struct sp_buf *err)
{
	const char *name;
	int i;

	for (i = 0; i < SP_SF_CONSUMEDENERGY; i++) {
		name = fields[i].name;
		if (help != NULL && !listed(help, n, name)) {
			if (i == SP_SF_PLANNED && listed(help, n, "Reserved"))
				name = "Reserved";
			else if (fields[i].mandatory) {
				sp_buf_printf(err, "this sacct has no field "
				    "'%s', which slurmpast needs (sacct "
				    "--helpformat)", name);
				return -1;
			} else
				continue;
		}
		if (format->len > 0)
			sp_buf_addc(format, ',');
		sp_buf_adds(format, name);
	}
	return 0;
}

