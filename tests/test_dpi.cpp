// libgpumem_dpi.so through its C functions, as a simulator calls them
// (tb/dpi/gpumem_ref_pkg.sv): each answer equals the plain class's it wraps,
// on random operations, and every failure comes back as a status and a
// message, never as an exception or a crash. The library's copies of the
// model classes are private (its export map), so the ones linked here for
// comparison are separate objects.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "params/block_params.hpp"
#include "config/config.hpp"
#include "driver/address_space.hpp"
#include "temporary_file.hpp"
#include "gpumem_ref_pkg__Dpi.h"
#include "mmu/mmu.hpp"
#include "mmu/tlb.hpp"
#include "regs/register_bank.hpp"
#include "router/channel_decoder.hpp"
#include "tb/translator/translator_stimulus.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem::test {
namespace {

const std::string kDefault = std::string(GPUMEM_SOURCE_DIR) + "/configs/default.yaml";

struct Handle {
  explicit Handle(const std::string& config, const char* port = "system") : h(gpumem_ref_open(config.c_str(), port)) {}
  ~Handle() { gpumem_ref_close(h); }
  void* h;
};

TEST(Dpi, OpenReportsABadConfigByFileAndABadPortByName) {
  EXPECT_EQ(gpumem_ref_open("/no/such.yaml", "system"), nullptr);
  EXPECT_NE(std::string(gpumem_ref_error()).find("/no/such.yaml"), std::string::npos) << gpumem_ref_error();
  EXPECT_EQ(gpumem_ref_open(kDefault.c_str(), "mmu"), nullptr);
  EXPECT_NE(std::string(gpumem_ref_error()).find("unknown register port 'mmu'"), std::string::npos) << gpumem_ref_error();
  Handle ok(kDefault);
  ASSERT_NE(ok.h, nullptr) << gpumem_ref_error();
  EXPECT_STREQ(gpumem_ref_error(), "");
  // A null handle is an error, not a crash.
  unsigned long long mapped = 0;
  unsigned channel = 0, scheme = 0;
  gpumem_ref_map(nullptr, 0, 0, &mapped, &channel, &scheme);
  EXPECT_NE(std::string(gpumem_ref_error()).find("null model handle"), std::string::npos);
  gpumem_ref_map(ok.h, 0, 16, &mapped, &channel, &scheme);
  EXPECT_NE(std::string(gpumem_ref_error()).find("task type 16"), std::string::npos);
}

TEST(Dpi, GeometryIsTheConfigs) {
  const Config cfg = load_config(kDefault);
  Handle m(kDefault);
  EXPECT_EQ(gpumem_ref_address_bits(m.h), cfg.memory.address_bits);
  ASSERT_EQ(gpumem_ref_channel_bit_count(m.h), cfg.translator.channel_bits.size());
  for (unsigned j = 0; j < cfg.translator.channel_bits.size(); ++j)
    EXPECT_EQ(gpumem_ref_channel_bit(m.h, j), cfg.translator.channel_bits[j]);
  ASSERT_EQ(gpumem_ref_candidate_bit_count(m.h), cfg.translator.candidate_bits.size());
  for (unsigned i = 0; i < cfg.translator.candidate_bits.size(); ++i)
    EXPECT_EQ(gpumem_ref_candidate_bit(m.h, i), cfg.translator.candidate_bits[i]);
  EXPECT_EQ(gpumem_ref_prime(m.h), cfg.translator.prime);
  gpumem_ref_channel_bit(m.h, 99);
  EXPECT_STRNE(gpumem_ref_error(), "");
}

// Register writes and mappings interleaved at random: the library's answers
// are a RegisterBank's and an XorTranslator's with the same history.
TEST(Dpi, RegistersAndMappingAreTheModels) {
  const Config cfg = load_config(kDefault);
  RegisterBank bank(register_params(cfg));
  XorTranslator translator(translator_params(cfg), bank.translator_registers());
  const ChannelDecoder decoder(cfg.channel_layout());
  Handle m(kDefault);
  std::mt19937_64 rng(3);
  unsigned writes_taken = 0, xor_mapped = 0;
  for (int i = 0; i < 20000; ++i) {
    const uint64_t r = rng();
    if (r % 4 == 0) {
      static constexpr uint32_t kOffsets[] = {0x10, 0x40, 0x44, 0x7C, 0x100, 0x104, 0x1FC, 0x20, 0x3, 0xD000};
      const uint32_t offset = kOffsets[(r >> 8) % 10], value = static_cast<uint32_t>(r >> 32) % 5;
      const int expected = static_cast<int>(bank.write(offset, 4, value));
      ASSERT_EQ(gpumem_ref_reg_write(m.h, offset, value), expected) << "offset " << offset << " value " << value;
      writes_taken += expected == 0;
      unsigned read = 0;
      uint32_t model_read = 0;
      ASSERT_EQ(gpumem_ref_reg_read(m.h, offset, &read), static_cast<int>(bank.read(offset, 4, model_read)));
      ASSERT_EQ(read, model_read);
      continue;
    }
    const uint64_t address = rng() & ((uint64_t{1} << cfg.memory.address_bits) - 1);
    const unsigned task = (r >> 8) & 15;
    const XorTranslator::Result e = translator.translate(address, task);
    unsigned long long mapped = 0;
    unsigned channel = 0, scheme = 0;
    gpumem_ref_map(m.h, address, task, &mapped, &channel, &scheme);
    ASSERT_EQ(mapped, e.mapped);
    ASSERT_EQ(channel, decoder.channel(e.mapped));
    ASSERT_EQ(scheme, static_cast<unsigned>(e.scheme));
    xor_mapped += e.scheme == Scheme::kXor && e.mapped != address;
  }
  EXPECT_GT(writes_taken, 1000u);
  EXPECT_GT(xor_mapped, 50u);  // the writes switched the XOR scheme on, and it moved addresses
  EXPECT_STREQ(gpumem_ref_reg_status_name(0), "ok");
  EXPECT_STREQ(gpumem_ref_reg_name(0x104), "XOR_VECTOR");
  EXPECT_STREQ(gpumem_ref_reg_name(0x14), "");
  EXPECT_STREQ(gpumem_ref_scheme_name(1), "xor");
}

// The translator's register port refuses what its RTL does not hold, as the
// co-simulation's scoreboard answers: another block's register, and 3
// (matrix) in TASK_SCHEME, which the whole map takes when the rows allow it.
TEST(Dpi, TheTranslatorPortRefusesOtherBlocksRegisters) {
  Handle port(kDefault, "translator"), system(kDefault, "system");
  EXPECT_EQ(gpumem_ref_reg_write(system.h, 0x20, 0x1000), 0);  // PT_ROOT_LO
  EXPECT_NE(gpumem_ref_reg_write(port.h, 0x20, 0x1000), 0);
  EXPECT_EQ(gpumem_ref_reg_write(port.h, 0x10, 1), 0);   // CTRL
  EXPECT_EQ(gpumem_ref_reg_write(port.h, 0x40, 1), 0);   // TASK_SCHEME[0] = xor
  EXPECT_NE(gpumem_ref_reg_write(port.h, 0x40, 3), 0);   // matrix: not in the RTL
  EXPECT_EQ(gpumem_ref_reg_write(port.h, 0x100, 5), 0);  // XOR_VECTOR[0][0]
  gpumem_ref_reset(port.h);
  unsigned v = 7;
  EXPECT_EQ(gpumem_ref_reg_read(port.h, 0x100, &v), 0);
  EXPECT_EQ(v, 0u);  // reset
}

// A translator that builds none and matrix only: the port refuses xor and
// prime; a list gpumem cosim --schemes would refuse fails the open.
TEST(Dpi, TheTranslatorPortOfASchemeSubsetRefusesTheOthers) {
  Handle hash(kDefault, "translator:none,matrix");
  ASSERT_NE(hash.h, nullptr) << gpumem_ref_error();
  EXPECT_EQ(gpumem_ref_reg_write(hash.h, 0x40, 0), 0);     // TASK_SCHEME[0] = none
  EXPECT_NE(gpumem_ref_reg_write(hash.h, 0x40, 1), 0);     // xor: not built
  EXPECT_NE(gpumem_ref_reg_write(hash.h, 0x40, 2), 0);     // prime: not built
  EXPECT_NE(gpumem_ref_reg_write(hash.h, 0x100, 5), 0);    // XOR_VECTOR[0][0]
  EXPECT_EQ(gpumem_ref_reg_write(hash.h, 0x400, 0x100), 0);  // MATRIX_ROW_LO[0][0]
  // Its stimulus is gpumem cosim's for that RTL: the schemes change it only
  // through matrix (matrix sequences are queued where matrix is built).
  auto pins = [](void* model) {
    std::vector<uint64_t> trace;
    void* s = gpumem_ref_translator_stimulus(model, 5, 100000);
    int reset = 0, req_valid = 0, rsp_ready = 0, reg_we = 0;
    unsigned long long addr = 0;
    unsigned task = 0, reg_addr = 0, reg_wdata = 0;
    for (int i = 0; i < 20000; ++i) {
      gpumem_ref_translator_stimulus_next(s, i % 2, 0, &reset, &req_valid, &addr, &task, &rsp_ready, &reg_we, &reg_addr,
                                          &reg_wdata);
      trace.push_back(reg_we ? (uint64_t{reg_addr} << 32 | reg_wdata) : addr);
    }
    gpumem_ref_stimulus_free(s);
    return trace;
  };
  Handle full(kDefault, "translator"), no_matrix(kDefault, "translator:none,xor,prime");
  EXPECT_EQ(pins(hash.h), pins(full.h)) << "none,matrix and all schemes both stage matrices";
  EXPECT_NE(pins(no_matrix.h), pins(full.h)) << "without matrix the stimulus queues no matrix sequence";
  for (const char* bad : {"translator:xor,matrix", "translator:none,ipoly", "translator:"}) {
    EXPECT_EQ(gpumem_ref_open(kDefault.c_str(), bad), nullptr) << bad;
    EXPECT_NE(std::string(gpumem_ref_error()).find(std::string("register port '") + bad + "'"), std::string::npos)
        << gpumem_ref_error();
  }
}

// Random lookups and fills against a Tlb of the same geometry: result, set,
// way, physical address, the entry that hit and the victim, all equal.
TEST(Dpi, TlbAnswersAreTheModelsWithTheHow) {
  const Config cfg = load_config(kDefault);
  Tlb tlb(tlb_params(cfg));
  Handle m(kDefault);
  std::mt19937_64 rng(9);
  unsigned hits = 0, evictions = 0, nested = 0;
  for (int i = 0; i < 50000; ++i) {
    const uint64_t r = rng();
    // A few hundred large pages so sets fill and evict; offsets anywhere.
    const uint64_t va = ((r >> 20) % 512) << 16 | (r & 0xFFFF);
    if (r % 97 == 0) {
      tlb.invalidate_all();
      gpumem_ref_tlb_flush(m.h);
      continue;
    }
    unsigned set = 0, way = 0;
    unsigned long long pa = 0;
    const int result = gpumem_ref_tlb_lookup(m.h, va, &set, &way, &pa);
    const TlbLookup e = tlb.lookup(va);
    ASSERT_EQ(result, static_cast<int>(e.result));
    ASSERT_EQ(set, e.set);
    ASSERT_EQ(way, e.way);
    int large = 0, readable = 0, writable = 0;
    unsigned long long vpn = 0, pfn = 0;
    unsigned flag = 0, task = 0;
    gpumem_ref_tlb_last_entry(m.h, &large, &vpn, &pfn, &flag, &task, &readable, &writable);
    if (e.hit) {
      ASSERT_EQ(vpn, e.hit->vpn);
      ASSERT_EQ(pfn, e.hit->pfn);
      ASSERT_EQ(large != 0, e.hit->large_page);
      ASSERT_EQ(flag, e.hit->nested_flag);
    }
    if (e.result == TlbResult::kHitSmall || e.result == TlbResult::kHitLarge) {
      ASSERT_EQ(pa, tlb.translate(*e.hit, va));
      ++hits;
      continue;
    }
    nested += e.result == TlbResult::kNested;
    Pte leaf;
    leaf.valid = leaf.readable = true;
    leaf.writable = r & 1;
    leaf.large_page = e.result == TlbResult::kMiss && (r >> 8) % 3 != 0;
    leaf.nested_flag = leaf.large_page ? static_cast<uint8_t>(1u << ((r >> 10) % 4)) : 0;
    leaf.task_type = (r >> 12) & 15;
    leaf.pfn = leaf.large_page ? (r >> 24) % 4096 * 16 : (r >> 24) % 65536;
    if (tlb.way_holding(va, leaf.large_page) >= 0) continue;
    ASSERT_EQ(gpumem_ref_tlb_victim(m.h, set), tlb.victim(set));
    int evicted = 0;
    ASSERT_EQ(gpumem_ref_tlb_fill(m.h, va, leaf.encode(), &set, &way, &evicted), 0) << gpumem_ref_error();
    const TlbFill f = tlb.fill(va, leaf);
    ASSERT_EQ(set, f.set);
    ASSERT_EQ(way, f.way);
    ASSERT_EQ(evicted != 0, f.evicted);
    gpumem_ref_tlb_last_entry(m.h, &large, &vpn, &pfn, &flag, &task, &readable, &writable);
    if (f.evicted) {
      ++evictions;
      ASSERT_EQ(vpn, f.victim.vpn);
      ASSERT_EQ(pfn, f.victim.pfn);
      ASSERT_EQ(task, f.victim.task_type);
      ASSERT_EQ(writable != 0, f.victim.writable);
    }
  }
  EXPECT_GT(hits, 1000u);
  EXPECT_GT(evictions, 1000u);
  EXPECT_GT(nested, 10u);
  // Filling a page that is cached is refused, with the reason.
  Pte leaf;
  leaf.valid = leaf.readable = true;
  leaf.large_page = true;
  unsigned set = 0, way = 0;
  int evicted = 0;
  gpumem_ref_tlb_flush(m.h);
  ASSERT_EQ(gpumem_ref_tlb_fill(m.h, 0x50000, leaf.encode(), &set, &way, &evicted), 0);
  EXPECT_EQ(gpumem_ref_tlb_fill(m.h, 0x50000, leaf.encode(), &set, &way, &evicted), -1);
  EXPECT_NE(std::string(gpumem_ref_error()).find("already cached"), std::string::npos);
}

// Every page the driver mapped translates to its physical address; an
// unmapped VA and a write to a read-only page fault, with their names.
TEST(Dpi, TranslateWalksThePageTablesTheDriverBuilt) {
  // configs/default.yaml with its edges region read-only.
  std::ifstream in(kDefault);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string region = "{name: edges, ";
  ASSERT_NE(text.find(region), std::string::npos);
  text.replace(text.find(region), region.size(), region + "writable: false, ");
  const std::string path = temporary_file("dpi-read-only.yaml", text);
  const Config cfg = load_config(path);
  const AddressSpaceImage image = build_address_space(cfg, cfg.address_space.nesting);
  Handle m(path);
  ASSERT_NE(m.h, nullptr) << gpumem_ref_error();
  EXPECT_EQ(gpumem_ref_pt_root(m.h), image.root);
  ASSERT_FALSE(image.pte_writes.empty());
  EXPECT_EQ(gpumem_ref_pt_read(m.h, image.pte_writes.front().pa), image.pte_writes.front().value);
  unsigned checked = 0, read_only = 0;
  for (const PageMapping& p : image.pages) {
    unsigned long long pa = 0, leaf = 0;
    const uint64_t offset = 0x123;
    ASSERT_EQ(gpumem_ref_translate(m.h, p.va + offset, 0, &pa, &leaf), 0) << gpumem_ref_error();
    ASSERT_EQ(pa, p.pa + offset);
    ASSERT_EQ(Pte::decode(leaf).task_type, p.task_type);
    if (!p.writable) {
      ++read_only;
      EXPECT_EQ(gpumem_ref_translate(m.h, p.va, 1, &pa, &leaf), static_cast<int>(FaultReason::kPermission));
      EXPECT_STREQ(gpumem_ref_error(), "write to a read-only page");
    }
    ++checked;
  }
  EXPECT_GT(checked, 10u);
  unsigned long long pa = 0, leaf = 0;
  const int fault = gpumem_ref_translate(m.h, uint64_t{1} << 39, 0, &pa, &leaf);
  EXPECT_EQ(fault, static_cast<int>(FaultReason::kUnmapped));
  EXPECT_STREQ(gpumem_ref_fault_name(fault), "unmapped");
  EXPECT_EQ(gpumem_ref_translate(m.h, uint64_t{1} << 41, 0, &pa, &leaf), static_cast<int>(FaultReason::kVaOutOfRange));
  EXPECT_GT(read_only, 0u);
}

// The stimulus is gpumem cosim's: the same seed gives the same pins.
TEST(Dpi, StimulusIsTheCosimStimulus) {
  const Config cfg = load_config(kDefault);
  Handle m(kDefault, "translator");
  void* s = gpumem_ref_translator_stimulus(m.h, 42, 1000);
  ASSERT_NE(s, nullptr);
  tb::TranslatorRandomRun run;
  run.transactions = 1000;
  const tb::RtlTranslatorGeometry g = tb::translator_geometry_of_config(cfg);
  tb::TranslatorStimulus reference(42, tb::translator_bench_params(cfg, g), g, run);
  int reset = 0, req_valid = 0, rsp_ready = 0, reg_we = 0;
  unsigned long long addr = 0;
  unsigned task = 0, reg_addr = 0, reg_wdata = 0;
  unsigned requests = 0, writes = 0;
  for (int i = 0; i < 5000; ++i) {
    const bool accepted = i % 3 == 0;
    const uint64_t discarded = i / 1000;
    gpumem_ref_translator_stimulus_next(s, accepted, discarded, &reset, &req_valid, &addr, &task, &rsp_ready, &reg_we,
                                        &reg_addr, &reg_wdata);
    const tb::TranslatorPins& e = reference.next(accepted, discarded);
    ASSERT_EQ(reset != 0, e.reset);
    ASSERT_EQ(req_valid != 0, e.req_valid);
    ASSERT_EQ(addr, e.req_addr);
    ASSERT_EQ(task, e.req_task_type);
    ASSERT_EQ(rsp_ready != 0, e.rsp_ready);
    ASSERT_EQ(reg_we != 0, e.reg_we);
    ASSERT_EQ(reg_addr, e.reg_addr);
    ASSERT_EQ(reg_wdata, e.reg_wdata);
    requests += req_valid != 0;
    writes += reg_we != 0;
  }
  EXPECT_GT(requests, 100u);
  EXPECT_GT(writes, 10u);
  gpumem_ref_stimulus_free(s);
}

}  // namespace
}  // namespace gpumem::test
