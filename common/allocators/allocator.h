/* common/allocators/allocator.h - one allocator described once: how to find it in a process, its
 * version, its statistics, its settings read-back, its trim, and the facts reports show for it.
 * One file per allocator fills one struct; registry.c lists them (docs/architecture.md,
 * "Allocator adapters"). Nothing outside this folder compares an allocator's name. */
#ifndef ALLOCSPIKE_ALLOCATORS_ALLOCATOR_H
#define ALLOCSPIKE_ALLOCATORS_ALLOCATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "alloc_settings.h"
#include "alloc_stats.h"
#include "anon_maps.h"

/* What the findings and the "why" panel call this allocator's kinds of free memory. */
struct allocator_words {
	const char *trimmable;      /* "the top chunk" */
	const char *trimmable_why;  /* what would return it ("which malloc_trim could return") */
	const char *fragmented;     /* "free chunks below the top chunk" */
	const char *fragmented_why; /* why it stays ("which trim cannot return") or "" */
	const char *other;          /* the rest the allocator holds */
	const char *unmapped; /* what the allocator calls memory it unmapped but keeps, or NULL */
	const char *unsplit;  /* all held memory, when the allocator reports no split */
	const char *unsplit_why; /* why there is no split */
};

/* What scenarios/cpu.sh counts as this allocator's own code in a callgrind profile: extended
 * regular expressions (alternatives joined by |), each NULL when it has none, matched against a
 * line's shared object, source file and function name. The malloc API's own names (malloc, free,
 * operator new, ...) count whichever allocator serves them (cpu.sh). */
struct allocator_cpu_symbols {
	const char *objects;   /* "libjemalloc" */
	const char *files;     /* "/malloc/(malloc|arena)\\.c" */
	const char *functions; /* "je_[a-z_0-9]+" */
};

/* How one variable of a row's env cell sets several of this allocator's settings at once
 * (env_settings.h; docs/variants.md "Settings"): GLIBC_TUNABLES=a=1:b=2 sets a and b. A variable
 * no adapter names here sets the one setting of its own name (gperftools and mimalloc read theirs
 * from variables of those names). */
struct allocator_env_list {
	const char *var;    /* "GLIBC_TUNABLES", or NULL: this allocator has no such variable */
	char item_sep;      /* between items: ':' */
	char value_sep;     /* between an item's name and value: '=' */
	const char *prefix; /* put before each name to give the reported setting's ("opt.") */
	/* What the allocator reports as 0 when nobody set it ("an unset tunable"), so that asking
	 * for 0 cannot be shown to take; NULL when 0 is reported only when set. */
	const char *zero_when_unset;
};

/* Every operation reads the allocator through weak references (alloc_symbols.h), so each is safe
 * to call whichever allocator serves the process; a NULL operation means "has none". */
struct allocator_adapter {
	const char *name;   /* as alloc_info, the `alloc` object and variants.tsv name it */
	const char *alias;  /* another name rows may give it (musl for mallocng), or NULL */
	const char *colour; /* its fixed report colour (reports/README.md "Colours") */
	struct allocator_words words;
	struct allocator_cpu_symbols cpu;
	struct allocator_env_list env;
	/* Whether the shared object malloc was found in (its base name) is this allocator's. */
	bool (*serves_object)(const char *base);
	/* Whether its own symbols are bound in this process (a statically linked executable). */
	bool (*present)(void);
	/* Writes its version into buf when it can tell; leaves buf alone otherwise. */
	void (*version)(char *buf, size_t size);
	/* Its own statistics, read before the maps (its calls may map memory themselves). */
	void (*stats)(struct alloc_stats *s);
	/* Its parts of the anonymous maps, read after them. */
	void (*stats_from_maps)(struct alloc_stats *s, const struct anon_maps *m, bool have_maps);
	/* Its settings as it reports them (alloc_settings.h). */
	void (*settings)(struct alloc_settings_out *o);
	/* Whether it can return its free memory on demand here, and the call that does. */
	bool (*can_trim)(void);
	void (*trim)(void);
};

/* The adapter named name (or its alias); NULL for a name no adapter has. */
const struct allocator_adapter *allocator_by_name(const char *name);

/* Like allocator_by_name, but a name no adapter has is refused with a message naming the known
 * ones ("unknown allocator 'x' (known: ...)") written into err. */
const struct allocator_adapter *allocator_lookup(const char *name, char *err, size_t err_size);

/* The i-th adapter, in order of detection precedence; NULL past the last. */
const struct allocator_adapter *allocator_at(size_t i);
size_t allocator_count(void);

/* The allocator serving malloc in this process: the one whose shared object path (dladdr of
 * malloc; NULL when static) is, else the first whose symbols are bound. Never NULL: musl's
 * mallocng, which exports none, is the last resort. */
const struct allocator_adapter *allocator_detect(const char *malloc_object);

/* The registry as a table, for the scripts that must not name an allocator themselves
 * (`allocspike-report allocators`, docs/architecture.md "Allocator adapters"): a header line, then
 * one line per adapter in detection order, tab-separated, "-" for none: name, alias, colour, and
 * its cpu objects, files and functions. */
void allocator_table_write(FILE *f);

/* glibc's adapter, for the places that must name it: the allocator probe, when the glibc routing
 * shim (preload/glibc_malloc.c) sends malloc to glibc (preload/alloc_probe.c), and the probe's
 * judgement, where glibc's own heap growing is evidence for or against the row's allocator
 * (controller/rows_check.c). */
extern const struct allocator_adapter allocator_glibc;

#endif
