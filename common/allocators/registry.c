/* common/allocators/registry.c - the list of allocator adapters and the lookups over it. */
#include "allocator.h"

#include <stdio.h>
#include <string.h>

/* The adapters, one per file; this list is the only place they are named together. */
extern const struct allocator_adapter allocator_musl, allocator_jemalloc, allocator_tcmalloc,
    allocator_mimalloc, allocator_tbbmalloc;

/* Detection precedence: an allocator that replaces malloc before the libc that brings one, and
 * musl's mallocng last, as the allocator of a process that exports no allocator's symbols. */
static const struct allocator_adapter *const allocators[] = {
    &allocator_mimalloc,  &allocator_tcmalloc, &allocator_jemalloc,
    &allocator_tbbmalloc, &allocator_glibc,    &allocator_musl,
};
#define N_ALLOCATORS (sizeof(allocators) / sizeof(*allocators))

size_t allocator_count(void)
{
	return N_ALLOCATORS;
}

const struct allocator_adapter *allocator_at(size_t i)
{
	return i < N_ALLOCATORS ? allocators[i] : NULL;
}

const struct allocator_adapter *allocator_by_name(const char *name)
{
	for (size_t i = 0; name && i < N_ALLOCATORS; i++)
		if (strcmp(allocators[i]->name, name) == 0 ||
		    (allocators[i]->alias && strcmp(allocators[i]->alias, name) == 0))
			return allocators[i];
	return NULL;
}

const struct allocator_adapter *allocator_lookup(const char *name, char *err, size_t err_size)
{
	const struct allocator_adapter *a = allocator_by_name(name);
	if (a)
		return a;
	int len = snprintf(err, err_size, "unknown allocator '%s' (known:", name ? name : "");
	for (size_t i = 0; i < N_ALLOCATORS && len >= 0 && (size_t)len < err_size; i++)
		len += snprintf(err + len, err_size - (size_t)len, " %s", allocators[i]->name);
	if (len >= 0 && (size_t)len < err_size)
		snprintf(err + len, err_size - (size_t)len, ")");
	return NULL;
}

const struct allocator_adapter *allocator_detect(const char *malloc_object)
{
	if (malloc_object) {
		const char *base = strrchr(malloc_object, '/');
		base = base ? base + 1 : malloc_object;
		for (size_t i = 0; i < N_ALLOCATORS; i++)
			if (allocators[i]->serves_object && allocators[i]->serves_object(base))
				return allocators[i];
	}
	/* An executable linked statically against an allocator names itself: fall back to its
	 * symbols. */
	for (size_t i = 0; i < N_ALLOCATORS; i++)
		if (allocators[i]->present && allocators[i]->present())
			return allocators[i];
	return &allocator_musl;
}

static const char *allocator_cell(const char *text)
{
	return text && *text ? text : "-";
}

void allocator_table_write(FILE *f)
{
	fputs("name\talias\tcolour\tcpu_objects\tcpu_files\tcpu_functions\n", f);
	for (size_t i = 0; i < N_ALLOCATORS; i++) {
		const struct allocator_adapter *a = allocators[i];
		fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\n", a->name, allocator_cell(a->alias), a->colour,
		        allocator_cell(a->cpu.objects), allocator_cell(a->cpu.files),
		        allocator_cell(a->cpu.functions));
	}
}
