/* reports/strbuf.h - a growable text buffer for building pages and gnuplot scripts. */
#ifndef ALLOCSPIKE_REPORTS_STRBUF_H
#define ALLOCSPIKE_REPORTS_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s; /* always NUL-terminated once anything was appended */
	size_t len, cap;
};

void strbuf_append(struct strbuf *b, const char *text);
void strbuf_append_n(struct strbuf *b, const char *text, size_t n);
void strbuf_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends text with &, <, >, " and ' escaped for HTML. */
void strbuf_append_html(struct strbuf *b, const char *text);
/* The same for the first n bytes of text (up to a NUL). */
void strbuf_append_html_n(struct strbuf *b, const char *text, size_t n);
/* The text (never NULL: "" when empty); ownership passes to the caller. */
char *strbuf_take(struct strbuf *b);
void strbuf_free(struct strbuf *b);

#endif
