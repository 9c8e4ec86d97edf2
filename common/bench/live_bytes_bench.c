/* common/bench/live_bytes_bench.c - CPU ns per malloc/free pair over a mixed working set (CPU
 * time, so other processes on the machine do not count); built with and without
 * common/live_bytes.c by common/bench/live_bytes.sh to state the counter's cost. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BENCH_SLOTS 4096

int main(int argc, char **argv)
{
	long pairs = argc > 1 ? atol(argv[1]) : 5000000;
	static void *slots[BENCH_SLOTS];
	static const size_t sizes[] = {16, 40, 64, 100, 256, 512, 1500, 4096};
	uint64_t x = 88172645463325252ULL; /* xorshift: the same sequence every run */
	struct timespec a, b;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	for (long i = 0; i < pairs; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		unsigned slot = (unsigned)(x % BENCH_SLOTS);
		free(slots[slot]);
		slots[slot] = malloc(sizes[(x >> 20) % (sizeof(sizes) / sizeof(sizes[0]))]);
		if (!slots[slot])
			return 1;
		*(volatile char *)slots[slot] = 1;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	double ns =
	    ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)pairs;
	printf("%.2f\n", ns);
	for (unsigned i = 0; i < BENCH_SLOTS; i++)
		free(slots[i]);
	return 0;
}
