/* agent/systemd_unit.c - a unit's main process (systemd_unit.h). */
#include "systemd_unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_output.h"

bool systemd_unit_name_valid(const char *unit)
{
	size_t len = strlen(unit);
	const char *dot = strrchr(unit, '.');
	if (len == 0 || len > 255 || unit[0] == '-' || !dot || dot == unit || !dot[1])
		return false;
	return strspn(unit,
	              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_.@\\") ==
	       len;
}

pid_t systemd_unit_main_pid(const char *unit, char *err, size_t err_size)
{
	char *argv[] = {"systemctl",  "show", "--property=MainPID", "--value", "--",
	                (char *)unit, NULL};
	struct program_run how = {.timeout_ms = SYSTEMD_UNIT_ASK_MS, .max_out = 64, .quiet = true};
	char *out = NULL;
	int st = program_output(argv, &how, &out);
	char *end = NULL;
	long pid = st == 0 && out ? strtol(out, &end, 10) : 0;
	bool number = end && end != out && (*end == '\n' || *end == '\0');
	if (st != 0)
		snprintf(err, err_size,
		         st == PROGRAM_TIMED_OUT ? "systemctl did not answer within %d ms"
		         : st == 127 || st < 0   ? "systemctl could not be run (exit %d)"
		                                 : "systemctl show failed (exit %d)",
		         st == PROGRAM_TIMED_OUT ? SYSTEMD_UNIT_ASK_MS : st);
	else if (!number || pid < 0 || pid > 4194304)
		snprintf(err, err_size, "systemctl gave no main PID for %s", unit);
	else if (pid == 0)
		snprintf(err, err_size, "unit %s has no main process (is it running?)", unit);
	free(out);
	return st == 0 && number && pid > 0 && pid <= 4194304 ? (pid_t)pid : 0;
}
