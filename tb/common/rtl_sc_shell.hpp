// The pin-level model of RTL verilated at run time: a SystemC module with
// the block's contract ports, every one a uint64_t but clk_i (a bool, bound
// straight to the model so the edges are exact). The shared library
// (rtl_library.cpp writes its source) derives from the block's shell, puts
// the Verilated --sc model inside on signals of its own port types, and
// copies between the two; libsystemc is shared, so it elaborates in
// gpumem's kernel. Both sides compile this header and the block's.
#pragma once
#include <cstdint>
#include <systemc>

#include "tb/common/port_table.hpp"

namespace gpumem::tb {

struct RtlScShell : sc_core::sc_module {
  using sc_core::sc_module::sc_module;
  virtual bool assertion_failed() const = 0;  // in the model's own VerilatedContext
  virtual void final() = 0;                   // the model's final blocks, before it is deleted
};

// A library exports GPUMEM_RTL_SC_ENTRY (rtl_abi.h): its shell, made under
// the current module, as the RtlScShell* it is, type-erased.

#define GPUMEM_RTL_SC_SHELL_CLOCK(port, ...) sc_core::sc_in<bool> port{#port};
#define GPUMEM_RTL_SC_SHELL_IN(port, ...) sc_core::sc_in<uint64_t> port{#port};
#define GPUMEM_RTL_SC_SHELL_OUT(port, ...) sc_core::sc_out<uint64_t> port{#port};
// The shell NAME of a block's port table.
#define GPUMEM_RTL_SC_SHELL(NAME, TABLE)                                                  \
  struct NAME : ::gpumem::tb::RtlScShell {                                                \
    using RtlScShell::RtlScShell;                                                         \
    TABLE(GPUMEM_RTL_SC_SHELL_CLOCK, GPUMEM_RTL_SC_SHELL_IN, GPUMEM_RTL_SC_SHELL_OUT)     \
  };

}  // namespace gpumem::tb
