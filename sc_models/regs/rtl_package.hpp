// The SystemVerilog package gpumem_pkg, printed from the model's own tables:
// the register map (offsets, extents, reset values, field masks), the
// extended PTE layout as the packed struct pte_t, the schemes as scheme_e, the
// TLB results as tlb_result_e and the number of task types. Both RTL blocks
// import it, so the RTL states no encoding of its own. `gpumem regmap
// --format sv` prints it; the build generates it before verilating.
#pragma once
#include <string>

namespace gpumem {

std::string systemverilog_package();

}  // namespace gpumem
