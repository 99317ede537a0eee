// memory.model: dram through the binary: the stats JSON's dram object and
// the transaction log's DRAM columns agree with each other and with the run,
// and `gpumem trace convert --to dramsim3` writes the stream a run reads back.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "base/dram_spec.hpp"
#include "cli_helpers.hpp"

namespace gpumem::test {
namespace {

// Two channels of DDR4 (two ranks), reads and a quarter writes over 1 MiB:
// row hits, conflicts, both ranks, write drains and refreshes in a short run.
const char* const kDram =
    "memory: {address_bits: 32, channels: 2, max_outstanding: 32, preset: ddr4, latency_cycles: 5,\n"
    "         dram: {write_high: 8, write_low: 2, timing: {tREFI: 3000}}}\n"
    "translator: {channel_bits: [6]}\n"
    "workload:\n"
    "  - {kind: strided, base: 0, stride: 64, range: 0x100000, count: 20000, size: 64, issue_interval: 1, write_fraction: 0.25}\n"
    "  - {kind: random, base: 0, range: 0x100000, count: 20000, size: 64, seed: 5, issue_interval: 2, write_fraction: 0.25}\n";

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  std::string x;
  while (std::getline(ss, x, ',')) f.push_back(x);
  if (!line.empty() && line.back() == ',') f.push_back("");
  return f;
}

TEST_F(Cli, ADramRunReportsItsBanksAndLogsWhereEachRequestLanded) {
  const auto cfg = write("c.yaml", kDram);
  const Result r = run({"run", "--config", cfg.string(), "--stats-json", path("s.json").string(), "--txn-log",
                        path("t.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("DRAM (ddr4, open page, row-rank-bank-bankgroup-column): read latency mean"), std::string::npos) << r.out;
  const auto j = json("s.json");
  ASSERT_TRUE(j.contains("dram")) << j.dump();
  const auto& d = j["dram"];
  EXPECT_EQ(d["preset"], "ddr4");
  uint64_t reads = 0, writes = 0, forwarded = 0;
  for (const auto& c : d["channels"]) {
    uint64_t br = 0, bw = 0, hits = 0, misses = 0, conflicts = 0, acts = 0;
    for (const auto& b : c["banks"]) {
      br += b["reads"].get<uint64_t>(), bw += b["writes"].get<uint64_t>();
      hits += b["row_hits"].get<uint64_t>(), misses += b["row_misses"].get<uint64_t>();
      conflicts += b["row_conflicts"].get<uint64_t>(), acts += b["activates"].get<uint64_t>();
    }
    EXPECT_EQ(c["banks"].size(), 32u) << "two ranks of 16 banks";
    EXPECT_EQ(br, c["reads"]);
    EXPECT_EQ(bw, c["writes"]);
    EXPECT_EQ(hits + misses + conflicts, br + bw) << "every column command is a hit, a miss or a conflict";
    EXPECT_EQ(acts, misses + conflicts) << "an activate for every miss and conflict";
    EXPECT_GT(hits, 0u);
    EXPECT_GT(conflicts, 0u);
    EXPECT_GT(c["refreshes"].get<uint64_t>(), 0u);
    EXPECT_GT(c["write_drains"].get<uint64_t>(), 0u);
    EXPECT_GT(c["peak_share"].get<double>(), 0.0);
    EXPECT_LE(c["peak_share"].get<double>(), 1.0);
    reads += br, writes += bw, forwarded += c["forwarded_reads"].get<uint64_t>();
  }
  EXPECT_EQ(reads + forwarded, d["read_latency"]["reads"]) << "every read that reached a channel has a latency";
  const auto& lat = d["read_latency"];
  EXPECT_LE(lat["p50"].get<uint64_t>(), lat["p95"].get<uint64_t>());
  EXPECT_LE(lat["p95"].get<uint64_t>(), lat["p99"].get<uint64_t>());
  EXPECT_LE(lat["p99"].get<uint64_t>(), lat["max"].get<uint64_t>());
  uint64_t binned = 0;
  for (const auto& b : lat["histogram"]) binned += b["count"].get<uint64_t>();
  EXPECT_EQ(binned, lat["reads"]);

  // The log: the DRAM columns on every line, and its row results add up to the JSON's.
  std::istringstream log(slurp(path("t.csv")));
  std::string line;
  std::getline(log, line);
  const std::string tail = ",l1,rank,bank_group,bank,row,row_result,queue_delay";
  EXPECT_EQ(line.substr(line.size() - tail.size()), tail);
  std::map<std::string, uint64_t> results;
  uint64_t lines = 0;
  while (std::getline(log, line)) {
    const auto f = fields(line);
    ASSERT_EQ(f.size(), 26u) << line;
    ++results[f[24]];
    ++lines;
    EXPECT_EQ(std::stoull(f[15]) - std::stoull(f[14]), std::stoull(f[25])) << "without an MMU the queue delay is start - issue: " << line;
  }
  EXPECT_EQ(lines, 40000u);
  EXPECT_EQ(results["posted"], writes) << "each write posted once, and sent to its bank by the end";
  EXPECT_EQ(results["forwarded"], forwarded);
  const std::set<std::string> known{"hit", "miss", "conflict", "forwarded", "posted"};
  for (const auto& [name, n] : results) EXPECT_TRUE(known.count(name)) << name;
}

// A request wider than the device's access (a 128-byte line on GDDR6's
// or HBM3's 32-byte bursts, on DDR4's 64) takes one access a burst, each
// a column command of its own, so no channel moves more than its peak.
TEST_F(Cli, ARequestWiderThanAnAccessTakesAColumnCommandPerBurst) {
  std::string trace = "cycle,task_type,op,address,size\n";
  for (int i = 0; i < 1500; ++i) trace += std::to_string(i) + ",0," + (i % 4 == 3 ? "W," : "R,") + std::to_string(i * 128) + ",128\n";
  write("wide.csv", trace);
  for (const char* preset : {"gddr6", "hbm3", "ddr4"})
    for (const char* mode : {"lt", "at"}) {
      const std::string what = std::string(preset) + " " + mode;
      const DramSpec spec = *dram_preset(preset);
      const unsigned bursts = 128 / spec.org.access_bytes();
      write("w.yaml", std::string("memory: {address_bits: 32, channels: 1, preset: ") + preset +
                          "}\nsimulation: {timing: " + mode + ", cycle_ns: " + std::to_string(spec.tck_ps / 1000.0) + "}\n");
      ASSERT_EQ(run({"run", "--config", path("w.yaml").string(), "--trace", path("wide.csv").string(), "--stats-json",
                     path("w.json").string(), "--dram-commands", path("w.cmd").string(), "--quiet"})
                    .exit_code,
                0)
          << what;
      std::istringstream cmds(slurp(path("w.cmd")));
      std::string line;
      std::map<std::string, uint64_t> n;
      std::set<std::string> places;  // each burst of each request at its own column
      uint64_t columns = 0;
      while (std::getline(cmds, line)) {
        const auto f = fields(line);
        ++n[f[7]];
        if (f[7] == "RD" || f[7] == "RDA" || f[7] == "WR" || f[7] == "WRA") {
          ++columns;
          places.insert(f[2] + "," + f[3] + "," + f[4] + "," + f[5] + "," + f[6]);
        }
      }
      EXPECT_EQ(places.size(), columns) << what << ": a burst read or written twice";
      EXPECT_EQ(n["RD"] + n["RDA"], 1125u * bursts) << what;
      EXPECT_EQ(n["WR"] + n["WRA"], 375u * bursts) << what;
      const auto j = json("w.json");
      const auto& c = j["dram"]["channels"][0];
      EXPECT_EQ(c["bytes_read"].get<uint64_t>(), 1125u * 128) << what;
      EXPECT_EQ(c["bytes_written"].get<uint64_t>(), 375u * 128) << what;
      EXPECT_EQ(j["channels"][0]["accesses"].get<uint64_t>(), 1500u * bursts) << what;
      EXPECT_EQ(j["dram"]["read_latency"]["reads"].get<uint64_t>(), 1125u) << what << ": a latency a request";
      const double peak = j["dram"]["peak_gbps_per_channel"].get<double>();
      EXPECT_LE(c["bandwidth_gbps"].get<double>(), peak) << what;
      const double moved = j["channels"][0]["bytes"].get<double>() / (j["makespan"].get<double>() * spec.tck_ps / 1000.0);
      EXPECT_LE(moved, peak) << what << ": the requests' bytes over the run, in GB/s";
      EXPECT_GE(c["peak_share"].get<double>(), 0.5) << what << ": one row after another, mostly hits";
    }
}

// The energy (docs/memory.md, "Energy"): each part the preset's cost of
// the commands counted, the ranks' parts adding up to the channel's and the
// channels' to the run's, in both timing modes; the power figures from the
// config.
TEST_F(Cli, ADramRunsEnergyIsItsCommandsAndStandbyAtThePresetsCosts) {
  for (const char* timing : {"lt", "at"}) {
    SCOPED_TRACE(timing);
    const std::string kDramTimed = std::string(kDram) + "simulation: {timing: " + timing + "}\n";
    const auto cfg = write("c.yaml", kDramTimed);
    const Result r = run({"run", "--config", cfg.string(), "--stats-json", path("s.json").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("energy_uJ  power_mW"), std::string::npos) << r.out;
    const auto d = json("s.json")["dram"];
    // DDR4: eight devices of 1.2 V at tCK 0.625 ns (docs/config-reference.md).
    const double scale = 1.2 * 8 * 0.625, activate_cost = (57 * 74 - (52 * 52 + 37 * 22)) * scale;
    const double read_cost = (168 - 52) * 4 * scale, write_cost = (150 - 52) * 4 * scale, refresh_cost = (250 - 52) * 560 * scale;
    double run_pj = 0, run_mw = 0;
    for (const auto& c : d["channels"]) {
      const auto& e = c["energy"];
      EXPECT_DOUBLE_EQ(e["activate_pj"].get<double>(), c["activates"].get<double>() * activate_cost);
      EXPECT_DOUBLE_EQ(e["read_pj"].get<double>(), c["reads"].get<double>() * read_cost);
      EXPECT_DOUBLE_EQ(e["write_pj"].get<double>(), c["writes"].get<double>() * write_cost);
      EXPECT_DOUBLE_EQ(e["refresh_pj"].get<double>(), c["refreshes"].get<double>() * refresh_cost);
      const double parts = e["activate_pj"].get<double>() + e["read_pj"].get<double>() + e["write_pj"].get<double>() +
                           e["refresh_pj"].get<double>() + e["active_standby_pj"].get<double>() +
                           e["precharge_standby_pj"].get<double>();
      EXPECT_NEAR(e["total_pj"].get<double>(), parts, 1e-6 * parts);
      ASSERT_EQ(c["ranks"].size(), 2u);
      double ranks_pj = 0, banks_pj = 0, ranks_commands_pj = 0;
      uint64_t span = 0;
      for (const auto& k : c["ranks"]) {
        const uint64_t active = k["active_cycles"], precharged = k["precharged_cycles"];
        EXPECT_GT(active, 0u);
        if (span) {
          EXPECT_EQ(active + precharged, span) << "every rank counts the same cycles";
        }
        span = active + precharged;
        EXPECT_DOUBLE_EQ(k["energy"]["active_standby_pj"].get<double>(), double(active) * 52 * scale);
        EXPECT_DOUBLE_EQ(k["energy"]["precharge_standby_pj"].get<double>(), double(precharged) * 37 * scale);
        ranks_pj += k["energy"]["total_pj"].get<double>();
        ranks_commands_pj += k["energy"]["activate_pj"].get<double>() + k["energy"]["read_pj"].get<double>() +
                             k["energy"]["write_pj"].get<double>();
      }
      for (const auto& b : c["banks"]) banks_pj += b["energy_pj"].get<double>();
      EXPECT_NEAR(ranks_pj, e["total_pj"].get<double>(), 1e-6 * ranks_pj);
      EXPECT_NEAR(banks_pj, ranks_commands_pj, 1e-6 * banks_pj);
      EXPECT_GE(double(span) * 0.625, json("s.json")["makespan"].get<double>() * 0.99) << "the standby covers the run";
      EXPECT_NEAR(c["average_power_mw"].get<double>(), e["total_pj"].get<double>() / (double(span) * 0.625), 1e-9);
      run_pj += e["total_pj"].get<double>(), run_mw += c["average_power_mw"].get<double>();
    }
    EXPECT_NEAR(d["energy_pj"].get<double>(), run_pj, 1e-6 * run_pj);
    EXPECT_NEAR(d["average_power_mw"].get<double>(), run_mw, 1e-9 * run_mw);

    // Twice the voltage, twice every part.
    std::string text = kDramTimed;
    text.replace(text.find("timing: {tREFI: 3000}"), 21, "timing: {tREFI: 3000}, power: {vdd: 2.4}");
    const auto doubled = write("d.yaml", text);
    ASSERT_EQ(run({"run", "--config", doubled.string(), "--stats-json", path("d.json").string(), "--quiet"}).exit_code, 0);
    EXPECT_NEAR(json("d.json")["dram"]["energy_pj"].get<double>(), 2 * run_pj, 1e-6 * run_pj);
  }
}

// hbm3 and lpddr5 have no power figures: no energy anywhere (null in the
// stats JSON, "-" in the report) until the config gives every one; then
// the same figures as any preset's.
TEST_F(Cli, APresetWithoutPowerFiguresReportsNoEnergyUntilTheConfigGivesThem) {
  for (const char* preset : {"hbm3", "lpddr5"}) {
    SCOPED_TRACE(preset);
    const std::string memory = std::string("memory: {address_bits: 32, channels: 2, preset: ") + preset;
    const std::string rest =
        "stats: {epoch_cycles: 5000}\n"
        "workload:\n"
        "  - {kind: random, base: 0, range: 0x100000, count: 4000, size: 64, seed: 3, issue_interval: 2, write_fraction: 0.25}\n";
    write("none.yaml", memory + "}\n" + rest);
    const Result r = run({"run", "--config", path("none.yaml").string(), "--stats-json", path("none.json").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("energy - (no power figures)"), std::string::npos) << r.out;
    const auto d = json("none.json")["dram"];
    EXPECT_TRUE(d["energy_pj"].is_null());
    EXPECT_TRUE(d["average_power_mw"].is_null());
    for (const auto& c : d["channels"]) {
      EXPECT_GT(c["reads"].get<uint64_t>(), 0u);
      EXPECT_TRUE(c["energy"].is_null());
      EXPECT_TRUE(c["average_power_mw"].is_null());
      for (const auto& k : c["ranks"]) EXPECT_TRUE(k["energy"].is_null());
      for (const auto& b : c["banks"]) EXPECT_TRUE(b["energy_pj"].is_null());
      ASSERT_FALSE(c["epochs"].empty());
      for (const auto& e : c["epochs"]) EXPECT_TRUE(e["energy_pj"].is_null() && e["average_power_mw"].is_null());
    }
    write("given.yaml", memory +
                            ",\n  dram: {power: {vdd: 1.1, idd0: 60, idd2n: 50, idd3n: 55, idd4r: 145, idd4w: 145, idd5ab: 362}}}\n" +
                            rest);
    ASSERT_EQ(run({"run", "--config", path("given.yaml").string(), "--stats-json", path("given.json").string(), "--quiet"})
                  .exit_code,
              0);
    const auto g = json("given.json")["dram"];
    EXPECT_GT(g["energy_pj"].get<double>(), 0.0);
    double sum = 0;
    for (const auto& c : g["channels"]) sum += c["energy"]["total_pj"].get<double>();
    EXPECT_NEAR(g["energy_pj"].get<double>(), sum, 1e-6 * sum);
  }
}

// stats.epoch_cycles: each channel's epochs add up to its figures, every
// read's latency counted in one epoch, in both timing modes.
TEST_F(Cli, ADramRunsEpochsAddUpToItsChannels) {
  for (const char* timing : {"lt", "at"}) {
    SCOPED_TRACE(timing);
    const auto cfg = write("c.yaml", std::string(kDram) + "simulation: {timing: " + timing + "}\nstats: {epoch_cycles: 5000}\n");
    const Result r = run({"run", "--config", cfg.string(), "--stats-json", path("s.json").string(), "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = json("s.json");
    const auto& d = j["dram"];
    EXPECT_EQ(d["epoch_cycles"], 5000);
    uint64_t latency_reads = 0;
    for (const auto& c : d["channels"]) {
      const auto& epochs = c["epochs"];
      ASSERT_GE(epochs.size(), j["makespan"].get<uint64_t>() / 5000) << "an epoch for every 5000 cycles of the run";
      uint64_t reads = 0, writes = 0, hits = 0, conflicts = 0, refreshes = 0, bank_hits = 0;
      double energy = 0;
      for (size_t e = 0; e < epochs.size(); ++e) {
        const auto& x = epochs[e];
        EXPECT_EQ(x["epoch"], e);
        EXPECT_EQ(x["start_cycle"], e * 5000);
        reads += x["reads"].get<uint64_t>(), writes += x["writes"].get<uint64_t>(), hits += x["row_hits"].get<uint64_t>();
        conflicts += x["row_conflicts"].get<uint64_t>(), refreshes += x["refreshes"].get<uint64_t>();
        energy += x["energy_pj"].get<double>();
        // DDR4 moves 64 bytes a column command; an epoch is 5000 ns of the run (the last, up to its end).
        const double ns = e + 1 < epochs.size() ? 5000.0 : 0.0;
        if (ns > 0) {
          EXPECT_NEAR(x["bandwidth_gbps"].get<double>() * ns, 64.0 * (x["reads"].get<double>() + x["writes"].get<double>()), 64.0 * 2)
              << "epoch " << e;
        }
        latency_reads += x["read_latency"]["reads"].get<uint64_t>();
        ASSERT_EQ(x["bank_accesses"].size(), 32u);
        uint64_t accesses = 0;
        for (size_t b = 0; b < 32; ++b) accesses += x["bank_accesses"][b].get<uint64_t>(), bank_hits += x["bank_row_hits"][b].get<uint64_t>();
        EXPECT_EQ(accesses, x["reads"].get<uint64_t>() + x["writes"].get<uint64_t>()) << "epoch " << e;
        if (x["read_latency"]["reads"].get<uint64_t>()) {
          EXPECT_LE(x["read_latency"]["p50"].get<uint64_t>(), x["read_latency"]["p95"].get<uint64_t>());
          EXPECT_LE(x["read_latency"]["p99"].get<uint64_t>(), x["read_latency"]["max"].get<uint64_t>());
        }
      }
      EXPECT_EQ(reads, c["reads"]);
      EXPECT_EQ(writes, c["writes"]);
      EXPECT_EQ(hits, c["row_hits"]);
      EXPECT_EQ(bank_hits, c["row_hits"]);
      EXPECT_EQ(conflicts, c["row_conflicts"]);
      EXPECT_EQ(refreshes, c["refreshes"]);
      EXPECT_NEAR(energy, c["energy"]["total_pj"].get<double>(), 1e-6 * energy);
    }
    EXPECT_EQ(latency_reads, d["read_latency"]["reads"]) << "every read's latency in one epoch";
  }
}

// The SMs reuse one payload per SM and a strided request's elements come
// back through the router: every line of the log must carry its own DRAM
// fields, never a previous request's.
TEST_F(Cli, EveryRequestOfAnSmLogsItsOwnDramResultStridedElementsToo) {
  std::ostringstream t;
  t << "thread,pc,op,address,width,dependent,data\nkernel,k,1\n";
  for (unsigned w = 0; w < 16; ++w) {
    for (unsigned lane = 0; lane < 32; ++lane) t << 32 * w + lane << ",0x10,W," << 0x1000 + 4 * (32 * w + lane) << ",4,0,5\n";
    for (unsigned lane = 0; lane < 32; ++lane) t << 32 * w + lane << ",0x18,R," << 0x80000 + 0x200 * (32 * w + lane) << ",4,1,\n";
    for (unsigned lane = 0; lane < 32; ++lane) t << 32 * w + lane << ",0x20,W," << 0x80000 + 0x200 * (32 * w + lane) << ",4,0,9\n";
    for (unsigned lane = 0; lane < 32; ++lane) t << 32 * w + lane << ",0x28,R," << 0x1000 + 4 * (32 * w + lane) << ",4,1,\n";
  }
  const auto threads = write("t.csv", t.str());
  const auto cfg = write("c.yaml",
                         "memory: {address_bits: 32, channels: 4, preset: hbm2, latency_cycles: 20, dram: {write_high: 4, write_low: 1}}\n"
                         "translator: {channel_bits: [8, 9]}\n"
                         "frontend: {num_sms: 2, blocks_per_sm: 2, warps_per_block: 2, mshr_entries: 8, issue_timing: memory, strided_requests: true}\n");
  const Result r = run({"run", "--config", cfg.string(), "--threads", threads.string(), "--stats-json", path("s.json").string(),
                        "--txn-log", path("t.log").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("s.json");
  ASSERT_GT(j["frontend"]["strided"]["requests"].get<uint64_t>(), 0u) << "the trace must make strided requests";
  std::istringstream log(slurp(path("t.log")));
  std::string line;
  std::getline(log, line);
  uint64_t reads = 0, longest = 0;
  while (std::getline(log, line)) {
    const auto f = fields(line);
    ASSERT_EQ(f.size(), 26u) << line;
    ASSERT_FALSE(f[24].empty()) << "every request reached a DRAM channel: " << line;
    if (f[3] == "R") {
      ++reads;
      EXPECT_NE(f[24], "posted") << "a read is never posted: " << line;
    } else {
      EXPECT_EQ(f[24], "posted") << line;
    }
    EXPECT_LE(std::stoull(f[25]), std::stoull(f[16]) - std::stoull(f[14])) << "the queue delay lies within the request's time: " << line;
    longest = std::max<uint64_t>(longest, std::stoull(f[16]) - std::stoull(f[14]));
  }
  const auto& lat = j["dram"]["read_latency"];
  EXPECT_EQ(lat["reads"].get<uint64_t>(), reads) << "each read, strided elements each, has one latency";
  EXPECT_LE(lat["max"].get<uint64_t>(), longest) << "no read waits longer in the memory than from issue to completion";
}

TEST_F(Cli, TraceConvertToDramsim3WritesTheOrderedRequestsThatARunReadsBack) {
  std::ostringstream t;
  t << "thread,pc,op,address,width,dependent,data\nkernel,k,1\n";
  for (unsigned w = 0; w < 4; ++w) {
    for (unsigned lane = 0; lane < 32; ++lane) t << 32 * w + lane << ",0x10,R," << 0x1000 + 4 * (32 * w + lane) << ",4,1,\n";
    for (unsigned lane = 0; lane < 32; ++lane) t << 32 * w + lane << ",0x18,W," << 0x80000 + 0x100 * (32 * w + lane) << ",4,0,7\n";
  }
  const auto threads = write("t.csv", t.str());
  const auto cfg = write("c.yaml",
                         "memory: {address_bits: 32, channels: 1, preset: hbm2}\n"
                         "frontend: {num_sms: 2, blocks_per_sm: 1, warps_per_block: 2, mshr_entries: 8}\n");
  Result r = run({"trace", "order", "--config", cfg.string(), "--threads", threads.string(), "--out", path("o.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run({"trace", "convert", threads.string(), path("t.trc").string(), "--to", "dramsim3", "--config", cfg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Each request of the ordering once, at its slot, in the form DRAMsim3 reads.
  std::istringstream ordered(slurp(path("o.csv"))), trc(slurp(path("t.trc")));
  std::string o, d;
  std::getline(ordered, o);  // header
  uint64_t n = 0;
  uint64_t strided = 0;
  while (std::getline(ordered, o)) {
    const auto f = fields(o);
    const uint64_t address = std::stoull(f[9], nullptr, 16), width = std::stoull(f[10]);
    const uint64_t stride = std::stoull(f[14]), elements = std::stoull(f[15]);
    strided += elements > 0;
    for (uint64_t k = 0; k < std::max<uint64_t>(elements, 1); ++k, ++n) {
      std::ostringstream want;
      want << "0x" << std::hex << (elements ? address + k * stride : address & ~(width - 1)) << std::dec
           << (f[8] == "W" ? " WRITE " : " READ ") << f[0];
      ASSERT_TRUE(std::getline(trc, d)) << "fewer trace lines than the ordering's requests";
      EXPECT_EQ(d, want.str());
    }
  }
  EXPECT_FALSE(std::getline(trc, d)) << "more trace lines than requests";
  EXPECT_EQ(strided, 4u) << "each warp's stores, 256 bytes apart, are one strided request";
  EXPECT_EQ(n, 4u * (1 + 32)) << "per warp one coalesced load and 32 store elements";
  EXPECT_NE(r.out.find(std::to_string(n) + " DRAMsim3 trace lines"), std::string::npos) << r.out;
  r = run({"run", "--config", cfg.string(), "--trace", path("t.trc").string(), "--trace-format", "dramsim3", "--stats-json",
           path("s.json").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json("s.json")["requests"], n);
}

TEST_F(Cli, TraceConvertToDramsim3NeedsTheConfigThatOrdersTheTrace) {
  const auto threads = write("t.csv", "thread,pc,op,address,width,dependent,data\nkernel,k,1\n0,0x10,R,0x1000,4,0,\n");
  const Result r = run({"trace", "convert", threads.string(), path("t.trc").string(), "--to", "dramsim3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpumem: error: --config: --to dramsim3 needs the config whose ordering makes the requests\n");
  EXPECT_FALSE(fs::exists(path("t.trc")));
  const Result bad = run({"trace", "convert", threads.string(), path("t.trc").string(), "--to", "ramulator"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "gpumem: error: --to: ramulator not in {dramsim3} (gpumem trace convert --help)\n");
  EXPECT_FALSE(fs::exists(path("t.trc")));
}

// docs/memory.md, "Pointing a mapping at banks": two streams on two rows of
// one bank close each other's row; XORing the row's lowest bit into the
// bank's lowest bit puts them in two banks, and the stats say so.
TEST_F(Cli, BankXorPutsTwoStreamsThatShareABankInTwoAndTheirConflictsBecomeRowHits) {
  const std::string streams =
      "simulation: {cycle_ns: 1.0}\n"
      "workload:\n"
      "  - {kind: strided, base: 0, stride: 64, range: 2048, count: 4000, size: 64, issue_interval: 2}\n"
      "  - {kind: strided, base: 0x8000, stride: 64, range: 2048, count: 4000, size: 64, issue_interval: 2}\n";
  const auto plain = write("plain.yaml", "memory: {address_bits: 32, channels: 1, max_outstanding: 16, preset: hbm2}\n" + streams);
  const auto xored = write("xor.yaml", "memory: {address_bits: 32, channels: 1, max_outstanding: 16, preset: hbm2,\n"
                                      "         dram: {bank_xor: [[15]]}}\n" + streams);
  ASSERT_EQ(run({"run", "--config", plain.string(), "--stats-json", path("p.json").string(), "--quiet"}).exit_code, 0);
  ASSERT_EQ(run({"run", "--config", xored.string(), "--stats-json", path("x.json").string(), "--quiet"}).exit_code, 0);
  const auto p = json("p.json"), x = json("x.json");
  const auto banks_used = [](const nlohmann::json& j) {
    unsigned n = 0;
    for (const auto& b : j["dram"]["channels"][0]["banks"]) n += b["reads"].get<uint64_t>() > 0;
    return n;
  };
  EXPECT_EQ(banks_used(p), 1u);
  EXPECT_EQ(banks_used(x), 2u);
  const auto& pc = p["dram"]["channels"][0];
  const auto& xc = x["dram"]["channels"][0];
  EXPECT_GT(pc["row_conflicts"].get<uint64_t>(), 500u);
  EXPECT_EQ(xc["row_conflicts"], 0u);
  EXPECT_EQ(xc["row_misses"].get<uint64_t>(), 2 + 2 * xc["refreshes"].get<uint64_t>())
      << "each bank opens its row at the start and after each refresh, and every other access hits";
  EXPECT_GT(xc["row_hit_rate"].get<double>(), pc["row_hit_rate"].get<double>());
  EXPECT_LT(x["dram"]["read_latency"]["mean"].get<double>(), p["dram"]["read_latency"]["mean"].get<double>() / 2);
  EXPECT_LT(x["makespan"].get<uint64_t>(), p["makespan"].get<uint64_t>() / 2);
}

// simulation.timing: at, the case issue 49 measured: c[i] = a[i] + b[i]
// with the arrays 1 MiB apart, so both streams share a bank of one DDR4
// channel, with Ramulator 2's queue structure. Ramulator 2 on that trace:
// 97.5 % row hits, 7.76 bytes a memory cycle, mean read latency 299; the
// planner of lt: 66 %, 2.81, 780.
TEST_F(Cli, AtTwoStreamsInOneBankKeepTheirRowsOpenAsTheControllersThatDecideAtCommandTimeDo) {
  std::string trace = "cycle,task_type,op,address,size\n";
  const int n = 20000;
  for (int i = 0; i < n; ++i) trace += std::to_string(i) + ",0,R," + std::to_string((i % 2 ? 1 << 20 : 0) + (i / 2) * 64) + ",64\n";
  write("two.csv", trace);
  const std::string memory =
      "memory: {address_bits: 32, channels: 1, max_outstanding: 64, preset: ddr4,\n"
      "         dram: {read_queue: 33, bank_queue: 0, write_high: 26, write_low: 6}}\n";
  const auto at = write("at.yaml", memory + "simulation: {cycle_ns: 0.625, timing: at}\n");
  const auto lt = write("lt.yaml", memory + "simulation: {cycle_ns: 0.625, timing: lt}\n");
  for (const char* mode : {"at", "lt"})
    ASSERT_EQ(run({"run", "--config", path(std::string(mode) + ".yaml").string(), "--trace", path("two.csv").string(),
                   "--stats-json", path(std::string(mode) + ".json").string(), "--quiet"}).exit_code, 0);
  const auto a = json("at.json"), l = json("lt.json");
  const auto& ac = a["dram"]["channels"][0];
  const auto bytes_per_cycle = [&](const nlohmann::json& j) { return 64.0 * n / j["makespan"].get<double>(); };
  EXPECT_NEAR(ac["row_hit_rate"].get<double>(), 0.975, 0.02);
  EXPECT_NEAR(bytes_per_cycle(a), 7.76, 0.776) << "within 10 % of Ramulator 2";
  EXPECT_NEAR(a["dram"]["read_latency"]["mean"].get<double>(), 299, 29.9) << "within 10 % of Ramulator 2";
  EXPECT_LT(l["dram"]["channels"][0]["row_hit_rate"].get<double>(), 0.75) << "lt plans on arrival";
  EXPECT_GT(bytes_per_cycle(a), 2 * bytes_per_cycle(l));
  const auto& channel = a["channels"][0];
  EXPECT_GE(channel["max_queue_depth"].get<double>(), channel["mean_queue_depth"].get<double>());
  EXPECT_EQ(channel["max_queue_depth"], 64u) << "max_outstanding requests in the one channel";
}

// Both queue figures count one queue, the accesses in the channel from
// arrival to finish (memory.latency_cycles left out): the mean is their
// residence in the transaction log over the makespan, the max the most in
// the channel at once, never below the mean; for every preset, queue
// structure (the preset's bank queues, Ramulator 2's shared queue) and
// timing mode, on two streams in one bank, random reads and writes, and
// sequential reads.
TEST_F(Cli, EveryChannelsMeanQueueDepthIsItsResidenceAndAtMostItsMax) {
  // Requests of one access each (the transaction log's figures are then the accesses').
  const auto mix = [&](unsigned size) {
    const std::string bytes = "," + std::to_string(size) + "\n";
    std::string trace = "cycle,task_type,op,address,size\n";
    uint64_t cycle = 0, seed = 7;
    for (int i = 0; i < 3000; ++i, ++cycle) trace += std::to_string(cycle) + ",0,R," + std::to_string((i % 2 ? 1 << 20 : 0) + (i / 2) * 128) + bytes;
    for (int i = 0; i < 3000; ++i, cycle += 2) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      trace += std::to_string(cycle) + ",0," + ((seed >> 60) < 4 ? "W," : "R,") + std::to_string(((seed >> 20) % (1 << 20)) * 64) + bytes;
    }
    for (int i = 0; i < 3000; ++i, ++cycle) trace += std::to_string(cycle) + ",0,R," + std::to_string((64 << 20) + i * 64) + bytes;
    write("mix.csv", trace);
  };
  for (const char* preset : kDramPresetNames)
    for (const char* queues : {"{}", "{read_queue: 32, bank_queue: 0, write_high: 26, write_low: 6}"})
      for (const char* mode : {"lt", "at"}) {
        const std::string what = std::string(preset) + " " + queues + " " + mode;
        mix(dram_preset(preset)->org.access_bytes());
        write("q.yaml", std::string("memory: {address_bits: 32, channels: 2, max_outstanding: 64, latency_cycles: 5, preset: ") +
                            preset + ", dram: " + queues + "}\ntranslator: {channel_bits: [7]}\nsimulation: {timing: " + mode + "}\n");
        ASSERT_EQ(run({"run", "--config", path("q.yaml").string(), "--trace", path("mix.csv").string(), "--stats-json",
                       path("q.json").string(), "--txn-log", path("q.csv").string(), "--quiet"})
                      .exit_code,
                  0)
            << what;
        const auto j = json("q.json");
        // Each access's arrival (start_cycle - queue_delay) and finish (completion_cycle - latency), by channel.
        std::vector<std::vector<uint64_t>> arrivals(2), finishes(2);
        std::ifstream log(path("q.csv"));
        std::string line;
        std::getline(log, line);
        const std::vector<std::string> head = fields(line);
        const auto column = [&](const char* name) { return size_t(std::find(head.begin(), head.end(), name) - head.begin()); };
        const size_t ch = column("channel"), start = column("start_cycle"), done = column("completion_cycle"), delay = column("queue_delay");
        while (std::getline(log, line)) {
          const std::vector<std::string> f = fields(line);
          const unsigned c = unsigned(std::stoul(f[ch]));
          arrivals[c].push_back(std::stoull(f[start]) - std::stoull(f[delay]));
          finishes[c].push_back(std::stoull(f[done]) - 5);
        }
        for (unsigned c = 0; c < 2; ++c) {
          const auto& q = j["channels"][c];
          uint64_t residence = 0;
          for (size_t i = 0; i < arrivals[c].size(); ++i) residence += finishes[c][i] - arrivals[c][i];
          EXPECT_NEAR(q["mean_queue_depth"].get<double>(), double(residence) / j["makespan"].get<double>(), 1e-9) << what;
          // The most in the channel at a cycle an access arrives (a posted write counts itself as it arrives).
          std::vector<uint64_t> a = arrivals[c], f = finishes[c];
          std::sort(a.begin(), a.end());
          std::sort(f.begin(), f.end());
          uint64_t most = 0;
          for (const uint64_t t : a)
            most = std::max<uint64_t>(most, (std::upper_bound(a.begin(), a.end(), t) - a.begin()) -
                                                (std::upper_bound(f.begin(), f.end(), t) - f.begin()));
          const uint64_t max = q["max_queue_depth"].get<uint64_t>();
          EXPECT_GE(max, most) << what << ", channel " << c;
          EXPECT_LE(max, most + 1) << what << ", channel " << c;
          EXPECT_LE(q["mean_queue_depth"].get<double>(), double(max)) << what << ", channel " << c;
          EXPECT_GT(q["mean_queue_depth"].get<double>(), 1.0) << what << ", channel " << c << ": the run queues";
        }
      }
}

// Reruns in at are byte-identical: the controller's order comes from the
// requests' cycles and arrival order, not from the kernel's process order.
TEST_F(Cli, AtRerunsAreByteIdentical) {
  const auto cfg = write("c.yaml", std::string(kDram) + "simulation: {timing: at}\n");
  for (const char* k : {"1", "2"})
    ASSERT_EQ(run({"run", "--config", cfg.string(), "--stats-json", path(std::string("s") + k + ".json").string(), "--txn-log",
                   path(std::string("t") + k + ".csv").string(), "--no-timing"}).exit_code, 0);
  EXPECT_EQ(slurp(path("s1.json")), slurp(path("s2.json")));
  EXPECT_EQ(slurp(path("t1.csv")), slurp(path("t2.csv")));
  const auto j = json("s1.json");
  EXPECT_EQ(j["requests"], 40000u);
  for (const auto& c : j["dram"]["channels"]) {
    EXPECT_GT(c["refreshes"].get<uint64_t>(), 0u);
    EXPECT_GT(c["write_drains"].get<uint64_t>(), 0u);
  }
}

// On simple channels, which serve in arrival order, at and lt are the same
// machine: the same statistics, the same log lines (in completion order).
// The channel-balance windows are not: they count requests in the order the
// observers see them, which in at is the order they complete.
TEST_F(Cli, AtOnSimpleChannelsGivesTheStatisticsOfLt) {
  const std::string cfg =
      "memory: {address_bits: 32, channels: 4, service_cycles: 3, latency_cycles: 7, max_outstanding: 16}\n"
      "translator: {channel_bits: [6, 7]}\n"
      "workload:\n"
      "  - {kind: strided, base: 0, stride: 64, range: 0x10000, count: 5000, size: 64, issue_interval: 1, write_fraction: 0.25}\n"
      "  - {kind: random, base: 0, range: 0x10000, count: 5000, size: 64, seed: 5, issue_interval: 2}\n";
  fs::create_directories(path("at"));
  fs::create_directories(path("lt"));
  write("lt/c.yaml", cfg);
  write("at/c.yaml", cfg + "simulation: {timing: at}\n");
  for (const char* m : {"lt", "at"})
    ASSERT_EQ(run_in(path(m).string(), {"run", "--config", "c.yaml", "--stats-json", "s.json", "--txn-log", "t.csv", "--no-timing"}).exit_code, 0);
  auto l = json("lt/s.json"), a = json("at/s.json");
  for (auto* j : {&l, &a}) j->erase("series"), j->erase("mean_window_entropy");
  EXPECT_EQ(l, a);
  const auto lines = [&](const char* m) {
    std::vector<std::string> v;
    std::stringstream ss(slurp(path(std::string(m) + "/t.csv")));
    for (std::string line; std::getline(ss, line);) v.push_back(line);
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(lines("lt"), lines("at"));
}

// A run that at refuses writes nothing: the refusal comes before any output is opened.
TEST_F(Cli, AtRefusesARunOfThreadsBeforeWritingAnything) {
  // at issues a per-thread trace as the memory answers: issue_timing: ordering is refused.
  const auto cfg = write("c.yaml", "memory: {channels: 4}\ntranslator: {channel_bits: [8, 9]}\nsimulation: {timing: at}\n");
  write("t.csv", "thread,pc,op,address,width,dependent,data\nkernel,k,0\n0,0x10,R,0x1000,4,0,\n");
  const Result r = run({"run", "--config", cfg.string(), "--threads", path("t.csv").string(), "--stats-json",
                        path("s.json").string(), "--txn-log", path("x.csv").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("c.yaml:3: frontend.issue_timing: simulation.timing: at runs a per-thread trace"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("s.json")));
  EXPECT_FALSE(fs::exists(path("x.csv")));
}

}  // namespace
}  // namespace gpumem::test
