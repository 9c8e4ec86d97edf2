/* reports/glossary.c - the allocator terms and how a sentence writes them (docs/glossary.md). */
#include "glossary.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* A term, its explanation, and the words that stand for it in a sentence (longest first where
 * one begins another). */
static const struct {
	struct glossary_term t;
	const char *words[4];
} TERMS[] = {
    {{"anon-rss", "anonymous RSS",
      "Resident memory not backed by a file: the heap, stacks and anonymous mappings. It is what "
      "the program holds (live bytes), plus what the allocator holds beyond that, plus a little "
      "outside the allocator."},
     {"anonymous RSS", "anon RSS"}},
    {{"live", "live bytes",
      "What the program has allocated and not yet freed (the resolver's sampler counts it). No "
      "allocator can return it."},
     {"live bytes", "live memory"}},
    {{"held", "allocator-held memory",
      "What the allocator keeps resident beyond live bytes: free memory not yet returned to the "
      "system and the allocator's own metadata. Memory the spikes leave behind is judged on it."},
     {"allocator-held", "held beyond live"}},
    {{"returnable", "returnable (trimmable)",
      "Free memory the allocator could give back to the system as it stands: glibc's top chunk, "
      "jemalloc's dirty and muzzy pages, tcmalloc's free pages of the page heap."},
     {"returnable", "trimmable"}},
    {{"fragmented", "fragmented",
      "Free memory in pieces between live allocations: it cannot be returned while a neighbour "
      "on the same page or chunk is still in use."},
     {"fragmented"}},
    {{"top-chunk", "top chunk",
      "glibc: the free space at the end of the main heap. free() gives memory back only by "
      "shrinking it; free chunks below it stay resident until malloc_trim."},
     {"top chunk"}},
    {{"malloc-trim", "malloc_trim",
      "glibc: the call that returns the top chunk and whole free pages inside the heap. free() "
      "trims only the top chunk, past M_TRIM_THRESHOLD (glibc.malloc.trim_threshold)."},
     {"malloc_trim"}},
    {{"arena", "arena",
      "A separate heap an allocator keeps for some threads so they do not wait for one lock; "
      "each arena keeps its own free memory."},
     {"arenas", "arena"}},
    {{"dirty-pages", "dirty pages",
      "jemalloc: freed pages still resident, waiting for decay to purge them."},
     {"dirty"}},
    {{"muzzy-pages", "muzzy pages",
      "jemalloc: pages already advised away (MADV_FREE): the kernel may take them back under "
      "pressure, and until it does they still count in RSS."},
     {"muzzy"}},
    {{"decay", "decay",
      "jemalloc's timed purging: dirty pages become muzzy after dirty_decay_ms, muzzy pages are "
      "released after muzzy_decay_ms (dirty_decay_ms is 10 s by default)."},
     {"decay"}},
    {{"retained", "retained",
      "jemalloc: address space given back to the system but kept reserved for reuse; not in "
      "RSS."},
     {"retained"}},
    {{"unmapped", "unmapped, purged",
      "Memory the allocator gave back to the system (tcmalloc unmapped, mimalloc purged) while "
      "keeping its address range; not in RSS."},
     {"unmapped", "purged", "purging"}},
    {{"page-heap", "page heap",
      "tcmalloc: its store of free whole pages; the release rate decides how fast it unmaps "
      "them."},
     {"page heap"}},
    {{"span", "span",
      "tcmalloc: a run of pages cut into objects of one size; it goes back to the page heap "
      "only when every object in it is free."},
     {"spans", "span"}},
    {{"knee", "knee",
      "The offered rate past which a variant stops keeping up: answers fall behind the queries "
      "and latency climbs. Spikes are set relative to the slowest variant's knee."},
     {"knee"}},
    {{"pile-up", "pile-up (requests in flight)",
      "Queries waiting at once for an answer from upstream: they pile up during a spike, and "
      "each holds memory until it is answered or given up."},
     {"pile-up", "in flight"}},
    {{"rank", "\"from the least\"",
      "The ranking of what the spikes left behind: \"the least\" left the least; \"3rd from the "
      "least of 4\" is third in that order. Figures within the agreement rule (10 %, or 1 MB) "
      "are ties."},
     {"from the least", "the least"}},
};
#define N_TERMS (sizeof(TERMS) / sizeof(*TERMS))

size_t glossary_count(void)
{
	return N_TERMS;
}

const struct glossary_term *glossary_at(size_t i)
{
	return i < N_TERMS ? &TERMS[i].t : NULL;
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Whether word is written at text + at as a whole word. */
static bool word_at(const char *text, size_t at, const char *word)
{
	size_t n = strlen(word);
	return (at == 0 || !word_char(text[at - 1])) && strncasecmp(text + at, word, n) == 0 &&
	       !word_char(text[at + n]);
}

int glossary_next(const char *text, size_t *pos, size_t *len)
{
	for (size_t at = *pos; text && text[at]; at++)
		for (size_t i = 0; i < N_TERMS; i++)
			for (size_t w = 0; w < 4 && TERMS[i].words[w]; w++)
				if (word_at(text, at, TERMS[i].words[w])) {
					*pos = at;
					*len = strlen(TERMS[i].words[w]);
					return (int)i;
				}
	return -1;
}

void glossary_mark_used(const char *text, bool *used)
{
	size_t pos = 0, len;
	for (int i; (i = glossary_next(text, &pos, &len)) >= 0; pos += len)
		used[i] = true;
}
