#include "trace_command.hpp"

#include <cstdio>
#include <iomanip>
#include <iostream>

#include "base/input_error.hpp"
#include "base/output_file.hpp"
#include "config/config.hpp"
#include "frontend/l1_sequence.hpp"
#include "sources/thread_trace_io.hpp"
#include "output_paths.hpp"
#include "params/frontend_from_config.hpp"
#include "validators.hpp"
#include "help_examples.hpp"

namespace gpumem::cli {

namespace {

ThreadTraceForm form_of(const TraceArgs& a) {
  if (a.form == "binary") return ThreadTraceForm::kBinary;
  if (a.form == "csv") return ThreadTraceForm::kCsv;
  return thread_trace_form_for(a.output);
}

// The requests as the memory sees them, in DRAMsim3's trace form
// ("0xADDR READ|WRITE CYCLE"): the config's ordering coalesces and orders the
// per-thread trace, and each request goes out at its slot (a strided
// request's elements one line each), so gpumem (`run --trace-format
// dramsim3`) and DRAMsim3 read the same stream.
int convert_to_dramsim3(const TraceArgs& a) {
  if (a.config.empty()) throw InputError("", 0, "--config", "--to dramsim3 needs the config whose ordering makes the requests");
  const Config cfg = load_config(a.config);
  check_output_paths(a.config, a.input, {{a.output, "--out"}});
  const auto in = open_thread_trace(a.input);
  OutputFile out(a.output, "--out");
  std::FILE* f = out.stream();
  L1SequenceGenerator gen(frontend_params(cfg), *in);
  std::vector<L1Request> issued;
  uint64_t lines = 0;
  while (gen.tick(issued)) {
    for (const L1Request& r : issued) {
      const CoalescedAccess& c = r.access;
      const unsigned n = c.strided() ? c.elements : 1;
      const uint64_t first = c.strided() ? c.address : c.base();
      for (unsigned k = 0; k < n; ++k, ++lines)
        std::fprintf(f, "0x%llx %s %llu\n", static_cast<unsigned long long>(first + k * c.stride),
                     c.op == Op::kWrite ? "WRITE" : "READ", static_cast<unsigned long long>(r.slot));
    }
    issued.clear();
  }
  out.commit();
  if (!a.quiet) std::cout << a.input << " -> " << a.output << ": " << lines << " DRAMsim3 trace lines\n";
  return 0;
}

int convert(const TraceArgs& a) {
  if (a.to == "dramsim3") return convert_to_dramsim3(a);
  check_output_paths("", a.input, {{a.output, "--out"}});
  const auto in = open_thread_trace(a.input);
  OutputFile out(a.output, "--out");
  const auto sink = write_thread_trace(out.stream(), form_of(a));
  MemoryInit init;
  KernelInfo kernel;
  ThreadRecord record;
  uint64_t items = 0;
  for (ThreadTraceSource::Item it; (it = in->next(init, kernel, record)) != ThreadTraceSource::Item::kEnd; ++items) {
    if (it == ThreadTraceSource::Item::kMemoryInit) sink->memory_init(init);
    else if (it == ThreadTraceSource::Item::kKernel) sink->kernel(kernel);
    else sink->record(record);
  }
  sink->finish();
  out.commit();
  if (!a.quiet) std::cout << a.input << " -> " << a.output << ": " << items << " items\n";
  return 0;
}

int order(const TraceArgs& a) {
  const Config cfg = load_config(a.config);
  check_output_paths(a.config, a.input, {{a.output, "--out"}});
  const auto in = open_thread_trace(a.input);
  OutputFile out(a.output, "--out");
  std::FILE* f = out.stream();
  std::fprintf(f, "%s\n", kL1SequenceHeader);
  L1SequenceGenerator gen(frontend_params(cfg), *in);
  std::vector<L1Request> issued;
  while (gen.tick(issued)) {
    for (const L1Request& r : issued) write_l1_request(f, r);
    issued.clear();
  }
  out.commit();
  if (!a.quiet) print_sequence_stats(std::cout, gen.stats());
  return 0;
}

}  // namespace

CLI::App* add_trace_command(CLI::App& app, TraceArgs& a) {
  CLI::App* trace = app.add_subcommand("trace", "Per-thread GPU traces: gen, convert, order (docs/frontend.md)");
  set_examples(*trace, {"gpumem trace gen bfs --config configs/examples/bfs.yaml --app bfs --region graph --scale 16 --out bfs.bin",
                        "gpumem trace order --config configs/examples/bfs.yaml --threads bfs.bin --out seq.csv",
                        "gpumem trace convert bfs.bin bfs.csv"});
  trace->require_subcommand(1);
  a.convert = trace->add_subcommand("convert", "Convert a per-thread trace between its CSV and binary forms");
  set_examples(*a.convert, {"gpumem trace convert bfs.bin bfs.csv"});
  a.convert->add_option("input", a.input, "per-thread trace (CSV or binary)")->required()->check(kPath);
  a.convert->add_option("output", a.output, "file to write")->required()->check(kPath);
  a.convert->add_option("--form", a.form, "csv or binary (default: binary for a .bin name, else csv)")
      ->check(CLI::IsMember({"csv", "binary"}));
  a.convert->add_option("--to", a.to, "dramsim3: the requests the config's ordering makes, as a DRAMsim3 trace")
      ->check(CLI::IsMember({"dramsim3"}));
  a.convert->add_option("--config", a.config, "YAML config whose frontend section orders the trace (--to dramsim3)")
      ->check(kPath);
  a.convert->add_flag("--quiet", a.quiet, "Print nothing on success");
  a.order = trace->add_subcommand("order", "Schedule, coalesce and order a per-thread trace into each SM's L1 request sequence, in CN106407063B's order (docs/references.md)");
  set_examples(*a.order, {"gpumem trace order --config configs/examples/bfs.yaml --threads bfs.bin --out seq.csv"});
  a.order->add_option("--config", a.config, "YAML config file (its frontend section)")->required()->check(kPath);
  a.order->add_option("--threads", a.input, "per-thread trace (CSV or binary)")->required()->check(kPath);
  a.order->add_option("--out", a.output, "CSV file for the ordered sequence")->required()->check(kPath);
  a.order->add_flag("--quiet", a.quiet, "Print nothing on success");
  add_trace_gen_command(*trace, a.gen);
  return trace;
}

int trace_command(const TraceArgs& a) {
  if (*a.convert) return convert(a);
  if (a.gen.gen && *a.gen.gen) return trace_gen_command(a.gen);
  return order(a);
}

}  // namespace gpumem::cli
