#include "tb/tlb/tlb_pin_cosim.hpp"

#include <stdexcept>
#include <string>
#include <systemc>
#include <type_traits>

#include "Vgpumem_nested_tlb_lru_sc.h"
#include "Vgpumem_nested_tlb_lru_sc_gpumem_nested_tlb.h"
#include "Vgpumem_nested_tlb_sc.h"
#include "Vgpumem_nested_tlb_sc_gpumem_nested_tlb.h"
#include "base/sanitizer.hpp"
#include "params/block_params.hpp"
#include "mmu/mmu.hpp"
#include "tb/common/cycle_time.hpp"
#include "tb/common/sc_model.hpp"
#include "tb/common/verilated_harness.hpp"
#include "tb/tlb/tlb_sc_shell.hpp"
#include "tb/tlb/tlb_cosim.hpp"
#include "verilated.h"
#include "verilated_fst_sc.h"

namespace gpumem::tb {

const std::vector<RtlTlbGeometry>& rtl_tlb_pin_variants() {
  static const std::vector<RtlTlbGeometry> v{tlb_geometry_of<Vgpumem_nested_tlb_sc_gpumem_nested_tlb>("plru"),
                                             tlb_geometry_of<Vgpumem_nested_tlb_lru_sc_gpumem_nested_tlb>("lru")};
  return v;
}

// What the variants share; the sc_module with the pins is BenchOf<Model>.
struct TlbPinCosim::Bench {
  Bench(const Config& c, uint64_t s, const RtlTlbGeometry& v)
      : cfg(c), seed(s), variant(v), scoreboard(tlb_params(c), c.address_space.va_bits, s) {}
  virtual ~Bench() = default;
  virtual bool assertion_failed() const = 0;  // in the model's own VerilatedContext
  bool done() const {
    return stimulus->done() || (run.stop_at_first_mismatch && scoreboard.mismatches()) || assertion_failed() ||
           scoreboard.protocol_violation();
  }

  Config cfg;
  uint64_t seed;
  RtlTlbGeometry variant;
  TlbScoreboard scoreboard;
  std::unique_ptr<TlbStimulus> stimulus;  // made by run_random, before the kernel starts
  TlbRandomRun run;
  unsigned reset_cycles = 2;
  bool traffic = false;  // past the first reset: a low rst_n is a reset in the middle of traffic
  bool started = false;
  uint64_t cycles = 0;
};

namespace {

using sc_core::sc_signal;

// A port's width differs between variants (rsp_set_o is one bit in the fully
// associative one, a bool in SystemC): each signal takes its port's type.
template <typename Port>
using SignalFor = sc_signal<typename std::remove_reference_t<Port>::data_type>;

template <typename Signal, typename Value>
void put(Signal& s, Value v) {
  s.write(static_cast<std::decay_t<decltype(s.read())>>(v));
}

template <typename Box>
struct BenchOf : sc_core::sc_module, TlbPinCosim::Bench {
  using Model = typename Box::Model;
  SC_HAS_PROCESS(BenchOf);
  BenchOf(sc_core::sc_module_name name, const Config& c, uint64_t s, const RtlTlbGeometry& v, const WaveWindow& w,
          const LoadedRtl* rtl);
  ~BenchOf() override {
    if (fst) fst->close();
  }

  // The model joins its trace file before the kernel's first dump (with
  // nothing open yet, a dump writes nothing).
  void start_of_simulation() override {
    if (fst) dut.trace(fst);
  }
  void stimulate();
  void monitor();
  void drive(const TlbPins& p);

  // Low until the first rising edge at 5 ns: the stimulus drives while the
  // clock is low, as TlbDriver::cycle does.
  sc_core::sc_clock clk{"clk", sc_core::sc_time(kPinClockPeriodNs, sc_core::SC_NS), 0.5,
                        sc_core::sc_time(kPinClockPeriodNs / 2, sc_core::SC_NS), true};
  SignalFor<decltype(Model::rst_ni)> rst_n{"rst_n"};
  SignalFor<decltype(Model::flush_i)> flush{"flush"};
  SignalFor<decltype(Model::req_valid_i)> req_valid{"req_valid"};
  SignalFor<decltype(Model::req_ready_o)> req_ready{"req_ready"};
  SignalFor<decltype(Model::req_fill_i)> req_fill{"req_fill"};
  SignalFor<decltype(Model::req_va_i)> req_va{"req_va"};
  SignalFor<decltype(Model::req_pte_i)> req_pte{"req_pte"};
  SignalFor<decltype(Model::rsp_valid_o)> rsp_valid{"rsp_valid"};
  SignalFor<decltype(Model::rsp_ready_i)> rsp_ready{"rsp_ready"};
  SignalFor<decltype(Model::rsp_fill_o)> rsp_fill{"rsp_fill"};
  SignalFor<decltype(Model::rsp_result_o)> rsp_result{"rsp_result"};
  SignalFor<decltype(Model::rsp_set_o)> rsp_set{"rsp_set"};
  SignalFor<decltype(Model::rsp_way_o)> rsp_way{"rsp_way"};
  SignalFor<decltype(Model::rsp_pa_o)> rsp_pa{"rsp_pa"};
  SignalFor<decltype(Model::rsp_evicted_o)> rsp_evicted{"rsp_evicted"};
  SignalFor<decltype(Model::rsp_entry_large_page_o)> rsp_entry_large_page{"rsp_entry_large_page"};
  SignalFor<decltype(Model::rsp_entry_vpn_o)> rsp_entry_vpn{"rsp_entry_vpn"};
  SignalFor<decltype(Model::rsp_entry_pfn_o)> rsp_entry_pfn{"rsp_entry_pfn"};
  SignalFor<decltype(Model::rsp_entry_nested_flag_o)> rsp_entry_nested_flag{"rsp_entry_nested_flag"};
  SignalFor<decltype(Model::rsp_entry_task_type_o)> rsp_entry_task_type{"rsp_entry_task_type"};
  SignalFor<decltype(Model::rsp_entry_readable_o)> rsp_entry_readable{"rsp_entry_readable"};
  SignalFor<decltype(Model::rsp_entry_writable_o)> rsp_entry_writable{"rsp_entry_writable"};

  bool assertion_failed() const override { return dut.assertion_failed(); }

  Box dut;
  VerilatedFstSc* fst = nullptr;  // owned by the kernel once made (it keeps every trace file)
  WaveWindow waves;
};

template <typename Box>
BenchOf<Box>::BenchOf(sc_core::sc_module_name name, const Config& c, uint64_t s, const RtlTlbGeometry& v,
                      const WaveWindow& w, const LoadedRtl* rtl)
    : sc_module(name), Bench(c, s, v), dut(s, !w.path.empty(), rtl), waves(w) {
  dut->clk_i(clk);
  dut->rst_ni(rst_n);
  dut->flush_i(flush);
  dut->req_valid_i(req_valid);
  dut->req_ready_o(req_ready);
  dut->req_fill_i(req_fill);
  dut->req_va_i(req_va);
  dut->req_pte_i(req_pte);
  dut->rsp_valid_o(rsp_valid);
  dut->rsp_ready_i(rsp_ready);
  dut->rsp_fill_o(rsp_fill);
  dut->rsp_result_o(rsp_result);
  dut->rsp_set_o(rsp_set);
  dut->rsp_way_o(rsp_way);
  dut->rsp_pa_o(rsp_pa);
  dut->rsp_evicted_o(rsp_evicted);
  dut->rsp_entry_large_page_o(rsp_entry_large_page);
  dut->rsp_entry_vpn_o(rsp_entry_vpn);
  dut->rsp_entry_pfn_o(rsp_entry_pfn);
  dut->rsp_entry_nested_flag_o(rsp_entry_nested_flag);
  dut->rsp_entry_task_type_o(rsp_entry_task_type);
  dut->rsp_entry_readable_o(rsp_entry_readable);
  dut->rsp_entry_writable_o(rsp_entry_writable);
  if (!waves.path.empty()) fst = new VerilatedFstSc;  // registers with the kernel: made while elaborating

  SC_THREAD(stimulate);
  SC_METHOD(monitor);
  sensitive << clk.posedge_event();
  dont_initialize();
}


template <typename Box>
void BenchOf<Box>::drive(const TlbPins& p) {
  put(flush, p.flush);
  put(req_valid, p.req_valid);
  put(req_fill, p.req_fill);
  put(req_va, p.req_va);
  put(req_pte, p.req_pte);
  put(rsp_ready, p.rsp_ready);
  put(rst_n, !p.reset);
}

// Drives on the falling edge; what its pins did at the rising edge reaches
// the stimulus through the monitor, after the scoreboard has seen it, so the
// next pins read the model TLB as the fast mode's do.
template <typename Box>
void BenchOf<Box>::stimulate() {
  TlbPins idle;
  idle.rsp_ready = false;  // as TlbDriver::reset
  drive(idle);
  put(rst_n, false);
  for (unsigned i = 0; i < reset_cycles; ++i) wait(clk.posedge_event());
  wait(clk.negedge_event());
  put(rst_n, true);
  traffic = true;
  while (!done()) {
    drive(stimulus->next());
    wait(clk.negedge_event());
  }
  sc_core::sc_pause();
}

// At the rising edge, in the delta the clock changes: every signal still
// holds its value from before the edge (the model's new outputs land a delta
// later), which is what the handshakes are defined on. The operation's
// context is the stimulus's: the pins do not carry it.
template <typename Box>
void BenchOf<Box>::monitor() {
  ++cycles;
  if (sc_core::sc_time_stamp() != sc_core::sc_time(static_cast<double>(pin_edge_time_ns(cycles)), sc_core::SC_NS))
    throw std::logic_error("pin-level bench: edge " + std::to_string(cycles) + " at " + sc_core::sc_time_stamp().to_string() +
                           ", not where cycle_time.hpp puts it");
  if (fst && !fst->isOpen() && cycles >= waves.from_cycle) fst->open(waves.path.c_str());
  if (!rst_n.read() && !traffic) return;
  TlbPins p;
  p.reset = !rst_n.read();
  p.flush = flush.read();
  p.req_valid = req_valid.read();
  p.req_fill = req_fill.read();
  p.req_va = req_va.read();
  p.req_pte = req_pte.read();
  p.rsp_ready = rsp_ready.read();
  TlbEdge e;
  const bool running = !p.reset;
  e.req_ready = running && req_ready.read();
  e.req_accepted = e.req_ready && p.req_valid;
  e.rsp_valid = running && rsp_valid.read();
  e.rsp_taken = e.rsp_valid && p.rsp_ready;
  e.rsp_stalled = e.rsp_valid && !p.rsp_ready;
  if (e.rsp_valid) {
    TlbResponse& r = e.rsp;
    r.fill = rsp_fill.read();
    r.result = static_cast<TlbResult>(rsp_result.read());
    r.set = rsp_set.read();
    r.way = rsp_way.read();
    r.pa = rsp_pa.read();
    r.evicted = rsp_evicted.read();
    r.entry.valid = tlb_response_has_entry(r);
    r.entry.large_page = rsp_entry_large_page.read();
    r.entry.vpn = rsp_entry_vpn.read();
    r.entry.pfn = rsp_entry_pfn.read();
    r.entry.nested_flag = rsp_entry_nested_flag.read();
    r.entry.task_type = rsp_entry_task_type.read();
    r.entry.readable = rsp_entry_readable.read();
    r.entry.writable = rsp_entry_writable.read();
  }
  scoreboard.edge(p, e, stimulus->context(), cycles);
  if (!scoreboard.protocol_violation()) stimulus->observe(e);
}

}  // namespace

TlbPinCosim::TlbPinCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves, const LoadedRtl* rtl) {
  if (rtl) {
    bench_ = std::make_unique<BenchOf<LoadedScModel<TlbScShell>>>("tlb_pin_bench", cfg, seed, tlb_geometry_of_config(cfg),
                                                                   waves, rtl);
    bench_->scoreboard.set_max_latency(rtl->latency_bound());
    return;
  }
  const RtlTlbGeometry& fast = matching_tlb_variant(cfg);  // throws, naming every difference
  for (const RtlTlbGeometry& v : rtl_tlb_pin_variants()) {
    if (v.variant != fast.variant) continue;
    if (const std::string d = tlb_geometry_difference(cfg, v); !d.empty())
      throw std::invalid_argument("the --sc TLB '" + v.variant + "' differs from the config:\n" + d);
    if (v.variant == "plru")
      bench_ = std::make_unique<BenchOf<LinkedScModel<Vgpumem_nested_tlb_sc>>>("tlb_pin_bench", cfg, seed, v, waves, nullptr);
    else
      bench_ = std::make_unique<BenchOf<LinkedScModel<Vgpumem_nested_tlb_lru_sc>>>("tlb_pin_bench", cfg, seed, v, waves,
                                                                                    nullptr);
    return;
  }
  throw std::invalid_argument("the TLB variant '" + fast.variant + "' has no pin-level (--sc) model");
}

TlbPinCosim::~TlbPinCosim() = default;

void TlbPinCosim::reset() {
  if (bench_->started) throw std::logic_error("TLB pin-level co-simulation: reset after the run");
  bench_->reset_cycles += 2;
}

bool TlbPinCosim::run_random(const TlbRandomRun& run) {
  if (bench_->started)
    throw std::logic_error("TLB pin-level co-simulation: one run per object (SystemC elaborates once per process)");
  bench_->started = true;
  bench_->run = run;
  bench_->scoreboard.set_hang_cycles(run.hang_cycles);
  bench_->stimulus = std::make_unique<TlbStimulus>(bench_->cfg, bench_->seed, run, bench_->scoreboard);
  sc_core::sc_start();
  sanitizer_back_on_main_stack();
  return bench_->scoreboard.mismatches() == 0 && !assertion_failed() && !bench_->scoreboard.protocol_violation();
}

bool TlbPinCosim::assertion_failed() const { return bench_->assertion_failed(); }

const TlbScoreboard& TlbPinCosim::scoreboard() const { return bench_->scoreboard; }
uint64_t TlbPinCosim::cycles() const { return bench_->cycles; }
uint64_t TlbPinCosim::translations() const { return bench_->stimulus ? bench_->stimulus->translations() : 0; }
uint64_t TlbPinCosim::faults() const { return bench_->stimulus ? bench_->stimulus->faults() : 0; }
uint64_t TlbPinCosim::walks() const { return bench_->stimulus ? bench_->stimulus->walks() : 0; }
uint64_t TlbPinCosim::image_switches() const { return bench_->stimulus ? bench_->stimulus->image_switches() : 0; }
uint64_t TlbPinCosim::resets() const { return bench_->stimulus ? bench_->stimulus->resets() : 0; }
uint64_t TlbPinCosim::malformed_fills() const { return bench_->stimulus ? bench_->stimulus->malformed_fills() : 0; }
const RtlTlbGeometry& TlbPinCosim::variant() const { return bench_->variant; }

}  // namespace gpumem::tb
