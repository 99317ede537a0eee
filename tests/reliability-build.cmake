# cmake -P script of the CTest test reliability.build (tests/CMakeLists.txt):
# configures (again only when its options change) and builds the reliability
# build, a clang build of the whole project with AddressSanitizer,
# UndefinedBehaviorSanitizer and the libFuzzer targets (docs/reliability.md).
# Incremental like any build.
#   -DSOURCE_DIR=... -DBINARY_DIR=... -DCXX=clang++ -DJOBS=2 [-DLAUNCHER=ccache]
#   [-DRTL_TEST_CACHE=<main build>/tests/rtl-cache] [-DVERILATED_FROM=<main build>]
# tests/tsan-build.cmake includes it for another build, setting BUILD_NAME,
# BUILD_ARGS (the configure options) and BUILD_TARGET (what to build) first.
if(NOT DEFINED BUILD_ARGS)
  set(BUILD_NAME "reliability build")
  # Line tables, not full debug information: a sanitizer's report needs only
  # file and line, and the rest made every compile slower.
  # LLVM's linker: the sanitized executables are large, and it links this
  # build's 23 in 9 core-seconds against GNU ld's 20.
  set(BUILD_ARGS -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG"
                 -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld
                 -DGPUMEM_SANITIZE=ON -DGPUMEM_FUZZ=ON -DGPUMEM_RELIABILITY=OFF -DGPUMEM_BENCH=OFF)
endif()
# The main build's compiler launcher (ccache, say) compiles this build too.
if(LAUNCHER)
  list(APPEND BUILD_ARGS -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
# And its CLI tests share the main build's RTL cache (tests/CMakeLists.txt).
if(RTL_TEST_CACHE)
  list(APPEND BUILD_ARGS -DGPUMEM_RTL_TEST_CACHE=${RTL_TEST_CACHE})
endif()
# And it links the main build's Verilated libraries instead of verilating the
# RTL again (GPUMEM_VERILATED_FROM, verilator/CMakeLists.txt).
if(VERILATED_FROM)
  list(APPEND BUILD_ARGS -DGPUMEM_VERILATED_FROM=${VERILATED_FROM})
endif()
# Configured again when the options differ from the last configure's, so an
# older build folder picks up a change to them.
set(_stamp ${BINARY_DIR}/gpumem-build-args.txt)
set(_args "${CXX};${BUILD_ARGS}")
set(_had "")
if(EXISTS ${_stamp})
  file(READ ${_stamp} _had)
endif()
if(NOT EXISTS ${BINARY_DIR}/CMakeCache.txt OR NOT _had STREQUAL _args)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -DCMAKE_CXX_COMPILER=${CXX} ${BUILD_ARGS}
    RESULT_VARIABLE rc)
  if(rc)
    file(REMOVE ${BINARY_DIR}/CMakeCache.txt)  # configure again next time
    message(FATAL_ERROR "configuring the ${BUILD_NAME} in ${BINARY_DIR} failed")
  endif()
  file(WRITE ${_stamp} "${_args}")
endif()
set(_target "")
if(BUILD_TARGET)
  set(_target --target ${BUILD_TARGET})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} -j${JOBS} ${_target} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the ${BUILD_NAME} in ${BINARY_DIR} failed")
endif()
