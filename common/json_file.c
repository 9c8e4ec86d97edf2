/* common/json_file.c - JSON file helpers shared by the run-folder writer, reader and reports. */
#include "json_file.h"

#include <stdlib.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "atomic_write_file.h"

bool json_file_write_atomic(const char *path, const json_t *value, char *err, size_t err_size)
{
	return json_file_write_atomic_as(path, value, JSON_INDENT(2) | JSON_SORT_KEYS, err,
	                                 err_size);
}

bool json_file_write_atomic_as(const char *path, const json_t *value, size_t flags, char *err,
                               size_t err_size)
{
	struct atomic_file af;
	if (!atomic_file_open(&af, path, err, err_size))
		return false;
	bool ok = json_dumpf(value, af.f, flags) == 0;
	if (!ok)
		snprintf(err, err_size, "%s: cannot write: %s", af.path, strerror(errno));
	return atomic_file_commit(&af, ok, err, err_size) && ok;
}

bool text_file_write_atomic(const char *path, const char *text, char *err, size_t err_size)
{
	return atomic_write_file(path, text, strlen(text), err, err_size);
}

void file_path_beside(const char *page, const char *ext, char *out, size_t size)
{
	const char *slash = strrchr(page, '/'), *dot = strrchr(page, '.');
	size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - page) : strlen(page);
	snprintf(out, size, "%.*s%s", (int)stem, page, ext);
}

json_t *json_file_load(const char *path, char *err, size_t err_size)
{
	json_error_t jerr;
	json_t *value = json_load_file(path, 0, &jerr);
	if (!value)
		snprintf(err, err_size, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
	return value;
}

bool json_print_line(FILE *out, const char *prefix, const json_t *value)
{
	char *text = value ? json_dumps(value, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	if (text)
		fprintf(out, "%s%s\n", prefix, text);
	free(text);
	return text != NULL;
}
