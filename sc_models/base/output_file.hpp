// A file the user asked for (stats JSON, transaction log, waves, replay
// files), written under a temporary name beside its final one and renamed
// over it only when complete: a crash or a kill never leaves a half-written
// file under the name a user or a script looks for (docs/reliability.md,
// "Output files"). The temporary name is <final>.partial-<pid>, in the same
// folder, so the rename is atomic. A device or a pipe (/dev/null, a FIFO),
// or anything under /dev or /proc, is written in place instead, and one of
// the process's own streams (/dev/stdout) through that stream.
#pragma once
#include <cstddef>
#include <cstdio>
#include <string>

namespace gpumem {

std::string partial_path(const std::string& final_path);

// A temporary file that a process exiting at once on a signal must remove
// (cli/stop_on_signal.cpp), listed while this object lives and until
// release(): an OutputFile's, or one a library writes to partial_path(final)
// (the cosim's waves). `final_path` is what the user would have got, named
// in the exit message; "" for a scratch file named nowhere.
class PendingFile {
 public:
  PendingFile(std::string partial, std::string final_path);
  ~PendingFile() { release(); }
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  void release();  // removed, or no longer a signal's to remove
  // Renames the file onto its final name and releases it, with SIGINT and
  // SIGTERM held meanwhile, so that a handler sees it either listed or
  // written. Throws InputError(final, 0, option, "cannot write: <reason>").
  void commit(const std::string& option);

 private:
  std::string partial_, final_;
  int slot_ = -1;  // in the list; -1: not listed (released, or the list was full)
};

// Async-signal-safe (unlink only): removes every listed file and puts the
// final names of those that have one, in the order they were opened, into
// finals[0 .. max), returning how many. For a handler that then _exits.
size_t remove_pending_files(const char** finals, size_t max);

class OutputFile {
 public:
  // Opens the temporary file at once, so an unwritable path is an
  // InputError(path, 0, option, "cannot write: <reason>") before any work is
  // spent; `option` is the flag that named the file ("--stats-json").
  OutputFile(std::string final_path, std::string option);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Not committed: the temporary file is removed, and nothing appears
  // under the final name.
  ~OutputFile();

  std::FILE* stream() { return f_; }
  const std::string& path() const { return final_; }
  // Flush, close and rename onto the final name (replacing any file there).
  // A write error found now (disk full) throws, naming the file.
  void commit();

 private:
  std::string final_, partial_, option_;
  PendingFile pending_;
  std::FILE* f_ = nullptr;
  bool failed_ = false;
  bool in_place_ = false;  // a device or a pipe: written as it is, never renamed over or removed
};

// The whole of `text` into `path`, by way of an OutputFile.
void write_output_file(const std::string& path, const std::string& option, const std::string& text);

// A folder outputs will be written into (`gpumem cosim --waves`), checked
// before the run without creating it: an existing folder must be writable,
// a missing one must be creatable under its nearest existing parent.
// InputError(path, 0, option, why) otherwise.
void check_output_folder(const std::string& path, const std::string& option);
// Creates it (and its parents), InputError as above when that fails.
void create_output_folder(const std::string& path, const std::string& option);

}  // namespace gpumem
