// libFuzzer target: the mapping loader. The input draws a translator section
// (channel count, channel bits, candidate bits, prime, granule, page sizes,
// per-task schemes and XOR control vectors; most of them bad) which the
// config loader either refuses with an InputError or accepts. Whatever it
// accepts must be a mapping that keeps data: for every task type, each
// address drawn maps back to itself (unmap after map), stays in the
// translator's space, and keeps isolation (no bit at or above the smallest
// page moves; with a non-power-of-two channel count every task type has the
// same function). The channel decoder puts it on one of N channels.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/bits.hpp"
#include "params/block_params.hpp"
#include "config/config.hpp"
#include "fuzz_target.hpp"
#include "router/channel_decoder.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem {
namespace {

[[noreturn]] void bad_mapping(const std::string& what) { fuzz::finding("mapping", what.c_str()); }

std::string list(const std::vector<uint64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::vector<uint64_t> positions(FuzzedDataProvider& in, size_t max_count, uint64_t max_position) {
  std::vector<uint64_t> v(in.ConsumeIntegralInRange<size_t>(0, max_count));
  for (uint64_t& p : v) p = in.ConsumeIntegralInRange<uint64_t>(0, max_position);
  return v;
}

const char* scheme_text(unsigned v) {
  static const char* const names[] = {"none", "xor", "prime", "bogus"};
  return names[v & 3];
}

// A physical-mode config with the drawn translator section.
std::string draw_yaml(FuzzedDataProvider& in) {
  const unsigned address_bits = in.ConsumeIntegralInRange<unsigned>(10, 56);
  const unsigned channels = in.ConsumeBool() ? 1u << in.ConsumeIntegralInRange<unsigned>(0, 9)
                                             : in.ConsumeIntegralInRange<unsigned>(0, 300);
  const unsigned page_shift = in.ConsumeIntegralInRange<unsigned>(6, 20);
  const uint64_t small_page = uint64_t{1} << page_shift;
  std::string y = "memory: {address_bits: " + std::to_string(address_bits) + ", channels: " + std::to_string(channels) + "}\n";
  y += "mmu: {page_sizes: [" + std::to_string(small_page) + ", " + std::to_string(small_page * 16) + "]}\n";
  y += "translator:\n";
  // Mostly the right count of channel bits, ending a little below, at or
  // just above the smallest page (the isolation boundary); sometimes anything.
  std::vector<uint64_t> channel_bits;
  unsigned top = page_shift;
  if (is_pow2(channels) && in.ConsumeIntegralInRange<unsigned>(0, 3) != 0) {
    const unsigned m = log2_exact(channels);
    top = page_shift + 1 - in.ConsumeIntegralInRange<unsigned>(0, 3);  // the bit above the highest channel bit
    unsigned b = top > m ? top - m : 0;
    for (unsigned j = 0; j < m; ++j) channel_bits.push_back(b++ + (in.ConsumeIntegralInRange<unsigned>(0, 7) == 0));
  } else {
    channel_bits = positions(in, 10, 64);
  }
  if (!channel_bits.empty() || in.ConsumeBool()) y += "  channel_bits: " + list(channel_bits) + "\n";
  // Mostly distinct candidate bits above the channel bits (inside the granule
  // is refused), on both sides of the page; sometimes anything.
  std::vector<uint64_t> candidate_bits;
  if (in.ConsumeBool()) {
    const size_t k = in.ConsumeIntegralInRange<size_t>(1, 12);
    for (uint64_t p = top; candidate_bits.size() < k && p < 60; p += in.ConsumeIntegralInRange<unsigned>(1, 3))
      candidate_bits.push_back(p);
  } else {
    candidate_bits = positions(in, 34, 60);
  }
  if (!candidate_bits.empty() || in.ConsumeBool()) y += "  candidate_bits: " + list(candidate_bits) + "\n";
  if (in.ConsumeBool()) y += "  prime: " + std::to_string(in.ConsumeIntegralInRange<unsigned>(0, 300)) + "\n";
  if (in.ConsumeBool()) y += "  granule_bytes: " + std::to_string(uint64_t{1} << in.ConsumeIntegralInRange<unsigned>(0, 20)) + "\n";
  if (in.ConsumeBool()) y += std::string("  interleave_enable: ") + (in.ConsumeBool() ? "true" : "false") + "\n";
  if (in.ConsumeBool()) y += std::string("  default_scheme: ") + scheme_text(in.ConsumeIntegral<unsigned>()) + "\n";
  const size_t tasks = in.ConsumeIntegralInRange<size_t>(0, 17);
  if (tasks) y += "  tasks:\n";
  for (size_t t = 0; t < tasks; ++t) {
    y += "    - {task_type: " + std::to_string(in.ConsumeIntegralInRange<unsigned>(0, 16)) +
         ", scheme: " + scheme_text(in.ConsumeIntegral<unsigned>());
    if (in.ConsumeBool()) {
      std::vector<uint64_t> vectors(in.ConsumeIntegralInRange<unsigned>(0, 3) ? channel_bits.size() : in.ConsumeIntegralInRange<size_t>(0, 9));
      // Mostly within the K candidate bits, sometimes beyond them.
      const unsigned width = in.ConsumeBool() ? static_cast<unsigned>(candidate_bits.size()) : in.ConsumeIntegralInRange<unsigned>(0, 33);
      for (uint64_t& v : vectors) v = in.ConsumeIntegral<uint32_t>() & ((uint64_t{1} << width) - 1);
      y += ", xor_vectors: " + list(vectors);
    }
    y += "}\n";
  }
  return y;
}

void check_accepted(const Config& cfg, FuzzedDataProvider& in) {
  const TranslatorRegisters registers = registers_from_config(cfg);  // the translator reads them by reference
  XorTranslator translator(translator_params(cfg), registers);
  const ChannelDecoder decoder(cfg.channel_layout());
  const unsigned bits = cfg.translator_address_bits();
  const uint64_t space = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const unsigned page_bit = log2_exact(cfg.mmu.smallest_page());
  const uint64_t page_mask = ~((uint64_t{1} << page_bit) - 1);
  std::vector<uint64_t> addresses{0, space};
  for (unsigned b = 0; b < bits; ++b) addresses.push_back(uint64_t{1} << b);
  while (in.remaining_bytes() >= 8) addresses.push_back(in.ConsumeIntegral<uint64_t>() & space);
  for (const uint64_t a : addresses) {
    const uint64_t task0 = translator.map(a, 0);
    for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
      const uint64_t m = translator.map(a, t);
      const std::string at = "address " + std::to_string(a) + ", task type " + std::to_string(t) + ": ";
      if (m > space) bad_mapping(at + "mapped outside the translator's space");
      if (translator.unmap(m, t) != a) bad_mapping(at + "unmap(map(a)) != a");
      if (is_pow2(cfg.memory.channels) ? ((m ^ a) & page_mask) != 0 : m != task0)
        bad_mapping(at + "isolation broken");
      if (decoder.channel(m) >= cfg.memory.channels) bad_mapping(at + "channel out of range");
    }
  }
}

}  // namespace
}  // namespace gpumem

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string yaml = gpumem::draw_yaml(in);
  std::optional<gpumem::Config> cfg;
  gpumem::fuzz::expect_input_errors_only("mapping", [&] { cfg = gpumem::parse_config(yaml, "fuzz.yaml"); });
  if (cfg) gpumem::check_accepted(*cfg, in);
  return 0;
}
