/* upstream/zones.c - which zones exist, who serves them, and how qname's delegation chain runs. */
#include "zones.h"

#include "flat_world.h"
#include "hash.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The TLDs of 2012 (the DNS-OARC sample's year) plus a few later ones; anything else, such as the
 * junk of real traffic (local., lan., home., wpad., corp.), gets NXDOMAIN from the root. */
static const char *const zones_tlds[] = {
    "com",
    "net",
    "org",
    "info",
    "biz",
    "edu",
    "gov",
    "mil",
    "int",
    "mobi",
    "name",
    "pro",
    "asia",
    "tel",
    "travel",
    "aero",
    "coop",
    "cat",
    "jobs",
    "museum",
    "xxx",
    "arpa",
    "post",
    "xyz",
    "top",
    "online",
    "site",
    "app",
    "dev",
    "club",
    "shop",
    "store",
    "tech",
    /* every ISO 3166 two-letter country code in use as a ccTLD, plus su, eu, ac, uk, tp */
    "ac",
    "ad",
    "ae",
    "af",
    "ag",
    "ai",
    "al",
    "am",
    "ao",
    "aq",
    "ar",
    "as",
    "at",
    "au",
    "aw",
    "ax",
    "az",
    "ba",
    "bb",
    "bd",
    "be",
    "bf",
    "bg",
    "bh",
    "bi",
    "bj",
    "bm",
    "bn",
    "bo",
    "br",
    "bs",
    "bt",
    "bw",
    "by",
    "bz",
    "ca",
    "cc",
    "cd",
    "cf",
    "cg",
    "ch",
    "ci",
    "ck",
    "cl",
    "cm",
    "cn",
    "co",
    "cr",
    "cu",
    "cv",
    "cw",
    "cx",
    "cy",
    "cz",
    "de",
    "dj",
    "dk",
    "dm",
    "do",
    "dz",
    "ec",
    "ee",
    "eg",
    "er",
    "es",
    "et",
    "eu",
    "fi",
    "fj",
    "fk",
    "fm",
    "fo",
    "fr",
    "ga",
    "gd",
    "ge",
    "gf",
    "gg",
    "gh",
    "gi",
    "gl",
    "gm",
    "gn",
    "gp",
    "gq",
    "gr",
    "gs",
    "gt",
    "gu",
    "gw",
    "gy",
    "hk",
    "hm",
    "hn",
    "hr",
    "ht",
    "hu",
    "id",
    "ie",
    "il",
    "im",
    "in",
    "io",
    "iq",
    "ir",
    "is",
    "it",
    "je",
    "jm",
    "jo",
    "jp",
    "ke",
    "kg",
    "kh",
    "ki",
    "km",
    "kn",
    "kp",
    "kr",
    "kw",
    "ky",
    "kz",
    "la",
    "lb",
    "lc",
    "li",
    "lk",
    "lr",
    "ls",
    "lt",
    "lu",
    "lv",
    "ly",
    "ma",
    "mc",
    "md",
    "me",
    "mg",
    "mh",
    "mk",
    "ml",
    "mm",
    "mn",
    "mo",
    "mp",
    "mq",
    "mr",
    "ms",
    "mt",
    "mu",
    "mv",
    "mw",
    "mx",
    "my",
    "mz",
    "na",
    "nc",
    "ne",
    "nf",
    "ng",
    "ni",
    "nl",
    "no",
    "np",
    "nr",
    "nu",
    "nz",
    "om",
    "pa",
    "pe",
    "pf",
    "pg",
    "ph",
    "pk",
    "pl",
    "pm",
    "pn",
    "pr",
    "ps",
    "pt",
    "pw",
    "py",
    "qa",
    "re",
    "ro",
    "rs",
    "ru",
    "rw",
    "sa",
    "sb",
    "sc",
    "sd",
    "se",
    "sg",
    "sh",
    "si",
    "sk",
    "sl",
    "sm",
    "sn",
    "so",
    "sr",
    "ss",
    "st",
    "su",
    "sv",
    "sx",
    "sy",
    "sz",
    "tc",
    "td",
    "tf",
    "tg",
    "th",
    "tj",
    "tk",
    "tl",
    "tm",
    "tn",
    "to",
    "tr",
    "tt",
    "tv",
    "tw",
    "tz",
    "ua",
    "ug",
    "uk",
    "us",
    "uy",
    "uz",
    "va",
    "vc",
    "ve",
    "vg",
    "vi",
    "vn",
    "vu",
    "wf",
    "ws",
    "ye",
    "yt",
    "za",
    "zm",
    "zw",
};

/* Public suffixes below a TLD that are registries themselves: one more referral for their names. */
static const char *const zones_suffixes[] = {
    "in-addr.arpa", "ip6.arpa", "co.uk",  "org.uk", "ac.uk",  "gov.uk", "me.uk",  "net.uk",
    "ltd.uk",       "plc.uk",   "com.au", "net.au", "org.au", "edu.au", "gov.au", "co.jp",
    "ne.jp",        "or.jp",    "ac.jp",  "go.jp",  "com.br", "net.br", "org.br", "gov.br",
    "com.cn",       "net.cn",   "org.cn", "gov.cn", "edu.cn", "co.in",  "com.mx", "com.ar",
    "com.tr",       "co.za",    "co.kr",  "com.tw", "co.nz",  "com.sg", "com.my", "co.il",
    "com.ua",       "com.co",   "com.pe", "com.ve", "gob.mx", "com.es", "co.id",  "com.ph",
    "com.hk",       "com.pl",
};

static char **zones_registry_sorted;
static size_t zones_registry_count;

static int zones_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Builds the sorted registry table once: "com." style names, bsearch'ed per label. */
static void zones_registry_init(void)
{
	if (zones_registry_sorted)
		return;
	size_t nt = sizeof(zones_tlds) / sizeof(zones_tlds[0]);
	size_t ns = sizeof(zones_suffixes) / sizeof(zones_suffixes[0]);
	char **v = malloc((nt + ns) * sizeof(*v));
	if (!v)
		abort();
	for (size_t i = 0; i < nt + ns; i++) {
		const char *s = i < nt ? zones_tlds[i] : zones_suffixes[i - nt];
		size_t n = strlen(s);
		v[i] = malloc(n + 2);
		if (!v[i])
			abort();
		memcpy(v[i], s, n);
		v[i][n] = '.';
		v[i][n + 1] = '\0';
	}
	qsort(v, nt + ns, sizeof(*v), zones_strcmp);
	zones_registry_count = nt + ns;
	zones_registry_sorted = v;
}

bool zones_is_registry(const char *name)
{
	zones_registry_init();
	return bsearch(&name, zones_registry_sorted, zones_registry_count, sizeof(char *),
	               zones_strcmp) != NULL;
}

/* n consecutive servers of tier from a hashed start, at least one of them alive. */
static void zones_pick_servers(const struct world *w, struct zone *z, enum tier tier, uint64_t h,
                               int n)
{
	const struct server_plan *p = w->plan;
	if (n > p->n[tier])
		n = p->n[tier];
	if (n > ZONES_MAX_NS)
		n = ZONES_MAX_NS;
	if (p->faults_on) {
		/* healthy zones of a world with broken delegations: live servers only */
		if (n > p->nlive[tier])
			n = p->nlive[tier];
		for (int k = 0; k < n; k++)
			z->ns[k] = servers_live(p, tier, h + (uint64_t)k);
		z->nns = n;
		return;
	}
	uint64_t start = h % (uint64_t)p->n[tier];
	for (int shift = 0; shift < p->n[tier]; shift++) {
		bool alive = false;
		for (int k = 0; k < n; k++) {
			z->ns[k] =
			    servers_tier_server(p, tier, start + (uint64_t)shift + (uint64_t)k);
			alive |= !z->ns[k]->dead;
		}
		if (alive)
			break;
	}
	z->nns = n;
}

static void zones_set_name(struct zone *z, const char *name, size_t len)
{
	if (len >= sizeof(z->name))
		len = sizeof(z->name) - 1;
	memcpy(z->name, name, len);
	z->name[len] = '\0';
}

static void zones_make_root(const struct world *w, struct zone *z)
{
	memset(z, 0, sizeof(*z));
	strcpy(z->name, ".");
	z->kind = ZONE_ROOT;
	z->ns_style = NS_ROOT;
	zones_pick_servers(w, z, TIER_ROOT, 0, ZONES_MAX_NS);
}

static void zones_make_registry(const struct world *w, struct zone *z, const char *name, size_t len)
{
	memset(z, 0, sizeof(*z));
	zones_set_name(z, name, len);
	z->kind = ZONE_REGISTRY;
	z->ns_style = NS_NIC;
	uint64_t h = hash_bytes(w->seed ^ 0x7e91, z->name, strlen(z->name));
	zones_pick_servers(w, z, TIER_TLD, hash_mix(h), 2 + (int)(h % 3));
}

static void zones_make_provider(const struct world *w, struct zone *z, int provider)
{
	uint64_t h = hash_combine(hash_mix(w->seed), 0x9a0d0000u + (uint64_t)provider);
	zones_pick_servers(w, z, TIER_SLD, hash_mix(h), 2 + (int)(h % 2));
}

/* Breaks z's delegation as the world's shares say (docs/upstream.md, "Worlds"): every name
 * server or one of them dead (in-bailiwick servers from the dead list) or lame. */
static void zones_break(const struct world *w, struct zone *z, uint64_t h)
{
	const struct delegation_faults *f = &w->plan->faults;
	double u = hash_unit(h);
	uint64_t h2 = hash_mix(h);
	int pick = (int)((h2 >> 32) % (uint64_t)z->nns);
	if (u < f->all_dead) {
		z->ns_style = NS_SELF;
		for (int k = 0; k < z->nns; k++)
			z->ns[k] = servers_dead(w->plan, h2 + (uint64_t)k);
	} else if ((u -= f->all_dead) < f->one_dead) {
		if (z->ns_style == NS_PROVIDER) {
			z->ns_style = NS_SELF;
			zones_pick_servers(w, z, TIER_SLD, h2, z->nns);
		}
		z->ns[pick] = servers_dead(w->plan, h2);
	} else if ((u -= f->one_dead) < f->all_lame) {
		z->lame = (1u << z->nns) - 1;
	} else if ((u -= f->all_lame) < f->one_lame) {
		z->lame = 1u << pick;
	}
}

/* Parses "<prefix><N>.net." into N, or -1. */
static int zones_numbered(const char *name, size_t len, const char *prefix, int limit)
{
	size_t pl = strlen(prefix);
	if (len < pl + 6 || strncmp(name, prefix, pl) != 0 || strcmp(name + len - 5, ".net.") != 0)
		return -1;
	int n = 0;
	for (size_t i = pl; i < len - 5; i++) {
		if (!isdigit((unsigned char)name[i]) || n > 1000)
			return -1;
		n = n * 10 + (name[i] - '0');
	}
	return n < limit ? n : -1;
}

/* Decides whether a registered domain exists and, if so, fills z. */
static bool zones_make_domain(const struct world *w, struct zone *z, const char *name, size_t len,
                              const char *registry)
{
	memset(z, 0, sizeof(*z));
	zones_set_name(z, name, len);
	z->kind = ZONE_DOMAIN;
	if (strcmp(z->name, "root-servers.net.") == 0) {
		z->ns_style = NS_ROOT;
		zones_pick_servers(w, z, TIER_ROOT, 0, ZONES_MAX_NS);
		return true;
	}
	int p = zones_numbered(z->name, len, "simdns-", ZONES_PROVIDERS);
	if (p >= 0) {
		z->ns_style = NS_SELF;
		zones_make_provider(w, z, p);
		return true;
	}
	uint64_t h = hash_bytes(w->seed ^ 0xd0a1, z->name, strlen(z->name));
	if (zones_numbered(z->name, len, "simcdn-", ZONES_CDNS) >= 0) {
		z->ns_style = NS_SELF;
		zones_pick_servers(w, z, TIER_SLD, h, 2);
		return true;
	}
	if (strcmp(registry, "in-addr.arpa.") == 0) {
		/* a /8 reverse zone: exists for every octet, hosted at a provider */
		const char *dot = strchr(z->name, '.');
		for (const char *c = z->name; c < dot; c++)
			if (!isdigit((unsigned char)*c))
				return false;
		if (dot - z->name > 3 || atoi(z->name) > 255)
			return false;
	} else if (strcmp(registry, "ip6.arpa.") != 0) {
		/* about 3% of registered-looking names are not registered (see README.md) */
		if (hash_unit(h) < 0.03)
			return false;
	}
	uint64_t h2 = hash_mix(h);
	if (hash_unit(h2) < 0.35) {
		z->ns_style = NS_SELF;
		zones_pick_servers(w, z, TIER_SLD, hash_mix(h2), (h2 & 7) == 0 ? 3 : 2);
	} else {
		z->ns_style = NS_PROVIDER;
		z->provider = (int)(hash_mix(h2 ^ 0x11) % ZONES_PROVIDERS);
		zones_make_provider(w, z, z->provider);
	}
	if (w->plan->faults_on)
		zones_break(w, z, hash_mix(h2 ^ 0xfa017));
	return true;
}

/* The flat world: one server is the root's and every TLD's (ns1.nic.tld<k>., glue in the root). */
static void zones_flat_chain(const struct world *w, const char *qname, size_t len,
                             struct zone_chain *chain)
{
	const struct zone *root = &chain->zones[0]; /* one name server: the plan has one server */
	if (len <= 1)
		return;
	const char *tld = qname + len - 1; /* the trailing dot */
	while (tld > qname && (tld[-1] != '.' || (tld - 1 > qname && tld[-2] == '\\')))
		tld--;
	size_t tld_len = (size_t)(qname + len - 1 - tld);
	uint32_t addr;
	if (!flat_tld_index(tld, tld_len, w->flat_tlds)) {
		chain->exists = zones_ns_address(root, qname, &addr);
		return;
	}
	struct zone *z = &chain->zones[chain->depth++];
	memset(z, 0, sizeof(*z));
	zones_set_name(z, tld, tld_len + 1);
	z->kind = ZONE_WILDCARD;
	z->ns_style = NS_NIC;
	z->nns = 1;
	z->ns[0] = root->ns[0];
}

void zones_chain(const struct world *w, const char *qname, struct zone_chain *chain)
{
	size_t len = strlen(qname);
	chain->depth = 1;
	chain->exists = true;
	zones_make_root(w, &chain->zones[0]);
	if (w->flat_tlds) {
		zones_flat_chain(w, qname, len, chain);
		return;
	}
	if (len <= 1)
		return;
	/* label starts, from the right: suffix i is qname + starts[i] */
	size_t starts[128];
	int nlabels = 0;
	starts[nlabels++] = 0;
	for (size_t i = 0; i + 1 < len && nlabels < 128; i++)
		if (qname[i] == '.' && (i == 0 || qname[i - 1] != '\\'))
			starts[nlabels++] = i + 1;
	int k = nlabels - 1;
	const char *registry = NULL;
	for (; k >= 0; k--) {
		const char *suffix = qname + starts[k];
		if (zones_is_registry(suffix)) {
			if (chain->depth == ZONES_MAX_DEPTH)
				break;
			zones_make_registry(w, &chain->zones[chain->depth++], suffix,
			                    len - starts[k]);
			registry = chain->zones[chain->depth - 1].name;
			continue;
		}
		break;
	}
	if (k < 0)
		return; /* qname is a registry apex */
	if (!registry) {
		chain->exists = false; /* unknown TLD: NXDOMAIN from the root */
		return;
	}
	const char *domain = qname + starts[k];
	if (strncmp(domain, "nic.", 4) == 0 && strcmp(domain + 4, registry) == 0)
		return; /* the registry's own host names live in the registry zone */
	if (!zones_make_domain(w, &chain->zones[chain->depth], domain, len - starts[k], registry)) {
		chain->exists = false;
		return;
	}
	chain->depth++;
}

int zones_served_by(const struct zone_chain *chain, const struct server *s)
{
	for (int i = chain->depth - 1; i >= 0; i--)
		for (int k = 0; k < chain->zones[i].nns; k++)
			if (chain->zones[i].ns[k] == s && !(chain->zones[i].lame >> k & 1))
				return i;
	return -1;
}

void zones_ns_name(const struct zone *z, int k, char *buf)
{
	switch (z->ns_style) {
	case NS_ROOT:
		snprintf(buf, ZONES_NAME_MAX, "%c.root-servers.net.", 'a' + k);
		break;
	case NS_NIC:
		snprintf(buf, ZONES_NAME_MAX, "ns%d.nic.%s", k + 1, z->name);
		break;
	case NS_SELF:
		snprintf(buf, ZONES_NAME_MAX, "ns%d.%s", k + 1, z->name);
		break;
	case NS_PROVIDER:
		snprintf(buf, ZONES_NAME_MAX, "ns%d.simdns-%d.net.", k + 1, z->provider);
		break;
	}
}

bool zones_ns_in_bailiwick(const struct zone *z)
{
	if (z->ns_style == NS_ROOT)
		return z->kind == ZONE_ROOT || strcmp(z->name, "root-servers.net.") == 0;
	return z->ns_style != NS_PROVIDER;
}

bool zones_ns_address(const struct zone *z, const char *name, uint32_t *addr)
{
	if (!zones_ns_in_bailiwick(z))
		return false;
	/* the host names (zones_ns_name) are ns<k>.[nic.]<zone>: most names asked are not, which
	 * needs no name built to see */
	const char *rest = strchr(name, '.');
	bool ns_label = strncmp(name, "ns", 2) == 0;
	if (!rest || (z->ns_style == NS_SELF && (!ns_label || strcmp(rest + 1, z->name) != 0)) ||
	    (z->ns_style == NS_NIC &&
	     (!ns_label || strncmp(rest + 1, "nic.", 4) != 0 || strcmp(rest + 5, z->name) != 0)))
		return false;
	char buf[ZONES_NAME_MAX];
	for (int k = 0; k < z->nns; k++) {
		zones_ns_name(z, k, buf);
		if (strcmp(buf, name) == 0) {
			*addr = z->ns[k]->addr;
			return true;
		}
	}
	return false;
}
