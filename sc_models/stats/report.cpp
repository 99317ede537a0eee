#include "stats/report.hpp"

#include <iomanip>
#include <ostream>

#include "base/readable.hpp"

namespace gpumem {

nlohmann::json mmu_json(const MmuStats& s) {
  return {{"lookups", s.lookups},
          {"hits", {{"small", s.hits_small}, {"large", s.hits_large}}},
          {"misses", s.misses},
          {"nested", s.nested},
          {"walks", s.walks},
          {"walk_reads", s.walk_reads},
          {"walk_cycles", s.walk_cycles},
          {"walk_reads_per_request", s.lookups ? double(s.walk_reads) / double(s.lookups) : 0.0},
          {"fills", {{"small", s.fills_small}, {"large", s.fills_large}}},
          {"evictions", {{"small", s.evictions_small}, {"large", s.evictions_large}}},
          {"faults", s.faults},
          {"invalidations", s.invalidations}};
}

nlohmann::json faults_json(const std::vector<FaultRecord>& faults) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& f : faults)
    a.push_back({{"id", f.id}, {"process", f.process}, {"va", f.va}, {"task_type", f.task_type},
                 {"reason", fault_reason_name(f.reason)}, {"detail", f.detail}});
  return a;
}

nlohmann::json fragmentation_json(const Fragmentation& f) {
  return {{"data_bytes", f.data_bytes},         {"frames_used", f.frames_used},
          {"frame_bytes", f.frame_bytes},       {"internal_bytes", f.internal_bytes},
          {"external_bytes", f.external_bytes}, {"large_pages", f.large_pages},
          {"small_pages", f.small_pages},       {"nested_small_pages", f.nested_small_pages},
          {"page_table_bytes", f.page_table_bytes}};
}

void print_mmu(std::ostream& os, const MmuStats& s) {
  os << "\nTLB lookups " << s.lookups << ": hits " << s.hits_small << " small + " << s.hits_large << " large, misses "
     << s.misses << ", nested-region hits " << s.nested << "\n"
     << "walks " << s.walks << " (" << s.walk_reads << " page-table reads, " << s.walk_cycles << " cycles), fills "
     << s.fills_small << " small + " << s.fills_large << " large, evictions " << s.evictions_small << " small + "
     << s.evictions_large << " large, faults " << s.faults << "\n";
}

void print_faults(std::ostream& os, const std::vector<FaultRecord>& faults, size_t limit) {
  for (size_t i = 0; i < faults.size() && i < limit; ++i) {
    const FaultRecord& f = faults[i];
    os << "fault: request " << f.id << " process " << f.process << " VA 0x" << std::hex << f.va << std::dec << ": "
       << fault_reason_name(f.reason) << " (" << f.detail << ")\n";
  }
  if (faults.size() > limit) os << "(" << faults.size() - limit << " more fault records in the stats JSON)\n";
}

void print_fragmentation(std::ostream& os, const Fragmentation* nested, const Fragmentation* flat) {
  auto row = [&](const char* what, uint64_t Fragmentation::*field) {
    os << std::left << std::setw(22) << what << std::right << std::setw(14);
    if (nested) os << nested->*field; else os << "n/a";
    os << std::setw(14);
    if (flat) os << flat->*field; else os << "n/a";
    os << "\n";
  };
  os << "\naddress space          with nesting  without\n";
  row("data bytes", &Fragmentation::data_bytes);
  row("frames used", &Fragmentation::frames_used);
  row("internal frag. bytes", &Fragmentation::internal_bytes);
  row("external frag. bytes", &Fragmentation::external_bytes);
  row("nested small pages", &Fragmentation::nested_small_pages);
  row("page-table bytes", &Fragmentation::page_table_bytes);
}

namespace {
double ratio(uint64_t a, uint64_t b) { return b ? static_cast<double>(a) / b : 0.0; }
}  // namespace

nlohmann::json frontend_json(const FrontendReport& f) {
  const SequenceStats& seq = f.sequence;
  const std::vector<SmRunStats>& sms = f.sms;
  const WarpRunSummary& warps = f.warps;
  nlohmann::json j = {{"kernels", seq.kernels},
                      {"blocks", seq.blocks},
                      {"warp_instructions", seq.warp_instructions},
                      {"thread_accesses", seq.thread_accesses},
                      {"requests", seq.requests},
                      {"coalescing_efficiency", ratio(seq.thread_accesses, seq.requests)},
                      {"ordering_ticks", seq.ticks},
                      {"memory_init_bytes", f.memory_init_bytes},
                      {"queued_max", f.queued_max},
                      {"queue_limit_holds", f.queue_limit_holds},
                      {"records_in_memory_max", seq.records_in_memory_max},
                      {"records_spilled", seq.records_spilled}};
  const StridedRunStats& st = f.strided;
  j["strided"] = {{"enabled", f.strided_enabled},
                  {"requests", st.requests},
                  {"elements", st.elements},
                  {"line_requests", st.line_requests},
                  {"channel_messages", st.messages},
                  {"channel_accesses", st.accesses},
                  {"messages_saved_against_elements", st.saved_against_elements()},
                  {"messages_saved_against_lines", st.saved_against_lines()}};
  j["sms"] = nlohmann::json::array();
  for (size_t s = 0; s < sms.size(); ++s) {
    const SmRunStats& m = sms[s];
    const SmSequenceStats& o = s < seq.sm.size() ? seq.sm[s] : SmSequenceStats{};
    j["sms"].push_back({{"sm", s},
                        {"blocks", o.blocks},
                        {"requests", m.requests},
                        {"reads", m.reads},
                        {"writes", m.writes},
                        {"bytes", m.bytes},
                        {"thread_accesses", m.thread_accesses},
                        {"coalescing_efficiency", ratio(m.thread_accesses, m.requests)},
                        {"faults", m.faults},
                        {"mean_latency", ratio(m.latency_sum, m.requests)},
                        {"max_latency", m.latency_max},
                        {"first_issue", m.requests ? m.first_issue : 0},
                        {"last_completion", m.last_completion},
                        {"mshr_wait_cycles", m.mshr_wait_cycles},
                        {"dependency_wait_cycles", m.dependency_wait_cycles},
                        {"ordering", {{"mshr_full_ticks", o.mshr_full_ticks}, {"blocked_ticks", o.blocked_ticks}, {"idle_ticks", o.idle_ticks}}}});
  }
  j["warps"] = {{"warps", warps.warps},
                {"requests", {{"min", warps.requests_min}, {"max", warps.requests_max}, {"mean", ratio(warps.requests_total, warps.warps)}}},
                {"mean_latency", {{"min", warps.mean_latency_min}, {"max", warps.mean_latency_max}, {"mean", warps.mean_latency_mean}}}};
  return j;
}

void print_frontend(std::ostream& os, const FrontendReport& f) {
  const SequenceStats& seq = f.sequence;
  const std::vector<SmRunStats>& sms = f.sms;
  const WarpRunSummary& warps = f.warps;
  os << "\nfront end: " << counted(seq.kernels, "kernel", "kernels") << ", " << counted(seq.blocks, "block", "blocks") << ", "
     << counted(warps.warps, "warp", "warps") << "; "
     << seq.thread_accesses << " thread accesses -> " << seq.requests << " requests (coalescing " << std::fixed
     << std::setprecision(2) << ratio(seq.thread_accesses, seq.requests) << " accesses/request)\n"
     << "  sm  blocks  requests  accesses  mean lat  max lat  mshr wait  dep wait  last completion\n";
  for (size_t s = 0; s < sms.size(); ++s) {
    const SmRunStats& m = sms[s];
    os << std::setw(4) << s << std::setw(8) << (s < seq.sm.size() ? seq.sm[s].blocks : 0) << std::setw(10) << m.requests
       << std::setw(10) << m.thread_accesses << std::setw(10) << std::setprecision(1) << ratio(m.latency_sum, m.requests)
       << std::setw(9) << m.latency_max << std::setw(11) << m.mshr_wait_cycles << std::setw(10) << m.dependency_wait_cycles
       << std::setw(17) << m.last_completion << "\n";
  }
  os << "warps: requests per warp " << warps.requests_min << "-" << warps.requests_max << " (mean " << std::setprecision(1)
     << ratio(warps.requests_total, warps.warps) << "), mean latency per warp " << warps.mean_latency_min << "-"
     << warps.mean_latency_max << " (mean " << warps.mean_latency_mean << ")\n";
  const StridedRunStats& st = f.strided;
  if (!f.strided_enabled) os << "strided requests: off\n";
  else
    os << "strided requests: " << st.requests << " with " << st.elements << " elements took " << st.messages
       << " channel messages: " << st.saved_against_elements() << " saved against one per element, "
       << st.saved_against_lines() << " against one per line request (" << st.line_requests << ")\n";
  os.unsetf(std::ios::fixed);
  os << std::setprecision(6);
}

namespace {

nlohmann::json l1_stats_json(const L1Stats& s) {
  return {{"reads", s.reads},
          {"hits", s.hits},
          {"misses", s.misses},
          {"mshr_merges", s.mshr_merges},
          {"miss_rate", s.miss_rate()},
          {"mshr_full_stalls", s.mshr_full_stalls},
          {"mshr_stall_cycles", s.mshr_stall_cycles},
          {"fills", s.fills},
          {"evictions", s.evictions},
          {"prefetch_fills", s.prefetch_fills},
          {"unused_prefetch_evictions", s.unused_prefetch_evictions},
          {"buffer_hits", s.buffer_hits},
          {"writes", s.writes},
          {"write_hits", s.write_hits},
          {"bypasses", s.bypasses},
          {"invalidations", s.invalidations}};
}

L1Stats l1_total(const std::vector<L1Stats>& sms) {
  L1Stats total;
  for (const L1Stats& s : sms) total += s;
  total.invalidations = sms.empty() ? 0 : sms.front().invalidations;  // a launch empties every L1 at once
  return total;
}

}  // namespace

nlohmann::json l1_json(const std::vector<L1Stats>& sms) {
  nlohmann::json j = l1_stats_json(l1_total(sms));
  j["sms"] = nlohmann::json::array();
  for (size_t s = 0; s < sms.size(); ++s) {
    nlohmann::json one = l1_stats_json(sms[s]);
    one["sm"] = s;
    j["sms"].push_back(one);
  }
  return j;
}

void print_dram(std::ostream& os, const nlohmann::json& d) {
  const auto& lat = d.at("read_latency");
  os << "\nDRAM (" << d.at("preset").get<std::string>() << ", " << d.at("page_policy").get<std::string>()
     << " page, " << d.at("address_order").get<std::string>() << "): read latency mean " << std::fixed
     << std::setprecision(1) << lat.at("mean").get<double>() << ", p50 " << lat.at("p50") << ", p95 " << lat.at("p95")
     << ", p99 " << lat.at("p99") << ", max " << lat.at("max") << " cycles; energy " << std::setprecision(1);
  if (d.at("energy_pj").is_null()) os << "- (no power figures)\n";
  else os << d.at("energy_pj").get<double>() / 1e6 << " uJ, " << d.at("average_power_mw").get<double>() << " mW\n";
  os << "channel     reads    writes  row_hit  conflicts  refreshes    GB/s  of_peak  mean_read_latency  energy_uJ  power_mW\n";
  for (const auto& c : d.at("channels")) {
    os << std::setw(7) << c.at("channel").get<unsigned>() << std::setw(10) << c.at("reads").get<uint64_t>()
       << std::setw(10) << c.at("writes").get<uint64_t>() << std::setw(9) << std::setprecision(3)
       << c.at("row_hit_rate").get<double>() << std::setw(11) << c.at("row_conflicts").get<uint64_t>() << std::setw(11)
       << c.at("refreshes").get<uint64_t>() << std::setw(8) << std::setprecision(2) << c.at("bandwidth_gbps").get<double>()
       << std::setw(9) << std::setprecision(3) << c.at("peak_share").get<double>() << std::setw(19)
       << std::setprecision(1) << c.at("mean_read_latency").get<double>();
    if (c.at("energy").is_null()) os << std::setw(11) << "-" << std::setw(10) << "-" << "\n";
    else
      os << std::setw(11) << c.at("energy").at("total_pj").get<double>() / 1e6 << std::setw(10)
         << c.at("average_power_mw").get<double>() << "\n";
  }
}

void print_l1(std::ostream& os, const std::vector<L1Stats>& sms) {
  const L1Stats t = l1_total(sms);
  os << "\nL1 data caches (" << sms.size() << "): " << t.reads << " reads, " << t.hits << " hits, " << t.mshr_merges
     << " merged into a fill in flight, " << t.misses << " misses (miss rate " << std::fixed << std::setprecision(3)
     << t.miss_rate() << "); " << t.mshr_full_stalls << " misses waited for an MSHR (" << t.mshr_stall_cycles << " cycles); "
     << t.evictions << " evictions; " << t.writes << " writes through (" << t.write_hits << " updated a line); " << t.bypasses
     << " strided bypasses; emptied at " << t.invalidations << " kernel launches\n";
  if (t.bypasses > 0)
    os << "  " << t.bypasses << " strided requests went past the L1 (frontend.strided_requests: false sends their line "
          "requests through it)\n";
  os.unsetf(std::ios::fixed);
  os << std::setprecision(6);
}

namespace {

PrefetchStats prefetch_total(const std::vector<PrefetchStats>& sms) {
  PrefetchStats t;
  for (const PrefetchStats& s : sms) t += s;
  return t;
}

nlohmann::json prefetch_stats_json(const PrefetchStats& s, uint64_t unused_evictions) {
  nlohmann::json by_array;
  for (unsigned a = 0; a <= kGraphArrays; ++a)
    by_array[a == kGraphArrays ? "stride" : graph_array_name(static_cast<GraphArray>(a))] = s.issued_by_array[a];
  return {{"generated", s.generated}, {"redundant", s.redundant},        {"dropped", s.dropped},
          {"issued", s.issued},       {"faulted", s.faulted},            {"useful", s.useful},
          {"late", s.late},           {"accuracy", s.accuracy()},        {"unused_evictions", unused_evictions},
          {"issued_by_array", by_array}};
}

}  // namespace

nlohmann::json prefetch_json(const std::vector<PrefetchStats>& sms, const std::vector<L1Stats>& l1, PrefetchKind kind) {
  uint64_t unused = 0;
  for (const L1Stats& s : l1) unused += s.unused_prefetch_evictions;
  nlohmann::json j = prefetch_stats_json(prefetch_total(sms), unused);
  j["kind"] = prefetch_kind_name(kind);
  j["sms"] = nlohmann::json::array();
  for (size_t s = 0; s < sms.size(); ++s) {
    nlohmann::json one = prefetch_stats_json(sms[s], s < l1.size() ? l1[s].unused_prefetch_evictions : 0);
    one["sm"] = s;
    j["sms"].push_back(one);
  }
  return j;
}

void print_prefetch(std::ostream& os, const std::vector<PrefetchStats>& sms, const std::vector<L1Stats>& l1, PrefetchKind kind) {
  const PrefetchStats t = prefetch_total(sms);
  uint64_t unused = 0;
  for (const L1Stats& s : l1) unused += s.unused_prefetch_evictions;
  os << "prefetch (" << prefetch_kind_name(kind) << "): " << t.generated << " generated, " << t.redundant << " already cached, "
     << t.dropped << " dropped (queue full), " << t.issued << " issued (" << t.faulted << " refused); " << t.useful << " useful ("
     << t.late << " late), accuracy " << std::fixed << std::setprecision(3) << t.accuracy() << "; " << unused
     << " evicted unused\n";
  os.unsetf(std::ios::fixed);
  os << std::setprecision(6);
}

}  // namespace gpumem
