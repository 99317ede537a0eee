#include "tb/translator/translator_driver.hpp"


#include "Vgpumem_xor_translator.h"
#include "Vgpumem_xor_translator_gpumem_xor_translator.h"
#include "tb/common/verilated_harness.hpp"
#include "tb/translator/translator_geometry.hpp"

namespace gpumem::tb {

namespace {
using Params = Vgpumem_xor_translator_gpumem_xor_translator;

}  // namespace

RtlTranslatorGeometry rtl_translator_geometry() { return translator_geometry_of<Params>(); }

struct TranslatorDriver::Impl : VerilatedHarness<Vgpumem_xor_translator> {
  using VerilatedHarness::VerilatedHarness;
};

TranslatorDriver::TranslatorDriver(uint64_t seed, const WaveWindow& waves)
    : impl_(std::make_unique<Impl>(waves, "translator", seed)) {}

TranslatorDriver::~TranslatorDriver() = default;

uint64_t TranslatorDriver::cycles() const { return impl_->cycles(); }
bool TranslatorDriver::assertion_failed() const { return impl_->assertion_failed(); }

void TranslatorDriver::reset() {
  auto& d = impl_->dut();
  d.reg_we_i = 0;
  d.req_valid_i = 0;
  d.rsp_ready_i = 0;
  impl_->reset();
}

TranslatorEdge TranslatorDriver::cycle(const TranslatorPins& in) {
  auto& d = impl_->dut();
  d.req_valid_i = in.req_valid;
  d.req_addr_i = in.req_addr;
  d.req_task_type_i = in.req_task_type;
  d.rsp_ready_i = in.rsp_ready;
  d.reg_we_i = in.reg_we;
  d.reg_addr_i = static_cast<uint16_t>(in.reg_addr);
  d.reg_wdata_i = in.reg_wdata;
  d.rst_ni = !in.reset;
  impl_->settle();

  TranslatorEdge e;
  e.req_ready = d.req_ready_o;
  e.req_accepted = e.req_ready && in.req_valid;
  e.rsp_valid = d.rsp_valid_o;
  e.rsp_taken = e.rsp_valid && in.rsp_ready;
  if (e.rsp_valid) e.rsp = {d.rsp_mapped_o, d.rsp_channel_o, d.rsp_scheme_o};
  e.reg_refused = in.reg_we && d.reg_error_o;

  impl_->rise();
  return e;
}

}  // namespace gpumem::tb
