#include "tb/tlb/tlb_cosim.hpp"

#include <sstream>
#include <stdexcept>

#include "params/block_params.hpp"
#include "mmu/mmu.hpp"

namespace gpumem::tb {

std::string tlb_geometry_difference(const Config& cfg, const RtlTlbGeometry& rtl) {
  if (!cfg.has_mmu()) return "the config has no MMU (address_space section): the TLB has nothing to translate";
  std::ostringstream s;
  const PageGeometry geo = cfg.mmu.geometry();
  auto differ = [&](const char* what, const std::string& key, uint64_t config, const char* param, uint64_t rtl_value) {
    if (config != rtl_value)
      s << what << ": config " << key << " = " << config << ", RTL " << param << " = " << rtl_value << "\n";
  };
  differ("VA bits", "address_space.va_bits", cfg.address_space.va_bits, "VA_BITS", rtl.va_bits);
  differ("small page", "mmu.page_sizes[0]", geo.small_bytes(), "2^SMALL_BITS", uint64_t{1} << rtl.small_bits);
  differ("large page", "mmu.page_sizes[1]", geo.large_bytes(), "2^LARGE_BITS", uint64_t{1} << rtl.large_bits);
  differ("entries", "mmu.tlb.entries", cfg.mmu.tlb_entries, "ENTRIES", rtl.entries);
  differ("ways", "mmu.tlb.ways", cfg.mmu.tlb_ways, "WAYS", rtl.ways);
  const bool plru = cfg.mmu.replacement == Replacement::kPlru;
  if (plru != rtl.plru)
    s << "replacement: config mmu.tlb.replacement = " << replacement_name(cfg.mmu.replacement) << ", RTL PLRU = " << rtl.plru
      << "\n";
  const bool tail = geo.placement == NestedPlacement::kTail;
  if (tail != rtl.nested_tail)
    s << "nested placement: config mmu.nested_placement = " << (tail ? "tail" : "head")
      << ", RTL NESTED_TAIL = " << rtl.nested_tail << "\n";
  std::string d = s.str();
  if (!d.empty()) d += "(the RTL parameters are set in verilator/CMakeLists.txt, gpumem_verilate_tlb)";
  return d;
}

const RtlTlbGeometry& matching_tlb_variant(const Config& cfg) {
  if (!cfg.has_mmu()) throw std::invalid_argument(tlb_geometry_difference(cfg, rtl_tlb_variants().front()));
  std::string why;
  for (const RtlTlbGeometry& v : rtl_tlb_variants()) {
    const std::string d = tlb_geometry_difference(cfg, v);
    if (d.empty()) return v;
    why += "the '" + v.variant + "' variant:\n" + d + "\n";
  }
  throw std::invalid_argument("no verilated TLB matches the config's MMU:\n" + why);
}

std::string tlb_wave_layout(const Config& cfg) {
  return cfg.mmu.replacement == Replacement::kLru ? "tlb-lru.gtkw" : "tlb.gtkw";
}

RtlTlbGeometry tlb_geometry_of_config(const Config& cfg) {
  if (!cfg.has_mmu()) throw std::invalid_argument(tlb_geometry_difference(cfg, rtl_tlb_variants().front()));
  const PageGeometry geo = cfg.mmu.geometry();
  return {"runtime",        cfg.address_space.va_bits, geo.small_bits, geo.large_bits, cfg.mmu.tlb_entries,
          cfg.mmu.tlb_ways, cfg.mmu.replacement == Replacement::kPlru, geo.placement == NestedPlacement::kTail};
}

TlbCosim::TlbCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves, const LoadedRtl* rtl)
    : seed_(seed),
      cfg_(cfg),
      variant_(rtl ? tlb_geometry_of_config(cfg) : matching_tlb_variant(cfg)),
      driver_(variant_, seed, waves, rtl ? rtl->api : nullptr),
      scoreboard_(tlb_params(cfg), cfg.address_space.va_bits, seed) {
  if (rtl) scoreboard_.set_max_latency(rtl->latency_bound());
  driver_.reset();
}

void TlbCosim::reset() {
  if (scoreboard_.outstanding()) throw std::logic_error("TLB co-simulation: reset with a response outstanding");
  driver_.reset();
  scoreboard_.reset_handshake();
}

TlbEdge TlbCosim::cycle(const TlbPins& pins, const TlbOpContext& context) {
  const TlbEdge e = driver_.cycle(pins);
  scoreboard_.edge(pins, e, context, driver_.cycles());
  return e;
}

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

bool TlbCosim::run_random(const TlbRandomRun& run) {
  TlbStimulus stimulus(cfg_, seed_, run, scoreboard_, translations_);
  scoreboard_.set_hang_cycles(run.hang_cycles);
  while (!stimulus.done() && !(run.stop_at_first_mismatch && scoreboard_.mismatches()) && !driver_.assertion_failed()) {
    const TlbEdge e = cycle(stimulus.next(), stimulus.context());
    if (scoreboard_.protocol_violation()) break;  // the handshakes no longer say what the stimulus expects
    stimulus.observe(e);
  }
  translations_ += stimulus.translations();
  faults_ += stimulus.faults();
  walks_ += stimulus.walks();
  image_switches_ += stimulus.image_switches();
  resets_ += stimulus.resets();
  malformed_fills_ += stimulus.malformed_fills();
  return scoreboard_.mismatches() == 0 && !driver_.assertion_failed() && !scoreboard_.protocol_violation();
}

MismatchArtifacts write_tlb_mismatch_artifacts(const Config& cfg, const std::string& config_path, uint64_t seed,
                                               const TlbRandomRun& run, uint64_t fail_cycle, const std::string& dir,
                                               uint64_t window, const std::string& replay_flags, const LoadedRtl* rtl) {
  const ReplayCommand command{"tlb",           tlb_wave_layout(cfg),         config_path, seed, run.translations,
                              !run.stop_at_first_mismatch, run.hang_cycles, replay_flags};
  return write_mismatch_artifacts(command, fail_cycle, dir, window, [&](const WaveWindow& w) -> uint64_t {
    TlbCosim again(cfg, seed, w, rtl);  // destroyed here: the FST file is closed
    again.run_random(run);
    if (again.assertion_failed()) return again.cycles();
    if (const auto& v = again.scoreboard().protocol_violation()) return v->cycle;
    const auto& first = again.scoreboard().first_mismatch();
    return first ? first->cycle : 0;
  });
}

}  // namespace gpumem::tb
