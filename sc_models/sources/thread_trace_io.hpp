// The per-thread trace's two file forms (docs/frontend.md, "Per-thread
// trace"): CSV for people, binary (a few times smaller and faster) for long
// traces. A reader tells them apart by the binary form's magic bytes.
#pragma once
#include <cstdio>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

#include "sources/thread_trace.hpp"

namespace gpumem {

enum class ThreadTraceForm { kCsv, kBinary };

constexpr char kThreadTraceMagic[8] = {'G', 'P', 'U', 'M', 'T', 'H', 'R', '1'};
constexpr const char* kThreadTraceHeader = "thread,pc,op,address,width,dependent,data";

// Whether `line` is the CSV form's header, with or without data (trace_kind.hpp).
bool is_thread_trace_header(std::string_view line);

// Opens `path` in whichever form it is. Throws InputError when it cannot.
std::unique_ptr<ThreadTraceSource> open_thread_trace(const std::string& path);
// For tests: reads from a stream, named `name` in messages.
std::unique_ptr<ThreadTraceSource> read_thread_trace(std::istream& in, const std::string& name);

// Writes to `out` (not owned; the caller commits or closes it).
std::unique_ptr<ThreadTraceSink> write_thread_trace(std::FILE* out, ThreadTraceForm form);

// The form a file name asks for: ".bin" (and ".thrb") binary, anything else CSV.
ThreadTraceForm thread_trace_form_for(const std::string& path);

}  // namespace gpumem
