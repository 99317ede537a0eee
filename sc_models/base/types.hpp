// Types and limits shared by the model's blocks, the test bench and the
// config. Kept apart from config.hpp so that a block that needs a scheme or a
// limit does not depend on the config object and its YAML loader.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace gpumem {

constexpr unsigned kMaxTaskTypes = 16;      // 4-bit task-type id in the PTE
constexpr unsigned kMaxChannelBits = 8;     // up to 256 channels
constexpr unsigned kMaxChannels = 256;
constexpr unsigned kMaxCandidateBits = 32;  // one 32-bit XOR control vector register
constexpr unsigned kMaxRequestBytes = 4096;  // one request never exceeds a small page
constexpr unsigned kMaxProcesses = 16;      // PROCESS_TASK registers
constexpr unsigned kMaxVaRanges = 8;        // VA_RANGE registers
// The last cycle a trace may issue at: a run adds latencies to it and counts
// its time in picoseconds in 64 bits, which 2^40 cycles of up to a
// microsecond each leave room for.
constexpr uint64_t kLastTraceCycle = uint64_t{1} << 40;

// kMatrix: every channel bit the XOR of any address bits (a GF(2) matrix);
// xor is its special case that keeps c_j in row j and adds candidate bits.
enum class Scheme : uint8_t { kNone = 0, kXor = 1, kPrime = 2, kMatrix = 3 };
// By value: the YAML config, the reports and the RTL's scheme_e use these names.
inline constexpr std::array<const char*, 4> kSchemeNames{"none", "xor", "prime", "matrix"};
inline const char* scheme_name(Scheme s) {
  const auto v = static_cast<std::size_t>(s);
  return v < kSchemeNames.size() ? kSchemeNames[v] : "?";
}

enum class Op : uint8_t { kRead = 0, kWrite = 1 };

// Where the XOR translator sits (CN115422098A claims 4 and 14): after the MMU on
// physical addresses with the task type from the PTE, or before it on virtual
// addresses with the task type from the register bank's process and VA-range
// tables.
enum class TranslatorPosition : uint8_t { kAfterMmu, kBeforeMmu };

enum class Replacement : uint8_t { kLru, kPlru };
const char* replacement_name(Replacement r);

// What decides when an SM's request issues in `gpumem run --threads`
// (docs/frontend.md, "Running a per-thread trace").
enum class IssueTiming : uint8_t {
  kOrdering,  // no earlier than its slot in the ordering: the ordering's drawn latencies leave their gaps
  kMemory,    // the ordering gives the order only; the model's completions decide when
};

// Which ready warp an SM issues from each cycle in simulation.timing: at
// (frontend.scheduler; GPGPU-Sim's names, docs/frontend.md).
enum class WarpScheduler : uint8_t {
  kLrr,  // loose round robin: the next ready warp after the one picked last
  kGto,  // greedy then oldest: the warp picked last while it is ready, else the oldest ready warp
};

// How the model's timing is worked out (simulation.timing; docs/memory.md,
// "Deciding at command time"): loosely timed, each request's completion
// known when it reaches a target, or approximately timed, each block
// answering when its answer is ready.
enum class TimingMode : uint8_t { kLt, kAt };

// The prefetcher beside each SM's L1 (docs/prefetch.md), and where its lines go.
enum class PrefetchKind : uint8_t { kNone, kStride, kBfs };
const char* prefetch_kind_name(PrefetchKind k);  // "none", "stride", "bfs"
enum class PrefetchFill : uint8_t { kL1, kBuffer };
// When a missed line takes its place in the L1 (l1.allocate; docs/cache.md):
// at the miss, held while its fill is out, or when the fill comes back.
enum class L1Allocate : uint8_t { kOnMiss, kOnFill };

}  // namespace gpumem
