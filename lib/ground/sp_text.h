/*
 * sp_text.h - text, once: UTF-8 read a character at a time, text made
 * safe to show, its width in terminal cells, and the escapes of the two
 * formats text is written into (the record's TSV fields, JSON strings).
 *
 * Text from a record or a log is never trusted.  Every program shows it
 * through sp_text_clean (sp_term_clean on a terminal) and writes it
 * through sp_json_string or sp_field_encode, so a job name full of
 * escape sequences reads the same, harmless, everywhere.
 */
#ifndef SP_TEXT_H
#define SP_TEXT_H

#include <stddef.h>
#include "sp_buf.h"

/*
 * Appends untrusted bytes made safe to show: C0 controls and DEL as
 * "\x1b", invalid UTF-8 as "\xff", the C1 controls (CSI among them) and
 * the characters that reorder or hide text (bidi overrides and
 * isolates, marks, the BOM) as "\u009b".  how may ask for LF kept as LF
 * (SP_TEXT_KEEP_LF), TAB as one space (SP_TEXT_TAB_SPACE), and every
 * other non-ASCII character as '?' (SP_TEXT_ASCII).
 */
enum { SP_TEXT_KEEP_LF = 1, SP_TEXT_TAB_SPACE = 2, SP_TEXT_ASCII = 4 };
void sp_text_clean(struct sp_buf *b, const char *s, size_t n, unsigned how);

/*
 * Cells clean UTF-8 text takes on a terminal: two for a wide character
 * (CJK, most emoji), none for a combining mark or a colour escape
 * (ESC [ ... m), else one.
 */
size_t sp_text_width(const char *s, size_t n);
/* Byte length of the longest prefix of s that fits in cells columns,
 * ending on a character boundary (a wide one that would straddle the
 * edge is left out). */
size_t sp_text_fit(const char *s, size_t n, size_t cells);

/*
 * Appends raw bytes as a JSON string, quotes included: " \ and the C0
 * controls escaped (\n \r \t by name), DEL and the C1 controls as
 * \u00NN, an invalid UTF-8 byte as \ufffd.  Every program's JSON.
 */
void sp_json_string(struct sp_buf *b, const char *s, size_t n);
/* Reading JSON's \uXXXX: a hex digit's value, or -1. */
int sp_hex_digit(char c);
/* A code point up to U+10FFFF as UTF-8 into out; returns its length. */
size_t sp_utf8_put(char out[4], unsigned cp);

/*
 * The record's TSV fields: a field holding TAB, LF, CR or backslash is
 * written with \t \n \r \\, nothing else escaped (design.md).
 */
/* Decodes the escapes into b (appends).  Unknown escapes stay as is. */
void sp_field_decode(struct sp_buf *b, const char *p, size_t n);
/* How many leading bytes of p need no escape in the field form. */
size_t sp_field_clean_len(const char *p, size_t n);
/* Encodes raw bytes into the field form (appends). */
void sp_field_encode(struct sp_buf *b, const char *p, size_t n);

#endif
