/* controller/json_python.c - JSON written as Python's json.dumps writes it (json_python.h). */
#include "json_python.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_python_real(double x, char *buf, size_t size)
{
	if (!isfinite(x)) { /* Python's spelling; jansson reads none of these */
		snprintf(buf, size, "%s", isnan(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity");
		return;
	}
	/* the fewest significant digits that read back as x, as "D.DDDDe±X" */
	char sci[40];
	int digits = 1;
	for (; digits < 17; digits++) {
		snprintf(sci, sizeof(sci), "%.*e", digits - 1, x);
		if (strtod(sci, NULL) == x)
			break;
	}
	snprintf(sci, sizeof(sci), "%.*e", digits - 1, x);
	char *e = strchr(sci, 'e');
	int exp10 = atoi(e + 1);
	*e = '\0';
	char mantissa[24] = {0}; /* the significant digits alone */
	size_t n = 0;
	for (const char *p = sci; *p; p++)
		if (*p >= '0' && *p <= '9')
			mantissa[n++] = *p;
	char text[48];
	size_t t = 0;
	if (sci[0] == '-')
		text[t++] = '-';
	if (exp10 < -4 || exp10 >= 16) { /* repr's rule: scientific outside -4..15 */
		text[t++] = mantissa[0];
		if (n > 1)
			text[t++] = '.';
		for (size_t i = 1; i < n; i++)
			text[t++] = mantissa[i];
		t += (size_t)sprintf(text + t, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
	} else if (exp10 < 0) {
		text[t++] = '0';
		text[t++] = '.';
		for (int i = -1; i > exp10; i--)
			text[t++] = '0';
		for (size_t i = 0; i < n; i++)
			text[t++] = mantissa[i];
	} else {
		size_t whole = (size_t)exp10 + 1; /* digits before the point */
		for (size_t i = 0; i < whole || i < n; i++) {
			if (i == whole)
				text[t++] = '.';
			text[t++] = i < n ? mantissa[i] : '0';
		}
		if (n <= whole) { /* integral: Python still marks it a float */
			text[t++] = '.';
			text[t++] = '0';
		}
	}
	text[t] = '\0';
	snprintf(buf, size, "%s", text);
}

/* A string as json.dumps writes it (ensure_ascii): jansson's escapes, the same ones. */
static bool json_python_string(FILE *out, const char *text, size_t len)
{
	json_t *s = json_stringn_nocheck(text, len);
	char *printed = s ? json_dumps(s, JSON_ENCODE_ANY | JSON_ENSURE_ASCII) : NULL;
	bool ok = printed && fputs(printed, out) >= 0;
	free(printed);
	json_decref(s);
	return ok;
}

bool json_python_write(FILE *out, const json_t *value)
{
	char num[40];
	switch (value ? json_typeof(value) : JSON_NULL) {
	case JSON_OBJECT: {
		const char *key;
		json_t *item;
		bool ok = fputc('{', out) != EOF, first = true;
		json_object_foreach((json_t *)value, key, item)
		{
			ok = ok && (first || fputc(',', out) != EOF) &&
			     json_python_string(out, key, strlen(key)) && fputc(':', out) != EOF &&
			     json_python_write(out, item);
			first = false;
		}
		return ok && fputc('}', out) != EOF;
	}
	case JSON_ARRAY: {
		bool ok = fputc('[', out) != EOF;
		for (size_t i = 0; i < json_array_size(value); i++)
			ok = ok && (i == 0 || fputc(',', out) != EOF) &&
			     json_python_write(out, json_array_get(value, i));
		return ok && fputc(']', out) != EOF;
	}
	case JSON_STRING:
		return json_python_string(out, json_string_value(value), json_string_length(value));
	case JSON_INTEGER:
		return fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(value)) > 0;
	case JSON_REAL:
		json_python_real(json_real_value(value), num, sizeof(num));
		return fputs(num, out) >= 0;
	case JSON_TRUE:
		return fputs("true", out) >= 0;
	case JSON_FALSE:
		return fputs("false", out) >= 0;
	default:
		return fputs("null", out) >= 0;
	}
}
