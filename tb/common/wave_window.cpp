#include "tb/common/wave_window.hpp"

#include <cstring>
#include <filesystem>
#include <sstream>

#include "base/output_file.hpp"
#include "base/user_paths.hpp"
#include "tb/common/cycle_time.hpp"
#include "tb/common/wave_layout.hpp"

namespace gpumem::tb {

namespace {

// The layout with the dump file, the start time and the primary marker
// set, so that `gtkwave <stem>.gtkw` opens on the failing edge (the waves are
// a fast-mode run's: cycle_time.hpp). The dump file is absolute: the view
// opens from any folder.
void write_view(const std::string& layout, const std::string& made_from, const std::string& fst, uint64_t fail_cycle,
                bool passed, const std::string& out) {
  std::ostringstream view;
  view << "[*] " << std::filesystem::path(out).filename().string() << ": " << made_from
       << (passed ? ", opened on the run's last cycle (" : ", opened on the first failure (cycle ") << fail_cycle << ")\n"
       << "[dumpfile] \"" << absolute_path(fst) << "\"\n"
       << "[timestart] " << fast_cycle_start(fail_cycle > 60 ? fail_cycle - 60 : 0) << "\n"
       << "*1.000000 " << fast_edge_time(fail_cycle);
  for (int i = 0; i < 26; ++i) view << " -1";  // the named markers A..Z, unset
  view << "\n" << layout;
  write_output_file(out, "--waves", view.str());
}

// A word for inside double quotes, as the default of ${GPUMEM:-...}.
std::string double_quoted_default(const std::string& word) {
  std::string s;
  for (char c : word) {
    if (c == '\\' || c == '$' || c == '`' || c == '"' || c == '}') s += '\\';
    s += c;
  }
  return s;
}

// What the view shows, for the report.
std::string layout_note(const WaveLayout& l, bool saved) {
  std::string s = "the contract's " + std::to_string(l.ports) + " ports, then " + std::to_string(l.others);
  if (saved) s += " signals of the project's RTL";
  else if (l.unlisted)
    s += " of the design's " + std::to_string(l.others + l.unlisted) + " signals (the rest in the signal tree)";
  else s += " signals of the design";
  if (l.dropped) s += "; " + std::to_string(l.dropped) + " rows of the saved layout not in these waves left out";
  return s;
}

// The FST header's date field (fstapi.c: 119 bytes at offset 202, the
// wall-clock time in asctime() form) is the only part of the waves that
// differs between two runs of one seed. It gets the run's identity
// instead, so waves are byte-identical across runs (docs/reliability.md).
// A header that does not look like that layout is left as it is.
void stamp_fst_date(const std::string& path, const std::string& identity) {
  constexpr long kDateOffset = 202;
  constexpr size_t kDateSize = 119;
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  if (!f) return;
  char block_type = 1;
  char date[kDateSize];
  const bool looks_right = std::fread(&block_type, 1, 1, f) == 1 && block_type == 0 &&
                           std::fseek(f, kDateOffset, SEEK_SET) == 0 && std::fread(date, 1, kDateSize, f) == kDateSize &&
                           date[3] == ' ' && date[7] == ' ' && date[24] == '\n';
  if (looks_right) {
    char stamp[kDateSize] = {};
    std::strncpy(stamp, identity.c_str(), kDateSize - 1);
    std::fseek(f, kDateOffset, SEEK_SET);
    std::fwrite(stamp, 1, kDateSize, f);
  }
  std::fclose(f);
}

}  // namespace

MismatchArtifacts write_mismatch_artifacts(const ReplayCommand& c, uint64_t fail_cycle, const std::string& dir,
                                           uint64_t window, const std::function<uint64_t(const WaveWindow&)>& rerun) {
  create_output_folder(dir, "--waves");
  const std::string stem = dir + "/" + c.block + "-seed" + std::to_string(c.seed);
  MismatchArtifacts out{stem + ".fst", stem + ".replay", "", "", false};
  // Written under a temporary name, stamped, then renamed: no half-written
  // waves under the final name (base/output_file.hpp).
  const std::string partial = partial_path(out.waves);
  std::filesystem::remove(partial);
  PendingFile pending(partial, out.waves);  // Verilator writes it: a signal meanwhile must still remove it
  out.reproduced = rerun(WaveWindow{partial, fail_cycle > window ? fail_cycle - window : 0}) == fail_cycle;
  if (std::filesystem::exists(partial)) {
    stamp_fst_date(partial, "gpumem cosim " + c.block + " seed " + std::to_string(c.seed) +
                                (c.passed ? ", passed, last cycle " : ", first failure at cycle ") + std::to_string(fail_cycle));
    pending.commit("");
  } else {
    out.waves.clear();  // the re-run ended before the window opened
  }
  // Every path absolute, so that the file runs as written from any folder,
  // and its outputs land where these did.
  const std::string program = c.program.empty() ? "gpumem" : c.program;
  std::ostringstream replay;
  replay << "# Replays a " << c.block << " co-simulation run, from any folder: bash " << absolute_path(out.replay) << "\n"
         << "# (GPUMEM=/path/to/gpumem runs it on another build). "
         << (c.passed ? "It passed; its last cycle " : "First failure at cycle ") << fail_cycle << ".\n"
         << "\"${GPUMEM:-" << double_quoted_default(program) << "}\" cosim --config "
         << shell_quoted(absolute_path(c.config_path)) << " --block " << c.block << " --transactions " << c.transactions
         << " --seed " << c.seed << (c.count_all ? " --count-all" : "") << c.extra_flags
         << (c.hang_cycles != kDefaultHangCycles ? " --hang-cycles " + std::to_string(c.hang_cycles) : "")
         << " --waves " << shell_quoted(absolute_path(dir)) << (c.passed ? " --waves-when always" : "") << "\n";
  write_output_file(out.replay, "--waves", replay.str());
  if (out.waves.empty()) return out;
  // The layout from the signals the waves hold: the saved one for the
  // project's RTL, else made from them.
  const std::vector<FstSignal> signals = fst_signals(out.waves);
  WaveLayout layout;
  if (!c.layout.empty())
    layout = saved_wave_layout(std::string(GPUMEM_WAVES_DIR) + "/" + c.layout, c.block, c.ports, signals);
  const bool saved = !layout.text.empty();  // else gpumem runs without its source tree
  if (!saved) layout = generated_wave_layout(c.block, c.ports, signals);
  const std::string from = "the signals in " + std::filesystem::path(out.waves).filename().string();
  out.view = stem + ".gtkw";
  out.layout_note = layout_note(layout, saved);
  write_view(layout.text, saved ? "gpumem's saved layout " + c.layout + " with " + from : "made from " + from, out.waves,
             fail_cycle, c.passed, out.view);
  return out;
}

}  // namespace gpumem::tb
