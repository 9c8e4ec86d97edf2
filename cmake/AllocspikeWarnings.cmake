# cmake/AllocspikeWarnings.cmake - compiler flags shared by every target (and every variant).
add_compile_options(-Wall -Wextra -Wshadow -Wno-unused-parameter -Wstrict-prototypes
                    -Wmissing-prototypes -fno-omit-frame-pointer -g)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()
if(ALLOCSPIKE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
