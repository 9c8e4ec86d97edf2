/* loadgen/targets.c - what --target and --watch name: a server to load and/or a process to watch.
 */
#include "targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "sockaddr_parse.h"

/* Names become timeline.csv cells and JSON strings: keep them to a plain, safe alphabet. */
static bool target_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '-' || *s == '.' || *s == '+' ||
		      (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

bool target_parse(const char *text, bool watch, struct target_spec *out, char *err, size_t err_size)
{
	const char *opt = watch ? "--watch" : "--target";
	memset(out, 0, sizeof(*out));
	char *copy = strdup(text), *save = NULL;
	bool ok = copy != NULL;
	for (char *item = strtok_r(copy, ",", &save); ok && item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (!eq) {
			snprintf(err, err_size, "%s %s: '%s' is not KEY=VALUE", opt, text, item);
			ok = false;
			break;
		}
		*eq = '\0';
		const char *key = item, *val = eq + 1;
		if (strcmp(key, "name") == 0) {
			if (!target_name_ok(val) || strlen(val) >= sizeof(out->name)) {
				snprintf(err, err_size,
				         "%s %s: name '%s' must be 1-63 of A-Z a-z 0-9 _ - . +",
				         opt, text, val);
				ok = false;
			} else {
				snprintf(out->name, sizeof(out->name), "%s", val);
			}
		} else if (strcmp(key, "addr") == 0 && !watch) {
			char why[128];
			if (!sockaddr_parse(val, 53, &out->addr, &out->addr_len, why,
			                    sizeof(why))) {
				snprintf(err, err_size, "%s %s: addr: %s", opt, text, why);
				ok = false;
			}
			out->has_addr = true;
		} else if (strcmp(key, "dot") == 0 && !watch) {
			char why[128];
			if (strcmp(val, "tcp") == 0) {
				out->dot_as_tcp = true;
			} else if (!sockaddr_parse(val, 853, &out->dot_addr, &out->dot_addr_len,
			                           why, sizeof(why))) {
				snprintf(err, err_size, "%s %s: dot: %s (IP:PORT or tcp)", opt,
				         text, why);
				ok = false;
			}
			out->has_dot_addr = !out->dot_as_tcp;
		} else if (strcmp(key, "pid") == 0) {
			unsigned long long pid = 0;
			char why[128];
			if (!cli_parse_count("pid", val, 1, 0x7fffffff, &pid, why, sizeof(why))) {
				snprintf(err, err_size, "%s %s: pid '%s' is not a process id", opt,
				         text, val);
				ok = false;
			}
			out->pid = (pid_t)pid;
		} else if (strcmp(key, "control") == 0 && !watch) {
			if (strlen(val) >= sizeof(out->control) || !*val) {
				snprintf(err, err_size, "%s %s: control path empty or too long",
				         opt, text);
				ok = false;
			}
			snprintf(out->control, sizeof(out->control), "%s", val);
		} else {
			snprintf(err, err_size, "%s %s: unknown key '%s' (%s)", opt, text, key,
			         watch ? "name, pid" : "name, addr, dot, pid, control");
			ok = false;
		}
	}
	free(copy);
	if (ok && !out->name[0]) {
		snprintf(err, err_size, "%s %s: name=NAME is required", opt, text);
		ok = false;
	}
	if (ok && !watch && !out->has_addr) {
		snprintf(err, err_size, "%s %s: addr=IP:PORT is required", opt, text);
		ok = false;
	}
	if (ok && watch && !out->pid) {
		snprintf(err, err_size, "%s %s: pid=N is required", opt, text);
		ok = false;
	}
	return ok;
}
