/* reports/terminal_text.c - text for a terminal: control characters and invalid UTF-8 made visible
 * (terminal_text.h). */
#include "terminal_text.h"

#include <stdbool.h>
#include <stdlib.h>

/* The length of the valid UTF-8 sequence at p (1-4), or 0 when p does not start one: a stray
 * continuation byte, an overlong form, a surrogate, a code point beyond U+10FFFF, or a sequence
 * cut short (by the end of the text too: the NUL is never a continuation byte). */
static size_t utf8_length(const unsigned char *p)
{
	unsigned char c = p[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4;
	else
		return 0;
	if (c == 0xE0)
		lo = 0xA0; /* overlong */
	else if (c == 0xED)
		hi = 0x9F; /* surrogates */
	else if (c == 0xF0)
		lo = 0x90; /* overlong */
	else if (c == 0xF4)
		hi = 0x8F; /* beyond U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return n;
}

void terminal_text_append(struct strbuf *b, const char *text)
{
	const unsigned char *p = (const unsigned char *)(text ? text : "");
	while (*p) {
		size_t n = utf8_length(p);
		/* C1 controls are two bytes in UTF-8: U+0080-U+009F is C2 80-C2 9F */
		bool control =
		    n == 1 ? (*p < 0x20 || *p == 0x7F) : n == 2 && p[0] == 0xC2 && p[1] < 0xA0;
		if (n == 0)
			n = 1, control = true;
		if (n == 1 && *p == '\\')
			strbuf_append(b, "\\\\");
		else if (control)
			for (size_t i = 0; i < n; i++)
				strbuf_printf(b, "\\x%02x", p[i]);
		else
			strbuf_append_n(b, (const char *)p, n);
		p += n;
	}
}

void terminal_text_fputs(const char *text, FILE *f)
{
	struct strbuf b = {0};
	terminal_text_append(&b, text);
	if (b.s)
		fputs(b.s, f);
	strbuf_free(&b);
}
