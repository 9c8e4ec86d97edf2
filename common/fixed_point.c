/* common/fixed_point.c - significant digits without the exponent form. */
#include "fixed_point.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Beyond this many decimals a double's digits are noise anyway. */
#define MAX_DECIMALS 15

const char *fixed_point(char *buf, size_t size, double v, int significant)
{
	if (size == 0)
		return buf;
	int decimals = 0;
	if (isfinite(v) && v != 0) {
		/* 9.996 to 3 digits prints "10.00": the one digit too many is a 0, dropped below */
		int lead = (int)floor(log10(fabs(v)));
		decimals = significant - 1 - lead;
		decimals = decimals < 0 ? 0 : decimals > MAX_DECIMALS ? MAX_DECIMALS : decimals;
	}
	snprintf(buf, size, "%.*f", decimals, v);
	/* "%g" drops trailing zeros: so does this */
	if (decimals > 0 && strchr(buf, '.')) {
		size_t n = strlen(buf);
		while (n > 0 && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n > 0 && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	if (strcmp(buf, "-0") == 0)
		snprintf(buf, size, "0");
	return buf;
}
