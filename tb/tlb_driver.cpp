#include "tlb_driver.hpp"

#include "Vgpumem_nested_tlb.h"
#include "Vgpumem_nested_tlb_gpumem_nested_tlb.h"
#include "verilated_harness.hpp"

namespace gpumem::tb {

RtlTlbGeometry rtl_tlb_geometry() {
  using P = Vgpumem_nested_tlb_gpumem_nested_tlb;
  return {P::VA_BITS, P::SMALL_BITS, P::LARGE_BITS, P::ENTRIES, P::WAYS, P::PLRU != 0, P::NESTED_TAIL != 0};
}

struct TlbDriver::Impl : VerilatedHarness<Vgpumem_nested_tlb> {
  using VerilatedHarness::VerilatedHarness;
};

TlbDriver::TlbDriver(const WaveWindow& waves) : impl_(std::make_unique<Impl>(waves, "tlb")) {}

TlbDriver::~TlbDriver() = default;

uint64_t TlbDriver::cycles() const { return impl_->cycles(); }

void TlbDriver::reset() {
  auto& d = impl_->dut();
  d.flush_i = 0;
  d.req_valid_i = 0;
  d.rsp_ready_i = 0;
  impl_->reset();
}

TlbEdge TlbDriver::cycle(const TlbPins& in) {
  auto& d = impl_->dut();
  d.flush_i = in.flush;
  d.req_valid_i = in.req_valid;
  d.req_fill_i = in.req_fill;
  d.req_va_i = in.req_va;
  d.req_pte_i = in.req_pte;
  d.rsp_ready_i = in.rsp_ready;
  impl_->settle();

  TlbEdge e;
  e.req_accepted = in.req_valid && d.req_ready_o;
  e.rsp_taken = d.rsp_valid_o && in.rsp_ready;
  e.rsp_stalled = d.rsp_valid_o && !in.rsp_ready;
  if (e.rsp_taken) {
    TlbResponse& r = e.rsp;
    r.fill = d.rsp_fill_o;
    r.result = static_cast<TlbResult>(d.rsp_result_o);
    r.set = d.rsp_set_o;
    r.way = d.rsp_way_o;
    r.pa = d.rsp_pa_o;
    r.evicted = d.rsp_evicted_o;
    // The entry ports carry no valid bit: a hit, a nested result or an
    // eviction shows a valid entry, anything else shows zeros.
    r.entry.valid = r.fill ? r.evicted : r.result != TlbResult::kMiss;
    r.entry.large = d.rsp_entry_large_page_o;
    r.entry.vpn = d.rsp_entry_vpn_o;
    r.entry.pfn = d.rsp_entry_pfn_o;
    r.entry.nested_flag = d.rsp_entry_nested_flag_o;
    r.entry.task = d.rsp_entry_task_type_o;
    r.entry.readable = d.rsp_entry_readable_o;
    r.entry.writable = d.rsp_entry_writable_o;
  }

  impl_->rise();
  return e;
}

}  // namespace gpumem::tb
