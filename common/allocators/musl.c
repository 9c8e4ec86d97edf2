/* common/allocators/musl.c - musl's mallocng: no symbols of its own, no statistics call, no
 * settings; its memory is the brk heap and anonymous maps. */
#include "allocator.h"

const struct allocator_adapter allocator_musl = {
    .name = "mallocng", /* musl's malloc since 1.2.1 */
    .alias = "musl",
    .colour = "#e69f00",
    .words = {"free groups it can release", "which it returns when whole groups are free",
              "free slots of groups still in use", "which stay while a slot of their group lives",
              "metadata", NULL, "held by mallocng (no breakdown)",
              "mallocng has no statistics call"},
    /* a static executable: its allocator functions by name */
    .cpu = {.files = "/src/malloc/|mallocng",
            .functions = "alloc_slot|alloc_group|try_avail|get_meta|get_stride|enframe|"
                         "alloc_meta|nontrivial_free|free_group|okay_to_free|activate_group|"
                         "size_to_class|get_slot_index|set_size"},
    /* no statistics call: its memory is the brk heap and anonymous maps, measured */
    .stats_from_maps = alloc_stats_maps_parts,
};
