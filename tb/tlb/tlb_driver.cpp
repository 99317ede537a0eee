#include "tb/tlb/tlb_driver.hpp"

#include <stdexcept>

#include "Vgpumem_nested_tlb.h"
#include "Vgpumem_nested_tlb_gpumem_nested_tlb.h"
#include "Vgpumem_nested_tlb_lru.h"
#include "Vgpumem_nested_tlb_lru_gpumem_nested_tlb.h"
#include "params/block_params.hpp"
#include "tb/common/rtl_adapter.hpp"
#include "tb/tlb/tlb_block.hpp"

namespace gpumem::tb {

namespace {
GPUMEM_RTL_PORTS(TlbPorts, GPUMEM_TLB_PORTS)

constexpr unsigned in(TlbIn p) { return static_cast<unsigned>(p); }
constexpr unsigned out(TlbOut p) { return static_cast<unsigned>(p); }
}  // namespace

void TlbBlock::drive(const TlbPins& p, uint64_t* inputs) {
  inputs[in(TlbIn::rst_ni)] = !p.reset;
  inputs[in(TlbIn::flush_i)] = p.flush;
  inputs[in(TlbIn::req_valid_i)] = p.req_valid;
  inputs[in(TlbIn::req_fill_i)] = p.req_fill;
  inputs[in(TlbIn::req_va_i)] = p.req_va;
  inputs[in(TlbIn::req_pte_i)] = p.req_pte;
  inputs[in(TlbIn::rsp_ready_i)] = p.rsp_ready;
}

// In reset the handshakes are the reset's, not the RTL's: nothing is taken.
TlbEdge TlbBlock::sample(const TlbPins& p, const uint64_t* outputs) {
  TlbEdge e;
  const bool running = !p.reset;
  e.sample(p.req_valid, running && outputs[out(TlbOut::req_ready_o)], running && outputs[out(TlbOut::rsp_valid_o)],
           p.rsp_ready);
  if (e.rsp_valid) {
    TlbResponse& r = e.rsp;
    r.fill = outputs[out(TlbOut::rsp_fill_o)];
    r.result = static_cast<TlbResult>(outputs[out(TlbOut::rsp_result_o)]);
    r.set = static_cast<unsigned>(outputs[out(TlbOut::rsp_set_o)]);
    r.way = static_cast<unsigned>(outputs[out(TlbOut::rsp_way_o)]);
    r.pa = outputs[out(TlbOut::rsp_pa_o)];
    r.evicted = outputs[out(TlbOut::rsp_evicted_o)];
    r.entry.valid = tlb_response_has_entry(r);
    r.entry.large_page = outputs[out(TlbOut::rsp_entry_large_page_o)];
    r.entry.vpn = outputs[out(TlbOut::rsp_entry_vpn_o)];
    r.entry.pfn = outputs[out(TlbOut::rsp_entry_pfn_o)];
    r.entry.nested_flag = static_cast<uint8_t>(outputs[out(TlbOut::rsp_entry_nested_flag_o)]);
    r.entry.task_type = static_cast<uint8_t>(outputs[out(TlbOut::rsp_entry_task_type_o)]);
    r.entry.readable = outputs[out(TlbOut::rsp_entry_readable_o)];
    r.entry.writable = outputs[out(TlbOut::rsp_entry_writable_o)];
  }
  return e;
}

const std::vector<RtlTlbGeometry>& rtl_tlb_variants() {
  static const std::vector<RtlTlbGeometry> v{tlb_geometry_of<Vgpumem_nested_tlb_gpumem_nested_tlb>("plru"),
                                             tlb_geometry_of<Vgpumem_nested_tlb_lru_gpumem_nested_tlb>("lru")};
  return v;
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

RtlTlbGeometry TlbBlock::geometry(const Config& cfg, const LoadedRtl* rtl) {
  if (!rtl) return matching_tlb_variant(cfg);
  if (!cfg.has_mmu()) throw std::invalid_argument(tlb_geometry_difference(cfg, RtlTlbGeometry{}));
  return tlb_geometry_of_config(cfg);
}

TlbBenchParams TlbBlock::params(const Config& cfg, const RtlTlbGeometry&) { return tlb_bench_params(cfg); }

TlbScoreboard TlbBlock::scoreboard(const TlbBenchParams& p, const RtlTlbGeometry&, uint64_t seed) {
  return TlbScoreboard(p.mmu.tlb, p.mmu.va_bits, seed);
}

std::unique_ptr<FastModel<TlbBlock>> TlbBlock::fast_model(const RtlTlbGeometry& g, uint64_t seed,
                                                          const WaveWindow& waves, const LoadedRtl* rtl) {
  using Plru = LinkedRtl<Vgpumem_nested_tlb, TlbPorts>;
  using Lru = LinkedRtl<Vgpumem_nested_tlb_lru, TlbPorts>;
  if (rtl) return make_fast_model<TlbBlock, Plru>(seed, waves, rtl);  // the library's model: Plru goes unused
  if (g.variant == "plru") return make_fast_model<TlbBlock, Plru>(seed, waves, nullptr);
  if (g.variant == "lru") return make_fast_model<TlbBlock, Lru>(seed, waves, nullptr);
  throw std::invalid_argument("TLB: no verilated variant '" + g.variant + "'");
}

std::string TlbBlock::details(const RtlTlbGeometry& g) {
  return ", " + std::to_string(g.entries) + " entries, " + std::to_string(g.ways) + " ways, " +
         (g.plru ? "tree-PLRU" : "LRU");
}

void TlbBlock::print_counts(std::ostream& out, const TlbScoreboard& sb, const TlbCounts& n, uint64_t cycles) {
  out << "translations " << n.transactions << " (" << n.faults << " faulted), " << n.walks << " walks, "
      << sb.compared() << " operations compared in " << cycles << " cycles\n"
      << "flushes      " << sb.flushes() << " (" << sb.coverage().flush[0] << " with an operation in flight, "
      << n.image_switches << " with a page-table switch); " << sb.coverage().back_pressure[0]
      << " cycles of back-pressure\n"
      << "resets       " << n.resets << " in the middle of traffic (" << sb.discarded() << " operations discarded); "
      << n.malformed_fills << " malformed leaves filled\n";
}

std::string TlbBlock::wave_layout(const Config& cfg) {
  return cfg.mmu.tlb.replacement == Replacement::kLru ? "tlb-lru.gtkw" : "tlb.gtkw";
}

}  // namespace gpumem::tb
