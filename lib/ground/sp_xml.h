/*
 * sp_xml.h - text from records made safe inside XML, SVG and HTML.
 *
 * One function, so that every figure and the page escape the same way:
 * a job name is never markup, and never a character an XML parser
 * refuses.
 */
#ifndef SP_XML_H
#define SP_XML_H

#include <stddef.h>
#include "sp_util.h"

/*
 * Appends raw bytes as XML character data, safe in an element and in a
 * quoted attribute value: & < > " ' as entities; what XML 1.0 cannot hold
 * at all (control characters, invalid UTF-8, U+FFFE, U+FFFF) shown as
 * \xNN or \uNNNN, as sp_text_clean shows them on a terminal.
 */
void sp_xml_text(struct sp_buf *b, const char *s, size_t n);

#endif
