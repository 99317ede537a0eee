// The frontend section: the GPU core model of per-thread traces (SPEC 7).
#include "base/bits.hpp"
#include "config/config_reader.hpp"

namespace gpumem::config_yaml {

void read_frontend(const Reader& r, const YAML::Node& n, const Config& cfg, FrontendConfig& f) {
  r.expect_map(n, "frontend", {"num_sms", "blocks_per_sm", "warps_per_block", "line_bytes", "mshr_entries", "latency_min",
                               "latency_sigma", "seed", "strided_requests", "max_queued",
                               "max_records_in_memory"});
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
  if (n["strided_requests"]) f.strided_requests = r.to_bool(n["strided_requests"], "frontend.strided_requests");
}

}  // namespace gpumem::config_yaml
