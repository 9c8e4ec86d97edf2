/* common/json_file.h - reading and atomically writing JSON files with jansson (and text files,
 * such as the pages made beside them). */
#ifndef ALLOCSPIKE_JSON_FILE_H
#define ALLOCSPIKE_JSON_FILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes value to path through a temporary file and rename(), so readers never see half a file. */
bool json_file_write_atomic(const char *path, const json_t *value, char *err, size_t err_size);
/* The same with jansson's dump flags (json_file_write_atomic's: JSON_INDENT(2) | JSON_SORT_KEYS).
 */
bool json_file_write_atomic_as(const char *path, const json_t *value, size_t flags, char *err,
                               size_t err_size);
/* The same for text (an HTML page). */
bool text_file_write_atomic(const char *path, const char *text, char *err, size_t err_size);

/* The path of a file made beside a page: PAGE with its extension (from the last '.' after the
 * last '/') replaced by EXT, or EXT added ("runs/cmp.html", ".json": "runs/cmp.json"). */
void file_path_beside(const char *page, const char *ext, char *out, size_t size);

/* value on one line of out, compact and in its keys' order, after prefix (may be ""); false when
 * it could not be written (out of memory). */
bool json_print_line(FILE *out, const char *prefix, const json_t *value);

/* Loads path; on failure returns NULL with "path:line:column: reason" in err. */
json_t *json_file_load(const char *path, char *err, size_t err_size);

#endif
