/* tests/fuzz/fuzz_util.h - what several fuzz targets share: the input as a file, the input as a
 * sequence of chunks, the input sent down a control socket or another stream. */
#ifndef ALLOCSPIKE_FUZZ_UTIL_H
#define ALLOCSPIKE_FUZZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct event_base;

/* A memory file holding data, for parsers that take a path: its name (/proc/self/fd/N) goes to
 * path. Returns the descriptor to close afterwards; aborts when the system refuses. */
int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t path_size);

/* Input as [u16 big-endian length][bytes]...: the next chunk into *chunk and *len, advancing
 * *data and *size; a length past the end takes what is left. False once nothing is left. */
bool fuzz_next_chunk(const uint8_t **data, size_t *size, const uint8_t **chunk, size_t *len);

/* A path for a Unix socket of this process (removed at exit). */
const char *fuzz_socket_path(const char *what);

/* Connects to the control socket at path (served by base's loop), sends data, closes the
 * sending side and runs the loop until the server closes the connection or a bounded number of
 * rounds passed; replies are read and dropped. */
void fuzz_control_exchange(struct event_base *base, const char *path, const uint8_t *data,
                           size_t size);
/* The same over a connected stream socket fd (closed at the end), the data sent at most piece
 * bytes per loop round, so that the server reads it in pieces. */
void fuzz_stream_exchange(struct event_base *base, int fd, const uint8_t *data, size_t size,
                          size_t piece);

#endif
