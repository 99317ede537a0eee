#include "translator_driver.hpp"

#include <type_traits>

#include "Vgpumem_xor_translator.h"
#include "Vgpumem_xor_translator_gpumem_xor_translator.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace gpumem::tb {

namespace {
using Params = Vgpumem_xor_translator_gpumem_xor_translator;

// Splits a packed vector of 8-bit positions (entry 0 in the low byte).
template <typename T>
std::vector<unsigned> unpack_positions(T packed, unsigned count) {
  static_assert(std::is_integral_v<T>, "more than 8 positions (a wide parameter) is not supported yet");
  std::vector<unsigned> v;
  for (unsigned i = 0; i < count; ++i) v.push_back(static_cast<unsigned>((uint64_t{packed} >> (8 * i)) & 0xFF));
  return v;
}
}  // namespace

RtlTranslatorGeometry rtl_translator_geometry() {
  return {Params::AW, unpack_positions(Params::CHANNEL_POS, Params::M), unpack_positions(Params::CANDIDATE_POS, Params::K),
          Params::PRIME};
}

struct TranslatorDriver::Impl {
  explicit Impl(const WaveWindow& w) : waves(w) {
    if (!waves.path.empty()) context.traceEverOn(true);  // before the model exists
    context.fatalOnError(false);                          // see assertion_failed()
    dut = std::make_unique<Vgpumem_xor_translator>(&context, "translator");
  }
  ~Impl() {
    if (fst) fst->close();
  }
  VerilatedContext context;
  WaveWindow waves;
  std::unique_ptr<Vgpumem_xor_translator> dut;
  std::unique_ptr<VerilatedFstC> fst;
};

// Two dumps a cycle: inputs settled with the clock low, then after the edge.
void TranslatorDriver::dump(uint64_t time) {
  Impl& m = *impl_;
  if (m.waves.path.empty() || cycles_ < m.waves.from_cycle) return;
  if (!m.fst) {
    m.fst = std::make_unique<VerilatedFstC>();
    m.dut->trace(m.fst.get(), 99);
    m.fst->open(m.waves.path.c_str());
  }
  m.fst->dump(time);
}

TranslatorDriver::TranslatorDriver(const WaveWindow& waves) : impl_(std::make_unique<Impl>(waves)) {
  auto& d = *impl_->dut;
  d.clk_i = 0;
  d.rst_ni = 1;
  d.eval();
}

TranslatorDriver::~TranslatorDriver() { impl_->dut->final(); }

void TranslatorDriver::reset() {
  auto& d = *impl_->dut;
  d.reg_we_i = 0;
  d.req_valid_i = 0;
  d.rsp_ready_i = 0;
  d.rst_ni = 0;
  for (int i = 0; i < 2; ++i) {
    d.clk_i = 0;
    d.eval();
    d.clk_i = 1;
    d.eval();
    ++cycles_;
  }
  d.clk_i = 0;
  d.rst_ni = 1;
  d.eval();
}

TranslatorEdge TranslatorDriver::cycle(const TranslatorPins& in) {
  auto& d = *impl_->dut;
  d.clk_i = 0;
  d.req_valid_i = in.req_valid;
  d.req_addr_i = in.req_addr;
  d.req_task_i = in.req_task;
  d.rsp_ready_i = in.rsp_ready;
  d.reg_we_i = in.reg_we;
  d.reg_addr_i = static_cast<uint16_t>(in.reg_addr);
  d.reg_wdata_i = in.reg_wdata;
  impl_->context.time(2 * cycles_);
  d.eval();
  dump(2 * cycles_);

  TranslatorEdge e;
  e.req_accepted = in.req_valid && d.req_ready_o;
  e.rsp_taken = d.rsp_valid_o && in.rsp_ready;
  if (e.rsp_taken) e.rsp = {d.rsp_mapped_o, d.rsp_channel_o, d.rsp_scheme_o};

  d.clk_i = 1;
  impl_->context.time(2 * cycles_ + 1);
  d.eval();
  dump(2 * cycles_ + 1);
  ++cycles_;
  return e;
}

bool TranslatorDriver::assertion_failed() const { return impl_->context.gotError(); }

void TranslatorDriver::write_register(uint32_t offset, uint32_t value) {
  TranslatorPins p;
  p.rsp_ready = false;
  p.reg_we = true;
  p.reg_addr = offset;
  p.reg_wdata = value;
  cycle(p);
}

}  // namespace gpumem::tb
