# cmake/AllocspikeVariants.cmake - reads variants.tsv and builds one resolver executable per `build` row.

# The libc this tree compiles for: the main build is the glibc world; the musl sub-build (this same
# tree configured with cmake/musl-toolchain.cmake) is the musl world.
if(ALLOCSPIKE_MUSL_WORLD)
  set(ALLOCSPIKE_WORLD_LIBC musl)
else()
  set(ALLOCSPIKE_WORLD_LIBC glibc)
endif()

# allocspike_read_build_variants(<out-list>)
# Parses the variants table; for each build row sets ALLOCSPIKE_VARIANT_<name>_{ALLOCATOR,LIBC,LIBRARY}.
function(allocspike_read_build_variants out)
  file(STRINGS "${ALLOCSPIKE_VARIANTS_FILE}" lines)
  set(names "")
  set(header_seen FALSE)
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR line STREQUAL "")
      continue()
    endif()
    string(REPLACE "\t" ";" cols "${line}")
    list(LENGTH cols ncols)
    if(NOT ncols EQUAL 9)
      message(FATAL_ERROR "${ALLOCSPIKE_VARIANTS_FILE}: row '${line}' has ${ncols} columns, expected 9")
    endif()
    if(NOT header_seen)
      set(header_seen TRUE)
      continue()
    endif()
    list(GET cols 0 name)
    list(GET cols 1 kind)
    if(NOT kind STREQUAL "build")
      continue()
    endif()
    list(GET cols 2 allocator)
    list(GET cols 3 libc)
    list(GET cols 4 library)
    if(ALLOCSPIKE_VARIANTS)
      string(REPLACE "," ";" wanted "${ALLOCSPIKE_VARIANTS}")
      if(NOT name IN_LIST wanted)
        continue()
      endif()
    endif()
    list(APPEND names ${name})
    set(ALLOCSPIKE_VARIANT_${name}_ALLOCATOR ${allocator} PARENT_SCOPE)
    set(ALLOCSPIKE_VARIANT_${name}_LIBC ${libc} PARENT_SCOPE)
    set(ALLOCSPIKE_VARIANT_${name}_LIBRARY ${library} PARENT_SCOPE)
  endforeach()
  set(${out} ${names} PARENT_SCOPE)
endfunction()

# allocspike_add_live_bytes(<target>)
# Puts the live-bytes counter (common/live_bytes.c) between <target> and its allocator: in a static
# link by --wrap, otherwise by defining malloc and friends in the executable. Not in the sanitizer
# build, whose runtime must own malloc; the resolver then reports live_bytes as null.
# musl's calloc, memalign, posix_memalign and valloc call malloc and aligned_alloc by their public
# names, so wrapping these four counts every block once (common/live_bytes.c).
set(ALLOCSPIKE_LIVE_BYTES_WRAPPED malloc free realloc aligned_alloc)
function(allocspike_add_live_bytes target)
  if(ALLOCSPIKE_SANITIZE)
    return()
  endif()
  target_sources(${target} PRIVATE "${PROJECT_SOURCE_DIR}/common/live_bytes.c")
  if(ALLOCSPIKE_MUSL_WORLD)
    # On the counter's file only: the rest of the program compiles exactly as in the glibc world.
    set_source_files_properties("${PROJECT_SOURCE_DIR}/common/live_bytes.c" TARGET_DIRECTORY ${target}
                                PROPERTIES COMPILE_DEFINITIONS LIVE_BYTES_WRAP)
    list(JOIN ALLOCSPIKE_LIVE_BYTES_WRAPPED ",--wrap=" wrapped)
    target_link_options(${target} PRIVATE "LINKER:--wrap=${wrapped}")
  endif()
endfunction()

# allocspike_add_resolver_variant(<name> <libc> <library> SOURCES ... LIBS ...)
# The one place a variant executable is defined: same sources and flags, only the allocator differs.
function(allocspike_add_resolver_variant name libc library)
  cmake_parse_arguments(V "" "" "SOURCES;LIBS" ${ARGN})
  set(exe allocspike-resolver-${name})
  add_executable(${exe} ${V_SOURCES})
  target_compile_definitions(${exe} PRIVATE ALLOCSPIKE_VARIANT_NAME="${name}")
  target_link_libraries(${exe} PRIVATE ${V_LIBS})
  allocspike_add_live_bytes(${exe})
  allocspike_link_allocator(${exe} ${library})
  install(TARGETS ${exe} RUNTIME DESTINATION bin)
endfunction()

# allocspike_link_allocator(<target> <library>)
# Links the allocator library of a variants.tsv row ("-": the libc's own malloc) into <target>.
function(allocspike_link_allocator target library)
  if(library STREQUAL "-")
    return()
  endif()
  find_library(ALLOCSPIKE_LIB_${library} NAMES ${library} lib${library}.so.2 lib${library}.so.4)
  if(NOT ALLOCSPIKE_LIB_${library})
    message(FATAL_ERROR "${target}: allocator library ${library} not found "
                        "(scripts/install-packages.sh installs the allocator packages)")
  endif()
  # Linked last and kept even if no symbol is referenced, so it really replaces malloc.
  target_link_options(${target} PRIVATE "LINKER:--no-as-needed")
  target_link_libraries(${target} PRIVATE ${ALLOCSPIKE_LIB_${library}})
endfunction()

# allocspike_add_musl_variant(<name>)
# Builds the musl row <name> in a sub-build of this same tree with musl-gcc (-DALLOCSPIKE_MUSL_WORLD=ON:
# only common's allocspike_core and the resolver, from the one allocspike_resolver_core), linked fully
# static against the musl builds of the dependencies; the executable lands in this build's bin/.
function(allocspike_add_musl_variant name)
  if(NOT ALLOCSPIKE_MUSL_DEPS_TARGET)
    message(WARNING "variant ${name} skipped: the musl variant needs ALLOCSPIKE_STATIC_DEPS=ON")
    return()
  endif()
  set(exe allocspike-resolver-${name})
  ExternalProject_Add(allocspike_musl_world_${name}
    SOURCE_DIR "${PROJECT_SOURCE_DIR}"
    BINARY_DIR "${PROJECT_BINARY_DIR}/musl-world-${name}"
    PREFIX "${PROJECT_BINARY_DIR}/musl-world-${name}-ep"
    CMAKE_ARGS
      -DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/cmake/musl-toolchain.cmake
      -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
      -DALLOCSPIKE_MUSL_WORLD=ON
      -DALLOCSPIKE_BUILD_TESTS=OFF
      -DALLOCSPIKE_VARIANTS=${name}
      -DALLOCSPIKE_VARIANTS_FILE=${ALLOCSPIKE_VARIANTS_FILE}
      -DALLOCSPIKE_STATIC_DEPS_PREFIX=${ALLOCSPIKE_DEPS_DIR}/musl
      -DCMAKE_RUNTIME_OUTPUT_DIRECTORY=${PROJECT_BINARY_DIR}/bin
    INSTALL_COMMAND ""
    # The sub-build decides itself what is out of date (new resolver files included).
    BUILD_ALWAYS ON
    BUILD_BYPRODUCTS "${PROJECT_BINARY_DIR}/bin/${exe}"
    DEPENDS ${ALLOCSPIKE_MUSL_DEPS_TARGET})
  install(PROGRAMS "${PROJECT_BINARY_DIR}/bin/${exe}" DESTINATION bin)
endfunction()
