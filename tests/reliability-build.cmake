# cmake -P script of the CTest test reliability.build (tests/CMakeLists.txt):
# configures, once, and builds the reliability build, a clang build of the
# whole project with AddressSanitizer, UndefinedBehaviorSanitizer and the
# libFuzzer targets (docs/reliability.md). Incremental like any build.
#   -DSOURCE_DIR=... -DBINARY_DIR=... -DCXX=clang++ -DJOBS=2
if(NOT EXISTS ${BINARY_DIR}/CMakeCache.txt)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -DCMAKE_CXX_COMPILER=${CXX}
            -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUMEM_SANITIZE=ON -DGPUMEM_FUZZ=ON -DGPUMEM_RELIABILITY=OFF
    RESULT_VARIABLE rc)
  if(rc)
    file(REMOVE ${BINARY_DIR}/CMakeCache.txt)  # configure again next time
    message(FATAL_ERROR "configuring the reliability build in ${BINARY_DIR} failed")
  endif()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} -j${JOBS} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the reliability build in ${BINARY_DIR} failed")
endif()
