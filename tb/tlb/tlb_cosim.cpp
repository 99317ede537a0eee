#include "tb/tlb/tlb_cosim.hpp"

#include <stdexcept>

namespace gpumem::tb {

namespace {
TlbResponse one_operation(TlbCosim& c, const TlbPins& op) {
  TlbPins p = op;
  for (unsigned i = 0; !c.cycle(p).req_accepted; ++i)
    if (i > 16) throw std::runtime_error("TLB co-simulation: operation never accepted");
  p = TlbPins{};
  for (unsigned i = 0;; ++i) {
    const TlbEdge e = c.cycle(p);
    if (e.rsp_taken) return e.rsp;
    if (i > 16) throw std::runtime_error("TLB co-simulation: no response");
  }
}
}  // namespace

TlbResponse TlbCosim::lookup(uint64_t va) {
  TlbPins p;
  p.req_valid = true;
  p.req_va = va;
  return one_operation(*this, p);
}

TlbResponse TlbCosim::fill(uint64_t va, const Pte& leaf) {
  TlbPins p;
  p.req_valid = p.req_fill = true;
  p.req_va = va;
  p.req_pte = leaf.encode();
  return one_operation(*this, p);
}

void TlbCosim::flush() {
  TlbPins p;
  p.flush = true;
  cycle(p);
}

}  // namespace gpumem::tb
