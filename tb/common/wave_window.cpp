#include "tb/common/wave_window.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/output_file.hpp"
#include "tb/common/cycle_time.hpp"

namespace gpumem::tb {

namespace {

// The saved layout with the dump file, the start time and the primary marker
// set, so that `gtkwave <stem>.gtkw` opens on the failing edge (the waves are
// a fast-mode run's: cycle_time.hpp).
bool write_view(const std::string& layout_path, const std::string& fst, uint64_t fail_cycle, const std::string& out) {
  std::ifstream in(layout_path);
  if (!in) return false;
  std::ostringstream view;
  view << "[*] " << out << ": " << layout_path << " opened on the first mismatch (cycle " << fail_cycle << ")\n"
       << "[dumpfile] \"" << std::filesystem::absolute(fst).string() << "\"\n"
       << "[timestart] " << fast_cycle_start(fail_cycle > 60 ? fail_cycle - 60 : 0) << "\n"
       << "*1.000000 " << fast_edge_time(fail_cycle);
  for (int i = 0; i < 26; ++i) view << " -1";  // the named markers A..Z, unset
  view << "\n";
  for (std::string line; std::getline(in, line);)
    if (line.rfind("[timestart]", 0) != 0 && line.rfind("[dumpfile]", 0) != 0) view << line << "\n";
  write_output_file(out, "--waves", view.str());
  return true;
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
  MismatchArtifacts out{stem + ".fst", stem + ".replay", "", false};
  // Written under a temporary name, stamped, then renamed: no half-written
  // waves under the final name (base/output_file.hpp).
  const std::string partial = partial_path(out.waves);
  std::filesystem::remove(partial);
  out.reproduced = rerun(WaveWindow{partial, fail_cycle > window ? fail_cycle - window : 0}) == fail_cycle;
  if (std::filesystem::exists(partial)) {
    stamp_fst_date(partial, "gpumem cosim " + c.block + " seed " + std::to_string(c.seed) + ", first failure at cycle " +
                                std::to_string(fail_cycle));
    commit_partial_file(out.waves);
  } else {
    out.waves.clear();  // the re-run ended before the window opened
  }
  std::ostringstream replay;
  replay << "# Replays a " << c.block << " co-simulation run: bash " << out.replay << "\n"
         << "# first failure at cycle " << fail_cycle << "; waves: " << out.waves << " (layout: waves/" << c.layout << ")\n"
         << "gpumem cosim --config '" << c.config_path << "' --block " << c.block << " --transactions " << c.transactions
         << " --seed " << c.seed << (c.count_all ? " --count-all" : "") << c.extra_flags
         << (c.hang_cycles != kDefaultHangCycles ? " --hang-cycles " + std::to_string(c.hang_cycles) : "") << "\n";
  write_output_file(out.replay, "--waves", replay.str());
  if (!out.waves.empty() && write_view(std::string(GPUMEM_WAVES_DIR) + "/" + c.layout, out.waves, fail_cycle, stem + ".gtkw"))
    out.view = stem + ".gtkw";
  return out;
}

}  // namespace gpumem::tb
