#include "tb/translator/translator_cosim.hpp"

#include <sstream>
#include <stdexcept>

namespace gpumem::tb {

namespace {
std::string list(const std::vector<unsigned>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}
}  // namespace

std::string geometry_difference(const Config& cfg, const RtlTranslatorGeometry& rtl) {
  std::ostringstream s;
  const auto& t = cfg.translator;
  if (cfg.memory.address_bits != rtl.address_bits)
    s << "address bits: config memory.address_bits = " << cfg.memory.address_bits << ", RTL ADDRESS_BITS = " << rtl.address_bits << "\n";
  if (t.channel_bits != rtl.channel_bits)
    s << "channel bits: config translator.channel_bits = " << list(t.channel_bits)
      << ", RTL CHANNEL_BITS = " << list(rtl.channel_bits) << "\n";
  if (t.candidate_bits != rtl.candidate_bits)
    s << "candidate bits: config translator.candidate_bits = " << list(t.candidate_bits)
      << ", RTL CANDIDATE_BITS = " << list(rtl.candidate_bits) << "\n";
  if (t.prime != rtl.prime) s << "prime: config translator.prime = " << t.prime << ", RTL PRIME = " << rtl.prime << "\n";
  if (cfg.memory.channels != (1u << rtl.channel_bits.size()))
    s << "channels: config memory.channels = " << cfg.memory.channels << ", RTL 2^CHANNEL_BIT_COUNT = " << (1u << rtl.channel_bits.size())
      << "\n";
  if (const std::string why = translator_unfit(cfg); !why.empty()) s << why << "\n";
  std::string d = s.str();
  if (!d.empty()) d += "(the RTL parameters are set in verilator/CMakeLists.txt, GPUMEM_RTL_TRANSLATOR_*)";
  return d;
}

// Checked before a model exists (a model of the wrong geometry must not be built).
static const GpumemRtlApi* checked_model(const Config& cfg, const LoadedRtl* rtl) {
  if (rtl) {
    if (const std::string why = translator_unfit(cfg); !why.empty()) throw std::invalid_argument(why);
    return rtl->api;
  }
  if (const std::string d = geometry_difference(cfg, rtl_translator_geometry()); !d.empty())
    throw std::invalid_argument("config and RTL translator differ:\n" + d);
  return nullptr;
}

TranslatorCosim::TranslatorCosim(const Config& cfg, uint64_t seed, const WaveWindow& waves, const LoadedRtl* rtl)
    : seed_(seed),
      address_bits_(cfg.memory.address_bits),
      driver_(seed, waves, checked_model(cfg, rtl)),
      scoreboard_(cfg, seed) {
  if (rtl) scoreboard_.set_max_latency(rtl->latency_bound());
  driver_.reset();
}

void TranslatorCosim::reset() {
  if (scoreboard_.outstanding()) throw std::logic_error("translator co-simulation: reset with a response outstanding");
  driver_.reset();
}

TranslatorEdge TranslatorCosim::cycle(const TranslatorPins& pins) {
  const TranslatorEdge e = driver_.cycle(pins);
  scoreboard_.edge(pins, e, driver_.cycles());
  return e;
}

RegStatus TranslatorCosim::write_register(uint32_t offset, uint32_t value) {
  TranslatorPins p;
  p.rsp_ready = false;
  p.reg_we = true;
  p.reg_addr = offset;
  p.reg_wdata = value;
  const TranslatorEdge e = driver_.cycle(p);
  return scoreboard_.register_written(offset, value, e.reg_refused, driver_.cycles());
}

TranslatorResponse TranslatorCosim::request(uint64_t address, unsigned task) {
  TranslatorPins p;
  p.req_valid = true;
  p.req_addr = address;
  p.req_task_type = task;
  for (unsigned i = 0; !cycle(p).req_accepted; ++i)
    if (i > 16) throw std::runtime_error("translator co-simulation: request never accepted");
  p.req_valid = false;
  for (unsigned i = 0;; ++i) {
    const TranslatorEdge e = cycle(p);
    if (e.rsp_taken) return e.rsp;
    if (i > 16) throw std::runtime_error("translator co-simulation: no response");
  }
}

bool TranslatorCosim::run_random(const TranslatorRandomRun& run) {
  TranslatorStimulus stimulus(seed_, address_bits_, run);
  scoreboard_.set_hang_cycles(run.hang_cycles);
  const uint64_t target = scoreboard_.compared() + run.transactions;
  bool accepted = false;
  while (scoreboard_.compared() < target) {
    accepted = cycle(stimulus.next(accepted, scoreboard_.discarded())).req_accepted;
    if (run.stop_at_first_mismatch && scoreboard_.mismatches()) return false;
    if (driver_.assertion_failed() || scoreboard_.protocol_violation()) return false;
  }
  return scoreboard_.mismatches() == 0 && !driver_.assertion_failed();
}

MismatchArtifacts write_mismatch_artifacts(const Config& cfg, const std::string& config_path, uint64_t seed,
                                           const TranslatorRandomRun& run, uint64_t fail_cycle, const std::string& dir,
                                           uint64_t window, const std::string& replay_flags, const LoadedRtl* rtl) {
  const ReplayCommand command{"translator", "translator.gtkw", config_path, seed, run.transactions,
                              !run.stop_at_first_mismatch, run.hang_cycles, replay_flags};
  return write_mismatch_artifacts(command, fail_cycle, dir, window, [&](const WaveWindow& w) -> uint64_t {
    TranslatorCosim again(cfg, seed, w, rtl);  // destroyed here: the FST file is closed
    again.reset();
    again.run_random(run);
    if (again.assertion_failed()) return again.cycles();
    if (const auto& v = again.scoreboard().protocol_violation()) return v->cycle;
    const auto& first = again.scoreboard().first_mismatch();
    return first ? first->cycle : 0;
  });
}

}  // namespace gpumem::tb
