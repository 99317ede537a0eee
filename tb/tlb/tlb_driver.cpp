#include "tb/tlb/tlb_driver.hpp"

#include <stdexcept>

#include "Vgpumem_nested_tlb.h"
#include "Vgpumem_nested_tlb_gpumem_nested_tlb.h"
#include "Vgpumem_nested_tlb_lru.h"
#include "Vgpumem_nested_tlb_lru_gpumem_nested_tlb.h"
#include "tb/common/verilated_harness.hpp"

namespace gpumem::tb {

namespace {

// Both variants have the same ports; only the Verilated class differs.
template <typename Model>
TlbEdge drive(VerilatedHarness<Model>& h, const TlbPins& in) {
  auto& d = h.dut();
  d.flush_i = in.flush;
  d.req_valid_i = in.req_valid;
  d.req_fill_i = in.req_fill;
  d.req_va_i = in.req_va;
  d.req_pte_i = in.req_pte;
  d.rsp_ready_i = in.rsp_ready;
  d.rst_ni = !in.reset;
  h.settle();

  TlbEdge e;
  const bool running = !in.reset;
  e.req_ready = running && d.req_ready_o;
  e.req_accepted = e.req_ready && in.req_valid;
  e.rsp_valid = running && d.rsp_valid_o;
  e.rsp_taken = e.rsp_valid && in.rsp_ready;
  e.rsp_stalled = e.rsp_valid && !in.rsp_ready;
  if (e.rsp_valid) {
    TlbResponse& r = e.rsp;
    r.fill = d.rsp_fill_o;
    r.result = static_cast<TlbResult>(d.rsp_result_o);
    r.set = d.rsp_set_o;
    r.way = d.rsp_way_o;
    r.pa = d.rsp_pa_o;
    r.evicted = d.rsp_evicted_o;
    r.entry.valid = tlb_response_has_entry(r);
    r.entry.large_page = d.rsp_entry_large_page_o;
    r.entry.vpn = d.rsp_entry_vpn_o;
    r.entry.pfn = d.rsp_entry_pfn_o;
    r.entry.nested_flag = d.rsp_entry_nested_flag_o;
    r.entry.task_type = d.rsp_entry_task_type_o;
    r.entry.readable = d.rsp_entry_readable_o;
    r.entry.writable = d.rsp_entry_writable_o;
  }
  h.rise();
  return e;
}

}  // namespace

const std::vector<RtlTlbGeometry>& rtl_tlb_variants() {
  static const std::vector<RtlTlbGeometry> v{tlb_geometry_of<Vgpumem_nested_tlb_gpumem_nested_tlb>("plru"),
                                             tlb_geometry_of<Vgpumem_nested_tlb_lru_gpumem_nested_tlb>("lru")};
  return v;
}

struct TlbDriver::Impl {
  virtual ~Impl() = default;
  virtual void reset() = 0;
  virtual TlbEdge cycle(const TlbPins& in) = 0;
  virtual uint64_t cycles() const = 0;
  virtual bool assertion_failed() const = 0;
};

template <typename Model>
struct TlbDriver::ImplOf : TlbDriver::Impl {
  ImplOf(const WaveWindow& waves, uint64_t seed) : h(waves, "tlb", seed) {}
  void reset() override {
    auto& d = h.dut();
    d.flush_i = 0;
    d.req_valid_i = 0;
    d.rsp_ready_i = 0;
    h.reset();
  }
  TlbEdge cycle(const TlbPins& in) override { return drive(h, in); }
  uint64_t cycles() const override { return h.cycles(); }
  bool assertion_failed() const override { return h.assertion_failed(); }
  VerilatedHarness<Model> h;
};

TlbDriver::TlbDriver(const RtlTlbGeometry& variant, uint64_t seed, const WaveWindow& waves) {
  if (variant.variant == "plru") impl_ = std::make_unique<ImplOf<Vgpumem_nested_tlb>>(waves, seed);
  else if (variant.variant == "lru") impl_ = std::make_unique<ImplOf<Vgpumem_nested_tlb_lru>>(waves, seed);
  else throw std::invalid_argument("TLB driver: no verilated variant '" + variant.variant + "'");
}

TlbDriver::~TlbDriver() = default;

void TlbDriver::reset() {
  impl_->reset();
  cycles_ = impl_->cycles();
}

TlbEdge TlbDriver::cycle(const TlbPins& in) {
  ++cycles_;
  return impl_->cycle(in);
}

bool TlbDriver::assertion_failed() const { return impl_->assertion_failed(); }

}  // namespace gpumem::tb
