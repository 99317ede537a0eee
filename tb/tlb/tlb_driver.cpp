#include "tb/tlb/tlb_driver.hpp"

#include <stdexcept>

#include "Vgpumem_nested_tlb.h"
#include "Vgpumem_nested_tlb_gpumem_nested_tlb.h"
#include "Vgpumem_nested_tlb_lru.h"
#include "Vgpumem_nested_tlb_lru_gpumem_nested_tlb.h"
#include "tb/common/rtl_adapter.hpp"
#include "tb/common/rtl_model.hpp"
#include "tb/tlb/tlb_contract.hpp"

namespace gpumem::tb {

namespace {
GPUMEM_RTL_PORTS(TlbPorts, GPUMEM_TLB_INPUTS, GPUMEM_TLB_OUTPUTS)

constexpr unsigned in(TlbIn p) { return static_cast<unsigned>(p); }
constexpr unsigned out(TlbOut p) { return static_cast<unsigned>(p); }

// One cycle on any kind of model: drive `p` with the clock low, sample the
// handshakes, then the rising edge.
template <typename Harness>
TlbEdge drive(Harness& h, const TlbPins& p) {
  h.in(in(TlbIn::flush_i)) = p.flush;
  h.in(in(TlbIn::req_valid_i)) = p.req_valid;
  h.in(in(TlbIn::req_fill_i)) = p.req_fill;
  h.in(in(TlbIn::req_va_i)) = p.req_va;
  h.in(in(TlbIn::req_pte_i)) = p.req_pte;
  h.in(in(TlbIn::rsp_ready_i)) = p.rsp_ready;
  h.in(in(TlbIn::rst_ni)) = !p.reset;
  h.settle();

  TlbEdge e;
  const bool running = !p.reset;
  e.req_ready = running && h.out(out(TlbOut::req_ready_o));
  e.req_accepted = e.req_ready && p.req_valid;
  e.rsp_valid = running && h.out(out(TlbOut::rsp_valid_o));
  e.rsp_taken = e.rsp_valid && p.rsp_ready;
  e.rsp_stalled = e.rsp_valid && !p.rsp_ready;
  if (e.rsp_valid) {
    TlbResponse& r = e.rsp;
    r.fill = h.out(out(TlbOut::rsp_fill_o));
    r.result = static_cast<TlbResult>(h.out(out(TlbOut::rsp_result_o)));
    r.set = static_cast<unsigned>(h.out(out(TlbOut::rsp_set_o)));
    r.way = static_cast<unsigned>(h.out(out(TlbOut::rsp_way_o)));
    r.pa = h.out(out(TlbOut::rsp_pa_o));
    r.evicted = h.out(out(TlbOut::rsp_evicted_o));
    r.entry.valid = tlb_response_has_entry(r);
    r.entry.large_page = h.out(out(TlbOut::rsp_entry_large_page_o));
    r.entry.vpn = h.out(out(TlbOut::rsp_entry_vpn_o));
    r.entry.pfn = h.out(out(TlbOut::rsp_entry_pfn_o));
    r.entry.nested_flag = static_cast<uint8_t>(h.out(out(TlbOut::rsp_entry_nested_flag_o)));
    r.entry.task_type = static_cast<uint8_t>(h.out(out(TlbOut::rsp_entry_task_type_o)));
    r.entry.readable = h.out(out(TlbOut::rsp_entry_readable_o));
    r.entry.writable = h.out(out(TlbOut::rsp_entry_writable_o));
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

template <typename Rtl>
struct TlbDriver::ImplOf final : TlbDriver::Impl {
  template <typename... Args>
  explicit ImplOf(Args&&... args) : h(std::forward<Args>(args)...) {}
  void reset() override {
    h.in(in(TlbIn::flush_i)) = 0;
    h.in(in(TlbIn::req_valid_i)) = 0;
    h.in(in(TlbIn::rsp_ready_i)) = 0;
    h.reset();
  }
  TlbEdge cycle(const TlbPins& p) override { return drive(h, p); }
  uint64_t cycles() const override { return h.cycles(); }
  bool assertion_failed() const override { return h.assertion_failed(); }
  RtlHarness<Rtl> h;
};

TlbDriver::TlbDriver(const RtlTlbGeometry& variant, uint64_t seed, const WaveWindow& waves, const GpumemRtlApi* rtl) {
  if (rtl) impl_ = std::make_unique<ImplOf<TableRtl>>(waves, *rtl, "tlb", seed);
  else if (variant.variant == "plru")
    impl_ = std::make_unique<ImplOf<LinkedRtl<Vgpumem_nested_tlb, TlbPorts>>>(waves, "tlb", seed);
  else if (variant.variant == "lru")
    impl_ = std::make_unique<ImplOf<LinkedRtl<Vgpumem_nested_tlb_lru, TlbPorts>>>(waves, "tlb", seed);
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
