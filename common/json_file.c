/* common/json_file.c - JSON file helpers shared by the run-folder writer, reader and reports. */
#include "json_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Renames the finished temporary file tmp over path (removing tmp when that fails). */
static bool rename_into_place(const char *tmp, const char *path, char *err, size_t err_size)
{
	if (rename(tmp, path) != 0) {
		snprintf(err, err_size, "%s: cannot rename into place: %s", path, strerror(errno));
		unlink(tmp);
		return false;
	}
	return true;
}

bool json_file_write_atomic(const char *path, const json_t *value, char *err, size_t err_size)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	if (json_dump_file(value, tmp, JSON_INDENT(2) | JSON_SORT_KEYS) != 0) {
		snprintf(err, err_size, "%s: cannot write: %s", tmp, strerror(errno));
		unlink(tmp);
		return false;
	}
	return rename_into_place(tmp, path, err, err_size);
}

bool text_file_write_atomic(const char *path, const char *text, char *err, size_t err_size)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	bool ok = f && fputs(text, f) >= 0;
	if (f && fclose(f) != 0)
		ok = false;
	if (!ok) {
		snprintf(err, err_size, "%s: cannot write: %s", tmp, strerror(errno));
		unlink(tmp);
		return false;
	}
	return rename_into_place(tmp, path, err, err_size);
}

json_t *json_file_load(const char *path, char *err, size_t err_size)
{
	json_error_t jerr;
	json_t *value = json_load_file(path, 0, &jerr);
	if (!value)
		snprintf(err, err_size, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
	return value;
}
