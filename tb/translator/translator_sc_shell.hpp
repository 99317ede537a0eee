// The translator's pin-level shell (tb/common/rtl_sc_shell.hpp).
#pragma once
#include "tb/common/rtl_sc_shell.hpp"
#include "tb/translator/translator_ports.hpp"

namespace gpumem::tb {
GPUMEM_RTL_SC_SHELL(TranslatorScShell, GPUMEM_TRANSLATOR_PORTS)
}  // namespace gpumem::tb
