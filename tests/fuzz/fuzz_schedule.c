/* tests/fuzz/fuzz_schedule.c - libFuzzer target over the schedule parser and its clock math
 * (common/schedule, docs/schedule.md).
 *
 * Input: the schedule text. Text starting with '@' is taken as the contents of a schedule file
 * (after the '@'), which schedule_parse reads through "@PATH". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "schedule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[4096], err[512];
	int fd = -1;
	if (size > 0 && data[0] == '@') {
		char path[64];
		fd = fuzz_memfile(data + 1, size - 1, path, sizeof(path));
		snprintf(text, sizeof(text), "@%s", path);
	} else {
		if (size >= sizeof(text))
			size = sizeof(text) - 1;
		memcpy(text, data, size);
		text[size] = '\0';
	}
	struct schedule s;
	memset(&s, 0, sizeof(s));
	if (schedule_parse(text, &s, err, sizeof(err))) {
		char desc[1024];
		schedule_describe(&s, desc, sizeof(desc));
		double end = s.duration_s;
		for (int i = -1; i <= 4; i++) {
			double t = end * i / 4.0;
			schedule_phase_at(&s, t);
			schedule_rate_at(&s, t);
			schedule_count_at(&s, t);
			schedule_due(&s, t);
		}
		unsigned long long total = schedule_total_queries(&s);
		schedule_time_of(&s, 0);
		schedule_time_of(&s, total / 2);
		schedule_time_of(&s, total);
		schedule_free(&s);
	}
	if (fd >= 0)
		close(fd);
	return 0;
}
