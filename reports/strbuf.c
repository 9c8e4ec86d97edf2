/* reports/strbuf.c - a growable text buffer; aborts on out-of-memory (a report has no way on). */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void strbuf_reserve(struct strbuf *b, size_t more)
{
	if (b->len + more + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + more + 1)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		fprintf(stderr, "allocspike-report: out of memory\n");
		exit(2);
	}
	b->s = s;
	b->cap = cap;
}

void strbuf_append_n(struct strbuf *b, const char *text, size_t n)
{
	strbuf_reserve(b, n);
	memcpy(b->s + b->len, text, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_append(struct strbuf *b, const char *text)
{
	strbuf_append_n(b, text, strlen(text));
}

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	strbuf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void strbuf_append_html(struct strbuf *b, const char *text)
{
	strbuf_append_html_n(b, text ? text : "", text ? strlen(text) : 0);
}

void strbuf_append_html_n(struct strbuf *b, const char *text, size_t n)
{
	for (const char *p = text; p < text + n && *p; p++) {
		switch (*p) {
		case '&':
			strbuf_append(b, "&amp;");
			break;
		case '<':
			strbuf_append(b, "&lt;");
			break;
		case '>':
			strbuf_append(b, "&gt;");
			break;
		case '"':
			strbuf_append(b, "&quot;");
			break;
		case '\'':
			strbuf_append(b, "&#39;");
			break;
		default:
			/* a control character is no text a page shows: the replacement character */
			if (((unsigned char)*p < 0x20 && !strchr("\t\n\r", *p)) || *p == 0x7f)
				strbuf_append(b, "&#xfffd;");
			else
				strbuf_append_n(b, p, 1);
		}
	}
}

char *strbuf_take(struct strbuf *b)
{
	if (!b->s)
		strbuf_append(b, "");
	char *s = b->s;
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void strbuf_free(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
