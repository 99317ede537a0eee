# gpumem_share_verilated_runtime(TARGET): after verilate(TARGET ...).
#
# verilate() adds Verilator's runtime (verilated.cpp and friends, about 14 s
# of compiling) to every target it is given, and the build has six Verilated
# libraries; the mutation check (verilator/mutation/) builds one more per
# mutant. The runtime does not depend on the design, only on the options its
# VM_* macros carry, so it moves here into one library per set of options:
# gpumem_rtl_verilated_runtime for --cc, gpumem_rtl_verilated_runtime_sc for
# --sc (gpumem_rtl_: with the Verilated libraries, out of the library picture).
# A later target whose runtime differs (other files, other VM_* values) stops
# the configure instead of silently linking the wrong one. A runtime target
# that already exists as an IMPORTED one (the mutation check imports the
# main build's) is checked against its exported GPUMEM_RUNTIME_KEY.
#
# Verilator's generated files are also written to be compiled as one (its
# own makefiles do so): one unity unit per target instead of one per file.
function(gpumem_share_verilated_runtime TARGET)
  get_target_property(_sources ${TARGET} SOURCES)
  set(_runtime ${_sources})
  list(FILTER _runtime INCLUDE REGEX "^${VERILATOR_ROOT}/include/")
  list(FILTER _sources EXCLUDE REGEX "^${VERILATOR_ROOT}/include/")
  set_property(TARGET ${TARGET} PROPERTY SOURCES ${_sources})
  set_target_properties(${TARGET} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)

  set(_defs "")
  foreach(_p COVERAGE SYSTEMC TRACE TRACE_VCD TRACE_FST)
    get_target_property(_on ${TARGET} VERILATOR_${_p})
    string(REPLACE SYSTEMC SC _def VM_${_p})
    if(_on)
      list(APPEND _defs ${_def}=1)
    else()
      list(APPEND _defs ${_def}=0)
    endif()
  endforeach()
  get_target_property(_sc ${TARGET} VERILATOR_SYSTEMC)
  set(_name gpumem_rtl_verilated_runtime)
  if(_sc)
    string(APPEND _name _sc)
  endif()
  # The file names without Verilator's folder: a mutant's project finds the
  # same Verilator, and the key stays readable in an error.
  string(REPLACE "${VERILATOR_ROOT}/include/" "" _files "${_runtime}")
  set(_key "${_files} | ${_defs}")

  if(TARGET ${_name})
    get_target_property(_had ${_name} GPUMEM_RUNTIME_KEY)
    if(NOT _had STREQUAL _key)
      message(FATAL_ERROR "${TARGET} needs the Verilator runtime\n  ${_key}\nbut ${_name} is\n  ${_had}\n"
                          "(verilator/verilated_runtime.cmake keeps one runtime per set of options)")
    endif()
  else()
    add_library(${_name} STATIC ${_runtime})
    target_include_directories(${_name} SYSTEM PUBLIC ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
    target_compile_definitions(${_name} PRIVATE ${_defs})
    target_compile_options(${_name} PRIVATE -w)
    get_target_property(_libs ${TARGET} INTERFACE_LINK_LIBRARIES)  # -lz for FST
    if(NOT _libs)
      set(_libs "")
    endif()
    target_link_libraries(${_name} PUBLIC ${_libs} Threads::Threads)
    if(_sc)
      target_link_libraries(${_name} PUBLIC PkgConfig::SYSTEMC)
    endif()
    set_target_properties(${_name} PROPERTIES GPUMEM_RUNTIME_KEY "${_key}" EXPORT_PROPERTIES GPUMEM_RUNTIME_KEY)
  endif()
  target_link_libraries(${TARGET} PUBLIC ${_name})
endfunction()
