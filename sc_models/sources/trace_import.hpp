// Importers for the traces users already have (issue 13): each reads
// a file the way its own simulator reads it, checks every record, and gives
// either the request stream (DRAM-level traces: DRAMsim3, Ramulator 1 and 2)
// or the per-thread trace (Accel-Sim's per-warp instruction traces).
// docs/trace-format.md, "Imported traces", says which reader each follows and
// every choice the model had to make.
#pragma once
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sources/request_limits.hpp"
#include "sources/thread_trace.hpp"
#include "payload/request.hpp"

namespace gpumem {

enum class ImportFormat { kDramsim3, kRamulatorDram, kRamulatorCpu, kRamulator2LoadStore, kRamulator2ReadWrite, kAccelSim };

// "dramsim3", "ramulator-dram", "ramulator-cpu", "ramulator2-ldst", "ramulator2-rw", "accel-sim".
const char* import_format_name(ImportFormat format);
std::optional<ImportFormat> import_format_from_name(const std::string& name);
// The names, comma-separated, for messages and help.
std::string import_format_names();

struct ImportOptions {
  // With an address space: the process every request belongs to (addresses
  // are its VAs). Without: the task type of every request. Accel-Sim: the
  // KernelInfo::process of every kernel.
  unsigned process = 0;
  // Bytes of every DRAM-level request; addresses are aligned down to it.
  unsigned request_bytes = 64;
  // ramulator2-rw only: the width in bits of each level of the address
  // vector, in the vector's order (e.g. channel, rank, bank group, bank,
  // row, column).
  std::vector<unsigned> address_vector_bits;
};

// A DRAM-level trace as requests, checked against `limits`. Throws
// InputError for a bad option (key: the command-line flag) when opening, and
// for a bad record (file:line:column: field) when next() reaches it.
std::unique_ptr<RequestSource> open_imported_trace(const RequestLimits& limits, ImportFormat format, const std::string& path,
                                                   const ImportOptions& options);
// For tests: reads from a stream, named `name` in messages.
std::unique_ptr<RequestSource> read_imported_trace(const RequestLimits& limits, ImportFormat format, std::istream& in,
                                                   const std::string& name, const ImportOptions& options);

// The DRAM-level format whose reader takes `line` as a file's first
// record, if one does: how trace_kind.hpp tells what such a file is.
std::optional<ImportFormat> dram_level_format_of(const std::string& line);

// An Accel-Sim trace as the per-thread trace: `path` is one kernel-N.traceg
// or a kernelslist.g (each kernel file it lists, in order, relative to its
// folder). Throws InputError (file:line:column: field) on a malformed line.
std::unique_ptr<ThreadTraceSource> open_accel_sim_trace(const std::string& path, const ImportOptions& options);
// For tests: one kernel file from a stream, named `name` in messages.
std::unique_ptr<ThreadTraceSource> read_accel_sim_trace(std::istream& in, const std::string& name,
                                                        const ImportOptions& options);

}  // namespace gpumem
