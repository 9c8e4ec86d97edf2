/* reports/hierarchy_applied.c - the loss and delay the simulated hierarchy applied over a run. */
#include "hierarchy_applied.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary_json.h"

#define APPLIED_FILE "upstream-applied-summary.tsv"

/* The columns this reads, found by name in the header. */
enum { COL_QUERIES, COL_ANSWERED, COL_DROPPED, COL_DELAY_MEAN, N_COLS };
static const char *const COLUMNS[N_COLS] = {"queries", "answered", "dropped", "delay_mean_ms"};

json_t *hierarchy_applied_read(const char *dir)
{
	char path[4096], line[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, APPLIED_FILE);
	FILE *f = fopen(path, "r");
	if (!f)
		return json_null();
	int at[N_COLS] = {-1, -1, -1, -1};
	double queries = 0, answered = 0, dropped = 0, delay_sum = 0;
	bool header = true;
	while (fgets(line, sizeof(line), f)) {
		double v[N_COLS] = {NAN, NAN, NAN, NAN};
		int col = 0;
		for (char *save = NULL, *cell = strtok_r(line, "\t\n", &save); cell;
		     cell = strtok_r(NULL, "\t\n", &save), col++) {
			for (int c = 0; c < N_COLS; c++) {
				if (header && strcmp(cell, COLUMNS[c]) == 0)
					at[c] = col;
				else if (!header && at[c] == col)
					v[c] = strtod(cell, NULL);
			}
		}
		if (header) {
			header = false;
			continue;
		}
		if (!isfinite(v[COL_QUERIES]) || !isfinite(v[COL_DROPPED]))
			continue;
		queries += v[COL_QUERIES];
		dropped += v[COL_DROPPED];
		/* the mean delay of a second's answers, weighted by them */
		if (isfinite(v[COL_ANSWERED]) && isfinite(v[COL_DELAY_MEAN])) {
			answered += v[COL_ANSWERED];
			delay_sum += v[COL_ANSWERED] * v[COL_DELAY_MEAN];
		}
	}
	fclose(f);
	if (queries <= 0)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "source", json_string(APPLIED_FILE));
	json_object_set_new(o, "queries", summary_json_number(queries));
	json_object_set_new(o, "dropped", summary_json_number(dropped));
	json_object_set_new(o, "loss", summary_json_real(dropped / queries));
	json_object_set_new(o, "delay_mean_ms",
	                    summary_json_real(answered > 0 ? delay_sum / answered : NAN));
	return o;
}
