#include "wave_window.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace gpumem::tb {

MismatchArtifacts write_mismatch_artifacts(const ReplayCommand& c, uint64_t fail_cycle, const std::string& dir,
                                           uint64_t window, const std::function<void(const WaveWindow&)>& rerun) {
  std::filesystem::create_directories(dir);
  const std::string stem = dir + "/" + c.block + "-seed" + std::to_string(c.seed);
  MismatchArtifacts out{stem + ".fst", stem + ".replay"};
  rerun(WaveWindow{out.waves, fail_cycle > window ? fail_cycle - window : 0});
  std::ofstream replay(out.replay);
  replay << "# Replays a " << c.block << " co-simulation run: bash " << out.replay << "\n"
         << "# first mismatch at cycle " << fail_cycle << "; waves: " << out.waves << " (layout: waves/" << c.layout << ")\n"
         << "gpumem cosim --config '" << c.config_path << "' --block " << c.block << " --transactions " << c.transactions
         << " --seed " << c.seed << (c.count_all ? " --count-all" : "") << "\n";
  if (!replay) throw std::runtime_error("cannot write " + out.replay);
  return out;
}

}  // namespace gpumem::tb
