# cmake/AllocspikeDeps.cmake - finds system libraries, failing with the Debian package to install.
find_package(PkgConfig)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: apt-get install pkg-config (or run scripts/install-packages.sh)")
endif()

# allocspike_require_pkg(<prefix> <pkg-config module> <debian package>)
# Defines the imported target PkgConfig::<prefix> or stops with the package to install.
function(allocspike_require_pkg prefix module debian_package)
  pkg_check_modules(${prefix} QUIET IMPORTED_TARGET GLOBAL ${module})
  if(NOT ${prefix}_FOUND)
    message(FATAL_ERROR "${module} not found: apt-get install ${debian_package} "
                        "(scripts/install-packages.sh installs every package the project needs)")
  endif()
endfunction()

if(NOT ALLOCSPIKE_MUSL_WORLD)
  allocspike_require_pkg(JANSSON jansson libjansson-dev)
  allocspike_require_pkg(LIBEVENT libevent libevent-dev)
  allocspike_require_pkg(LDNS ldns libldns-dev)
  allocspike_require_pkg(LZMA liblzma liblzma-dev)
  allocspike_require_pkg(ZLIB zlib zlib1g-dev)
  allocspike_require_pkg(PCAP libpcap libpcap0.8-dev)
  # DNS over TLS (resolver --tls-listen, loadgen -m dot); always the shared library, also where
  # ALLOCSPIKE_STATIC_DEPS links ldns and libevent statically. The musl world has none.
  allocspike_require_pkg(GNUTLS gnutls libgnutls28-dev)
  if(ALLOCSPIKE_BUILD_TESTS)
    allocspike_require_pkg(CMOCKA cmocka libcmocka-dev)
  endif()
endif()
