# cmake/AllocspikeFuzz.cmake - fuzz targets (tests/fuzz/): libFuzzer where the compiler has it
# (clang, with ASan and UBSan), else the same entry point linked with a replay main, so that the
# seed corpus and the regression inputs run in every build, the release gcc build included.
include(CheckCSourceCompiles)

set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
check_c_source_compiles("
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return data && size ? 0 : 0; }"
  ALLOCSPIKE_HAVE_LIBFUZZER)
unset(CMAKE_REQUIRED_FLAGS)
if(ALLOCSPIKE_HAVE_LIBFUZZER)
  set(ALLOCSPIKE_FUZZ_MODE libfuzzer)
else()
  set(ALLOCSPIKE_FUZZ_MODE replay)
endif()

# allocspike_fuzz_instrument(<target>) : the code under test gets libFuzzer's coverage (and the
# sanitizers) in libfuzzer mode; nothing in replay mode.
function(allocspike_fuzz_instrument target)
  if(ALLOCSPIKE_FUZZ_MODE STREQUAL libfuzzer)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address,undefined
                           -fno-sanitize-recover=undefined)
  endif()
endfunction()

# allocspike_fuzz_library(<name> FROM <static library target>) : <name> is <target> itself in
# replay mode, and in libfuzzer mode an instrumented copy built from the same sources with the
# same include folders and libraries.
function(allocspike_fuzz_library name)
  cmake_parse_arguments(F "" "FROM" "" ${ARGN})
  if(ALLOCSPIKE_FUZZ_MODE STREQUAL replay)
    add_library(${name} ALIAS ${F_FROM})
    return()
  endif()
  get_target_property(srcs ${F_FROM} SOURCES)
  get_target_property(dir ${F_FROM} SOURCE_DIR)
  list(TRANSFORM srcs PREPEND "${dir}/" REGEX "^[^/]")
  add_library(${name} STATIC ${srcs})
  target_include_directories(${name} PUBLIC $<TARGET_PROPERTY:${F_FROM},INCLUDE_DIRECTORIES>)
  target_compile_definitions(${name} PUBLIC $<TARGET_PROPERTY:${F_FROM},COMPILE_DEFINITIONS>)
  target_link_libraries(${name} PUBLIC $<TARGET_PROPERTY:${F_FROM},LINK_LIBRARIES>)
  allocspike_fuzz_instrument(${name})
endfunction()

# allocspike_add_fuzz_target(<name> SOURCES ... [LIBS ...] CORPUS <dir> REGRESSIONS <dir>)
# The executable fuzz_<name> and its ctest test fuzz_<name> (label fuzz, tests/fuzz/fuzz.sh): the
# regression inputs and the corpus always, then (libfuzzer mode) a bounded fuzzing run.
function(allocspike_add_fuzz_target name)
  cmake_parse_arguments(F "" "CORPUS;REGRESSIONS" "SOURCES;LIBS" ${ARGN})
  set(exe fuzz_${name})
  if(ALLOCSPIKE_FUZZ_MODE STREQUAL libfuzzer)
    add_executable(${exe} ${F_SOURCES})
    allocspike_fuzz_instrument(${exe})
    target_link_options(${exe} PRIVATE -fsanitize=fuzzer,address,undefined)
  else()
    add_executable(${exe} ${F_SOURCES} ${PROJECT_SOURCE_DIR}/tests/fuzz/replay_main.c)
  endif()
  target_include_directories(${exe} PRIVATE ${PROJECT_SOURCE_DIR}/tests/fuzz)
  target_link_libraries(${exe} PRIVATE ${F_LIBS})
  set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/fuzz")
  allocspike_add_script_test(${exe} SCRIPT ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz.sh
    ARGS ${ALLOCSPIKE_FUZZ_MODE} $<TARGET_FILE:${exe}> ${F_CORPUS} ${F_REGRESSIONS}
    LABELS fuzz TIMEOUT 180)
  set_property(GLOBAL APPEND PROPERTY ALLOCSPIKE_FUZZ_TESTS ${exe})
endfunction()
