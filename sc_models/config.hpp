// The one validated configuration object. Every parameter of the model comes
// from here; the defaults below are the only defaults (docs/config-reference.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpumem {

constexpr unsigned kMaxTaskTypes = 16;      // 4-bit task-type id in the PTE
constexpr unsigned kMaxChannelBits = 8;     // up to 256 channels
constexpr unsigned kMaxChannels = 256;
constexpr unsigned kMaxCandidateBits = 32;  // one 32-bit XOR control vector register
constexpr unsigned kMaxRequestBytes = 4096;  // one request never exceeds a small page

enum class Scheme : uint8_t { kNone = 0, kXor = 1, kPrime = 2 };
const char* scheme_name(Scheme s);

enum class Op : uint8_t { kRead = 0, kWrite = 1 };

struct MemoryConfig {
  unsigned address_bits = 40;     // physical address width; wider addresses are rejected
  unsigned channels = 8;
  unsigned service_cycles = 1;    // one access per service_cycles per channel
  unsigned max_outstanding = 64;  // requests in flight from the player (also the entropy window)
};

struct MmuConfig {
  // Page sizes that carry their own task type. The smallest bounds isolation:
  // no channel bit may lie at or above it (seed 000, para 0093).
  std::vector<uint64_t> page_sizes{4096, 65536};
  uint64_t smallest_page() const;
};

struct TaskMapping {
  unsigned task = 0;
  Scheme scheme = Scheme::kNone;
  std::vector<uint32_t> xor_vectors;  // one XOR control vector per channel bit
};

struct TranslatorConfig {
  std::vector<unsigned> channel_bits;    // c_0..c_{m-1}; channel index bit j = mapped bit c_j
  std::vector<unsigned> candidate_bits;  // p_0..p_{K-1}; vector bit i selects p_i
  bool interleave_enable = true;
  uint64_t prime = 0;                    // P of the prime scheme (0: not configured)
  uint64_t granule_bytes = 0;            // interleave granule, only for a non-power-of-two channel count
  Scheme default_scheme = Scheme::kNone;  // scheme of every task type not listed in tasks
  std::vector<TaskMapping> tasks;
};

struct SimulationConfig {
  double cycle_ns = 1.0;
  uint64_t quantum_cycles = 10000;  // temporal-decoupling quantum
};

struct StatsConfig {
  unsigned entropy_window = 0;  // 0: memory.max_outstanding (SPEC 6)
};

struct GeneratorConfig {
  enum class Kind : uint8_t { kStrided, kRandom } kind = Kind::kStrided;
  unsigned task = 0;
  uint64_t base = 0;
  uint64_t stride = 64;       // strided
  uint64_t range = 0;         // random: addresses in [base, base + range) (required);
                              // strided: wrap back to base after range bytes (0: never)
  uint64_t count = 1000;
  unsigned size = 64;
  double write_fraction = 0;  // share of writes (strided: every k-th request is a write)
  uint64_t seed = 1;
  uint64_t start_cycle = 0;
  uint64_t issue_interval = 1;  // cycles between two requests of this generator
  int line = 0;                 // where it was declared, for later error messages
};

struct Config {
  std::string source;  // file name, for messages
  std::string description;
  MemoryConfig memory;
  MmuConfig mmu;
  TranslatorConfig translator;
  SimulationConfig simulation;
  StatsConfig stats;
  std::vector<GeneratorConfig> workload;

  // Derived, valid after validation.
  bool bit_interleaved() const { return !translator.channel_bits.empty() || memory.channels == 1; }
  unsigned granule_shift() const;        // log2 of the interleave granule
  uint64_t granule_bytes() const { return uint64_t{1} << granule_shift(); }
  // Largest request: within one interleave granule, so it never spans channels.
  unsigned max_request_bytes() const {
    return static_cast<unsigned>(granule_bytes() < kMaxRequestBytes ? granule_bytes() : kMaxRequestBytes);
  }
  unsigned entropy_window() const { return stats.entropy_window ? stats.entropy_window : memory.max_outstanding; }
  const TaskMapping* task_mapping(unsigned task) const;
  Scheme scheme_of(unsigned task) const {
    const TaskMapping* t = task_mapping(task);
    return t ? t->scheme : translator.default_scheme;
  }
};

// Loads and validates; throws InputError naming file, line and key.
Config load_config(const std::string& path);
Config parse_config(const std::string& yaml_text, const std::string& source_name);

}  // namespace gpumem
