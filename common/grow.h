/* common/grow.h - room for one more element in an array that doubles: the one growth rule of every
 * list read from a file or built while reading. */
#ifndef ALLOCSPIKE_GROW_H
#define ALLOCSPIKE_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* The array V (CAP elements of SIZE bytes, N of them used) with room for element N: V itself when
 * it has room, else V moved to twice CAP (FIRST when CAP is 0), CAP updated. NULL when the memory
 * is not there or the size would overflow; V is then unchanged and still the caller's. */
static inline void *grow_room(void *v, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return v;
	size_t more = *cap ? 2 * *cap : first;
	if (more <= n || more > SIZE_MAX / size)
		return NULL;
	void *p = realloc(v, more * size);
	if (p)
		*cap = more;
	return p;
}

#endif
