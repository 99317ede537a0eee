// The frontend section: the GPU core model of per-thread traces (docs/frontend.md).
#include "base/bits.hpp"
#include "config/config_reader.hpp"

namespace gpumem::config_yaml {

void read_frontend(const Reader& r, const YAML::Node& n, const Config& cfg, FrontendConfig& f) {
  r.expect_map(n, "frontend", {"num_sms", "blocks_per_sm", "warps_per_block", "line_bytes", "mshr_entries", "latency_min",
                               "latency_sigma", "seed", "strided_requests", "max_queued",
                               "max_records_in_memory", "issue_timing", "scheduler"});
  f.line = n.Mark().line + 1;
  r.opt_uint(n, "frontend", "num_sms", f.num_sms, 1, 1024);
  r.opt_uint(n, "frontend", "blocks_per_sm", f.blocks_per_sm, 1, 64);
  r.opt_uint(n, "frontend", "warps_per_block", f.warps_per_block, 1, 32);
  r.opt_uint(n, "frontend", "line_bytes", f.line_bytes, 16, kMaxRequestBytes);
  if (!is_pow2(f.line_bytes)) r.fail(n["line_bytes"], "frontend.line_bytes", "must be a power of two");
  // A line is one request: it must lie in one interleave granule and one small page.
  if (f.line_bytes > cfg.max_request_bytes())
    r.fail(n["line_bytes"], "frontend.line_bytes",
           std::to_string(f.line_bytes) + " is larger than the largest request (" + std::to_string(cfg.max_request_bytes()) +
               " bytes: the interleave granule, 4096 or the smallest page)");
  r.opt_uint(n, "frontend", "mshr_entries", f.mshr_entries, 1, 4096);
  r.opt_uint(n, "frontend", "latency_min", f.latency_min, 0, 1u << 20);
  if (n["latency_sigma"]) {
    f.latency_sigma = r.to_double(n["latency_sigma"], "frontend.latency_sigma");
    if (!(f.latency_sigma >= 0 && f.latency_sigma <= 1e6)) r.fail(n["latency_sigma"], "frontend.latency_sigma", "must be in [0, 1e6]");
  }
  r.opt_uint(n, "frontend", "seed", f.seed, 0, ~uint64_t{0});
  r.opt_uint(n, "frontend", "max_queued", f.max_queued, 1, uint64_t{1} << 32);
  r.opt_uint(n, "frontend", "max_records_in_memory", f.max_records_in_memory, 0, uint64_t{1} << 40);
  if (const auto t = n["issue_timing"]) {
    const std::string v = r.to_string(t, "frontend.issue_timing");
    if (v == "ordering") f.issue_timing = IssueTiming::kOrdering;
    else if (v == "memory") f.issue_timing = IssueTiming::kMemory;
    else r.fail(t, "frontend.issue_timing", "'" + v + "' is not one of: ordering, memory");
    f.issue_timing_line = t.Mark().line + 1;
  }
  if (const auto t = n["scheduler"]) {
    const std::string v = r.to_string(t, "frontend.scheduler");
    if (v == "lrr") f.scheduler = WarpScheduler::kLrr;
    else if (v == "gto") f.scheduler = WarpScheduler::kGto;
    else r.fail(t, "frontend.scheduler", "'" + v + "' is not one of: lrr, gto");
    f.scheduler_line = t.Mark().line + 1;
  }
  if (n["strided_requests"]) f.strided_requests = r.to_bool(n["strided_requests"], "frontend.strided_requests");
}

void read_l1(const Reader& r, const YAML::Node& n, const Config& cfg, L1Config& c) {
  r.expect_map(n, "l1", {"size_bytes", "line_bytes", "ways", "mshrs", "hit_latency", "allocate"});
  c.present = true;
  c.line = n.Mark().line + 1;
  r.opt_uint(n, "l1", "size_bytes", c.size_bytes, 1, uint64_t{1} << 30);
  c.line_bytes = cfg.frontend.line_bytes;
  r.opt_uint(n, "l1", "line_bytes", c.line_bytes, 16, kMaxRequestBytes);
  const YAML::Node at_line = n["line_bytes"] ? n["line_bytes"] : n;
  if (!is_pow2(c.line_bytes)) r.fail(at_line, "l1.line_bytes", "must be a power of two");
  // A coalesced request lies in one frontend line: it must lie in one L1 line.
  if (c.line_bytes < cfg.frontend.line_bytes)
    r.fail(at_line, "l1.line_bytes", std::to_string(c.line_bytes) + " is smaller than frontend.line_bytes (" +
                                         std::to_string(cfg.frontend.line_bytes) + "): a coalesced request must lie in one L1 line");
  // A fill is one request.
  if (c.line_bytes > cfg.max_request_bytes())
    r.fail(at_line, "l1.line_bytes", std::to_string(c.line_bytes) + " is larger than the largest request (" +
                                         std::to_string(cfg.max_request_bytes()) + " bytes: the interleave granule, 4096 or the smallest page)");
  r.opt_uint(n, "l1", "ways", c.ways, 1, 64);
  const YAML::Node at_size = n["size_bytes"] ? n["size_bytes"] : n;
  if (c.size_bytes % c.line_bytes)
    r.fail(at_size, "l1.size_bytes", std::to_string(c.size_bytes) + " is not a whole number of " + std::to_string(c.line_bytes) + "-byte lines");
  if (c.lines() % c.ways)
    r.fail(n["ways"] ? n["ways"] : n, "l1.ways", std::to_string(c.ways) + " ways do not divide the " + std::to_string(c.lines()) + " lines");
  r.opt_uint(n, "l1", "mshrs", c.mshrs, 1, 4096);
  r.opt_uint(n, "l1", "hit_latency", c.hit_latency, 0, 1u << 16);
  if (const auto a = n["allocate"]) {
    const std::string v = r.to_string(a, "l1.allocate");
    if (v == "miss") c.allocate = L1Allocate::kOnMiss;
    else if (v == "fill") c.allocate = L1Allocate::kOnFill;
    else r.fail(a, "l1.allocate", "'" + v + "' is not one of: miss, fill");
    c.allocate_line = a.Mark().line + 1;
  }
}

void read_prefetch(const Reader& r, const YAML::Node& n, const Config& cfg, PrefetchConfig& p) {
  r.expect_map(n, "prefetch", {"kind", "queue_entries", "fill", "buffer_lines", "edge_window", "stride", "ranges"});
  p.line = n.Mark().line + 1;
  if (const auto k = n["kind"]) {
    const std::string v = r.to_string(k, "prefetch.kind");
    if (v == "none") p.kind = PrefetchKind::kNone;
    else if (v == "stride") p.kind = PrefetchKind::kStride;
    else if (v == "bfs") p.kind = PrefetchKind::kBfs;
    else r.fail(k, "prefetch.kind", "'" + v + "' is not one of: none, stride, bfs");
  }
  if (!cfg.l1.present) r.fail(n, "prefetch", "the prefetch unit sits beside each SM's L1: the config needs an l1 section");
  r.opt_uint(n, "prefetch", "queue_entries", p.queue_entries, 1, 4096);
  if (const auto f = n["fill"]) {
    const std::string v = r.to_string(f, "prefetch.fill");
    if (v == "l1") p.fill = PrefetchFill::kL1;
    else if (v == "buffer") p.fill = PrefetchFill::kBuffer;
    else r.fail(f, "prefetch.fill", "'" + v + "' is not one of: l1, buffer");
  }
  r.opt_uint(n, "prefetch", "buffer_lines", p.buffer_lines, 1, 4096);
  r.opt_uint(n, "prefetch", "edge_window", p.edge_window, 0, 4096);
  if (const auto s = n["stride"]) {
    r.expect_map(s, "prefetch.stride", {"table_entries", "degree", "distance", "confidence"});
    r.opt_uint(s, "prefetch.stride", "table_entries", p.stride.table_entries, 1, 1u << 16);
    r.opt_uint(s, "prefetch.stride", "degree", p.stride.degree, 1, 64);
    r.opt_uint(s, "prefetch.stride", "distance", p.stride.distance, 1, 1u << 16);
    r.opt_uint(s, "prefetch.stride", "confidence", p.stride.confidence, 0, 64);
  }
  static const char* const kArrays[] = {"worklist", "vertexlist", "edgelist", "visitedlist"};
  if (const auto g = n["ranges"]) {
    r.expect_map(g, "prefetch.ranges", {"worklist", "vertexlist", "edgelist", "visitedlist"});
    for (unsigned i = 0; i < 4; ++i) {
      const std::string key = std::string("prefetch.ranges.") + kArrays[i];
      const YAML::Node a = g[kArrays[i]];
      if (!a) r.fail(g, key, "missing value: the classifier needs all four ranges");
      if (!a.IsSequence() || a.size() != 2) r.fail(a, key, "expected [base, end]");
      const uint64_t base = r.to_u64(a[0], key + "[0]"), end = r.to_u64(a[1], key + "[1]");
      if (end <= base) r.fail(a, key, "end " + std::to_string(end) + " is not after base " + std::to_string(base));
      p.ranges[i] = {base, end};
      for (unsigned j = 0; j < i; ++j)
        if (base < p.ranges[j].second && p.ranges[j].first < end)
          r.fail(a, key, std::string("overlaps prefetch.ranges.") + kArrays[j]);
    }
    p.ranges_given = true;
  }
  if (p.kind == PrefetchKind::kBfs && !p.ranges_given)
    r.fail(n, "prefetch.ranges", "kind: bfs needs the four arrays' ranges (docs/prefetch.md)");
}

}  // namespace gpumem::config_yaml
