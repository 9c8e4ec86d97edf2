/* agent/record.c - every read as one JSON line (record.h). */
#include "record.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "metrics.h"

size_t record_format(char *buf, size_t size, const struct agent_sample *a)
{
	size_t len =
	    (size_t)snprintf(buf, size, "{\"t_start_ns\": %" PRIu64 ", \"t_end_ns\": %" PRIu64,
	                     a->read_start_ns, a->read_end_ns);
	for (size_t i = 0; i < AGENT_METRICS_COUNT && len < size; i++) {
		double v = AGENT_METRICS[i].value(a);
		if (!isnan(v))
			len += (size_t)snprintf(buf + len, size - len, ", \"%s\": %.16g",
			                        AGENT_METRICS[i].key, v);
	}
	if (len < size)
		len += (size_t)snprintf(buf + len, size - len, "}\n");
	return len;
}
