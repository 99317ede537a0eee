// The TLB's pin-level shell (tb/common/rtl_sc_shell.hpp).
#pragma once
#include "tb/common/rtl_sc_shell.hpp"
#include "tb/tlb/tlb_ports.hpp"

namespace gpumem::tb {
GPUMEM_RTL_SC_SHELL(TlbScShell, GPUMEM_TLB_PORTS)
}  // namespace gpumem::tb
