/* tests/common/test_allocators.c - the allocator registry: it knows the six allocators by name,
 * each described in full, and refuses a name it does not know with a message naming the known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "allocators/allocator.h"

static const char *const SIX[] = {"glibc",    "mallocng", "jemalloc",
                                  "tcmalloc", "mimalloc", "tbbmalloc"};

static void test_knows_the_six(void **state)
{
	(void)state;
	assert_int_equal(allocator_count(), 6);
	for (size_t i = 0; i < 6; i++) {
		const struct allocator_adapter *a = allocator_by_name(SIX[i]);
		assert_non_null(a);
		assert_string_equal(a->name, SIX[i]);
		assert_true(a->colour && a->colour[0] == '#');
		assert_non_null(a->words.trimmable);
		assert_non_null(a->words.unsplit_why);
	}
	assert_ptr_equal(allocator_by_name("musl"), allocator_by_name("mallocng"));
	assert_null(allocator_at(allocator_count()));
}

static void test_names_are_unique(void **state)
{
	(void)state;
	for (size_t i = 0; i < allocator_count(); i++)
		for (size_t j = i + 1; j < allocator_count(); j++)
			assert_string_not_equal(allocator_at(i)->name, allocator_at(j)->name);
}

static void test_unknown_is_refused(void **state)
{
	(void)state;
	assert_null(allocator_by_name("snmalloc"));
	assert_null(allocator_by_name(NULL));
	char err[160];
	assert_null(allocator_lookup("snmalloc", err, sizeof(err)));
	assert_string_equal(err, "unknown allocator 'snmalloc' (known: mimalloc tcmalloc jemalloc "
	                         "tbbmalloc glibc mallocng)");
	assert_ptr_equal(allocator_lookup("jemalloc", err, sizeof(err)),
	                 allocator_by_name("jemalloc"));
}

/* Whatever serves malloc in this test, detection names an allocator the registry has. */
static void test_detect_names_a_known_one(void **state)
{
	(void)state;
	const struct allocator_adapter *a = allocator_detect(NULL);
	assert_ptr_equal(allocator_by_name(a->name), a);
	assert_string_equal(allocator_detect("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2")->name,
	                    "jemalloc");
	assert_string_equal(allocator_detect("/lib/x86_64-linux-gnu/libc.so.6")->name, "glibc");
	assert_string_equal(allocator_detect("/lib/x86_64-linux-gnu/libtbbmalloc_proxy.so.2")->name,
	                    "tbbmalloc");
}

/* The table the scripts read (allocspike-report allocators): a header, then one line per adapter
 * in registry order with six cells, none empty, and objects or files to count for every one. */
static void test_table_has_every_adapter(void **state)
{
	(void)state;
	char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	allocator_table_write(f);
	assert_int_equal(fclose(f), 0);
	char *save = NULL, *line = strtok_r(buf, "\n", &save);
	assert_string_equal(line, "name\talias\tcolour\tcpu_objects\tcpu_files\tcpu_functions");
	size_t i = 0;
	for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++) {
		char *cells[6], *cell_save = NULL;
		size_t n = 0;
		for (char *c = strtok_r(line, "\t", &cell_save); c && n < 6;
		     c = strtok_r(NULL, "\t", &cell_save))
			cells[n++] = c;
		assert_int_equal(n, 6);
		assert_string_equal(cells[0], allocator_at(i)->name);
		assert_string_equal(cells[2], allocator_at(i)->colour);
		assert_true(strcmp(cells[3], "-") != 0 || strcmp(cells[4], "-") != 0);
		assert_string_not_equal(cells[5], "-");
	}
	assert_int_equal(i, allocator_count());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_knows_the_six),
	    cmocka_unit_test(test_names_are_unique),
	    cmocka_unit_test(test_unknown_is_refused),
	    cmocka_unit_test(test_detect_names_a_known_one),
	    cmocka_unit_test(test_table_has_every_adapter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
