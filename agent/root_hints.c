/* agent/root_hints.c - the root hints a row plan carries (root_hints.h). */
#include "root_hints.h"

#include <stdio.h>
#include <string.h>

#include "atomic_write_file.h"

bool root_hints_text_valid(const char *text, char *err, size_t err_size)
{
	size_t len = strlen(text);
	if (len == 0 || len > ROOT_HINTS_MAX_BYTES) {
		snprintf(err, err_size, "\"root_hints\": 1 to %d bytes of the run's root.hints",
		         ROOT_HINTS_MAX_BYTES);
		return false;
	}
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if ((*p < ' ' && *p != '\t' && *p != '\n' && *p != '\r') || *p >= 0x7f) {
			snprintf(
			    err, err_size,
			    "\"root_hints\": text only (byte %zu is 0x%02x): the run's root.hints",
			    (size_t)(p - (const unsigned char *)text), *p);
			return false;
		}
	return true;
}

bool root_hints_keep(const char *control, const char *text, char *path, size_t path_size, char *err,
                     size_t err_size)
{
	if ((size_t)snprintf(path, path_size, "%s.root.hints", control) >= path_size) {
		snprintf(err, err_size, "--control %s: too long a path for its root hints",
		         control);
		return false;
	}
	return atomic_write_file(path, text, strlen(text), err, err_size);
}
