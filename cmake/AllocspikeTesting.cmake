# cmake/AllocspikeTesting.cmake - the two ways a test is registered with ctest.

# allocspike_add_unit_test(<name> SOURCES ... [LIBS ...] [LABELS ...])
# A cmocka test program built from SOURCES, linked with allocspike_common and cmocka.
function(allocspike_add_unit_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE allocspike_common PkgConfig::CMOCKA ${T_LIBS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  add_test(NAME ${name} COMMAND ${name})
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}"
                       ENVIRONMENT "ALLOCSPIKE_SOURCE_DIR=${PROJECT_SOURCE_DIR};ALLOCSPIKE_BUILD_DIR=${PROJECT_BINARY_DIR}")
endfunction()

# allocspike_add_script_test(<name> SCRIPT <file> [ARGS ...] [LABELS ...] [TIMEOUT s] [RESOURCE_LOCK ...])
# A bash test script; it finds programs through ALLOCSPIKE_BIN (the build's bin folder).
function(allocspike_add_script_test name)
  cmake_parse_arguments(T "" "SCRIPT;TIMEOUT" "ARGS;LABELS;RESOURCE_LOCK" ${ARGN})
  add_test(NAME ${name} COMMAND bash ${T_SCRIPT} ${T_ARGS})
  if(NOT T_LABELS)
    set(T_LABELS integration)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "ALLOCSPIKE_SOURCE_DIR=${PROJECT_SOURCE_DIR};ALLOCSPIKE_BUILD_DIR=${PROJECT_BINARY_DIR};ALLOCSPIKE_VERSION=${PROJECT_VERSION};ALLOCSPIKE_BIN=${PROJECT_BINARY_DIR}/bin;ALLOCSPIKE_SANITIZE=$<BOOL:${ALLOCSPIKE_SANITIZE}>")
  if(T_RESOURCE_LOCK)
    set_tests_properties(${name} PROPERTIES RESOURCE_LOCK "${T_RESOURCE_LOCK}")
  endif()
  # 77 is how a script says "skipped" (a package or data file absent), with its reason printed.
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()
