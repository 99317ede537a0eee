#include "trace_inputs.hpp"

#include "sources/thread_trace_io.hpp"
#include "sources/trace_reader.hpp"
#include "params/frontend_from_config.hpp"
#include "validators.hpp"

namespace gpumem::cli {

CLI::Option* add_trace_input_options(CLI::App& command, TraceInputArgs& args) {
  CLI::Option* trace_opt =
      command.add_option("--trace", args.trace, "CSV request trace (default: the config's built-in workload)")->check(kPath);
  CLI::Option* threads_opt =
      command
          .add_option("--threads", args.threads,
                      "per-thread GPU trace (CSV or binary): scheduled, coalesced and ordered per SM (docs/frontend.md)")
          ->check(kPath)
          ->excludes(trace_opt);
  std::vector<std::string> trace_formats{"csv"};
  for (const char* f : {"dramsim3", "ramulator-dram", "ramulator-cpu", "ramulator2-ldst", "ramulator2-rw"}) trace_formats.push_back(f);
  command
      .add_option("--trace-format", args.trace_format,
                  "form of --trace: csv (gpumem's), or another simulator's (docs/trace-format.md, \"Imported traces\")")
      ->check(CLI::IsMember(trace_formats))
      ->needs(trace_opt);
  command.add_option("--threads-format", args.threads_format, "form of --threads: gpumem (CSV or binary) or accel-sim")
      ->check(CLI::IsMember({"gpumem", "accel-sim"}));
  command
      .add_option("--trace-process", args.import.process,
                  "imported traces: the process of every request (its task type without an address space)")
      ->check(CLI::Range(0u, kMaxProcesses - 1));
  command
      .add_option("--request-bytes", args.import.request_bytes,
                  "imported DRAM-level traces: bytes of every request (default 64)")
      ->check(CLI::Range(1u, kMaxRequestBytes));
  command
      .add_option("--address-vector-bits", args.import.address_vector_bits,
                  "ramulator2-rw: bit width of each level of its address vectors, in order")
      ->delimiter(',')
      ->check(CLI::Range(0u, 64u));
  return threads_opt;
}

std::unique_ptr<ThreadTraceSource> open_thread_input(const TraceInputArgs& a) {
  if (a.threads.empty()) return nullptr;
  return a.threads_format == "accel-sim" ? open_accel_sim_trace(a.threads, a.import) : open_thread_trace(a.threads);
}

std::unique_ptr<RequestSource> open_request_input(const Config& cfg, const TraceInputArgs& a) {
  if (a.trace.empty()) return nullptr;
  if (a.trace_format != "csv")
    return open_imported_trace(request_limits(cfg), *import_format_from_name(a.trace_format), a.trace, a.import);
  return std::make_unique<CsvTraceReader>(request_limits(cfg), a.trace);
}

}  // namespace gpumem::cli
