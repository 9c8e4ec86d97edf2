/* tests/reports/test_terminal_text.c - the terminal escaper: every byte value, alone and in pairs,
 * comes out as text a terminal prints and never acts on; ordinary text is unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "terminal_text.h"

static char *escaped(const char *text)
{
	struct strbuf b = {0};
	terminal_text_append(&b, text);
	return strbuf_take(&b);
}

/* The output is printable ASCII, or UTF-8 sequences of characters from U+00A0 on: no control
 * character (C0, DEL, C1) and no byte a decoder would have to guess about. */
static void assert_harmless(const char *out)
{
	const unsigned char *p = (const unsigned char *)out;
	while (*p) {
		if (*p < 0x80) {
			assert_true(*p >= 0x20 && *p != 0x7F);
			p++;
			continue;
		}
		size_t n = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : 2;
		assert_true(*p >= 0xC2 && *p <= 0xF4);
		assert_false(*p == 0xC2 && p[1] < 0xA0); /* C1 */
		for (size_t i = 1; i < n; i++)
			assert_true(p[i] >= 0x80 && p[i] <= 0xBF);
		p += n;
	}
}

static void test_every_byte(void **state)
{
	(void)state;
	for (int c = 1; c < 256; c++) {
		char in[2] = {(char)c, 0};
		char *out = escaped(in);
		assert_harmless(out);
		if (c >= 0x20 && c < 0x7F && c != '\\') {
			assert_string_equal(out, in);
		} else if (c != '\\') {
			char want[8];
			snprintf(want, sizeof(want), "\\x%02x", c);
			assert_string_equal(out, want);
		}
		free(out);
	}
	char *out = escaped("\\");
	assert_string_equal(out, "\\\\"); /* so "\x1b" in a name is not taken for an escape */
	free(out);
}

static void test_every_pair(void **state)
{
	(void)state;
	for (int a = 1; a < 256; a++)
		for (int c = 1; c < 256; c++) {
			char in[4] = {(char)a, (char)c, 'z', 0};
			char *out = escaped(in);
			assert_harmless(out);
			assert_int_equal(out[strlen(out) - 1], 'z'); /* nothing swallowed */
			free(out);
		}
}

static void test_sequences(void **state)
{
	(void)state;
	static const struct {
		const char *in, *want;
	} cases[] = {
	    {"glibc-trim", "glibc-trim"},
	    {"\x1b[1A\x1b[2KFAILED", "\\x1b[1A\\x1b[2KFAILED"},
	    {"a\nb\rc\td", "a\\x0ab\\x0dc\\x09d"},
	    {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
	    {"\xc2\x9b[2J", "\\xc2\\x9b[2J"},             /* C1 CSI */
	    {"\xc2\xa0", "\xc2\xa0"},                     /* no-break space: printable */
	    {"\xc0\xaf", "\\xc0\\xaf"},                   /* overlong '/' */
	    {"\xe0\x80\xaf", "\\xe0\\x80\\xaf"},          /* overlong, three bytes */
	    {"\xed\xa0\x80", "\\xed\\xa0\\x80"},          /* a surrogate */
	    {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"}, /* beyond U+10FFFF */
	    {"\xe2\x82", "\\xe2\\x82"},                   /* cut short by the end */
	    {"\xe2\x82x", "\\xe2\\x82x"},                 /* cut short by a character */
	    {"\x80", "\\x80"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = escaped(cases[i].in);
		assert_string_equal(out, cases[i].want);
		free(out);
	}
	char *out = escaped(NULL);
	assert_string_equal(out, "");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_byte),
	    cmocka_unit_test(test_every_pair),
	    cmocka_unit_test(test_sequences),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
