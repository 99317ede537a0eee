// Fast co-simulation of the nested-page TLB: the Verilated RTL clocked from
// C++ (TlbDriver) with every response checked by TlbScoreboard. The test bench
// plays the rest of the MMU: it starts translations, walks the page tables
// with the model's walker on a miss or a nested-region hit, fills the RTL with
// the leaf and looks up again, with several translations in flight, random
// back-pressure, and flushes (with a switch to another page-table image, as a
// remapping driver would) at random edges.
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "address_space.hpp"
#include "config.hpp"
#include "tlb_driver.hpp"
#include "tlb_scoreboard.hpp"

namespace gpumem::tb {

// "" when the config's MMU geometry equals the RTL's elaboration parameters,
// else a message naming both values.
std::string tlb_geometry_difference(const Config& cfg, const RtlTlbGeometry& rtl);

// Page tables the stimulus draws from: random regions of both page sizes,
// every task type, small regions nested in large pages' VA tails with every
// nested flag, in the config's geometry; built by the model's allocator
// (build_address_space) with nesting on (image 0) and off (image 1), so the
// two images map the same VAs to different frames and flags.
struct TlbPageTables {
  std::vector<AddressSpaceImage> images;
  std::vector<std::unordered_map<uint64_t, uint64_t>> memory;  // PTE address -> value, per image
};
TlbPageTables random_page_tables(const Config& cfg, uint64_t seed);

struct TlbRandomRun {
  uint64_t translations = 1'000'000;
  unsigned max_in_flight = 4;          // translations started and not finished
  unsigned start_per_256 = 205;        // a new translation in ~80% of cycles with room
  unsigned rsp_ready_per_256 = 179;    // ~70%: random back-pressure
  unsigned flush_per_65536 = 40;       // ~1 cycle in 1600
  bool stop_at_first_mismatch = true;
};

class TlbCosim {
 public:
  // Picks the verilated variant whose geometry equals cfg's MMU; throws
  // std::invalid_argument naming the differences to each variant if none
  // does, or if the config has no MMU. With `waves`, the cycles from waves.from_cycle on are written as FST.
  TlbCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves = {});

  void reset();
  // Directed operations, one at a time without back-pressure; the RTL's
  // response (checked by the scoreboard).
  TlbResponse lookup(uint64_t va);
  TlbResponse fill(uint64_t va, const Pte& leaf);
  void flush();
  // One cycle of arbitrary pin activity, fed to the scoreboard in edge order.
  TlbEdge cycle(const TlbPins& pins, const TlbOpContext& context = {});

  // Seeded random translations; true when every response agreed.
  bool run_random(const TlbRandomRun& run);

  const TlbScoreboard& scoreboard() const { return scoreboard_; }
  uint64_t cycles() const { return driver_.cycles(); }
  uint64_t translations() const { return translations_; }  // finished (translated or faulted)
  uint64_t faults() const { return faults_; }
  uint64_t walks() const { return walks_; }
  uint64_t image_switches() const { return image_switches_; }
  const RtlTlbGeometry& variant() const { return variant_; }
  // An RTL assertion failed; run_random stops at that cycle.
  bool assertion_failed() const { return driver_.assertion_failed(); }

 private:
  uint64_t seed_;
  Config cfg_;
  RtlTlbGeometry variant_;
  TlbDriver driver_;
  TlbScoreboard scoreboard_;
  bool rsp_pending_ = false;  // the response stage holds a response
  uint64_t translations_ = 0, faults_ = 0, walks_ = 0, image_switches_ = 0;
};

// After a failing random run: the same run again with FST waves of the
// `window` cycles before the first mismatch, and a replay file. No other
// TlbCosim may be alive (Verilator 5.006, see translator_cosim.hpp).
// The GTKWave layout in waves/ for the variant that cfg selects.
std::string tlb_wave_layout(const Config& cfg);
MismatchArtifacts write_tlb_mismatch_artifacts(const Config& cfg, const std::string& config_path, uint64_t seed,
                                               const TlbRandomRun& run, uint64_t fail_cycle, const std::string& dir,
                                               uint64_t window = 1000);

}  // namespace gpumem::tb
