/* controller/place_command.c - a served run's placement command (place_command.h). */
#include "place_command.h"

#include <limits.h>

#include "hosts_file.h"
#include "variant_command.h"

bool place_command_add(char ***list, size_t *n, const char *bin_dir, const char *dir,
                       const char *schedule, const char *queries, const char *rows,
                       const char *words)
{
	char program[PATH_MAX + 32];
	snprintf(program, sizeof(program), "%s/allocspike-run", bin_dir);
	return variant_words_add_list(list, n, program, "place", "--out", dir, "--schedule",
	                              schedule, "--queries", queries, "--in-run", "--rows", rows) &&
	       variant_words_add_lines(list, n, words);
}

bool place_command_print_placement(FILE *out, const char *hosts_path,
                                   const struct variants_table *table, char *err, size_t err_size)
{
	struct hosts_file hosts;
	if (!hosts_file_read(&hosts, hosts_path, table, HOSTS_FILE_AGENT_PORT, err, err_size))
		return false;
	for (size_t i = 0; i < hosts.count; i++)
		fprintf(out, "placement: host %s, agent %s, row %s\n", hosts.entries[i].host,
		        hosts.entries[i].addr_text, hosts.entries[i].row);
	hosts_file_free(&hosts);
	return true;
}
