/* common/queryfile.c - the one query-file parser: dnsperf format, plain, .xz, .gz or stdin,
 * streaming. */
#include "queryfile.h"

#include <ctype.h>
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#define QUERYFILE_CHUNK 65536
/* A line longer than this cannot be a query (names are at most QUERYFILE_NAME_MAX). */
#define QUERYFILE_LINE_MAX 4096

enum queryfile_codec { QUERYFILE_PLAIN, QUERYFILE_GZIP, QUERYFILE_XZ };

struct queryfile {
	char *path;
	FILE *fp;
	bool own_fp;
	bool strict;
	bool allow_meta;
	queryfile_report_fn report;
	void *report_ctx;
	enum queryfile_codec codec;
	z_stream gz;
	lzma_stream xz;
	bool input_eof;  /* fp has nothing more */
	bool output_eof; /* the decoder has nothing more */
	uint8_t in[QUERYFILE_CHUNK];
	size_t in_len, in_pos;
	char out[QUERYFILE_CHUNK];
	size_t out_len, out_pos;
	char line[QUERYFILE_LINE_MAX + 1];
	unsigned long line_no;
	unsigned long skipped;
	char error[QUERYFILE_NAME_MAX + 256];
};

static const struct {
	const char *name;
	uint16_t value;
} queryfile_types[] = {
    {"A", 1},           {"NS", 2},          {"MD", 3},      {"MF", 4},      {"CNAME", 5},
    {"SOA", 6},         {"MB", 7},          {"MG", 8},      {"MR", 9},      {"NULL", 10},
    {"WKS", 11},        {"PTR", 12},        {"HINFO", 13},  {"MINFO", 14},  {"MX", 15},
    {"TXT", 16},        {"RP", 17},         {"AFSDB", 18},  {"X25", 19},    {"ISDN", 20},
    {"RT", 21},         {"NSAP", 22},       {"SIG", 24},    {"KEY", 25},    {"PX", 26},
    {"GPOS", 27},       {"AAAA", 28},       {"LOC", 29},    {"NXT", 30},    {"SRV", 33},
    {"NAPTR", 35},      {"KX", 36},         {"CERT", 37},   {"A6", 38},     {"DNAME", 39},
    {"OPT", 41},        {"APL", 42},        {"DS", 43},     {"SSHFP", 44},  {"IPSECKEY", 45},
    {"RRSIG", 46},      {"NSEC", 47},       {"DNSKEY", 48}, {"DHCID", 49},  {"NSEC3", 50},
    {"NSEC3PARAM", 51}, {"TLSA", 52},       {"SMIMEA", 53}, {"HIP", 55},    {"CDS", 59},
    {"CDNSKEY", 60},    {"OPENPGPKEY", 61}, {"CSYNC", 62},  {"ZONEMD", 63}, {"SVCB", 64},
    {"HTTPS", 65},      {"SPF", 99},        {"NID", 104},   {"L32", 105},   {"L64", 106},
    {"LP", 107},        {"EUI48", 108},     {"EUI64", 109}, {"TKEY", 249},  {"TSIG", 250},
    {"IXFR", 251},      {"AXFR", 252},      {"MAILB", 253}, {"MAILA", 254}, {"ANY", 255},
    {"URI", 256},       {"CAA", 257},       {"AVC", 258},   {"DOA", 259},   {"AMTRELAY", 260},
    {"TA", 32768},      {"DLV", 32769},
};

void queryfile_report_stderr(void *ctx, const char *path, unsigned long line, const char *reason)
{
	fprintf(stderr, "%s:%lu: %s\n", path, line, reason);
}

bool queryfile_type_parse(const char *text, size_t len, uint16_t *qtype)
{
	if (len == 0)
		return false;
	int first = toupper((unsigned char)text[0]);
	for (size_t i = 0; i < sizeof(queryfile_types) / sizeof(queryfile_types[0]); i++) {
		/* the first letter rules out most of the table before any string compare */
		if (queryfile_types[i].name[0] == first && strlen(queryfile_types[i].name) == len &&
		    strncasecmp(queryfile_types[i].name, text, len) == 0) {
			*qtype = queryfile_types[i].value;
			return true;
		}
	}
	if (len > 4 && len <= 9 && strncasecmp(text, "TYPE", 4) == 0) {
		unsigned long v = 0;
		for (size_t i = 4; i < len; i++) {
			if (!isdigit((unsigned char)text[i]))
				return false;
			v = v * 10 + (unsigned long)(text[i] - '0');
		}
		if (v > 65535 || (len > 5 && text[4] == '0'))
			return false;
		*qtype = (uint16_t)v;
		return true;
	}
	return false;
}

bool queryfile_type_is_meta(uint16_t qtype)
{
	return qtype == 0 || qtype == 41 || (qtype >= 249 && qtype <= 252);
}

void queryfile_allow_meta(struct queryfile *qf, bool allow)
{
	qf->allow_meta = allow;
}

void queryfile_set_xz_memlimit(struct queryfile *qf, uint64_t bytes)
{
	if (qf->codec == QUERYFILE_XZ)
		lzma_memlimit_set(&qf->xz, bytes);
}

void queryfile_type_format(uint16_t qtype, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(queryfile_types) / sizeof(queryfile_types[0]); i++) {
		if (queryfile_types[i].value == qtype) {
			snprintf(buf, size, "%s", queryfile_types[i].name);
			return;
		}
	}
	snprintf(buf, size, "TYPE%u", (unsigned)qtype);
}

size_t queryfile_name_to_wire(const char *name, size_t len, uint8_t *wire, const char **reason)
{
	if (len == 0) {
		*reason = "empty name";
		return 0;
	}
	if (len == 1 && name[0] == '.') {
		wire[0] = 0;
		return 1;
	}
	size_t w = 1;         /* next free byte in wire (byte 0 is the first length) */
	size_t label_at = 0;  /* where the current label's length byte is */
	size_t label_len = 0; /* octets in the current label so far */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == '.') {
			if (label_len == 0) {
				*reason = "empty label";
				return 0;
			}
			wire[label_at] = (uint8_t)label_len;
			label_at = w;
			label_len = 0;
			if (w + 1 > QUERYFILE_WIRE_NAME_MAX) {
				*reason = "name too long (over 255 octets in wire form)";
				return 0;
			}
			w++;
			continue;
		}
		if (c == '\\') {
			if (i + 1 >= len) {
				*reason = "backslash at end of name";
				return 0;
			}
			if (isdigit((unsigned char)name[i + 1])) {
				if (i + 3 >= len || !isdigit((unsigned char)name[i + 2]) ||
				    !isdigit((unsigned char)name[i + 3])) {
					*reason = "incomplete \\DDD escape";
					return 0;
				}
				int v = (name[i + 1] - '0') * 100 + (name[i + 2] - '0') * 10 +
				        (name[i + 3] - '0');
				if (v > 255) {
					*reason = "\\DDD escape above 255";
					return 0;
				}
				c = (unsigned char)v;
				i += 3;
			} else {
				c = (unsigned char)name[++i];
			}
		} else if (c <= ' ' || c == 0x7f) {
			*reason = "control or blank character in name (escape it as \\DDD)";
			return 0;
		}
		if (label_len == 63) {
			*reason = "label longer than 63 octets";
			return 0;
		}
		if (w + 1 > QUERYFILE_WIRE_NAME_MAX) {
			*reason = "name too long (over 255 octets in wire form)";
			return 0;
		}
		wire[w++] = c;
		label_len++;
	}
	if (label_len > 0) {
		/* no trailing dot: the name is taken as absolute anyway */
		wire[label_at] = (uint8_t)label_len;
		if (w + 1 > QUERYFILE_WIRE_NAME_MAX) {
			*reason = "name too long (over 255 octets in wire form)";
			return 0;
		}
		wire[w++] = 0;
	} else {
		wire[label_at] = 0;
	}
	return w;
}

size_t queryfile_wire_query(const char *name, size_t name_len, uint16_t qtype, uint16_t id,
                            uint16_t edns_udp_size, uint8_t *buf, size_t size)
{
	uint8_t wire[QUERYFILE_WIRE_NAME_MAX + 1];
	const char *reason;
	size_t wlen = queryfile_name_to_wire(name, name_len, wire, &reason);
	if (wlen == 0)
		return 0;
	size_t need = 12 + wlen + 4 + (edns_udp_size ? 11 : 0);
	if (need > size)
		return 0;
	uint8_t *p = buf;
	memset(p, 0, 12);
	p[0] = (uint8_t)(id >> 8);
	p[1] = (uint8_t)id;
	p[2] = 0x01; /* RD */
	p[5] = 1;    /* QDCOUNT */
	p[11] = edns_udp_size ? 1 : 0;
	p += 12;
	memcpy(p, wire, wlen);
	p += wlen;
	*p++ = (uint8_t)(qtype >> 8);
	*p++ = (uint8_t)qtype;
	*p++ = 0;
	*p++ = 1; /* IN */
	if (edns_udp_size) {
		*p++ = 0; /* root owner */
		*p++ = 0;
		*p++ = 41; /* OPT */
		*p++ = (uint8_t)(edns_udp_size >> 8);
		*p++ = (uint8_t)edns_udp_size;
		memset(p, 0, 6); /* extended rcode, version, flags, rdlength */
		p += 6;
	}
	return (size_t)(p - buf);
}

/* Reads more compressed (or plain) bytes from the file; false on a read error. */
static bool queryfile_fill_input(struct queryfile *qf)
{
	if (qf->in_pos < qf->in_len || qf->input_eof)
		return true;
	qf->in_pos = 0;
	qf->in_len = fread(qf->in, 1, sizeof(qf->in), qf->fp);
	if (qf->in_len == 0) {
		if (ferror(qf->fp)) {
			snprintf(qf->error, sizeof(qf->error), "%s: read error: %s", qf->path,
			         strerror(errno));
			return false;
		}
		qf->input_eof = true;
	}
	return true;
}

/* Refills qf->out with decoded bytes; false on error. Sets output_eof at the end. */
static bool queryfile_decode(struct queryfile *qf)
{
	qf->out_pos = 0;
	qf->out_len = 0;
	while (qf->out_len == 0 && !qf->output_eof) {
		if (!queryfile_fill_input(qf))
			return false;
		size_t avail = qf->in_len - qf->in_pos;
		if (qf->codec == QUERYFILE_PLAIN) {
			if (avail == 0) {
				qf->output_eof = true;
				break;
			}
			memcpy(qf->out, qf->in + qf->in_pos, avail);
			qf->out_len = avail;
			qf->in_pos += avail;
		} else if (qf->codec == QUERYFILE_GZIP) {
			if (avail == 0 && qf->input_eof) {
				snprintf(qf->error, sizeof(qf->error),
				         "%s: gzip data ends early (truncated file?)", qf->path);
				return false;
			}
			qf->gz.next_in = qf->in + qf->in_pos;
			qf->gz.avail_in = (uInt)avail;
			qf->gz.next_out = (Bytef *)qf->out;
			qf->gz.avail_out = sizeof(qf->out);
			int rc = inflate(&qf->gz, Z_NO_FLUSH);
			qf->in_pos = qf->in_len - qf->gz.avail_in;
			qf->out_len = sizeof(qf->out) - qf->gz.avail_out;
			if (rc == Z_STREAM_END) {
				/* gzip files may hold several members: go on if more bytes follow
				 */
				if (!queryfile_fill_input(qf))
					return false;
				if (qf->in_pos == qf->in_len && qf->input_eof)
					qf->output_eof = true;
				else
					inflateReset(&qf->gz);
			} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
				snprintf(qf->error, sizeof(qf->error), "%s: gzip data error: %s",
				         qf->path, qf->gz.msg ? qf->gz.msg : "corrupt");
				return false;
			}
		} else {
			qf->xz.next_in = qf->in + qf->in_pos;
			qf->xz.avail_in = avail;
			qf->xz.next_out = (uint8_t *)qf->out;
			qf->xz.avail_out = sizeof(qf->out);
			lzma_ret rc = lzma_code(&qf->xz, qf->input_eof ? LZMA_FINISH : LZMA_RUN);
			qf->in_pos = qf->in_len - qf->xz.avail_in;
			qf->out_len = sizeof(qf->out) - qf->xz.avail_out;
			if (rc == LZMA_STREAM_END) {
				qf->output_eof = true;
			} else if (rc == LZMA_MEMLIMIT_ERROR) {
				snprintf(
				    qf->error, sizeof(qf->error),
				    "%s: the xz decoder would need %llu MiB of memory, more than "
				    "the %llu MiB allowed (compressed with a huge dictionary?)",
				    qf->path,
				    (unsigned long long)(lzma_memusage(&qf->xz) + (1 << 20) - 1) >>
				        20,
				    (unsigned long long)lzma_memlimit_get(&qf->xz) >> 20);
				return false;
			} else if (rc != LZMA_OK) {
				snprintf(qf->error, sizeof(qf->error),
				         "%s: xz data error (code %d%s)", qf->path, (int)rc,
				         rc == LZMA_BUF_ERROR ? ", truncated file?" : "");
				return false;
			}
		}
	}
	return true;
}

struct queryfile *queryfile_open(const char *path, bool strict, queryfile_report_fn report,
                                 void *report_ctx, char *err, size_t err_size)
{
	struct queryfile *qf = calloc(1, sizeof(*qf));
	if (!qf) {
		snprintf(err, err_size, "%s: out of memory", path);
		return NULL;
	}
	qf->path = strdup(path);
	qf->strict = strict;
	qf->report = report;
	qf->report_ctx = report_ctx;
	if (strcmp(path, "-") == 0) {
		qf->fp = stdin;
	} else {
		qf->fp = fopen(path, "rb");
		qf->own_fp = true;
	}
	if (!qf->fp || !qf->path) {
		snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
		queryfile_close(qf);
		return NULL;
	}
	if (!queryfile_fill_input(qf)) {
		snprintf(err, err_size, "%s", qf->error);
		queryfile_close(qf);
		return NULL;
	}
	static const uint8_t xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0};
	if (qf->in_len >= 6 && memcmp(qf->in, xz_magic, 6) == 0) {
		qf->codec = QUERYFILE_XZ;
		lzma_stream init = LZMA_STREAM_INIT;
		qf->xz = init;
		if (lzma_stream_decoder(&qf->xz, QUERYFILE_XZ_MEMLIMIT, LZMA_CONCATENATED) !=
		    LZMA_OK) {
			snprintf(err, err_size, "%s: cannot start the xz decoder", path);
			qf->codec = QUERYFILE_PLAIN;
			queryfile_close(qf);
			return NULL;
		}
	} else if (qf->in_len >= 2 && qf->in[0] == 0x1f && qf->in[1] == 0x8b) {
		qf->codec = QUERYFILE_GZIP;
		if (inflateInit2(&qf->gz, 16 + MAX_WBITS) != Z_OK) {
			snprintf(err, err_size, "%s: cannot start the gzip decoder", path);
			qf->codec = QUERYFILE_PLAIN;
			queryfile_close(qf);
			return NULL;
		}
	}
	return qf;
}

void queryfile_close(struct queryfile *qf)
{
	if (!qf)
		return;
	if (qf->codec == QUERYFILE_GZIP)
		inflateEnd(&qf->gz);
	else if (qf->codec == QUERYFILE_XZ)
		lzma_end(&qf->xz);
	if (qf->own_fp && qf->fp)
		fclose(qf->fp);
	free(qf->path);
	free(qf);
}

const char *queryfile_error(const struct queryfile *qf)
{
	return qf->error;
}

unsigned long queryfile_skipped(const struct queryfile *qf)
{
	return qf->skipped;
}

/*
 * Reads the next line into qf->line without its newline (and a trailing CR).
 * Returns its length, -1 at the end, -2 on error, -3 for a line too long (consumed).
 */
static long queryfile_read_line(struct queryfile *qf, bool *has_nul)
{
	size_t len = 0;
	bool too_long = false, any = false;
	*has_nul = false;
	for (;;) {
		if (qf->out_pos == qf->out_len) {
			if (qf->output_eof)
				break;
			if (!queryfile_decode(qf))
				return -2;
			continue;
		}
		any = true;
		char *start = qf->out + qf->out_pos;
		size_t avail = qf->out_len - qf->out_pos;
		char *nl = memchr(start, '\n', avail);
		size_t take = nl ? (size_t)(nl - start) : avail;
		if (!too_long) {
			if (len + take > QUERYFILE_LINE_MAX) {
				too_long = true;
			} else {
				if (memchr(start, '\0', take))
					*has_nul = true;
				memcpy(qf->line + len, start, take);
				len += take;
			}
		}
		qf->out_pos += take + (nl ? 1 : 0);
		if (nl)
			break;
	}
	if (!any)
		return -1;
	qf->line_no++;
	if (too_long)
		return -3;
	if (len > 0 && qf->line[len - 1] == '\r')
		len--;
	qf->line[len] = '\0';
	return (long)len;
}

/* Reports a malformed line; returns false when that is fatal (strict mode). */
static bool queryfile_malformed(struct queryfile *qf, const char *reason)
{
	qf->skipped++;
	if (qf->report)
		qf->report(qf->report_ctx, qf->path, qf->line_no, reason);
	if (qf->strict) {
		snprintf(qf->error, sizeof(qf->error), "%s:%lu: %s", qf->path, qf->line_no, reason);
		return false;
	}
	return true;
}

static bool queryfile_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Parses qf->line; returns NULL when it is a query (entry filled), "" for a blank or comment
 * line, or the reason it is malformed. */
static const char *queryfile_parse_line(struct queryfile *qf, size_t len,
                                        struct queryfile_entry *entry)
{
	char *s = qf->line;
	size_t i = 0;
	while (i < len && queryfile_is_blank(s[i]))
		i++;
	if (i == len || s[i] == '#' || s[i] == ';')
		return "";
	size_t name_start = i;
	/* a blank may belong to the name only when escaped */
	while (i < len && !queryfile_is_blank(s[i])) {
		if (s[i] == '\\' && i + 1 < len)
			i++;
		i++;
	}
	size_t name_end = i;
	while (i < len && queryfile_is_blank(s[i]))
		i++;
	if (i == len)
		return "missing type (expected NAME TYPE)";
	size_t type_start = i;
	while (i < len && !queryfile_is_blank(s[i]))
		i++;
	size_t type_end = i;
	while (i < len && queryfile_is_blank(s[i]))
		i++;
	if (i < len && s[i] != '#' && s[i] != ';')
		return "unexpected text after the type";
	if (!queryfile_type_parse(s + type_start, type_end - type_start, &entry->qtype))
		return "unknown query type";
	if (!qf->allow_meta && queryfile_type_is_meta(entry->qtype))
		return "meta or transfer type (TYPE0, OPT, TKEY, TSIG, IXFR, AXFR): not a question "
		       "to replay";
	size_t name_len = name_end - name_start;
	if (name_len > QUERYFILE_NAME_MAX)
		return "name too long";
	uint8_t wire[QUERYFILE_WIRE_NAME_MAX + 1];
	const char *reason = NULL;
	if (queryfile_name_to_wire(s + name_start, name_len, wire, &reason) == 0)
		return reason;
	s[name_end] = '\0';
	entry->name = s + name_start;
	entry->name_len = name_len;
	entry->line = qf->line_no;
	return NULL;
}

int queryfile_next(struct queryfile *qf, struct queryfile_entry *entry)
{
	for (;;) {
		bool has_nul;
		long len = queryfile_read_line(qf, &has_nul);
		if (len == -1)
			return 0;
		if (len == -2)
			return -1;
		const char *reason;
		if (len == -3)
			reason = "line too long";
		else if (has_nul)
			reason = "NUL byte in line";
		else
			reason = queryfile_parse_line(qf, (size_t)len, entry);
		if (!reason)
			return 1;
		if (reason[0] == '\0')
			continue;
		if (!queryfile_malformed(qf, reason))
			return -1;
	}
}

bool queryfile_load(const char *path, bool strict, queryfile_report_fn report, void *report_ctx,
                    struct queryfile_set *set, char *err, size_t err_size)
{
	memset(set, 0, sizeof(*set));
	struct queryfile *qf = queryfile_open(path, strict, report, report_ctx, err, err_size);
	if (!qf)
		return false;
	size_t cap = 0, storage_len = 0, storage_cap = 0;
	struct queryfile_entry e;
	int rc;
	/* names are stored as offsets first, since storage moves while it grows */
	while ((rc = queryfile_next(qf, &e)) == 1) {
		if (set->count == cap) {
			cap = cap ? cap * 2 : 4096;
			void *p = realloc(set->queries, cap * sizeof(*set->queries));
			if (!p)
				goto oom;
			set->queries = p;
		}
		if (storage_len + e.name_len + 1 > storage_cap) {
			storage_cap = storage_cap ? storage_cap * 2 : 65536;
			while (storage_len + e.name_len + 1 > storage_cap)
				storage_cap *= 2;
			void *p = realloc(set->storage, storage_cap);
			if (!p)
				goto oom;
			set->storage = p;
		}
		memcpy(set->storage + storage_len, e.name, e.name_len + 1);
		set->queries[set->count].name = (const char *)(uintptr_t)storage_len;
		set->queries[set->count].qtype = e.qtype;
		set->queries[set->count].line = e.line;
		set->count++;
		storage_len += e.name_len + 1;
	}
	if (rc < 0) {
		snprintf(err, err_size, "%s", queryfile_error(qf));
		queryfile_close(qf);
		queryfile_set_free(set);
		return false;
	}
	for (size_t i = 0; i < set->count; i++)
		set->queries[i].name = set->storage + (uintptr_t)set->queries[i].name;
	set->skipped = queryfile_skipped(qf);
	queryfile_close(qf);
	return true;
oom:
	snprintf(err, err_size, "%s: out of memory after %zu queries", path, set->count);
	queryfile_close(qf);
	queryfile_set_free(set);
	return false;
}

void queryfile_set_free(struct queryfile_set *set)
{
	free(set->queries);
	free(set->storage);
	memset(set, 0, sizeof(*set));
}
