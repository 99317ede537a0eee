#include "tb/common/wave_window.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "tb/common/cycle_time.hpp"

namespace gpumem::tb {

namespace {

// The saved layout with the dump file, the start time and the primary marker
// set, so that `gtkwave <stem>.gtkw` opens on the failing edge (the waves are
// a fast-mode run's: cycle_time.hpp).
bool write_view(const std::string& layout_path, const std::string& fst, uint64_t fail_cycle, const std::string& out) {
  std::ifstream in(layout_path);
  if (!in) return false;
  std::ofstream view(out);
  view << "[*] " << out << ": " << layout_path << " opened on the first mismatch (cycle " << fail_cycle << ")\n"
       << "[dumpfile] \"" << std::filesystem::absolute(fst).string() << "\"\n"
       << "[timestart] " << fast_cycle_start(fail_cycle > 60 ? fail_cycle - 60 : 0) << "\n"
       << "*1.000000 " << fast_edge_time(fail_cycle);
  for (int i = 0; i < 26; ++i) view << " -1";  // the named markers A..Z, unset
  view << "\n";
  for (std::string line; std::getline(in, line);)
    if (line.rfind("[timestart]", 0) != 0 && line.rfind("[dumpfile]", 0) != 0) view << line << "\n";
  return static_cast<bool>(view);
}

}  // namespace

MismatchArtifacts write_mismatch_artifacts(const ReplayCommand& c, uint64_t fail_cycle, const std::string& dir,
                                           uint64_t window, const std::function<uint64_t(const WaveWindow&)>& rerun) {
  std::filesystem::create_directories(dir);
  const std::string stem = dir + "/" + c.block + "-seed" + std::to_string(c.seed);
  MismatchArtifacts out{stem + ".fst", stem + ".replay", "", false};
  out.reproduced = rerun(WaveWindow{out.waves, fail_cycle > window ? fail_cycle - window : 0}) == fail_cycle;
  std::ofstream replay(out.replay);
  replay << "# Replays a " << c.block << " co-simulation run: bash " << out.replay << "\n"
         << "# first failure at cycle " << fail_cycle << "; waves: " << out.waves << " (layout: waves/" << c.layout << ")\n"
         << "gpumem cosim --config '" << c.config_path << "' --block " << c.block << " --transactions " << c.transactions
         << " --seed " << c.seed << (c.count_all ? " --count-all" : "") << c.extra_flags
         << (c.hang_cycles != kDefaultHangCycles ? " --hang-cycles " + std::to_string(c.hang_cycles) : "") << "\n";
  if (!replay) throw std::runtime_error("cannot write " + out.replay);
  if (write_view(std::string(GPUMEM_WAVES_DIR) + "/" + c.layout, out.waves, fail_cycle, stem + ".gtkw"))
    out.view = stem + ".gtkw";
  return out;
}

}  // namespace gpumem::tb
