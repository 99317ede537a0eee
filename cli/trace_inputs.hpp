// The trace a command reads its requests from, one set of flags for `run`
// and `explore` (docs/trace-format.md): --trace, gpumem's request CSV or,
// with --trace-format, another simulator's; --threads, a per-thread trace,
// gpumem's or, with --threads-format, Accel-Sim's; and the importers'
// options. Each reader checks that its file is its kind of trace
// (sources/trace_kind.hpp).
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "config/config.hpp"
#include "sources/thread_trace.hpp"
#include "sources/trace_import.hpp"
#include "payload/request.hpp"

namespace gpumem::cli {

struct TraceInputArgs {
  std::string trace;
  std::string threads;
  std::string trace_format = "csv";
  std::string threads_format = "gpumem";
  ImportOptions import;
  // The file given with either flag; "" for the config's workload.
  const std::string& path() const { return threads.empty() ? trace : threads; }
};

// Declares the flags on `command`; returns --threads, for a command's own checks.
CLI::Option* add_trace_input_options(CLI::App& command, TraceInputArgs& args);

// --threads's trace, in its form; null without --threads.
std::unique_ptr<ThreadTraceSource> open_thread_input(const TraceInputArgs& a);
// --trace's requests in its format, checked against the config; null without --trace.
std::unique_ptr<RequestSource> open_request_input(const Config& cfg, const TraceInputArgs& a);

}  // namespace gpumem::cli
