/* reports/terminal_text.h - text for a terminal: run-folder strings made harmless to print. */
#ifndef ALLOCSPIKE_REPORTS_TERMINAL_TEXT_H
#define ALLOCSPIKE_REPORTS_TERMINAL_TEXT_H

#include <stdio.h>

#include "strbuf.h"

/* Appends text with every byte a terminal could act on made visible, as strbuf_append_html does
 * for a page: control characters (C0, DEL and the C1 range U+0080-U+009F) and bytes that are not
 * valid UTF-8 become \xNN (one per byte), a backslash becomes \\; valid UTF-8 text passes
 * unchanged. So a variant name cannot move the cursor, erase a line or forge one. NULL is "". */
void terminal_text_append(struct strbuf *b, const char *text);

/* Writes text to f through terminal_text_append (no newline added). */
void terminal_text_fputs(const char *text, FILE *f);

#endif
