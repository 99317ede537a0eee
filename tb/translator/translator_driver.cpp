#include "tb/translator/translator_driver.hpp"

#include "Vgpumem_xor_translator.h"
#include "Vgpumem_xor_translator_gpumem_xor_translator.h"
#include "tb/common/rtl_adapter.hpp"
#include "tb/common/rtl_model.hpp"
#include "tb/translator/translator_contract.hpp"
#include "tb/translator/translator_geometry.hpp"

namespace gpumem::tb {

namespace {
using Params = Vgpumem_xor_translator_gpumem_xor_translator;
GPUMEM_RTL_PORTS(TranslatorPorts, GPUMEM_TRANSLATOR_INPUTS, GPUMEM_TRANSLATOR_OUTPUTS)

constexpr unsigned in(TranslatorIn p) { return static_cast<unsigned>(p); }
constexpr unsigned out(TranslatorOut p) { return static_cast<unsigned>(p); }

// One cycle on either kind of model: drive `p` with the clock low, sample
// the handshakes, then the rising edge.
template <typename Harness>
TranslatorEdge drive(Harness& h, const TranslatorPins& p) {
  h.in(in(TranslatorIn::req_valid_i)) = p.req_valid;
  h.in(in(TranslatorIn::req_addr_i)) = p.req_addr;
  h.in(in(TranslatorIn::req_task_type_i)) = p.req_task_type;
  h.in(in(TranslatorIn::rsp_ready_i)) = p.rsp_ready;
  h.in(in(TranslatorIn::reg_we_i)) = p.reg_we;
  h.in(in(TranslatorIn::reg_addr_i)) = static_cast<uint16_t>(p.reg_addr);
  h.in(in(TranslatorIn::reg_wdata_i)) = p.reg_wdata;
  h.in(in(TranslatorIn::rst_ni)) = !p.reset;
  h.settle();

  TranslatorEdge e;
  e.req_ready = h.out(out(TranslatorOut::req_ready_o));
  e.req_accepted = e.req_ready && p.req_valid;
  e.rsp_valid = h.out(out(TranslatorOut::rsp_valid_o));
  e.rsp_taken = e.rsp_valid && p.rsp_ready;
  if (e.rsp_valid)
    e.rsp = {h.out(out(TranslatorOut::rsp_mapped_o)), static_cast<unsigned>(h.out(out(TranslatorOut::rsp_channel_o))),
             static_cast<unsigned>(h.out(out(TranslatorOut::rsp_scheme_o)))};
  e.reg_refused = p.reg_we && h.out(out(TranslatorOut::reg_error_o));
  h.rise();
  return e;
}
}  // namespace

RtlTranslatorGeometry rtl_translator_geometry() { return translator_geometry_of<Params>(); }

struct TranslatorDriver::Impl {
  virtual ~Impl() = default;
  virtual void reset() = 0;
  virtual TranslatorEdge cycle(const TranslatorPins& p) = 0;
  virtual uint64_t cycles() const = 0;
  virtual bool assertion_failed() const = 0;
};

template <typename Rtl>
struct TranslatorDriver::ImplOf final : TranslatorDriver::Impl {
  template <typename... Args>
  explicit ImplOf(Args&&... args) : h(std::forward<Args>(args)...) {}
  void reset() override {
    h.in(in(TranslatorIn::reg_we_i)) = 0;
    h.in(in(TranslatorIn::req_valid_i)) = 0;
    h.in(in(TranslatorIn::rsp_ready_i)) = 0;
    h.reset();
  }
  TranslatorEdge cycle(const TranslatorPins& p) override { return drive(h, p); }
  uint64_t cycles() const override { return h.cycles(); }
  bool assertion_failed() const override { return h.assertion_failed(); }
  RtlHarness<Rtl> h;
};

TranslatorDriver::TranslatorDriver(uint64_t seed, const WaveWindow& waves, const GpumemRtlApi* rtl) {
  if (rtl) impl_ = std::make_unique<ImplOf<TableRtl>>(waves, *rtl, "translator", seed);
  else impl_ = std::make_unique<ImplOf<LinkedRtl<Vgpumem_xor_translator, TranslatorPorts>>>(waves, "translator", seed);
}

TranslatorDriver::~TranslatorDriver() = default;

uint64_t TranslatorDriver::cycles() const { return impl_->cycles(); }
bool TranslatorDriver::assertion_failed() const { return impl_->assertion_failed(); }
void TranslatorDriver::reset() { impl_->reset(); }
TranslatorEdge TranslatorDriver::cycle(const TranslatorPins& p) { return impl_->cycle(p); }

}  // namespace gpumem::tb
