/* tests/fuzz/fuzz_queryfile.c - libFuzzer target over the query-file parser (common/queryfile):
 * plain, gzip or xz content (recognised by its first bytes), read line by line and all at once.
 *
 * Input: byte 0 bit 0 asks for strict mode; the rest is the file. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "queryfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	bool strict = data[0] & 1;
	char path[64], err[512];
	int fd = fuzz_memfile(data + 1, size - 1, path, sizeof(path));
	struct queryfile *qf = queryfile_open(path, strict, NULL, NULL, err, sizeof(err));
	if (qf) {
		struct queryfile_entry e;
		while (queryfile_next(qf, &e) > 0)
			if (strlen(e.name) != e.name_len)
				__builtin_trap(); /* name_len is strlen(name) by contract */
		queryfile_close(qf);
	}
	struct queryfile_set set = {0};
	if (queryfile_load(path, strict, NULL, NULL, &set, err, sizeof(err)))
		queryfile_set_free(&set);
	close(fd);
	return 0;
}
