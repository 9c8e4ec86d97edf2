/* loadgen/fragment.c - fragment.json: a shard's identity and end, written beside its run folder's
 * files. */
#include "fragment.h"

#include <stdio.h>
#include <string.h>

#include "json_file.h"

uint64_t fragment_queries_digest(const struct querystream *qs)
{
	if (qs->feed)
		return 0;
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < qs->count; i++)
		for (unsigned b = 0; b < 4; b++) {
			h ^= (qs->question[i] >> (8 * b)) & 0xff;
			h *= 1099511628211ull;
		}
	return h;
}

void fragment_realtime_text(uint64_t realtime_ns, char text[FRAGMENT_REALTIME_TEXT])
{
	/* in full: a double would round it to a quarter of a microsecond */
	snprintf(text, FRAGMENT_REALTIME_TEXT, "%llu.%09llu",
	         (unsigned long long)(realtime_ns / 1000000000u),
	         (unsigned long long)(realtime_ns % 1000000000u));
}

bool fragment_begin(struct fragment *f, const char *dir, unsigned shard, unsigned shards,
                    json_t *stream, uint64_t start_realtime_ns, char *err, size_t err_size)
{
	memset(f, 0, sizeof(*f));
	if (!dir) {
		json_decref(stream);
		return true;
	}
	snprintf(f->path, sizeof(f->path), "%s/fragment.json", dir);
	char start[FRAGMENT_REALTIME_TEXT];
	fragment_realtime_text(start_realtime_ns, start);
	f->doc =
	    json_pack("{s:i,s:i,s:i,s:s,s:s,s:o}", "format", 1, "shard", (int)shard + 1, "shards",
	              (int)shards, "status", "running", "start_realtime", start, "stream", stream);
	if (!f->doc) {
		snprintf(err, err_size, "%s: out of memory", f->path);
		return false;
	}
	return json_file_write_atomic(f->path, f->doc, err, err_size);
}

bool fragment_end(struct fragment *f, const char *status, int exit_code,
                  uint64_t first_send_realtime_ns, double first_planned_s, char *err,
                  size_t err_size)
{
	if (!f->doc)
		return true;
	json_object_set_new(f->doc, "status", json_string(status));
	json_object_set_new(f->doc, "exit_code", json_integer(exit_code));
	if (first_send_realtime_ns) {
		char first[48];
		snprintf(first, sizeof(first), "%llu.%09llu",
		         (unsigned long long)(first_send_realtime_ns / 1000000000u),
		         (unsigned long long)(first_send_realtime_ns % 1000000000u));
		json_object_set_new(f->doc, "first_send_realtime", json_string(first));
		json_object_set_new(f->doc, "first_planned_s", json_real(first_planned_s));
	}
	return json_file_write_atomic(f->path, f->doc, err, err_size);
}

void fragment_free(struct fragment *f)
{
	json_decref(f->doc);
	f->doc = NULL;
}
