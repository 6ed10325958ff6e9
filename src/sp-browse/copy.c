/*
 * copy.c - y: the #SBATCH lines of the workload shown, kept to be printed
 * on standard output when the dashboard ends (a clipboard holds one
 * thing: the last copy wins), and sent to the terminal's clipboard
 * through OSC 52 when terminfo says the terminal takes it (Ms).
 */
#include <string.h>

#include "browse.h"

static void
base64(struct sp_buf *b, const char *s, size_t n)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		"0123456789+/";
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < n; i += 3) {
		unsigned long v = (unsigned long)u[i] << 16;

		if (i + 1 < n)
			v |= (unsigned long)u[i + 1] << 8;
		if (i + 2 < n)
			v |= u[i + 2];
		sp_buf_addc(b, abc[v >> 18 & 63]);
		sp_buf_addc(b, abc[v >> 12 & 63]);
		sp_buf_addc(b, i + 1 < n ? abc[v >> 6 & 63] : '=');
		sp_buf_addc(b, i + 2 < n ? abc[v & 63] : '=');
	}
}

void
copy_sbatch(struct browse *B, size_t wl)
{
	struct sp_buf lines = { 0 }, enc = { 0 };
	size_t n = advice_sbatch(B, wl, &lines);
	const char *label = B->m->info[wl].label;

	if (n == 0) {
		browse_say(B, "nothing to copy: no request of %s to change",
			   label);
		sp_buf_free(&lines);
		return;
	}
	sp_buf_clear(&B->copied);
	sp_buf_add(&B->copied, lines.p, lines.len);
	if (B->clipboard) {
		base64(&enc, lines.p, lines.len);
		sp_buf_clear(&B->osc);
		ui_selection(&B->osc, sp_buf_str(&enc));
	}
	/* One line of the window: a long name is cut, never the end. */
	sp_buf_clear(&enc);
	sp_buf_printf(&enc, "copied %zu #SBATCH line%s of ", n,
		      n == 1 ? "" : "s");
	sp_buf_clear(&lines);
	text_title(&B->term, &lines, sp_buf_str(&enc), label,
		   B->clipboard ? ": sent to the clipboard, printed on quit" :
		   ": printed on quit");
	browse_say(B, "%s", sp_buf_str(&lines));
	sp_buf_free(&lines);
	sp_buf_free(&enc);
}
