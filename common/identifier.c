/* common/identifier.c - the one check of names used as identifiers (identifier.h). */
#include "identifier.h"

#include <stdio.h>
#include <string.h>

static bool identifier_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

void identifier_sanitize(char *s)
{
	for (; *s; s++)
		if (!identifier_char((unsigned char)*s))
			*s = '_';
}

static bool identifier_fail(char *why, size_t why_size, const char *text)
{
	if (why && why_size)
		snprintf(why, why_size, "%s", text);
	return false;
}

bool identifier_valid(const char *s, char *why, size_t why_size)
{
	if (!s || !*s)
		return identifier_fail(why, why_size, "empty name");
	size_t len = strlen(s);
	if (len > IDENTIFIER_MAX_LEN) {
		char text[96];
		snprintf(text, sizeof(text), "name of %zu characters (at most %d)", len,
		         IDENTIFIER_MAX_LEN);
		return identifier_fail(why, why_size, text);
	}
	if (s[0] == '.' || s[0] == '-')
		return identifier_fail(why, why_size, "name starting with '.' or '-'");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (identifier_char(c))
			continue;
		char text[96];
		if (c > 0x20 && c < 0x7f)
			snprintf(text, sizeof(text),
			         "character '%c' at position %zu of a name (allowed: "
			         "A-Z a-z 0-9 . _ -)",
			         c, i + 1);
		else
			snprintf(text, sizeof(text),
			         "byte 0x%02x at position %zu of a name (allowed: "
			         "A-Z a-z 0-9 . _ -)",
			         c, i + 1);
		return identifier_fail(why, why_size, text);
	}
	return true;
}

bool identifier_assignment(const char *text, char name[IDENTIFIER_MAX_LEN + 1], const char **value,
                           char *why, size_t why_size)
{
	const char *eq = strchr(text, '=');
	char reason[160];
	if (!eq || (size_t)(eq - text) > IDENTIFIER_MAX_LEN) {
		snprintf(why, why_size, "not NAME=VALUE");
		return false;
	}
	snprintf(name, IDENTIFIER_MAX_LEN + 1, "%.*s", (int)(eq - text), text);
	if (!identifier_valid(name, reason, sizeof(reason))) {
		snprintf(why, why_size, "the name %s", reason);
		return false;
	}
	*value = eq + 1;
	return true;
}
