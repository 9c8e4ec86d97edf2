/* resolver/main.c - allocspike-resolver: parses options and wires the resolver's modules together. */
#include <stdio.h>
#include <string.h>

#include "version.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: allocspike-resolver [--version [--json]]\n");
}

int main(int argc, char **argv)
{
	int want_version = 0, want_json = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0)
			want_version = 1;
		else if (strcmp(argv[i], "--json") == 0)
			want_json = 1;
		else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "allocspike-resolver: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (want_version) {
		resolver_version_print(stdout, want_json);
		return 0;
	}
	usage(stderr);
	return 2;
}
