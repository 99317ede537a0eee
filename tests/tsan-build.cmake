# cmake -P script of the CTest test sanitize.threads (tests/CMakeLists.txt):
# configures, once, a clang build of the project with ThreadSanitizer (it
# cannot share a build with AddressSanitizer), builds only the property
# tests of the code with worker threads, the explorer's search, and runs
# them (docs/reliability.md). Any report fails the test.
#   -DSOURCE_DIR=... -DBINARY_DIR=... -DCXX=clang++ -DJOBS=2
set(BUILD_NAME "ThreadSanitizer build")
# -O1 (clang's ThreadSanitizer documentation builds its example so) and
# line tables (a report needs file and line only): -O2 with full debug
# information compiled this build in 86 core-seconds against 54, and the
# property tests run in about a second either way. LLVM's linker, as the
# reliability build's.
set(BUILD_ARGS -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
               -DCMAKE_CXX_FLAGS=-fsanitize=thread "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -fuse-ld=lld" -DGPUMEM_RELIABILITY=OFF
               -DGPUMEM_BENCH=OFF)
set(BUILD_TARGET gpumem_explorer_property_tests)
include(${CMAKE_CURRENT_LIST_DIR}/reliability-build.cmake)

# A binary that lost its flags would pass without checking anything.
set(_tests ${BINARY_DIR}/tests/gpumem_explorer_property_tests)
file(STRINGS ${_tests} _runtime REGEX "ThreadSanitizer" LIMIT_COUNT 1)
if(NOT _runtime)
  message(FATAL_ERROR "${_tests} has no ThreadSanitizer runtime")
endif()
set(ENV{TSAN_OPTIONS} "halt_on_error=1:second_deadlock_stack=1")
execute_process(COMMAND ${_tests} --gtest_filter=ExplorerProperties.* RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the explorer's property tests under ThreadSanitizer failed (exit ${rc})")
endif()
