# cmake/musl-toolchain.cmake - the musl sub-build's toolchain: musl-gcc, every executable fully static.
# musl-gcc's specs replace glibc's headers and libraries with musl's, so nothing from /usr/include
# (glibc-world ldns/libevent headers) is visible: the static dependencies are built per libc.
find_program(ALLOCSPIKE_MUSL_GCC musl-gcc)
if(NOT ALLOCSPIKE_MUSL_GCC)
  message(FATAL_ERROR "musl-gcc not found: apt-get install musl-tools")
endif()
set(CMAKE_C_COMPILER "${ALLOCSPIKE_MUSL_GCC}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
