/* controller/request_words.c - a request's words on one line (request_words.h). */
#include "request_words.h"

#include <stdio.h>
#include <string.h>

static bool request_byte_plain(unsigned char c)
{
	return c > ' ' && c != '%' && c != 0x7f;
}

bool request_words_encode(char *const *words, size_t count, char *out, size_t size)
{
	size_t len = 0;
	for (size_t i = 0; i < count; i++) {
		const unsigned char *w = (const unsigned char *)words[i];
		if (len + 5 >= size)
			return false;
		if (i > 0)
			out[len++] = ' ';
		if (!*w)
			out[len++] = '%';
		for (; *w; w++) {
			if (len + 4 >= size)
				return false;
			if (request_byte_plain(*w))
				out[len++] = (char)*w;
			else
				len += (size_t)snprintf(out + len, size - len, "%%%02X", *w);
		}
	}
	out[len] = '\0';
	return true;
}

static int request_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes word in place; false when malformed. */
static bool request_word_decode(char *word)
{
	if (strcmp(word, "%") == 0) {
		word[0] = '\0';
		return true;
	}
	char *out = word;
	for (const char *in = word; *in; in++) {
		if (*in != '%') {
			*out++ = *in;
			continue;
		}
		int hi = request_hex(in[1]), lo = hi < 0 ? -1 : request_hex(in[2]);
		if (lo < 0 || (hi == 0 && lo == 0))
			return false;
		*out++ = (char)(hi * 16 + lo);
		in += 2;
	}
	*out = '\0';
	return true;
}

int request_words_decode(char *line, char **words, size_t max)
{
	size_t n = 0;
	char *save = NULL;
	for (char *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (n == max || !request_word_decode(w))
			return -1;
		words[n++] = w;
	}
	return (int)n;
}
