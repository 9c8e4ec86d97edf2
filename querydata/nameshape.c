/* querydata/nameshape.c - what a query name looks like: length, labels, reverse, malformed. */
#include "nameshape.h"

#include <ctype.h>
#include <strings.h>

/* Length without a trailing unescaped dot. */
static size_t nameshape_trim(const char *name, size_t len)
{
	if (len == 0 || name[len - 1] != '.')
		return len;
	size_t backslashes = 0;
	for (size_t i = len - 1; i > 0 && name[i - 1] == '\\'; i--)
		backslashes++;
	return backslashes % 2 ? len : len - 1;
}

size_t nameshape_length(const char *name, size_t len)
{
	return nameshape_trim(name, len);
}

size_t nameshape_labels(const char *name, size_t len)
{
	len = nameshape_trim(name, len);
	if (len == 0)
		return 0;
	size_t labels = 1;
	for (size_t i = 0; i < len; i++) {
		if (name[i] == '\\')
			i++;
		else if (name[i] == '.')
			labels++;
	}
	return labels;
}

static bool nameshape_ends_with(const char *name, size_t len, const char *suffix, size_t slen)
{
	if (len < slen || strncasecmp(name + len - slen, suffix, slen) != 0)
		return false;
	return len == slen || name[len - slen - 1] == '.';
}

bool nameshape_is_reverse(const char *name, size_t len)
{
	len = nameshape_trim(name, len);
	return nameshape_ends_with(name, len, "in-addr.arpa", 12) ||
	       nameshape_ends_with(name, len, "ip6.arpa", 8);
}

bool nameshape_is_malformed(const char *name, size_t len)
{
	len = nameshape_trim(name, len);
	size_t label_start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i == len || name[i] == '.') {
			if (i > label_start && (name[label_start] == '-' || name[i - 1] == '-'))
				return true;
			label_start = i + 1;
			continue;
		}
		unsigned char c = (unsigned char)name[i];
		if (!isalnum(c) && c != '-' && c != '_')
			return true;
	}
	/* last label all digits: "127.0.0.1." or "0." asked as a name */
	size_t last = len;
	while (last > 0 && name[last - 1] != '.')
		last--;
	if (last == len)
		return false;
	for (size_t i = last; i < len; i++)
		if (!isdigit((unsigned char)name[i]))
			return false;
	return !nameshape_ends_with(name, len, "arpa", 4);
}

bool nameshape_has_underscore_label(const char *name, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (name[i] == '_' && (i == 0 || name[i - 1] == '.'))
			return true;
	return false;
}
