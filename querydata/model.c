/* querydata/model.c - the numbers the generator follows, each measured on the real DNS-OARC sample.
 */
#include "model.h"

#include <math.h>

/*
 * Every number in this file was counted in ../shared/querydata (the first 100,000 queries of
 * DNS-OARC's 2012 file); `allocspike-querydata stats` reproduces the overall ones, and
 * querydata/README.md says how the per-class ones were split. "Popular" means seen more than
 * once in that sample (3,109 names, 42,983 queries), "once" seen exactly once (57,017 names).
 */
const double model_sample_queries = 100000;
const double model_once_query_share = 0.57017;

/* (rank, queries) of the sample's names seen more than once, sorted by count. The steps at
 * ranks 1041/1042, 1317/1318 and 1832/1833 are where the counts drop to 4, 3 and 2. */
static const struct {
	double rank, count;
} model_curve[] = {
    {1, 3496}, {2, 1455}, {3, 985},  {4, 772},  {5, 729},  {6, 495},  {7, 430},  {8, 417},
    {10, 384}, {12, 356}, {15, 342}, {20, 310}, {25, 281}, {30, 230}, {40, 202}, {50, 158},
    {60, 142}, {80, 95},  {100, 65}, {130, 52}, {160, 37}, {200, 29}, {250, 22}, {300, 18},
    {400, 13}, {500, 10}, {600, 8},  {800, 6},  {1000, 5}, {1041, 5}, {1042, 4}, {1317, 4},
    {1318, 3}, {1832, 3}, {1833, 2}, {3109, 2},
};
const size_t model_popular_ranks = 3109;

double model_popular_count(size_t rank)
{
	size_t n = sizeof(model_curve) / sizeof(model_curve[0]);
	double r = (double)rank;
	if (r <= model_curve[0].rank)
		return model_curve[0].count;
	for (size_t i = 1; i < n; i++) {
		if (r <= model_curve[i].rank) {
			double x0 = log(model_curve[i - 1].rank), x1 = log(model_curve[i].rank);
			double y0 = log(model_curve[i - 1].count), y1 = log(model_curve[i].count);
			return exp(y0 + (y1 - y0) * (log(r) - x0) / (x1 - x0));
		}
	}
	return 0;
}

/* Queries per (form, type) among names seen once. Malformed: the 323 of the README's
 * definition that fall in once-seen names plus 28 hyphen-edge and IP-as-name hosts. */
static const struct model_cell model_once_cells[] = {
    {MODEL_HOST, 1, 28839},   {MODEL_HOST, 15, 5788},   {MODEL_HOST, 28, 6659},
    {MODEL_REV4, 12, 14479},  {MODEL_REV4, 1, 44},      {MODEL_REV4, 15, 16},
    {MODEL_REV6, 12, 18},     {MODEL_REV6, 15, 1},      {MODEL_MALFORMED, 1, 348},
    {MODEL_MALFORMED, 12, 2}, {MODEL_MALFORMED, 15, 1}, {MODEL_UNDERSCORE_SINGLE, 1, 732},
    {MODEL_SERVICE, 1, 18},   {MODEL_SERVICE, 33, 20},  {MODEL_SERVICE, 12, 12},
    {MODEL_SERVICE, 28, 3},   {MODEL_SINGLE, 1, 27},    {MODEL_SINGLE, 28, 5},
    {MODEL_SINGLE, 15, 5},
};

/* Queries per (form, type) among popular names. The DNS-SD browsing names under
 * 0.1.168.192.in-addr.arpa are 1,029 queries, asked as PTR and (oddly) MX. */
static const struct model_cell model_popular_cells[] = {
    {MODEL_HOST, 1, 37795},     {MODEL_HOST, 28, 1224},   {MODEL_HOST, 15, 1993},
    {MODEL_REV4, 12, 230},      {MODEL_REV4, 1, 9},       {MODEL_DNSSD_REV, 12, 508},
    {MODEL_DNSSD_REV, 15, 512}, {MODEL_SERVICE, 12, 93},  {MODEL_SERVICE, 15, 117},
    {MODEL_SERVICE, 33, 32},    {MODEL_ROOT, 1, 324},     {MODEL_SINGLE, 1, 102},
    {MODEL_SINGLE, 28, 34},     {MODEL_MALFORMED, 1, 10},
};

const struct model_cell *const model_cells[2] = {model_once_cells, model_popular_cells};
const size_t model_ncells[2] = {sizeof(model_once_cells) / sizeof(model_once_cells[0]),
                                sizeof(model_popular_cells) / sizeof(model_popular_cells[0])};

static const struct model_tld model_once_tlds[] = {
    {"com", 24168}, {"net", 3474}, {"ru", 2946}, {"org", 1584}, {"uk", 591}, {"es", 475},
    {"de", 438},    {"mx", 432},   {"it", 368},  {"us", 354},   {"ar", 313}, {"au", 294},
    {"info", 292},  {"edu", 289},  {"fr", 238},  {"br", 201},   {"ca", 187}, {"cl", 181},
    {"jp", 166},    {"co", 133},   {"cn", 125},  {"tv", 124},   {"nl", 122}, {"biz", 112},
};

static const struct model_tld model_popular_tlds[] = {
    {"com", 2177}, {"net", 370}, {"org", 105}, {"mx", 46}, {"ru", 31}, {"es", 27},
    {"ar", 19},    {"us", 17},   {"info", 15}, {"uk", 13}, {"de", 11}, {"tv", 10},
    {"br", 8},     {"gov", 7},   {"ca", 6},    {"au", 6},  {"ch", 5},  {"cn", 5},
    {"it", 5},     {"tw", 4},    {"co", 4},    {"fr", 4},  {"biz", 4}, {"be", 4},
};

/* Host names: labels counted per query; lengths per unique name (once: 39,414 names, popular:
 * 2,987), the TLD excluded. Characters: digits 4.6% / 3.0%, hyphens 0.7% / 0.9%. */
static const struct model_hosts model_once_hosts = {
    .labels = {0, 0, 11838, 22441, 4393, 1840, 278, 156, 51, 1, 0, 0, 284, 29, 3},
    .sld_length = {0,    13,   1591, 3411, 2025, 3312, 3683, 3352, 4845, 4754, 3113,
                   2396, 1916, 1533, 1325, 1021, 835,  617,  476,  307,  218,  179,
                   109,  91,   57,   30,   17,   22,   9,    9,    7,    4,    37},
    .other_length = {0,    1094, 2377, 15023, 5915, 2736, 2681, 2290, 1865, 1579, 1083,
                     1233, 728,  693,  517,   390,  372,  251,  228,  199,  137,  89,
                     65,   52,   41,   35,    347,  23,   13,   14,   10,   15,   52},
    .tlds = model_once_tlds,
    .ntlds = sizeof(model_once_tlds) / sizeof(model_once_tlds[0]),
    .tld_other = 3707,
    .www = 0.337,
    .digit = 0.046,
    .hyphen = 0.007,
    .length = {0,    0,    0,    2,    0,    26,   184,  393,  592,  868,  1247, 1498, 1726, 2112,
               3000, 2587, 2635, 2508, 2907, 2333, 2176, 2004, 1789, 1564, 1414, 1172, 1012, 871,
               707,  665,  469,  376,  340,  309,  242,  212,  174,  134,  126,  94,   144,  53,
               50,   40,   39,   27,   25,   12,   15,   48,   16,   5,    2,    8,    6,    3,
               1,    3,    2,    4,    1,    4,    2,    1,    0,    4,    7,    4,    0,    0,
               0,    1,    0,    2,    0,    1,    0,    0,    0,    2,    1,    2,    8,    27,
               14,   69,   18,   149,  8,    14,   1,    1,    1,    0,    0,    0,    1},
};

static const struct model_hosts model_popular_hosts = {
    .labels = {0, 0, 1977, 25885, 10098, 2988, 58, 6},
    .sld_length = {0,  4, 55, 271, 200, 473, 399, 343, 313, 312, 182, 126, 80, 72, 43, 28, 33,
                   26, 9, 6,  2,   0,   2,   0,   1,   0,   0,   0,   0,   0,  0,  0,  1},
    .other_length = {0, 238, 460, 911, 438, 353, 343, 330, 167, 138, 105, 53, 45, 36, 30, 22, 7,
                     6, 2,   6,   4,   2,   1,   2,   0,   0,   0,   1,   1,  0,  0,  0,  3},
    .tlds = model_popular_tlds,
    .ntlds = sizeof(model_popular_tlds) / sizeof(model_popular_tlds[0]),
    .tld_other = 78,
    .www = 0.158,
    .digit = 0.030,
    .hyphen = 0.009,
    .length = {0,    0,    0,    0,    39,   17,   89,   110,  117, 290,  765,  1142, 1309, 1305,
               2238, 2784, 4027, 2233, 5766, 2812, 2325, 3715, 534, 3525, 1386, 983,  579,  688,
               546,  641,  196,  308,  188,  90,   104,  23,   31,  13,   6,    18,   19,   11,
               4,    2,    9,    0,    0,    5,    0,    4,    0,   3,    0,    0,    0,    2,
               0,    0,    0,    0,    0,    0,    0,    0,    0,   0,    0,    0,    0,    0,
               11,   0,    0,    0,    0,    0,    0,    0,    0,   0,    0,    0,    0,    0,
               0,    0,    0,    0,    0,    0,    0,    0,    0,   0,    0,    0,    0},
};

const struct model_hosts *const model_host_shapes[2] = {&model_once_hosts, &model_popular_hosts};

/* Counted over the sample's 3,109 popular names (870 have several types: A+AAAA 314, A+MX 301,
 * A+AAAA+MX 195, MX+PTR 42, others 18). */
const struct model_multitype model_multitypes[] = {
    {2, 0.162, 0.5},    {3, 0.171, 0.352},   {5, 0.275, 0.298},          {10, 0.352, 0.229},
    {30, 0.512, 0.156}, {100, 0.812, 0.099}, {UINT64_MAX, 0.948, 0.095},
};
const size_t model_nmultitypes = sizeof(model_multitypes) / sizeof(model_multitypes[0]);
const double model_three_types = 198.0 / 870.0;
