/* controller/hosts_file.h - the hosts file of a placement (allocspike-run place, docs/controller.md
 * "The hosts file"): one line per agent, its host's name, its address and the row of variants.tsv
 * it starts, or HOSTS_FILE_SHARD for a generator host (a shard of the generator); each row on one
 * agent only, each agent once. */
#ifndef ALLOCSPIKE_CONTROLLER_HOSTS_FILE_H
#define ALLOCSPIKE_CONTROLLER_HOSTS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "identifier.h"
#include "variants_table.h"

/* An agent's port when its line gives none: the agent's default (docs/agent.md). */
#define HOSTS_FILE_AGENT_PORT 9110
/* The third field of a generator host's line: not an identifier, so never a row's name. */
#define HOSTS_FILE_SHARD "@shard"

struct hosts_entry {
	char host[IDENTIFIER_MAX_LEN + 1];
	char row[IDENTIFIER_MAX_LEN + 1];
	char addr_text[96]; /* ADDR:PORT as sockaddr_format gives it back */
	struct sockaddr_storage addr;
	socklen_t addr_len;
	unsigned line;
};

struct hosts_file {
	struct hosts_entry *entries; /* the rows' agents, in the file's order */
	size_t count;
	struct hosts_entry *shards; /* the generator hosts' agents (row ""), in the file's order:
	                               shard I of n_shards is shards[I - 1] */
	size_t n_shards;
};

/* Reads and checks path against table (its rows: a build or env row, each once; a generator
 * host's line kept apart, in shards); on the first
 * problem false with "FILE:LINE: reason" in err and nothing kept. default_port: an address's port
 * when the line gives none (the agent's). */
bool hosts_file_read(struct hosts_file *hosts, const char *path, const struct variants_table *table,
                     int default_port, char *err, size_t err_size);
/* Whether the comma-separated list of rows ("a,b,c") holds the name of len bytes. */
bool hosts_rows_have(const char *rows, const char *name, size_t len);

/* Keeps only the row lines whose row is in rows ("a,b,c"; the generator hosts stay): a drive over
 * some of the file's rows (a calibration's extension pass over the rows still answering) places
 * those. False with the reason in err when rows names a row the file does not place. */
bool hosts_file_keep_rows(struct hosts_file *hosts, const char *rows, char *err, size_t err_size);

void hosts_file_free(struct hosts_file *hosts);

#endif
