/* tests/reports/test_text_escape.c - the report's escapers, one per target language, each given
 * every byte value: HTML text and attributes (strbuf_append_html) and inline Markdown
 * (markdown_append_text). What a renderer makes of the Markdown is test_report_markdown.sh's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "markdown.h"
#include "strbuf.h"

/* "a" BYTE "b" */
static const char *with_byte(int c)
{
	static char text[4];
	text[0] = 'a';
	text[1] = (char)c;
	text[2] = 'b';
	text[3] = 0;
	return text;
}

static void test_html_every_byte(void **state)
{
	(void)state;
	for (int c = 1; c < 256; c++) {
		struct strbuf b = {0};
		strbuf_append_html(&b, with_byte(c));
		char *out = strbuf_take(&b);
		for (const char *p = out; *p; p++) {
			unsigned char u = (unsigned char)*p;
			/* nothing that ends a text node or an attribute value, no control character
			 */
			assert_null(strchr("<>\"'", u));
			assert_true(u >= 0x20 || u == '\t' || u == '\n' || u == '\r');
			assert_true(u != 0x7f);
			if (u == '&') /* only as the start of a reference this escaper wrote */
				assert_true(
				    strncmp(p, "&amp;", 5) == 0 || strncmp(p, "&lt;", 4) == 0 ||
				    strncmp(p, "&gt;", 4) == 0 || strncmp(p, "&quot;", 6) == 0 ||
				    strncmp(p, "&#39;", 5) == 0 || strncmp(p, "&#xfffd;", 8) == 0);
		}
		assert_int_equal(out[0], 'a');
		assert_int_equal(out[strlen(out) - 1], 'b');
		free(out);
	}
}

static void test_markdown_every_byte(void **state)
{
	(void)state;
	for (int c = 1; c < 256; c++) {
		struct strbuf b = {0};
		markdown_append_text(&b, with_byte(c));
		char *out = strbuf_take(&b);
		for (const char *p = out; *p; p++) {
			unsigned char u = (unsigned char)*p;
			/* one line: no line break, no control character of any kind */
			assert_true(u >= 0x20 && u != 0x7f);
			/* inline markup only ever escaped */
			if (strchr("`*_[]|~#", u))
				assert_true(p > out && p[-1] == '\\');
		}
		if ((c >= 0x20 && c < 0x7f) && !strchr("\\`*_[]<>#|~&@", c))
			assert_string_equal(out, with_byte(c)); /* plain text stays as it was */
		free(out);
	}
}

static void test_markdown_links_broken(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
	    {"see www.example.com", "see www&#46;example.com"},
	    {"http://x.test/a", "http&#58;//x.test/a"},
	    {"a@b.test", "a@<!-- -->b.test"},
	    {"[x](javascript:y)", "\\[x\\](javascript:y)"},
	    {"<script>", "\\<script\\>"},
	    {"line\r## Validity\n```", "line \\#\\# Validity \\`\\`\\`"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct strbuf b = {0};
		markdown_append_text(&b, cases[i][0]);
		char *out = strbuf_take(&b);
		assert_string_equal(out, cases[i][1]);
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_html_every_byte),
	    cmocka_unit_test(test_markdown_every_byte),
	    cmocka_unit_test(test_markdown_links_broken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
