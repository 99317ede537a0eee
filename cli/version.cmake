# cmake -P script of the build step gpumem_version (cli/CMakeLists.txt):
# writes OUT, the header that gives gpumem's version, `git describe --always
# --dirty` of SOURCE_DIR, at every build rather than only when CMake
# configures, and only when the text changed, so that `gpumem --version` and
# a sweep point's identity name the sources built and an unchanged tree
# recompiles nothing.
#   -DSOURCE_DIR=... -DOUT=.../gpumem_version.hpp
execute_process(COMMAND git describe --always --dirty WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT version)
  set(version "unknown")  # not a git checkout (a source archive)
endif()
set(text "// Written by cli/version.cmake at every build.\n#pragma once\n#define GPUMEM_VERSION \"${version}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
