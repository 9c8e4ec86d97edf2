/* querydata/nameshape.h - what a query name looks like: length, labels, reverse, malformed. */
#ifndef ALLOCSPIKE_QUERYDATA_NAMESHAPE_H
#define ALLOCSPIKE_QUERYDATA_NAMESHAPE_H

#include <stdbool.h>
#include <stddef.h>

/* Characters as written, without the trailing dot: "." is 0, "www.example.com." is 15. */
size_t nameshape_length(const char *name, size_t len);
/* Labels (escaped dots do not split): "." is 0, "example.com." is 2. */
size_t nameshape_labels(const char *name, size_t len);
/* Under in-addr.arpa or ip6.arpa (case-insensitive). */
bool nameshape_is_reverse(const char *name, size_t len);
/*
 * Not a usable host name, the way the sample's README counts it: a character other than
 * letters, digits, '-', '_' and '.' (backslash escapes included), a label that starts or ends
 * with '-', or an all-numeric last label (an IP address asked as a name) outside arpa.
 */
bool nameshape_is_malformed(const char *name, size_t len);
/* Some label starts with '_' (service names: _dns-sd._udp, _ldap._tcp). */
bool nameshape_has_underscore_label(const char *name, size_t len);

#endif
