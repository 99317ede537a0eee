// Which kind of trace a file holds, told from its content (docs/trace-format.md,
// "Which trace is which"). Every reader checks the file it opens first, so a
// trace given where another kind is expected (a per-thread trace to --trace)
// is named, with the flag that reads it, instead of failing on its first
// line with a message about columns.
#pragma once
#include <istream>
#include <string>
#include <string_view>

#include "sources/trace_import.hpp"

namespace gpumem {

// The header line of the ordered sequence `gpumem trace order` writes
// (frontend/l1_sequence.hpp, write_l1_request; docs/frontend.md, "Ordered
// sequence"): an output, which a reader names when it is given as an input.
constexpr const char* kL1SequenceHeader =
    "slot,sm,kernel,process,block,warp,thread,pc,op,address,width,dependent,threads,latency,stride,elements";

enum class TraceKind {
  kUnknown,     // none of these: the reader's own checks say what is wrong
  kRequests,    // gpumem's request CSV, either header
  kPerThread,   // the per-thread trace, CSV or binary
  kAccelSim,    // a kernel-N.traceg or a kernelslist.g
  kDramLevel,   // one of the importers' DRAM-level formats
  kL1Sequence,  // what `gpumem trace order` writes: an output, no reader takes it
};

struct TraceIdentity {
  TraceKind kind = TraceKind::kUnknown;
  ImportFormat format = ImportFormat::kDramsim3;  // kDramLevel: which
  bool binary = false;                            // kPerThread: the binary form
  int line = 0;  // the text line that told; 0 for the binary form, which has no lines
};

// From a file's first bytes: the binary form's magic, else its first line
// that is neither blank nor a '#' comment.
TraceIdentity identify_trace(std::string_view head);

// Refuses, naming what `in` holds and the flag that reads it, a trace of
// another kind than `expected` (kRequests, kPerThread, kAccelSim, or
// kDramLevel with `format`). Reads the start of `in` and puts it back where
// it was; a file of no known kind passes, for its reader to judge.
void expect_trace_kind(std::istream& in, const std::string& name, TraceKind expected,
                       ImportFormat format = ImportFormat::kDramsim3);

}  // namespace gpumem
