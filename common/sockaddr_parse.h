/* common/sockaddr_parse.h - "ADDR", "ADDR:PORT", "[V6]:PORT" to a socket address, one parser for
 * all. */
#ifndef ALLOCSPIKE_SOCKADDR_PARSE_H
#define ALLOCSPIKE_SOCKADDR_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Parses text into *out (IPv4 or IPv6, numeric only). A missing port becomes default_port.
 * Returns false and writes a reason into err (if not NULL) on bad input. */
bool sockaddr_parse(const char *text, int default_port, struct sockaddr_storage *out,
                    socklen_t *out_len, char *err, size_t err_size);

/* An IPv4 (len 4) or IPv6 (len 16) address from its bytes in network order (an A or AAAA record's
 * data, inet_pton's output) and a port (host order), into *out. Returns the address's length, or 0
 * (and *out untouched) for another len. */
socklen_t sockaddr_from_bytes(const void *bytes, size_t len, uint16_t port,
                              struct sockaddr_storage *out);

/* Formats addr as "ADDR:PORT" or "[V6]:PORT" into buf; returns buf. */
char *sockaddr_format(const struct sockaddr *addr, char *buf, size_t buf_size);

/* The port of an IPv4 or IPv6 address (host order), -1 for other families. */
int sockaddr_port(const struct sockaddr *addr);

/* True for 127.0.0.0/8 and ::1: where tests and scenarios may send traffic. */
bool sockaddr_is_loopback(const struct sockaddr *addr);

#endif
