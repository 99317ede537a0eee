#include "tb/translator/translator_pin_cosim.hpp"

#include <stdexcept>
#include <string>
#include <systemc>

#include "Vgpumem_xor_translator_sc.h"
#include "Vgpumem_xor_translator_sc_gpumem_xor_translator.h"
#include "base/sanitizer.hpp"
#include "tb/common/cycle_time.hpp"
#include "tb/common/sc_model.hpp"
#include "tb/common/verilated_harness.hpp"
#include "tb/translator/translator_cosim.hpp"
#include "tb/translator/translator_geometry.hpp"
#include "tb/translator/translator_sc_shell.hpp"
#include "verilated.h"
#include "verilated_fst_sc.h"

namespace gpumem::tb {

namespace {
using Params = Vgpumem_xor_translator_sc_gpumem_xor_translator;
using sc_core::sc_signal;

}  // namespace

RtlTranslatorGeometry rtl_translator_pin_geometry() { return translator_geometry_of<Params>(); }

// What every form of the bench shares; the sc_module with the pins is BenchOf<Box>.
struct TranslatorPinCosim::Bench {
  Bench(const Config& cfg, uint64_t s) : scoreboard(cfg, s), seed(s), address_bits(cfg.memory.address_bits) {}
  virtual ~Bench() = default;
  virtual bool assertion_failed() const = 0;  // in the model's own VerilatedContext
  bool done() const {
    return scoreboard.compared() >= run.transactions || (run.stop_at_first_mismatch && scoreboard.mismatches()) ||
           assertion_failed() || scoreboard.protocol_violation();
  }

  TranslatorScoreboard scoreboard;
  uint64_t seed;
  unsigned address_bits;
  unsigned reset_cycles = 2;
  TranslatorRandomRun run;
  bool started = false;
  bool traffic = false;
  uint64_t cycles = 0;
};

namespace {

// Each signal takes its port's type: the built-in model's (bool, uint32_t,
// uint64_t by width) or a run-time shell's (uint64_t).
template <typename Port>
using SignalFor = sc_signal<typename std::remove_reference_t<Port>::data_type>;

template <typename Box>
struct BenchOf : sc_core::sc_module, TranslatorPinCosim::Bench {
  using Model = typename Box::Model;
  SC_HAS_PROCESS(BenchOf);
  BenchOf(sc_core::sc_module_name name, const Config& cfg, uint64_t seed, const WaveWindow& waves, const LoadedRtl* rtl);
  ~BenchOf() override {
    if (fst) fst->close();
  }

  // The model joins its trace file before the kernel's first dump (with
  // nothing open yet, a dump writes nothing).
  void start_of_simulation() override {
    if (fst) dut.trace(fst);
  }
  bool assertion_failed() const override { return dut.assertion_failed(); }
  void stimulus();
  void monitor();
  void drive(const TranslatorPins& p);

  // Low until the first rising edge at 5 ns: the stimulus drives while the
  // clock is low, as TranslatorDriver::cycle does.
  sc_core::sc_clock clk{"clk", sc_core::sc_time(kPinClockPeriodNs, sc_core::SC_NS), 0.5,
                        sc_core::sc_time(kPinClockPeriodNs / 2, sc_core::SC_NS), true};
  SignalFor<decltype(Model::rst_ni)> rst_n{"rst_n"};
  SignalFor<decltype(Model::reg_we_i)> reg_we{"reg_we"};
  SignalFor<decltype(Model::reg_addr_i)> reg_addr{"reg_addr"};
  SignalFor<decltype(Model::reg_wdata_i)> reg_wdata{"reg_wdata"};
  SignalFor<decltype(Model::reg_error_o)> reg_error{"reg_error"};
  SignalFor<decltype(Model::req_valid_i)> req_valid{"req_valid"};
  SignalFor<decltype(Model::req_ready_o)> req_ready{"req_ready"};
  SignalFor<decltype(Model::req_addr_i)> req_addr{"req_addr"};
  SignalFor<decltype(Model::req_task_type_i)> req_task_type{"req_task_type"};
  SignalFor<decltype(Model::rsp_valid_o)> rsp_valid{"rsp_valid"};
  SignalFor<decltype(Model::rsp_ready_i)> rsp_ready{"rsp_ready"};
  SignalFor<decltype(Model::rsp_mapped_o)> rsp_mapped{"rsp_mapped"};
  SignalFor<decltype(Model::rsp_channel_o)> rsp_channel{"rsp_channel"};
  SignalFor<decltype(Model::rsp_scheme_o)> rsp_scheme{"rsp_scheme"};

  Box dut;
  VerilatedFstSc* fst = nullptr;  // owned by the kernel once made (it keeps every trace file)
  WaveWindow waves;
};

template <typename Box>
BenchOf<Box>::BenchOf(sc_core::sc_module_name name, const Config& cfg, uint64_t s, const WaveWindow& w,
                      const LoadedRtl* rtl)
    : sc_module(name), Bench(cfg, s), dut(s, !w.path.empty(), rtl), waves(w) {
  dut->clk_i(clk);
  dut->rst_ni(rst_n);
  dut->reg_we_i(reg_we);
  dut->reg_addr_i(reg_addr);
  dut->reg_wdata_i(reg_wdata);
  dut->reg_error_o(reg_error);
  dut->req_valid_i(req_valid);
  dut->req_ready_o(req_ready);
  dut->req_addr_i(req_addr);
  dut->req_task_type_i(req_task_type);
  dut->rsp_valid_o(rsp_valid);
  dut->rsp_ready_i(rsp_ready);
  dut->rsp_mapped_o(rsp_mapped);
  dut->rsp_channel_o(rsp_channel);
  dut->rsp_scheme_o(rsp_scheme);
  if (!waves.path.empty()) fst = new VerilatedFstSc;  // registers with the kernel: made while elaborating

  SC_THREAD(stimulus);
  SC_METHOD(monitor);
  sensitive << clk.posedge_event();
  dont_initialize();
}

template <typename Box>
void BenchOf<Box>::drive(const TranslatorPins& p) {
  req_valid.write(p.req_valid);
  req_addr.write(p.req_addr);
  req_task_type.write(p.req_task_type);
  rsp_ready.write(p.rsp_ready);
  reg_we.write(p.reg_we);
  reg_addr.write(p.reg_addr & 0xFFFF);  // the port is 16 bits wide
  reg_wdata.write(p.reg_wdata);
  rst_n.write(!p.reset);
}

// Drives on the falling edge and learns at the rising edge whether its
// request was taken, as an RTL initiator with registered outputs would.
template <typename Box>
void BenchOf<Box>::stimulus() {
  TranslatorPins idle;
  idle.rsp_ready = false;  // as TranslatorDriver::reset
  drive(idle);
  rst_n.write(false);
  for (unsigned i = 0; i < reset_cycles; ++i) wait(clk.posedge_event());
  wait(clk.negedge_event());
  rst_n.write(true);
  traffic = true;  // from here a low rst_n is a reset in the middle of traffic, for the scoreboard
  TranslatorStimulus random(seed, address_bits, run);
  bool accepted = false;
  while (!done()) {
    const TranslatorPins& p = random.next(accepted, scoreboard.discarded());
    drive(p);
    wait(clk.posedge_event());
    accepted = p.req_valid && req_ready.read();
    wait(clk.negedge_event());
  }
  sc_core::sc_pause();
}

// At the rising edge, in the delta the clock changes: every signal still
// holds its value from before the edge (the model's new outputs land a delta
// later), which is what the handshakes are defined on.
template <typename Box>
void BenchOf<Box>::monitor() {
  ++cycles;
  if (sc_core::sc_time_stamp() != sc_core::sc_time(static_cast<double>(pin_edge_time_ns(cycles)), sc_core::SC_NS))
    throw std::logic_error("pin-level bench: edge " + std::to_string(cycles) + " at " + sc_core::sc_time_stamp().to_string() +
                           ", not where cycle_time.hpp puts it");
  if (fst && !fst->isOpen() && cycles >= waves.from_cycle) fst->open(waves.path.c_str());
  if (!rst_n.read() && !traffic) return;
  TranslatorPins p;
  p.reset = !rst_n.read();
  p.req_valid = req_valid.read();
  p.req_addr = req_addr.read();
  p.req_task_type = req_task_type.read();
  p.rsp_ready = rsp_ready.read();
  p.reg_we = reg_we.read();
  p.reg_addr = reg_addr.read();
  p.reg_wdata = reg_wdata.read();
  TranslatorEdge e;
  e.req_ready = req_ready.read();
  e.req_accepted = e.req_ready && p.req_valid;
  e.rsp_valid = rsp_valid.read();
  e.rsp_taken = e.rsp_valid && p.rsp_ready;
  if (e.rsp_valid)
    e.rsp = {static_cast<uint64_t>(rsp_mapped.read()), static_cast<unsigned>(rsp_channel.read()),
             static_cast<unsigned>(rsp_scheme.read())};
  e.reg_refused = p.reg_we && reg_error.read();
  scoreboard.edge(p, e, cycles);
}

}  // namespace

TranslatorPinCosim::TranslatorPinCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves, const LoadedRtl* rtl) {
  if (rtl) {
    if (const std::string why = translator_unfit(cfg); !why.empty()) throw std::invalid_argument(why);
    bench_ = std::make_unique<BenchOf<LoadedScModel<TranslatorScShell>>>("translator_pin_bench", cfg, seed, waves, rtl);
    bench_->scoreboard.set_max_latency(rtl->latency_bound());
    return;
  }
  if (const std::string d = geometry_difference(cfg, rtl_translator_pin_geometry()); !d.empty())
    throw std::invalid_argument("config and RTL translator differ:\n" + d);
  bench_ = std::make_unique<BenchOf<LinkedScModel<Vgpumem_xor_translator_sc>>>("translator_pin_bench", cfg, seed, waves,
                                                                                 nullptr);
}

TranslatorPinCosim::~TranslatorPinCosim() = default;

void TranslatorPinCosim::reset() {
  if (bench_->started) throw std::logic_error("translator pin-level co-simulation: reset after the run");
  bench_->reset_cycles += 2;
}

bool TranslatorPinCosim::run_random(const TranslatorRandomRun& run) {
  if (bench_->started)
    throw std::logic_error("translator pin-level co-simulation: one run per object (SystemC elaborates once per process)");
  bench_->started = true;
  bench_->run = run;
  bench_->scoreboard.set_hang_cycles(run.hang_cycles);
  sc_core::sc_start();
  sanitizer_back_on_main_stack();
  return bench_->scoreboard.mismatches() == 0 && !assertion_failed() && !bench_->scoreboard.protocol_violation();
}

bool TranslatorPinCosim::assertion_failed() const { return bench_->assertion_failed(); }

const TranslatorScoreboard& TranslatorPinCosim::scoreboard() const { return bench_->scoreboard; }
uint64_t TranslatorPinCosim::cycles() const { return bench_->cycles; }

}  // namespace gpumem::tb
