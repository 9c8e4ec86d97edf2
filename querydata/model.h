/* querydata/model.h - the numbers the generator follows, each measured on the real DNS-OARC sample.
 */
#ifndef ALLOCSPIKE_QUERYDATA_MODEL_H
#define ALLOCSPIKE_QUERYDATA_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* The shapes of names the generator writes (querydata/README.md shows an example of each). */
enum model_form {
	MODEL_HOST,              /* www.example.com. */
	MODEL_REV4,              /* 4.3.2.1.in-addr.arpa. */
	MODEL_REV6,              /* 32 nibbles .ip6.arpa. */
	MODEL_DNSSD_REV,         /* b._dns-sd._udp.0.1.168.192.in-addr.arpa. (DNS-SD browsing) */
	MODEL_SERVICE,           /* _ldap._tcp.example.com. */
	MODEL_SINGLE,            /* wpad. */
	MODEL_ROOT,              /* . */
	MODEL_MALFORMED,         /* ab3:x9q.k27c.  -de-.example.com.  127.0.0.1.  \(none\). */
	MODEL_UNDERSCORE_SINGLE, /* _156_03_7. (a single label of digits and underscores) */
};

/* Popular names (seen more than once) and names seen once have different shapes and types. */
enum model_class { MODEL_ONCE = 0, MODEL_POPULAR = 1 };

/* One (form, type) cell with its query count in the real sample. */
struct model_cell {
	enum model_form form;
	uint16_t qtype;
	double weight;
};

struct model_tld {
	const char *tld;
	double weight;
};

#define MODEL_LEN_MAX 32 /* label length tables cover 0..32 (32: 32 or longer) */
#define MODEL_HOST_LABELS_MAX 14
#define MODEL_HOST_LENGTH_MAX 96

struct model_hosts {
	double labels[MODEL_HOST_LABELS_MAX + 1]; /* queries of host names with n labels */
	double sld_length[MODEL_LEN_MAX + 1];     /* names by length of the label left of the TLD */
	double other_length[MODEL_LEN_MAX + 1];   /* labels further left, by length */
	const struct model_tld *tlds;
	size_t ntlds;
	double tld_other; /* names under some other TLD (a random two-letter one is used) */
	double www;       /* share of names of 3+ labels whose first label is www */
	double digit;     /* share of characters that are digits */
	double hyphen;    /* share of characters that are hyphens */
	/* Host names by length (characters, no trailing dot; 96: 96 or more), counted per query.
	 * Labels are drawn from the tables above and then scaled to a length drawn from here,
	 * since in real names label lengths are not independent (long names are rarer). */
	double length[MODEL_HOST_LENGTH_MAX + 1];
};

/* Popular names asked with more than one type: by a name's count, the share of names that are
 * (multi_share) and the share of such a name's queries that go to its other types. */
struct model_multitype {
	uint64_t max_count;
	double multi_share, secondary_share;
};
extern const struct model_multitype model_multitypes[];
extern const size_t model_nmultitypes;
/* Of the names with several types, the share that have three (198 of 870). */
extern const double model_three_types;

/* Queries of popular names and of names seen once, in the real sample (100,000 queries). */
extern const double model_sample_queries;
extern const double model_once_query_share;

/* The popular names' rank/count curve (counts per 100,000 queries), interpolated log-log. */
extern const size_t model_popular_ranks;
double model_popular_count(size_t rank);

extern const struct model_cell *const model_cells[2];
extern const size_t model_ncells[2];
extern const struct model_hosts *const model_host_shapes[2];

#endif
