/* querydata/extend.c - a real query file made any length, keeping its shape pass after pass. */
#include "extend.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hashcount.h"
#include "nameshape.h"
#include "queryfile.h"
#include "rng.h"

static uint64_t extend_rand(uint64_t *state, uint64_t n)
{
	*state += 0x9e3779b97f4a7c15ULL;
	return rng_mix(*state) % n;
}

/* Where the part of the name that stays as it is begins: the TLD, or the arpa suffix. */
static size_t extend_kept_suffix(const char *name, size_t len)
{
	size_t trimmed = nameshape_length(name, len);
	static const char *const suffixes[] = {".in-addr.arpa", ".ip6.arpa"};
	for (size_t i = 0; i < 2; i++) {
		size_t sl = strlen(suffixes[i]);
		if (trimmed > sl && strncasecmp(name + trimmed - sl, suffixes[i], sl) == 0)
			return trimmed - sl;
	}
	size_t last = trimmed;
	while (last > 0 && name[last - 1] != '.')
		last--;
	return last > 0 ? last - 1 : trimmed; /* a single label is changed whole */
}

/* _tcp, _dns-sd, _ldap: a protocol label (not "_156_03_7", which is a name of its own). */
static bool extend_is_service_label(const char *label, size_t len)
{
	if (len < 2 || label[0] != '_')
		return false;
	bool letter = false;
	for (size_t i = 1; i < len; i++) {
		if (label[i] == '_' || label[i] == '\\')
			return false;
		letter = letter || isalpha((unsigned char)label[i]);
	}
	return letter;
}

/* keep: keep the TLD or arpa suffix, service labels and www (off when that leaves nothing
 * to vary, as in "www.youtube." or "_vlmcs._tcp."). */
static size_t extend_fresh_name_keep(const char *name, size_t len, uint64_t *state, char *out,
                                     size_t out_size, bool keep)
{
	if (len + 1 > out_size)
		len = out_size - 1;
	size_t keep_from = keep ? extend_kept_suffix(name, len) : nameshape_length(name, len);
	bool reverse4 =
	    nameshape_is_reverse(name, len) && strncasecmp(name + keep_from, ".in-addr", 8) == 0;
	bool reverse6 = nameshape_is_reverse(name, len) && !reverse4;
	size_t o = 0, i = 0;
	while (i < keep_from) {
		size_t end = i;
		while (end < keep_from && name[end] != '.') {
			if (name[end] == '\\')
				end++;
			end++;
		}
		if (end > keep_from)
			end = keep_from;
		bool all_digits = end > i;
		for (size_t j = i; j < end; j++)
			all_digits = all_digits && isdigit((unsigned char)name[j]);
		if (keep && (extend_is_service_label(name + i, end - i) ||
		             (end - i == 3 && strncasecmp(name + i, "www", 3) == 0))) {
			/* service labels (_tcp, _dns-sd) are protocol, not names, and www is
			 * part of the form: keep them */
			memcpy(out + o, name + i, end - i);
			o += end - i;
		} else if (reverse4 && all_digits) {
			o += (size_t)snprintf(out + o, out_size - o, "%u",
			                      (unsigned)extend_rand(state, 256));
		} else if (reverse6 && end - i == 1 && isxdigit((unsigned char)name[i])) {
			out[o++] = "0123456789abcdef"[extend_rand(state, 16)];
		} else {
			for (size_t j = i; j < end; j++) {
				unsigned char c = (unsigned char)name[j];
				if (c == '\\') {
					/* an escape is kept whole: \X or \DDD */
					size_t el =
					    j + 1 < end && isdigit((unsigned char)name[j + 1]) ? 4
					                                                       : 2;
					if (j + el > end)
						el = end - j;
					memcpy(out + o, name + j, el);
					o += el;
					j += el - 1;
				} else if (islower(c)) {
					out[o++] = (char)('a' + extend_rand(state, 26));
				} else if (isupper(c)) {
					out[o++] = (char)('A' + extend_rand(state, 26));
				} else if (isdigit(c)) {
					out[o++] = (char)('0' + extend_rand(state, 10));
				} else {
					out[o++] = (char)c;
				}
			}
		}
		if (end < keep_from)
			out[o++] = '.';
		i = end + 1;
	}
	memcpy(out + o, name + keep_from, len - keep_from);
	o += len - keep_from;
	out[o] = '\0';
	return o;
}

size_t extend_fresh_name(const char *name, size_t len, uint64_t *state, char *out, size_t out_size)
{
	size_t n = extend_fresh_name_keep(name, len, state, out, out_size, true);
	if (n == len && memcmp(out, name, len) == 0)
		n = extend_fresh_name_keep(name, len, state, out, out_size, false);
	return n;
}

bool extend_write(const char *path, uint64_t seed, uint64_t count, FILE *out, char *err,
                  size_t err_size)
{
	struct queryfile_set set;
	if (!queryfile_load(path, false, queryfile_report_stderr, NULL, &set, err, err_size))
		return false;
	if (set.count == 0) {
		snprintf(err, err_size, "%s: no queries to extend", path);
		queryfile_set_free(&set);
		return false;
	}
	struct hashcount counts, seen;
	if (!hashcount_init(&counts, set.count) || !hashcount_init(&seen, set.count * 2)) {
		snprintf(err, err_size, "out of memory");
		queryfile_set_free(&set);
		return false;
	}
	uint64_t *keys = malloc(set.count * sizeof(*keys));
	bool ok = keys != NULL;
	for (size_t i = 0; ok && i < set.count; i++) {
		keys[i] = hashcount_name_key(set.queries[i].name, strlen(set.queries[i].name));
		hashcount_add(&counts, keys[i]);
		hashcount_add(&seen, keys[i]);
	}
	uint64_t state = rng_mix(seed);
	for (uint64_t n = 0; ok && n < count; n++) {
		size_t i = (size_t)(n % set.count);
		uint64_t pass = n / set.count;
		const struct queryfile_query *q = &set.queries[i];
		char type[16], fresh[QUERYFILE_NAME_MAX + 64];
		const char *name = q->name;
		queryfile_type_format(q->qtype, type, sizeof(type));
		if (pass > 0 && hashcount_get(&counts, keys[i]) == 1) {
			size_t len = strlen(name);
			for (int tries = 0; tries < 100; tries++) {
				/* short names ("www.x.com.") run out of variants: then the kept
				 * labels vary too */
				size_t fl =
				    tries < 50
				        ? extend_fresh_name(name, len, &state, fresh, sizeof(fresh))
				        : extend_fresh_name_keep(name, len, &state, fresh,
				                                 sizeof(fresh), false);
				uint64_t key = hashcount_name_key(fresh, fl);
				if (hashcount_get(&seen, key) == 0) {
					hashcount_add(&seen, key);
					break;
				}
				/* a name with nothing to vary ("." or "\\006.") stays a repeat */
			}
			name = fresh;
		}
		if (fprintf(out, "%s\t%s\n", name, type) < 0) {
			snprintf(err, err_size, "write error");
			ok = false;
		}
	}
	if (ok && (fflush(out) != 0 || ferror(out))) {
		snprintf(err, err_size, "write error");
		ok = false;
	}
	if (!keys)
		snprintf(err, err_size, "out of memory");
	free(keys);
	hashcount_free(&counts);
	hashcount_free(&seen);
	queryfile_set_free(&set);
	return ok;
}
