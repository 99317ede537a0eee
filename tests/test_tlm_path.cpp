// The full TLM path (player -> translator -> router -> channels, register bank
// programmed by firmware). One simulation per test: each test runs in its own
// process under CTest (gtest_discover_tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <tlm_utils/simple_initiator_socket.h>

#include "payload/issue_clock.hpp"
#include "payload/payload_extensions.hpp"
#include "payload/run_kernel.hpp"
#include "params/block_params.hpp"
#include "params/frontend_from_config.hpp"
#include "driver/tlm_driver.hpp"
#include "frontend/trace_player.hpp"
#include "sources/workload.hpp"
#include "random_mix.hpp"
#include "router/channel_decoder.hpp"
#include "stats/run_statistics.hpp"
#include "system/memory_system.hpp"
#include "system/simulation.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

// Checks how each result came about against the plain classes.
class HowChecker : public CompletionObserver {
 public:
  explicit HowChecker(const Config& cfg) : regs_(registers_from_config(cfg)), tr_(translator_params(cfg), regs_), dec_(cfg.channel_layout()) {}
  void on_completion(const Completion& c) override {
    const uint64_t mapped = tr_.map(c.request.address, c.request.task_type);
    if (c.how.physical_address != c.request.address || c.how.mapped_address != mapped ||
        c.how.channel != dec_.channel(mapped) || c.how.local_address != dec_.local(mapped) ||
        c.how.scheme != tr_.scheme(c.request.task_type)) {
      if (wrong_++ < 5) ADD_FAILURE() << "request " << c.request.id << ": route differs from the plain model";
    }
    schemes_seen_ |= 1u << static_cast<unsigned>(c.how.scheme);
  }
  uint64_t wrong() const { return wrong_; }
  unsigned schemes_seen() const { return schemes_seen_; }

 private:
  TranslatorRegisters regs_;
  XorTranslator tr_;
  ChannelDecoder dec_;
  uint64_t wrong_ = 0;
  unsigned schemes_seen_ = 0;
};

class Recorder : public CompletionObserver {
 public:
  struct Row {
    uint64_t id, issue, start, completion;
    unsigned channel;
  };
  void on_completion(const Completion& c) override {
    rows.push_back({c.request.id, c.issue_cycle, c.how.start_cycle, c.completion_cycle, c.how.channel});
  }
  std::vector<Row> rows;
};

TEST(TlmPath, ReadAfterWriteForEverySchemeAndTaskMix) {
  std::mt19937_64 rng(11);
  const Config cfg = config_from(mixed_scheme_yaml(rng));
  RandomMix mix(11, random_pages(rng, 96, 4096, 32), 4096, 64, 100000);
  ShadowScoreboard sb;
  HowChecker how(cfg);
  const SimulationResult r = run_simulation(cfg, mix, {&sb, &how});
  EXPECT_EQ(r.requests, 100000u);
  EXPECT_EQ(sb.mismatches(), 0u);
  EXPECT_EQ(how.wrong(), 0u);
  EXPECT_EQ(how.schemes_seen(), 0b111u) << "all three schemes must be exercised";
  EXPECT_GT(sb.bytes_checked_written(), 50000u);
}

// simulation.timing: at on DRAM channels that reorder: the observers see
// requests in completion order, and every read still returns the last write
// issued before it (the data moves at arrival; the controller reorders only
// time). The scoreboard replays the completions in issue order.
TEST(TlmPath, ApproximatelyTimedDramReordersButEveryReadReturnsTheLastWrite) {
  struct Kept : CompletionObserver {
    struct Row {
      Request request;
      How how;
      std::vector<uint8_t> data;
      uint64_t issue, completion;
    };
    void on_completion(const Completion& c) override {
      rows.push_back({c.request, c.how, std::vector<uint8_t>(c.data, c.data + c.request.size), c.issue_cycle, c.completion_cycle});
    }
    std::vector<Row> rows;
  } kept;
  std::mt19937_64 rng(13);
  std::string yaml = mixed_scheme_yaml(rng);
  const std::string memory = "memory: {address_bits: 32, channels: 8, service_cycles: 2, max_outstanding: 32}";
  yaml.replace(yaml.find(memory), memory.size(),
               "memory: {address_bits: 32, channels: 8, max_outstanding: 64, preset: hbm2,\n"
               "         dram: {read_queue: 8, bank_queue: 0, write_queue: 8, write_high: 6, write_low: 2}}\n"
               "simulation: {timing: at}");
  const Config cfg = config_from(yaml);
  RandomMix mix(13, random_pages(rng, 96, 4096, 32), 4096, 64, 60000);
  const SimulationResult r = run_simulation(cfg, mix, {&kept});
  ASSERT_EQ(r.requests, 60000u);
  ASSERT_EQ(kept.rows.size(), 60000u);
  uint64_t out_of_order = 0, last_id = 0, forwarded = 0, hits = 0, last_completion = 0;
  for (const auto& row : kept.rows) {
    EXPECT_GE(row.completion, last_completion) << "the observers see requests in completion order";
    last_completion = row.completion;
    out_of_order += row.request.id < last_id;
    last_id = std::max(last_id, row.request.id);
    forwarded += row.how.row == RowResult::kForwarded;
    hits += row.how.row == RowResult::kHit;
    EXPECT_TRUE(row.how.dram);
    EXPECT_GE(row.completion, row.issue);
  }
  EXPECT_GT(out_of_order, 1000u) << "the controller must have reordered the requests for this test to mean anything";
  EXPECT_GT(forwarded, 0u);
  EXPECT_GT(hits, 0u);
  std::sort(kept.rows.begin(), kept.rows.end(), [](const auto& a, const auto& b) { return a.request.id < b.request.id; });
  ShadowScoreboard sb;
  for (const auto& row : kept.rows) sb.on_completion({row.request, row.how, row.data.data(), row.issue, row.completion});
  EXPECT_EQ(sb.mismatches(), 0u);
  EXPECT_GT(sb.bytes_checked_written(), 30000u);
  EXPECT_EQ(r.dram.size(), 8u);
}

TEST(TlmPath, ReadAfterWriteSixChannelsPrime) {
  std::mt19937_64 rng(12);
  const Config cfg = config_from(base_yaml(
      "translator: {granule_bytes: 64, prime: 5, default_scheme: prime}", 6, 32));
  std::vector<TaggedPage> pages = random_pages(rng, 32, 4096, 32);
  for (auto& p : pages) p.task_type %= 2;
  RandomMix mix(12, pages, 4096, 64, 50000);
  ShadowScoreboard sb;
  HowChecker how(cfg);
  run_simulation(cfg, mix, {&sb, &how});
  EXPECT_EQ(sb.mismatches(), 0u);
  EXPECT_EQ(how.wrong(), 0u);
}

TEST(TlmPath, Table1IdentityTakesSevenCycles) {
  const Config cfg = load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/examples/table1-identity.yaml");
  auto src = make_workload(cfg);
  RunStatistics stats(cfg);
  Recorder rec;
  run_simulation(cfg, *src, {&stats, &rec});
  EXPECT_EQ(stats.makespan(), 7u);
  ASSERT_EQ(rec.rows.size(), 7u);
  for (size_t i = 0; i < rec.rows.size(); ++i) {
    EXPECT_EQ(rec.rows[i].channel, 0u);
    EXPECT_EQ(rec.rows[i].issue, 0u);
    EXPECT_EQ(rec.rows[i].start, i) << "one access per cycle on the one busy channel";
    EXPECT_EQ(rec.rows[i].completion, i + 1);
  }
}

TEST(TlmPath, Table1XorTakesOneCycle) {
  const Config cfg = load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/examples/table1-xor.yaml");
  auto src = make_workload(cfg);
  RunStatistics stats(cfg);
  Recorder rec;
  run_simulation(cfg, *src, {&stats, &rec});
  EXPECT_EQ(stats.makespan(), 1u);
  std::vector<unsigned> channels;
  for (const auto& row : rec.rows) channels.push_back(row.channel);
  EXPECT_EQ(channels, (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(TlmPath, ServiceCyclesAndMaxOutstandingShapeTheTimeline) {
  // 6 requests at cycle 0 to one channel, 3 cycles each, at most 2 in flight.
  const Config cfg = config_from(
      "memory: {address_bits: 32, channels: 4, service_cycles: 3, max_outstanding: 2}\n"
      "translator: {channel_bits: [8, 9]}\n"
      "workload: [{kind: strided, task_type: 0, base: 0, stride: 1024, count: 6, size: 64, issue_interval: 0}]\n");
  auto src = make_workload(cfg);
  Recorder rec;
  RunStatistics stats(cfg);
  run_simulation(cfg, *src, {&rec, &stats});
  ASSERT_EQ(rec.rows.size(), 6u);
  // Two issue at 0; each later one issues when the oldest in flight finishes.
  const uint64_t issue[] = {0, 0, 3, 6, 9, 12};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(rec.rows[i].issue, issue[i]) << i;
    EXPECT_EQ(rec.rows[i].completion, 3 * (i + 1)) << i;
  }
  EXPECT_EQ(stats.makespan(), 18u);
}

// Drives the register bank over TLM and keeps what it saw.
struct RegisterProbe : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<RegisterProbe> socket{"socket"};
  std::function<void(RegisterProbe&)> body;
  explicit RegisterProbe(sc_core::sc_module_name n) : sc_module(n) {
    SC_HAS_PROCESS(RegisterProbe);
    SC_THREAD(run);
  }
  void run() { body(*this); }
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, unsigned len, uint8_t* data,
                                  uint8_t* byte_enable = nullptr) {
    tlm::tlm_generic_payload t;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(len);
    t.set_streaming_width(len);
    t.set_byte_enable_ptr(byte_enable);
    t.set_byte_enable_length(byte_enable ? len : 0);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(t, d);
    return t.get_response_status();
  }
};

TEST(TlmPath, RegisterBankErrorResponsesOverTlm) {
  const Config cfg = config_from(base_yaml("translator: {channel_bits: [8, 9, 10], candidate_bits: [11, 12]}"));
  Clock clock(1.0);
  MemorySystem mem("mem", cfg, clock);
  RegisterProbe probe("probe"), idle("idle");
  probe.socket.bind(mem.registers.target);
  idle.socket.bind(mem.request_target());
  idle.body = [](RegisterProbe&) {};
  std::vector<std::pair<std::string, tlm::tlm_response_status>> seen;
  probe.body = [&](RegisterProbe& p) {
    uint8_t buf[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    uint8_t be[4] = {0xFF, 0, 0, 0};
    seen.emplace_back("unmapped", p.access(tlm::TLM_WRITE_COMMAND, 0x14, 4, buf));
    seen.emplace_back("read-only", p.access(tlm::TLM_WRITE_COMMAND, kRegId, 4, buf));
    seen.emplace_back("misaligned", p.access(tlm::TLM_WRITE_COMMAND, kRegCtrl + 2, 4, buf));
    seen.emplace_back("wrong width", p.access(tlm::TLM_WRITE_COMMAND, kRegCtrl, 8, buf));
    seen.emplace_back("byte enables", p.access(tlm::TLM_WRITE_COMMAND, kRegCtrl, 4, buf, be));
    seen.emplace_back("bad value", p.access(tlm::TLM_WRITE_COMMAND, kRegTaskScheme, 4, buf));
    uint32_t v = 2;  // prime, but the config has no prime
    seen.emplace_back("unservable scheme", p.access(tlm::TLM_WRITE_COMMAND, kRegTaskScheme, 4, reinterpret_cast<uint8_t*>(&v)));
    v = 0x3;
    seen.emplace_back("good write", p.access(tlm::TLM_WRITE_COMMAND, kRegXorVector, 4, reinterpret_cast<uint8_t*>(&v)));
    v = 0;
    seen.emplace_back("good read", p.access(tlm::TLM_READ_COMMAND, kRegXorVector, 4, reinterpret_cast<uint8_t*>(&v)));
    EXPECT_EQ(v, 0x3u);
  };
  run_kernel();
  const std::vector<std::pair<std::string, tlm::tlm_response_status>> expected = {
      {"unmapped", tlm::TLM_ADDRESS_ERROR_RESPONSE},  {"read-only", tlm::TLM_ADDRESS_ERROR_RESPONSE},
      {"misaligned", tlm::TLM_ADDRESS_ERROR_RESPONSE}, {"wrong width", tlm::TLM_BURST_ERROR_RESPONSE},
      {"byte enables", tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE}, {"bad value", tlm::TLM_GENERIC_ERROR_RESPONSE},
      {"unservable scheme", tlm::TLM_GENERIC_ERROR_RESPONSE}, {"good write", tlm::TLM_OK_RESPONSE},
      {"good read", tlm::TLM_OK_RESPONSE}};
  EXPECT_EQ(seen, expected);
  // Only the good write changed anything.
  const RegisterBank& bank = mem.registers.bank();
  EXPECT_EQ(bank.ctrl(), kCtrlInterleaveEnable);
  EXPECT_EQ(bank.translator_registers().scheme[0], Scheme::kNone);
  EXPECT_EQ(bank.translator_registers().xor_vector[0][0], 0x3u);
}

// A payload without its RequestExtension (a caller's mistake) is answered
// with TLM's generic error by the first block it reaches, whichever that is
// (request_of in payload/payload_extensions.hpp), and goes no further.
tlm::tlm_response_status bare_request_through(const Config& cfg) {
  Clock clock(cfg.simulation.cycle_ns);
  MemorySystem mem("mem", cfg, clock);
  RegisterProbe probe("probe"), idle("idle");
  probe.socket.bind(mem.request_target());
  idle.socket.bind(mem.registers.target);
  idle.body = [](RegisterProbe&) {};
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  probe.body = [&](RegisterProbe& p) {
    uint8_t buf[64] = {};
    status = p.access(tlm::TLM_READ_COMMAND, 0x1000, 64, buf);
  };
  run_kernel();
  return status;
}

TEST(TlmPath, ARequestWithoutItsExtensionIsAnsweredWithAnErrorByTheTranslator) {
  const Config cfg = config_from(base_yaml("translator: {channel_bits: [8, 9, 10], candidate_bits: [11, 12]}"));
  ASSERT_FALSE(cfg.has_mmu()) << "the translator is the first block";
  EXPECT_EQ(bare_request_through(cfg), tlm::TLM_GENERIC_ERROR_RESPONSE);
}

TEST(TlmPath, ARequestWithoutItsExtensionIsAnsweredWithAnErrorByTheMmu) {
  const Config cfg = load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/examples/bfs.yaml");
  ASSERT_TRUE(cfg.has_mmu()) << "the MMU is the first block";
  EXPECT_EQ(bare_request_through(cfg), tlm::TLM_GENERIC_ERROR_RESPONSE);
}

TEST(TlmPath, RequestOfAnswersAPayloadWithoutItsExtension) {
  tlm::tlm_generic_payload bare;
  bare.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  EXPECT_EQ(request_of(bare), nullptr);
  EXPECT_EQ(bare.get_response_status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
  RequestPayload p;
  p.trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  EXPECT_EQ(request_of(p.trans), &p.ext);
  EXPECT_EQ(p.trans.get_response_status(), tlm::TLM_INCOMPLETE_RESPONSE);
}

TEST(TlmPath, FirmwareProgramsTheConfiguredMappingThroughRegisterWrites) {
  const Config cfg = load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/default.yaml");
  Clock clock(cfg.simulation.cycle_ns);
  MemorySystem mem("mem", cfg, clock);
  DriverTlm driver("driver", driver_params(cfg), nullptr);
  driver.registers.bind(mem.registers.target);
  driver.memory.bind(mem.router.page_tables);
  RegisterProbe idle("idle");  // the request socket must be bound
  idle.body = [](RegisterProbe&) {};
  idle.socket.bind(mem.request_target());
  const TranslatorRegisters before = mem.registers.bank().translator_registers();
  EXPECT_EQ(before.scheme[1], Scheme::kNone) << "reset state is identity";
  run_kernel();
  ASSERT_FALSE(driver.failure());
  const TranslatorRegisters want = registers_from_config(cfg);
  const TranslatorRegisters& got = mem.registers.bank().translator_registers();
  EXPECT_EQ(got.scheme, want.scheme);
  EXPECT_EQ(got.xor_vector, want.xor_vector);
  EXPECT_EQ(got.interleave_enable, want.interleave_enable);
}

}  // namespace
}  // namespace gpumem::test
