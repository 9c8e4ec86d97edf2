/* tests/fuzz/fuzz_hints.c - libFuzzer target over the resolver's root hints reader
 * (resolver/hints.c): a zone file of NS records and the root servers' addresses.
 *
 * Input: the file. */
#include <stdint.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "hints.h"
#include "resolver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct resolver_config cfg;
	char path[64], err[512];
	int fd = fuzz_memfile(data, size, path, sizeof(path));
	cfg.n_roots = 0;
	if (hints_load(&cfg, path, err, sizeof(err)) == 0 &&
	    (cfg.n_roots < 0 || cfg.n_roots > RESOLVER_MAX_ROOTS))
		__builtin_trap(); /* the table must never overflow */
	close(fd);
	return 0;
}
