#include "translator_cosim.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "register_map.hpp"

namespace gpumem::tb {

namespace {
std::string list(const std::vector<unsigned>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// A register write as firmware might issue it, including values and offsets
// the model rejects (the RTL must drop exactly those).
void random_write(std::mt19937_64& rng, TranslatorPins& p) {
  const uint64_t r = rng();
  const unsigned t = (r >> 8) & 0xF;
  p.reg_we = true;
  switch (r % 16) {
    case 0: case 1: case 2: case 3: case 4: case 5: case 6:  // XOR_VECTOR[t][j], j < 8 (j >= M unmapped)
      p.reg_addr = kRegXorVector + 4 * (t * kMaxChannelBits + ((r >> 12) & 7));
      p.reg_wdata = static_cast<uint32_t>(r >> 32) >> ((r >> 16) & 31);  // bits above K too
      break;
    case 7: case 8: case 9: case 10: case 11:  // TASK_SCHEME[t]: 0..3 (3 rejected)
      p.reg_addr = kRegTaskScheme + 4 * t;
      p.reg_wdata = (r >> 16) & 3;
      break;
    case 12: case 13: case 14: {  // CTRL: mostly enabled; position bit set (rejected) sometimes
      static constexpr uint32_t kValues[8] = {1, 1, 1, 3, 0, 2, 5, 0xFFFFFFF9};
      p.reg_addr = kRegCtrl;
      p.reg_wdata = kValues[(r >> 16) & 7];
      break;
    }
    default:  // anywhere in the low map, misaligned too
      p.reg_addr = (r >> 16) & 0x3FF;
      p.reg_wdata = static_cast<uint32_t>(r >> 32);
      break;
  }
}
}  // namespace

std::string geometry_difference(const Config& cfg, const RtlTranslatorGeometry& rtl) {
  std::ostringstream s;
  const auto& t = cfg.translator;
  if (cfg.memory.address_bits != rtl.address_bits)
    s << "address bits: config memory.address_bits = " << cfg.memory.address_bits << ", RTL AW = " << rtl.address_bits << "\n";
  if (t.channel_bits != rtl.channel_bits)
    s << "channel bits: config translator.channel_bits = " << list(t.channel_bits)
      << ", RTL CHANNEL_POS = " << list(rtl.channel_bits) << "\n";
  if (t.candidate_bits != rtl.candidate_bits)
    s << "candidate bits: config translator.candidate_bits = " << list(t.candidate_bits)
      << ", RTL CANDIDATE_POS = " << list(rtl.candidate_bits) << "\n";
  if (t.prime != rtl.prime) s << "prime: config translator.prime = " << t.prime << ", RTL PRIME = " << rtl.prime << "\n";
  if (cfg.memory.channels != (1u << rtl.channel_bits.size()))
    s << "channels: config memory.channels = " << cfg.memory.channels << ", RTL 2^M = " << (1u << rtl.channel_bits.size())
      << "\n";
  if (t.position != TranslatorPosition::kAfterMmu) s << "position: the RTL translator sits after the MMU only\n";
  std::string d = s.str();
  if (!d.empty()) d += "(the RTL parameters are set in verilator/CMakeLists.txt, GPUMEM_RTL_TRANSLATOR_*)";
  return d;
}

TranslatorCosim::TranslatorCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves)
    : seed_(seed),
      address_bits_(cfg.memory.address_bits),
      driver_(waves),
      scoreboard_(cfg, seed) {
  if (const std::string d = geometry_difference(cfg, rtl_translator_geometry()); !d.empty())
    throw std::invalid_argument("config and RTL translator differ:\n" + d);
  driver_.reset();
}

void TranslatorCosim::reset() {
  if (scoreboard_.outstanding()) throw std::logic_error("translator co-simulation: reset with a response outstanding");
  driver_.reset();
}

TranslatorEdge TranslatorCosim::cycle(const TranslatorPins& pins) {
  const TranslatorEdge e = driver_.cycle(pins);
  if (e.rsp_taken) scoreboard_.response_taken(e.rsp, driver_.cycles());
  if (e.req_accepted) scoreboard_.request_accepted(pins.req_addr, pins.req_task);
  if (pins.reg_we) scoreboard_.register_written(pins.reg_addr, pins.reg_wdata);
  return e;
}

RegStatus TranslatorCosim::write_register(uint32_t offset, uint32_t value) {
  driver_.write_register(offset, value);
  return scoreboard_.register_written(offset, value);
}

TranslatorResponse TranslatorCosim::request(uint64_t address, unsigned task) {
  TranslatorPins p;
  p.req_valid = true;
  p.req_addr = address;
  p.req_task = task;
  for (unsigned i = 0; !cycle(p).req_accepted; ++i)
    if (i > 16) throw std::runtime_error("translator co-simulation: request never accepted");
  p.req_valid = false;
  for (unsigned i = 0;; ++i) {
    const TranslatorEdge e = cycle(p);
    if (e.rsp_taken) return e.rsp;
    if (i > 16) throw std::runtime_error("translator co-simulation: no response");
  }
}

bool TranslatorCosim::run_random(const RandomRun& run) {
  std::mt19937_64 rng(seed_);
  const uint64_t address_mask = address_bits_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << address_bits_) - 1;
  const uint64_t target = scoreboard_.compared() + run.transactions;
  uint64_t offered = 0;  // requests put on the pins (accepted or held)
  TranslatorPins p;
  while (scoreboard_.compared() < target) {
    const uint64_t r = rng();
    if (!p.req_valid && offered < run.transactions && (r & 0xFF) < run.req_valid_per_256) {
      p.req_valid = true;
      p.req_addr = rng() & address_mask;
      p.req_task = (r >> 24) & 0xF;
      ++offered;
    }
    p.rsp_ready = ((r >> 8) & 0xFF) < run.rsp_ready_per_256;
    p.reg_we = false;
    if (((r >> 16) & 0xFF) < run.reg_write_per_256) random_write(rng, p);
    const TranslatorEdge e = cycle(p);
    if (e.req_accepted) p.req_valid = false;
    if (run.stop_at_first_mismatch && scoreboard_.mismatches()) return false;
    if (driver_.assertion_failed()) return false;
  }
  return scoreboard_.mismatches() == 0 && !driver_.assertion_failed();
}

MismatchArtifacts write_mismatch_artifacts(const Config& cfg, const std::string& config_path, uint64_t seed,
                                           const RandomRun& run, uint64_t fail_cycle, const std::string& dir,
                                           uint64_t window) {
  std::filesystem::create_directories(dir);
  const std::string stem = dir + "/translator-seed" + std::to_string(seed);
  MismatchArtifacts out{stem + ".fst", stem + ".replay"};
  {
    WaveWindow w{out.waves, fail_cycle > window ? fail_cycle - window : 0};
    TranslatorCosim again(cfg, seed, w);  // destroyed here: the FST file is closed
    again.reset();
    again.run_random(run);
  }
  std::ofstream replay(out.replay);
  replay << "# Replays a translator co-simulation run: bash " << out.replay << "\n"
         << "# first mismatch at cycle " << fail_cycle << "; waves: " << out.waves << " (layout: waves/translator.gtkw)\n"
         << "gpumem cosim --config '" << config_path << "' --block translator --transactions " << run.transactions
         << " --seed " << seed << (run.stop_at_first_mismatch ? "" : " --count-all") << "\n";
  if (!replay) throw std::runtime_error("cannot write " + out.replay);
  return out;
}

}  // namespace gpumem::tb
