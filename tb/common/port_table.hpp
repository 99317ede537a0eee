// A block's ports are written once, as an X-macro table in
// tb/<block>/<block>_ports.hpp, in the order of the RTL module's port list:
//
//   #define GPUMEM_TLB_PORTS(CLOCK, IN, OUT)
//     CLOCK(clk_i, 1, "1", "clock; ...")
//     IN(req_va_i, g.va_bits, "`address_space.va_bits`", "...")
//     OUT(req_ready_o, 1, "1", "...")
//
// (each row line ending in a backslash).
//
// Each row: the port, its width (an expression over the block's geometry
// `g`, the RTL's elaboration parameters), how the width follows from the
// config, and what the port means. Everything that lists the ports expands
// the table with the columns it needs and GPUMEM_PORT_SKIP for the rest: the
// contract and the docs' tables (rtl_contract.hpp), the port indices
// (below), the fast-mode adapter (rtl_adapter.hpp), the pin-level shell
// (rtl_sc_shell.hpp) and the pin-level bench's signals (pin_bench.hpp).
// Input 0 is the clock and input 1 rst_ni in every block: the harnesses
// clock and reset through them.
//
// Macros only: a library verilated at run time compiles the shell from the
// table with nothing else of gpumem.
#pragma once

#define GPUMEM_PORT_SKIP(...)

// The ports' names in table order, as a braced list of strings.
#define GPUMEM_PORT_NAME(port, ...) #port,
#define GPUMEM_PORT_NAMES(TABLE) { TABLE(GPUMEM_PORT_NAME, GPUMEM_PORT_NAME, GPUMEM_PORT_NAME) }

// The block's port indices in contract order (inputs and outputs apart),
// each enum ending with the count:
// enum class IN_ENUM { clk_i, rst_ni, ..., kCount }, enum class OUT_ENUM { ..., kCount }.
#define GPUMEM_PORT_INDEX(port, ...) port,
#define GPUMEM_PORT_INDICES(IN_ENUM, OUT_ENUM, TABLE)                                                      \
  enum class IN_ENUM : unsigned { TABLE(GPUMEM_PORT_INDEX, GPUMEM_PORT_INDEX, GPUMEM_PORT_SKIP) kCount }; \
  enum class OUT_ENUM : unsigned { TABLE(GPUMEM_PORT_SKIP, GPUMEM_PORT_SKIP, GPUMEM_PORT_INDEX) kCount }; \
  static_assert(static_cast<unsigned>(IN_ENUM::clk_i) == 0 && static_cast<unsigned>(IN_ENUM::rst_ni) == 1, \
                "a port table starts with clk_i and rst_ni");
