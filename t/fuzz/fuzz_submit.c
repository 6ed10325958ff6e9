/*
 * fuzz_submit.c - what sp-submit reads from others: an agent's call as
 * JSON (sp-submit --hook), the shell command in it, and sbatch's command
 * line.
 *
 * Properties: the JSON reader answers 0 or -1 on any bytes, and what it
 * keeps is a C string; the shell scanner finds sbatch commands whose
 * arguments are C strings, each with a directory, whatever the command;
 * sbatch's command line, cut at NUL bytes, gives an operand index within
 * it, and every option it read names an argument that exists.
 */
#include <string.h>

#include "sp.h"
#include "sp_script.h"
#include "../../src/sp-submit/hook.h"
#include "fuzz.h"

static void
scan(const char *cmd)
{
	struct hook_found f = { 0 };

	hook_shell(cmd, "/w", &f);
	for (size_t i = 0; i < f.n; i++) {
		FUZZ_CHECK(f.v[i].dir != NULL, "every sbatch has a directory");
		for (size_t k = 0; k < f.v[i].nargs; k++)
			(void)strlen(f.v[i].args[k]);
	}
	hook_found_free(&f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hook_call c = { 0 };
	struct sp_script cl;
	char *text = sp_xmalloc(size + 1), **argv;
	size_t argc = 0, at;
	int rc;

	memcpy(text, data, size);
	text[size] = '\0';
	rc = hook_json(text, size, &c);
	FUZZ_CHECK(rc == 0 || rc == -1, "the reader answers 0 or -1");
	if (rc == 0 && c.have_command && !c.is_argv)
		scan(sp_buf_str(&c.command));
	hook_call_free(&c);
	scan(text);

	/* The bytes as argv: NUL-separated arguments. */
	argv = sp_xcalloc(size + 2, sizeof *argv);
	for (char *p = text; p <= text + size; p += strlen(p) + 1)
		argv[argc++] = p;
	at = sp_script_cmdline(&cl, argv, argc);
	FUZZ_CHECK(at <= argc, "the operand is within the command line");
	for (size_t i = 0; i < cl.nopts; i++) {
		FUZZ_CHECK(cl.opts[i].line < argc, "an option's argument exists");
		if (cl.opts[i].value != NULL)
			FUZZ_CHECK(cl.opts[i].vat.line < argc &&
				   cl.opts[i].vat.off + cl.opts[i].vat.len <=
				   strlen(argv[cl.opts[i].vat.line]),
				   "a value lies inside its argument");
	}
	sp_script_free(&cl);
	free(argv);
	free(text);
	return 0;
}
