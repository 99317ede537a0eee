// The cases every pin-level co-simulation shares, written once over its
// block (tb/translator/translator_block.hpp, tb/tlb/tlb_block.hpp): each
// test file calls them from a TEST of its own, so that each still runs in a
// process of its own (every one elaborates SystemC).
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "base/user_paths.hpp"
#include "cosim_test_helpers.hpp"
#include "tb/common/fast_bench.hpp"
#include "tb/common/pin_bench.hpp"
#include "wave_layout.hpp"

namespace gpumem::tb {

// Waves written from the SystemC side, in the layout its saved GTKWave file
// (waves/<block>-pin.gtkw) expects.
template <class Block>
void waves_from_the_systemc_side() {
  const std::string dir = temp_dir((std::string("gpumem-") + Block::kName + "-pin-waves").c_str());
  const std::string fst = dir + "/pin.fst";
  {
    PinBench<Block> cosim(default_config(), 5, WaveWindow{fst, 1000});
    typename Block::RandomRun run;
    run.transactions = 2000;
    ASSERT_TRUE(cosim.run_random(run));
  }
  ASSERT_TRUE(std::filesystem::exists(fst));
  EXPECT_EQ(test::layout_check(std::string(Block::kName) + "-pin.gtkw", fst), "");
  std::filesystem::remove_all(dir);
}

// A pin-level mismatch takes its waves from a fast-mode re-run made while the
// bench is still alive (SystemC cannot elaborate again): the --cc and --sc
// models (different designs to Verilator) must live side by side and come
// apart cleanly, and the replay command names the pin mode and the waves.
template <class Block>
void mismatch_artifacts_from_a_fast_rerun_beside_the_bench() {
  const Config cfg = default_config();
  const std::string dir = temp_dir((std::string("gpumem-") + Block::kName + "-pin-artifacts").c_str());
  typename Block::RandomRun run;
  run.transactions = 2000;
  {
    PinBench<Block> cosim(cfg, 7);
    if (Block::kResetBeforeRun) cosim.reset();
    ASSERT_TRUE(cosim.run_random(run));
    const MismatchArtifacts files = write_mismatch_artifacts<Block>(cfg, "configs/default.yaml", 7, run, 1500, dir, 200, " --mode pin");
    EXPECT_FALSE(files.reproduced) << "the re-run has no mismatch to reproduce";
    ASSERT_TRUE(std::filesystem::exists(files.waves));
    EXPECT_GT(std::filesystem::file_size(files.waves), 100u);
    const std::string text = file_text(files.replay);
    EXPECT_NE(text.find("--transactions 2000 --seed 7 --mode pin --waves " + shell_quoted(absolute_path(dir)) + "\n"),
              std::string::npos)
        << text;
    const size_t block = text.find("--block ");
    if (block != std::string::npos) {
      EXPECT_EQ(text.compare(block + 8, std::string(Block::kName).size(), Block::kName), 0) << text;
    }
  }
  std::filesystem::remove_all(dir);
}

// SystemC elaborates once per process: a second run or reset is refused.
template <class Block>
void one_run_per_process() {
  PinBench<Block> cosim(default_config(), 1);
  typename Block::RandomRun run;
  run.transactions = 10;
  ASSERT_TRUE(cosim.run_random(run));
  EXPECT_THROW(cosim.run_random(run), std::logic_error);
  EXPECT_THROW(cosim.reset(), std::logic_error);
}

}  // namespace gpumem::tb
