/* controller/events_log.c - the controller's events (events_log.h). */
#include "events_log.h"

#include "monotonic.h"

void events_log_add(struct events_log *log, const char *variant, const char *event, json_t *extra)
{
	if (log->hand_over) {
		log->hand_over(log->ctx, variant, event, extra);
		return;
	}
	double t_s = ((double)realtime_ns() - (double)log->t0_ns) / 1e9;
	/* a failed write is kept by the writer and reported when it closes */
	runfolder_writer_event(&log->writer, t_s, variant, event, extra);
}
