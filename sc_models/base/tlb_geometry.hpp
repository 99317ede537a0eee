// The TLB's geometry rules, in one wording for the config reader
// (mmu.tlb, docs/config-reference.md "Checks across keys") and for the
// model's Tlb, which refuses a geometry it cannot hold before it sizes
// anything. The RTL checks the same at elaboration (gpumem_nested_tlb.sv).
#pragma once
#include <string>

#include "base/bits.hpp"
#include "base/types.hpp"

namespace gpumem {

// A TLB's entries in sets of `ways` ways under `replacement`: what the
// config's mmu.tlb gives (these are its defaults), the model's Tlb sizes
// itself by and the RTL is built with.
struct TlbGeometry {
  unsigned entries = 32;
  unsigned ways = 4;  // == entries: fully associative
  Replacement replacement = Replacement::kLru;

  // What is wrong with it; "" when nothing is.
  std::string problem() const {
    if (ways == 0 || ways > entries || entries % ways != 0)
      return std::to_string(ways) + " ways do not divide " + std::to_string(entries) + " entries";
    if (!is_pow2(entries / ways)) return "entries / ways = " + std::to_string(entries / ways) + " sets: must be a power of two";
    if (replacement == Replacement::kPlru && !is_pow2(ways)) return "tree-PLRU needs a power-of-two number of ways";
    return "";
  }
};

}  // namespace gpumem
