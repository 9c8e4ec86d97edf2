# cmake/AllocspikeStaticDeps.cmake - static ldns, libevent and jansson per libc, from pinned Debian sources.
#
# Every resolver variant links the same static builds of its libraries (one build per libc, the same
# source package and flags), so variants differ only in libc and allocator. Sources come from
# `apt-get source` of the pinned versions below through a private apt setup (cmake/debian-source.sh);
# they are cached in ALLOCSPIKE_SOURCE_CACHE so a rebuild needs no network.
#
# Provides the imported targets allocspike::ldns_<libc>, allocspike::libevent_<libc> and
# allocspike::jansson_<libc>, sets ALLOCSPIKE_RESOLVER_DEPS for this tree's libc, and
# ALLOCSPIKE_MUSL_DEPS_TARGET (what the musl sub-build waits for) when a musl variant is built.
include(ExternalProject)

option(ALLOCSPIKE_STATIC_DEPS
       "Link the resolver variants against static per-libc builds of ldns, libevent and jansson (OFF: system shared libraries, no musl variant)"
       ON)
if("$ENV{HOME}" STREQUAL "")
  set(_allocspike_cache_default "${PROJECT_SOURCE_DIR}/.cache/allocspike/sources") # git-ignored
else()
  set(_allocspike_cache_default "$ENV{HOME}/.cache/allocspike/sources")
endif()
set(ALLOCSPIKE_SOURCE_CACHE "${_allocspike_cache_default}" CACHE PATH
    "Where downloaded Debian source packages are kept (survives deleting the build folder)")
set(ALLOCSPIKE_STATIC_DEPS_PREFIX "" CACHE PATH
    "Internal (musl sub-build): install prefix of the static dependencies built by the main build")

# The pinned Debian 12 (bookworm) source packages; libevent is bookworm-security's, the version the
# system's libevent-dev has. A changed pin is fetched, unpacked and rebuilt on the next build.
set(ALLOCSPIKE_DEBIAN_SOURCES ldns=1.8.3-1 libevent=2.1.12-stable-8+deb12u1 jansson=2.14-2)
# The same flags for every libc's build of every dependency.
set(ALLOCSPIKE_DEPS_CFLAGS "-O2 -g -fno-omit-frame-pointer")
set(ALLOCSPIKE_DEPS_CONFIGURE_ldns --disable-shared --enable-static --without-ssl --disable-sha2
    --disable-gost --disable-ecdsa --disable-dsa --disable-ed25519 --disable-ed448 --disable-dane
    --without-drill --without-examples --without-pyldns --without-pyldnsx --without-p5-dns-ldns
    --disable-ldns-config --disable-rpath)
set(ALLOCSPIKE_DEPS_CONFIGURE_libevent --disable-shared --enable-static --disable-openssl
    --disable-samples --disable-libevent-regress --disable-doxygen-doc)
set(ALLOCSPIKE_DEPS_CONFIGURE_jansson --disable-shared --enable-static)
# The archive each package installs that the resolver links.
set(ALLOCSPIKE_DEPS_ARCHIVE_ldns libldns.a)
set(ALLOCSPIKE_DEPS_ARCHIVE_libevent libevent.a)
set(ALLOCSPIKE_DEPS_ARCHIVE_jansson libjansson.a)

set(ALLOCSPIKE_DEPS_DIR "${PROJECT_BINARY_DIR}/deps")

# allocspike_static_deps_import(<libc> <prefix>)
# Imported targets allocspike::<package>_<libc> for the archives installed under <prefix>.
function(allocspike_static_deps_import libc prefix)
  file(MAKE_DIRECTORY "${prefix}/include")
  foreach(spec IN LISTS ALLOCSPIKE_DEBIAN_SOURCES)
    string(REGEX REPLACE "=.*" "" pkg "${spec}")
    add_library(allocspike::${pkg}_${libc} STATIC IMPORTED GLOBAL)
    set_target_properties(allocspike::${pkg}_${libc} PROPERTIES
      IMPORTED_LOCATION "${prefix}/lib/${ALLOCSPIKE_DEPS_ARCHIVE_${pkg}}"
      INTERFACE_INCLUDE_DIRECTORIES "${prefix}/include")
  endforeach()
endfunction()

# allocspike_static_deps_build(<libc> <C compiler>)
# One ExternalProject per package, configured with <C compiler> and installed into deps/<libc>.
function(allocspike_static_deps_build libc cc)
  set(prefix "${ALLOCSPIKE_DEPS_DIR}/${libc}")
  set(all "")
  foreach(spec IN LISTS ALLOCSPIKE_DEBIAN_SOURCES)
    string(REGEX REPLACE "=.*" "" pkg "${spec}")
    set(ep allocspike_dep_${pkg}_${libc})
    ExternalProject_Add(${ep}
      PREFIX "${ALLOCSPIKE_DEPS_DIR}/ep"
      SOURCE_DIR "${ALLOCSPIKE_DEPS_DIR}/src/${pkg}"
      BINARY_DIR "${ALLOCSPIKE_DEPS_DIR}/build/${pkg}-${libc}"
      INSTALL_DIR "${prefix}"
      DOWNLOAD_COMMAND ""
      UPDATE_COMMAND ""
      PATCH_COMMAND ""
      CONFIGURE_COMMAND ${CMAKE_COMMAND} -E env "CC=${cc}" "CFLAGS=${ALLOCSPIKE_DEPS_CFLAGS}"
        <SOURCE_DIR>/configure --prefix=<INSTALL_DIR> ${ALLOCSPIKE_DEPS_CONFIGURE_${pkg}}
      BUILD_BYPRODUCTS "${prefix}/lib/${ALLOCSPIKE_DEPS_ARCHIVE_${pkg}}"
      DEPENDS allocspike_dep_sources
      LOG_CONFIGURE ON LOG_BUILD ON LOG_INSTALL ON LOG_OUTPUT_ON_FAILURE ON)
    # Re-unpacked sources (a changed pin) rewrite <pkg>.version: configure and build again.
    ExternalProject_Add_StepDependencies(${ep} configure "${ALLOCSPIKE_DEPS_DIR}/src/${pkg}.version")
    list(APPEND all ${ep})
  endforeach()
  allocspike_static_deps_import(${libc} "${prefix}")
  foreach(spec IN LISTS ALLOCSPIKE_DEBIAN_SOURCES)
    string(REGEX REPLACE "=.*" "" pkg "${spec}")
    add_dependencies(allocspike::${pkg}_${libc} allocspike_dep_${pkg}_${libc})
  endforeach()
  add_custom_target(allocspike_deps_${libc} DEPENDS ${all})
endfunction()

if(ALLOCSPIKE_MUSL_WORLD)
  # The musl sub-build links what the main build compiled with musl-gcc.
  if(NOT ALLOCSPIKE_STATIC_DEPS_PREFIX)
    message(FATAL_ERROR "ALLOCSPIKE_MUSL_WORLD needs ALLOCSPIKE_STATIC_DEPS_PREFIX (set by the main build)")
  endif()
  allocspike_static_deps_import(musl "${ALLOCSPIKE_STATIC_DEPS_PREFIX}")
  set(ALLOCSPIKE_RESOLVER_DEPS allocspike::ldns_musl allocspike::libevent_musl allocspike::jansson_musl)
elseif(ALLOCSPIKE_STATIC_DEPS)
  foreach(tool dpkg-source apt-get autoreconf libtoolize)
    find_program(ALLOCSPIKE_TOOL_${tool} ${tool})
    if(NOT ALLOCSPIKE_TOOL_${tool})
      message(FATAL_ERROR "${tool} not found (needed for the static dependency builds): "
                          "apt-get install dpkg-dev autoconf automake libtool, or configure with "
                          "-DALLOCSPIKE_STATIC_DEPS=OFF for a quick build without the musl variant")
    endif()
  endforeach()
  # One fetch for both libcs: the same unpacked sources feed every build.
  string(SHA1 pins_hash "${ALLOCSPIKE_DEBIAN_SOURCES}")
  set(sources_stamp "${ALLOCSPIKE_DEPS_DIR}/src/sources-${pins_hash}.stamp")
  set(version_files "")
  foreach(spec IN LISTS ALLOCSPIKE_DEBIAN_SOURCES)
    string(REGEX REPLACE "=.*" "" pkg "${spec}")
    list(APPEND version_files "${ALLOCSPIKE_DEPS_DIR}/src/${pkg}.version")
  endforeach()
  add_custom_command(OUTPUT "${sources_stamp}"
    BYPRODUCTS ${version_files}
    COMMAND bash "${CMAKE_CURRENT_LIST_DIR}/debian-source.sh" "${ALLOCSPIKE_SOURCE_CACHE}"
            "${ALLOCSPIKE_DEPS_DIR}/apt" "${ALLOCSPIKE_DEPS_DIR}/src" ${ALLOCSPIKE_DEBIAN_SOURCES}
    COMMAND ${CMAKE_COMMAND} -E touch "${sources_stamp}"
    DEPENDS "${CMAKE_CURRENT_LIST_DIR}/debian-source.sh"
    COMMENT "Fetching Debian sources: ${ALLOCSPIKE_DEBIAN_SOURCES}"
    VERBATIM)
  add_custom_target(allocspike_dep_sources DEPENDS "${sources_stamp}")

  allocspike_static_deps_build(glibc "${CMAKE_C_COMPILER}")
  set(ALLOCSPIKE_RESOLVER_DEPS allocspike::ldns_glibc allocspike::libevent_glibc
      allocspike::jansson_glibc)

  allocspike_read_build_variants(_allocspike_static_variants)
  foreach(v IN LISTS _allocspike_static_variants)
    if(ALLOCSPIKE_VARIANT_${v}_LIBC STREQUAL "musl" AND NOT TARGET allocspike_deps_musl)
      find_program(ALLOCSPIKE_MUSL_GCC musl-gcc)
      if(NOT ALLOCSPIKE_MUSL_GCC)
        message(FATAL_ERROR "musl-gcc not found (variant ${v}): apt-get install musl-tools")
      endif()
      allocspike_static_deps_build(musl "${ALLOCSPIKE_MUSL_GCC}")
      set(ALLOCSPIKE_MUSL_DEPS_TARGET allocspike_deps_musl)
    endif()
  endforeach()
endif()
