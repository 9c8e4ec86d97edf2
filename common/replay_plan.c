/* common/replay_plan.c - the replay plan: queries with their relative time, client and transport,
 * one a line. */
#include "replay_plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "queryfile.h"

#define REPLAY_PLAN_LINE_MAX 4096

struct replay_plan {
	FILE *f;
	bool own;
	char path[1024];
	unsigned long line;
	uint64_t last_ns;
	char buf[REPLAY_PLAN_LINE_MAX + 2];
	char error[1400];
};

void replay_plan_write_header(FILE *out, const char *source)
{
	fputs(REPLAY_PLAN_HEADER "\n", out);
	fputs("# seconds client transport name type\n", out);
	if (source)
		fprintf(out, "# source %s\n", source);
}

void replay_plan_write_client(FILE *out, uint32_t client, const char *identity)
{
	fprintf(out, "# client %" PRIu32 " %s\n", client, identity);
}

void replay_plan_write(FILE *out, const struct replay_plan_entry *e)
{
	char type[24];
	queryfile_type_format(e->qtype, type, sizeof(type));
	fprintf(out, "%" PRIu64 ".%09" PRIu64 " %" PRIu32 " %s %s %s\n", e->t_ns / 1000000000u,
	        e->t_ns % 1000000000u, e->client, e->tcp ? "tcp" : "udp", e->name, type);
}

struct replay_plan *replay_plan_open(const char *path, char *err, size_t err_size)
{
	struct replay_plan *rp = calloc(1, sizeof(*rp));
	if (!rp) {
		snprintf(err, err_size, "%s: out of memory", path);
		return NULL;
	}
	rp->own = strcmp(path, "-") != 0;
	rp->f = rp->own ? fopen(path, "r") : stdin;
	if (!rp->f) {
		snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
		free(rp);
		return NULL;
	}
	snprintf(rp->path, sizeof(rp->path), "%s", path);
	return rp;
}

static int replay_plan_fail(struct replay_plan *rp, const char *reason)
{
	snprintf(rp->error, sizeof(rp->error), "%s:%lu: %s", rp->path, rp->line, reason);
	return -1;
}

/* "SECONDS" with at most 9 decimals, to nanoseconds; false when it is not that. */
static bool replay_plan_seconds(const char *s, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0;
	int digits = 0, decimals = 0;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (whole > (UINT64_MAX / 1000000000u - 9) / 10)
			return false;
		whole = whole * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, decimals++) {
			if (decimals == 9)
				return false;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
	if (*s || (digits == 0 && decimals == 0))
		return false;
	for (int i = decimals; i < 9; i++)
		frac *= 10;
	*ns = whole * 1000000000u + frac;
	return true;
}

int replay_plan_next(struct replay_plan *rp, struct replay_plan_entry *e)
{
	for (;;) {
		if (!fgets(rp->buf, sizeof(rp->buf), rp->f)) {
			if (ferror(rp->f)) {
				snprintf(rp->error, sizeof(rp->error), "%s: read error", rp->path);
				return -1;
			}
			if (rp->line == 0)
				return replay_plan_fail(rp, "empty: not a replay plan");
			return 0;
		}
		rp->line++;
		size_t len = strlen(rp->buf);
		if (len > REPLAY_PLAN_LINE_MAX)
			return replay_plan_fail(rp, "line too long");
		if (len > 0 && rp->buf[len - 1] == '\n')
			rp->buf[--len] = '\0';
		if (rp->line == 1 && strcmp(rp->buf, REPLAY_PLAN_HEADER) != 0)
			return replay_plan_fail(
			    rp, "not a replay plan (expected the line '" REPLAY_PLAN_HEADER "')");
		if (len == 0 || rp->buf[0] == '#')
			continue;
		char *fields[6], *save = NULL;
		int n = 0;
		for (char *tok = strtok_r(rp->buf, " \t", &save); tok && n < 6;
		     tok = strtok_r(NULL, " \t", &save))
			fields[n++] = tok;
		if (n != 5)
			return replay_plan_fail(
			    rp, "expected 5 fields: seconds client transport name type");
		if (!replay_plan_seconds(fields[0], &e->t_ns))
			return replay_plan_fail(rp, "time: not seconds with at most 9 decimals");
		if (e->t_ns < rp->last_ns)
			return replay_plan_fail(rp, "time goes backwards");
		rp->last_ns = e->t_ns;
		char *end;
		errno = 0;
		unsigned long long client = strtoull(fields[1], &end, 10);
		if (*end || end == fields[1] || fields[1][0] == '-' || errno ||
		    client >= REPLAY_PLAN_CLIENTS_MAX)
			return replay_plan_fail(rp, "client: not a number below 16777216");
		e->client = (uint32_t)client;
		if (strcmp(fields[2], "udp") == 0 || strcmp(fields[2], "tcp") == 0)
			e->tcp = fields[2][0] == 't';
		else
			return replay_plan_fail(rp, "transport: expected udp or tcp");
		uint8_t wire[256];
		const char *reason = NULL;
		if (!queryfile_name_to_wire(fields[3], strlen(fields[3]), wire, &reason))
			return replay_plan_fail(rp, reason ? reason : "bad name");
		e->name = fields[3];
		if (!queryfile_type_parse(fields[4], strlen(fields[4]), &e->qtype))
			return replay_plan_fail(rp, "unknown query type");
		return 1;
	}
}

const char *replay_plan_error(const struct replay_plan *rp)
{
	return rp->error;
}

void replay_plan_close(struct replay_plan *rp)
{
	if (!rp)
		return;
	if (rp->own)
		fclose(rp->f);
	free(rp);
}
