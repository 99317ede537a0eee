// The frontend section: the GPU core model of per-thread traces (docs/frontend.md).
#include "base/bits.hpp"
#include "config/config_reader.hpp"

namespace gpumem::config_yaml {

void read_frontend(const Reader& r, const YAML::Node& n, const Config& cfg, FrontendConfig& f) {
  f.line = n.Mark().line + 1;
  Section(r, n, "frontend")
      .uint("num_sms", f.num_sms, 1, 1024)
      .uint("blocks_per_sm", f.blocks_per_sm, 1, 64)
      .uint("warps_per_block", f.warps_per_block, 1, 32)
      .uint("line_bytes", f.line_bytes, 16, kMaxRequestBytes)
      .then([&] {
        if (!is_pow2(f.line_bytes)) r.fail(n["line_bytes"], "frontend.line_bytes", "must be a power of two");
        // A line is one request: it must lie in one interleave granule and one small page.
        if (f.line_bytes > cfg.max_request_bytes())
          r.fail(n["line_bytes"], "frontend.line_bytes",
                 std::to_string(f.line_bytes) + " is larger than the largest request (" + std::to_string(cfg.max_request_bytes()) +
                     " bytes: the interleave granule, 4096 or the smallest page)");
      })
      .uint("mshr_entries", f.mshr_entries, 1, 4096)
      .uint("latency_min", f.latency_min, 0, 1u << 20)
      .key("latency_sigma",
           [&](const YAML::Node& v, const std::string& k) {
             f.latency_sigma = r.to_double(v, k);
             if (!(f.latency_sigma >= 0 && f.latency_sigma <= 1e6)) r.fail(v, k, "must be in [0, 1e6]");
           })
      .uint("seed", f.seed, 0, ~uint64_t{0})
      .boolean("strided_requests", f.strided_requests)
      .uint("max_queued", f.max_queued, 1, uint64_t{1} << 32)
      .uint("max_records_in_memory", f.max_records_in_memory, 0, uint64_t{1} << 40)
      .choice("issue_timing", f.issue_timing, {{"ordering", IssueTiming::kOrdering}, {"memory", IssueTiming::kMemory}},
              &f.issue_timing_line)
      .choice("scheduler", f.scheduler, {{"lrr", WarpScheduler::kLrr}, {"gto", WarpScheduler::kGto}}, &f.scheduler_line)
      .read();
}

void read_l1(const Reader& r, const YAML::Node& n, const Config& cfg, L1Config& c) {
  c.present = true;
  c.line = n.Mark().line + 1;
  c.line_bytes = cfg.frontend.line_bytes;
  const YAML::Node at_line = n["line_bytes"] ? n["line_bytes"] : n;
  Section(r, n, "l1")
      .uint("size_bytes", c.size_bytes, 1, uint64_t{1} << 30)
      .uint("line_bytes", c.line_bytes, 16, kMaxRequestBytes)
      .then([&] {
        if (!is_pow2(c.line_bytes)) r.fail(at_line, "l1.line_bytes", "must be a power of two");
        // A coalesced request lies in one frontend line: it must lie in one L1 line.
        if (c.line_bytes < cfg.frontend.line_bytes)
          r.fail(at_line, "l1.line_bytes", std::to_string(c.line_bytes) + " is smaller than frontend.line_bytes (" +
                                               std::to_string(cfg.frontend.line_bytes) + "): a coalesced request must lie in one L1 line");
        // A fill is one request.
        if (c.line_bytes > cfg.max_request_bytes())
          r.fail(at_line, "l1.line_bytes", std::to_string(c.line_bytes) + " is larger than the largest request (" +
                                               std::to_string(cfg.max_request_bytes()) + " bytes: the interleave granule, 4096 or the smallest page)");
      })
      .uint("ways", c.ways, 1, 64)
      .then([&] {
        const YAML::Node at_size = n["size_bytes"] ? n["size_bytes"] : n;
        if (c.size_bytes % c.line_bytes)
          r.fail(at_size, "l1.size_bytes", std::to_string(c.size_bytes) + " is not a whole number of " + std::to_string(c.line_bytes) + "-byte lines");
        if (c.lines() % c.ways)
          r.fail(n["ways"] ? n["ways"] : n, "l1.ways", std::to_string(c.ways) + " ways do not divide the " + std::to_string(c.lines()) + " lines");
      })
      .uint("mshrs", c.mshrs, 1, 4096)
      .uint("hit_latency", c.hit_latency, 0, 1u << 16)
      .choice("allocate", c.allocate, {{"miss", L1Allocate::kOnMiss}, {"fill", L1Allocate::kOnFill}}, &c.allocate_line)
      .read();
}

void read_prefetch(const Reader& r, const YAML::Node& n, const Config& cfg, PrefetchConfig& p) {
  static const char* const kArrays[] = {"worklist", "vertexlist", "edgelist", "visitedlist"};
  p.line = n.Mark().line + 1;
  Section(r, n, "prefetch")
      .choice("kind", p.kind, {{"none", PrefetchKind::kNone}, {"stride", PrefetchKind::kStride}, {"bfs", PrefetchKind::kBfs}})
      .then([&] {
        if (!cfg.l1.present) r.fail(n, "prefetch", "the prefetch unit sits beside each SM's L1: the config needs an l1 section");
      })
      .uint("queue_entries", p.queue_entries, 1, 4096)
      .choice("fill", p.fill, {{"l1", PrefetchFill::kL1}, {"buffer", PrefetchFill::kBuffer}})
      .uint("buffer_lines", p.buffer_lines, 1, 4096)
      .uint("edge_window", p.edge_window, 0, 4096)
      .key("stride",
           [&](const YAML::Node& s, const std::string& k) {
             Section(r, s, k)
                 .uint("table_entries", p.stride.table_entries, 1, 1u << 16)
                 .uint("degree", p.stride.degree, 1, 64)
                 .uint("distance", p.stride.distance, 1, 1u << 16)
                 .uint("confidence", p.stride.confidence, 0, 64)
                 .read();
           })
      .key("ranges",
           [&](const YAML::Node& g, const std::string& k) {
             Section ranges(r, g, k);
             for (unsigned i = 0; i < 4; ++i) ranges.key(kArrays[i], [&, i](const YAML::Node& a, const std::string& key) {
               if (!a.IsSequence() || a.size() != 2) r.fail(a, key, "expected [base, end]");
               const uint64_t base = r.to_u64(a[0], key + "[0]"), end = r.to_u64(a[1], key + "[1]");
               if (end <= base) r.fail(a, key, "end " + std::to_string(end) + " is not after base " + std::to_string(base));
               p.ranges[i] = {base, end};
               for (unsigned j = 0; j < i; ++j)
                 if (base < p.ranges[j].second && p.ranges[j].first < end)
                   r.fail(a, key, std::string("overlaps prefetch.ranges.") + kArrays[j]);
             }, [&, i] { r.fail(g, k + "." + kArrays[i], "missing value: the classifier needs all four ranges"); });
             ranges.read();
             p.ranges_given = true;
           })
      .then([&] {
        if (p.kind == PrefetchKind::kBfs && !p.ranges_given)
          r.fail(n, "prefetch.ranges", "kind: bfs needs the four arrays' ranges (docs/prefetch.md)");
      })
      .read();
}

}  // namespace gpumem::config_yaml
