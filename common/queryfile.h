/* common/queryfile.h - the one query-file parser: dnsperf format, plain, .xz, .gz or stdin,
 * streaming. */
#ifndef ALLOCSPIKE_QUERYFILE_H
#define ALLOCSPIKE_QUERYFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Format: one query a line, `NAME<TAB or spaces>TYPE`, for example `www.example.com.	AAAA`.
 * Blank lines and lines whose first non-blank character is `#` or `;` are ignored; a `#` or `;`
 * comment may also follow the type. NAME is presentation form (`\X` and `\DDD` escapes allowed,
 * trailing dot optional, `.` is the root); TYPE is a mnemonic (case-insensitive) or TYPEnnn.
 * Compression is recognised by the file's first bytes, not its name: xz, gzip, or plain.
 */

/* Longest name in presentation form we accept (every label fully \DDD-escaped: 255 * 4). */
#define QUERYFILE_NAME_MAX 1024
/* A DNS name in wire form is at most 255 octets. */
#define QUERYFILE_WIRE_NAME_MAX 255

struct queryfile_entry {
	const char *name;   /* as written in the file, NUL-terminated; valid until the next read */
	size_t name_len;    /* strlen(name) */
	uint16_t qtype;     /* e.g. 1 for A, 28 for AAAA */
	unsigned long line; /* 1-based line number in the (decompressed) file */
};

/* Called once per malformed line, with the path given to queryfile_open ("-" for stdin). */
typedef void (*queryfile_report_fn)(void *ctx, const char *path, unsigned long line,
                                    const char *reason);

/* A ready-made reporter: prints "path:line: reason" to stderr (ctx unused). */
void queryfile_report_stderr(void *ctx, const char *path, unsigned long line, const char *reason);

struct queryfile;

/*
 * Opens path ("-" is stdin). strict: the first malformed line is fatal (queryfile_next returns
 * -1), otherwise it is skipped, counted and reported. report may be NULL (count only).
 * Returns NULL with "path: reason" in err when the file cannot be opened.
 */
struct queryfile *queryfile_open(const char *path, bool strict, queryfile_report_fn report,
                                 void *report_ctx, char *err, size_t err_size);

/* Meta and transfer types (TYPE0, OPT, TKEY, TSIG, IXFR, AXFR) are not questions a resolver
 * answers from UDP traffic: by default a line asking one is malformed ("meta or transfer type
 * ..."). allow: accept them as any other type. Call before the first queryfile_next. */
void queryfile_allow_meta(struct queryfile *qf, bool allow);

/* True for the types queryfile_allow_meta is about. */
bool queryfile_type_is_meta(uint16_t qtype);

/* The most memory the xz decoder may use. A file whose header asks for more (a dictionary of
 * gigabytes: an xz bomb, or a file compressed for another machine) fails with the amount it asked
 * for, instead of taking the machine's memory. */
#define QUERYFILE_XZ_MEMLIMIT (128u << 20)
/* Another limit for this file (tests); takes effect on the next read. */
void queryfile_set_xz_memlimit(struct queryfile *qf, uint64_t bytes);

/* Reads the next query: 1 with *entry filled, 0 at the end, -1 on error (queryfile_error). */
int queryfile_next(struct queryfile *qf, struct queryfile_entry *entry);

/* After -1: "path:line: reason" or "path: reason". */
const char *queryfile_error(const struct queryfile *qf);

/* Malformed lines skipped so far. */
unsigned long queryfile_skipped(const struct queryfile *qf);

void queryfile_close(struct queryfile *qf);

/* Every query of a file in memory, for programs that need random access (the generator). */
struct queryfile_query {
	const char *name; /* points into the set's storage */
	uint16_t qtype;
	unsigned long line;
};

struct queryfile_set {
	struct queryfile_query *queries;
	size_t count;
	unsigned long skipped;
	char *storage; /* all names, NUL-separated */
};

/* Reads the whole file into set (same rules as queryfile_open/next, meta types refused); false
 * with err on error. */
bool queryfile_load(const char *path, bool strict, queryfile_report_fn report, void *report_ctx,
                    struct queryfile_set *set, char *err, size_t err_size);
void queryfile_set_free(struct queryfile_set *set);

/* Type mnemonic or TYPEnnn (case-insensitive) to its number; false if unknown. */
bool queryfile_type_parse(const char *text, size_t len, uint16_t *qtype);
/* Writes the mnemonic, or TYPEnnn when there is none, into buf. */
void queryfile_type_format(uint16_t qtype, char *buf, size_t size);

/*
 * Presentation name to wire form (uncompressed, ending in the root label). Returns the wire
 * length, or 0 with a reason in *reason (a static string) when the name is not valid.
 */
size_t queryfile_name_to_wire(const char *name, size_t len, uint8_t *wire, const char **reason);

/*
 * A complete DNS query message for entry (class IN): header with id and RD set, the question,
 * and an EDNS0 OPT record advertising edns_udp_size when that is non-zero. Returns its length,
 * or 0 if the name is invalid or buf is too small (512 bytes always suffice).
 */
size_t queryfile_wire_query(const char *name, size_t name_len, uint16_t qtype, uint16_t id,
                            uint16_t edns_udp_size, uint8_t *buf, size_t size);

#endif
