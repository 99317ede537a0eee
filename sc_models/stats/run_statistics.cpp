#include "stats/run_statistics.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace gpumem {

RunStatistics::RunStatistics(const Config& cfg)
    : cfg_(cfg),
      service_cycles_(cfg.memory.service_cycles),
      channels_(cfg.memory.channels),
      tasks_(kMaxTaskTypes),
      entropy_(cfg.memory.channels, cfg.entropy_window()) {
  entropy_.keep_series();
  for (auto& t : tasks_) t.per_channel.assign(cfg.memory.channels, 0);
  if (cfg.has_mmu()) {
    processes_.resize(kMaxProcesses);
    for (auto& p : processes_) p.per_channel.assign(cfg.memory.channels, 0);
  }
}

void RunStatistics::on_completion(const Completion& c) {
  ++requests_;
  first_issue_ = std::min(first_issue_, c.issue_cycle);
  last_completion_ = std::max(last_completion_, c.completion_cycle);
  // The L1 answered: no TLB lookup, no channel (the L1's own figures count it).
  if (served_by_l1(c.how.l1)) return;
  // A miss moved its line fill's bytes, not the demand's.
  const unsigned bytes = c.how.l1 == L1Result::kMiss ? cfg_.l1.line_bytes : c.request.size;
  ProcessStats* p = c.how.mmu ? &processes_[c.request.process] : nullptr;
  if (p) {
    ++p->requests;
    (c.request.op == Op::kWrite ? p->writes : p->reads)++;
    p->walk_reads += c.how.walk_reads;
    switch (c.how.tlb) {
      case TlbResult::kHitSmall: ++p->hits_small; break;
      case TlbResult::kHitLarge: ++p->hits_large; break;
      case TlbResult::kNested: ++p->nested; break;
      case TlbResult::kMiss: ++p->misses; break;
    }
  }
  if (c.how.fault != FaultReason::kNone) {  // never reached a channel
    ++faults_;
    if (p) ++p->faults;
    return;
  }
  if (p) ++p->per_channel[c.how.channel];
  ChannelStats& ch = channels_[c.how.channel];
  ++ch.requests;
  ch.bytes += bytes;
  if (c.how.dram && c.request.op != Op::kWrite) {
    const uint64_t latency = c.how.finish_cycle - c.how.accept_cycle;
    read_latency_.add(latency);
    ++ch.dram_reads;
    ch.dram_read_cycles += latency;
    if (const uint64_t n = cfg_.stats.epoch_cycles) {
      const size_t e = size_t(c.how.finish_cycle / n);
      if (e >= ch.epoch_latency.size()) ch.epoch_latency.resize(e + 1);
      ch.epoch_latency[e].add(latency);
    }
  }
  TaskStats& t = tasks_[c.how.task_type];
  ++t.requests;
  (c.request.op == Op::kWrite ? t.writes : t.reads)++;
  t.bytes += bytes;
  ++t.per_channel[c.how.channel];
  entropy_.add(c.how.channel);
}

nlohmann::json RunStatistics::to_json() const {
  using nlohmann::json;
  const uint64_t span = makespan();
  json channels = json::array();
  for (size_t i = 0; i < channels_.size(); ++i) {
    const auto& c = channels_[i];
    channels.push_back({{"channel", i},
                        {"requests", c.requests},
                        {"bytes", c.bytes},
                        {"busy_cycles", c.requests * service_cycles_},
                        {"utilisation", span ? double(c.requests * service_cycles_) / double(span) : 0.0}});
  }
  json tasks = json::array();
  for (size_t t = 0; t < tasks_.size(); ++t) {
    const auto& s = tasks_[t];
    if (!s.requests) continue;
    tasks.push_back({{"task_type", t},
                     {"requests", s.requests},
                     {"reads", s.reads},
                     {"writes", s.writes},
                     {"bytes", s.bytes},
                     {"per_channel", s.per_channel}});
  }
  uint64_t max_requests = 0, served = 0;
  for (const auto& c : channels_) max_requests = std::max(max_requests, c.requests), served += c.requests;
  json j = {{"requests", requests_},
          {"faults", faults_},
          {"makespan", span},
          {"first_issue_cycle", requests_ ? first_issue_ : 0},
          {"last_completion_cycle", last_completion_},
          {"mean_window_entropy", entropy_.mean()},
          {"max_entropy", entropy_.maximum()},
          {"entropy_windows", entropy_.windows()},
          {"channel_imbalance", served ? double(max_requests) * double(channels_.size()) / double(served) : 0.0},
          {"channels", channels},
          {"tasks", tasks},
          {"series", series_json(entropy_.series(), entropy_.window())}};
  if (cfg_.has_mmu()) {
    json apps = json::array();
    for (const auto& app : cfg_.address_space.applications) {
      const ProcessStats& p = processes_[app.process];
      apps.push_back({{"name", app.name},
                      {"process", app.process},
                      {"task_type", app.task_type},
                      {"requests", p.requests},
                      {"reads", p.reads},
                      {"writes", p.writes},
                      {"faults", p.faults},
                      {"tlb", {{"hits_small", p.hits_small}, {"hits_large", p.hits_large}, {"misses", p.misses}, {"nested", p.nested}}},
                      {"walk_reads", p.walk_reads},
                      {"per_channel", p.per_channel}});
    }
    j["applications"] = apps;
  }
  return j;
}

nlohmann::json series_json(const std::vector<SeriesPoint>& points, unsigned window) {
  nlohmann::json out = nlohmann::json::array();
  for (const SeriesPoint& p : points)
    out.push_back({{"first_window", p.first_window}, {"windows", p.windows}, {"entropy", p.entropy}, {"per_channel", p.per_channel}});
  return {{"window", window}, {"max_points", kSeriesPoints}, {"points", out}};
}

double RunStatistics::mean_queue_depth(const ChannelQueueFigures& q) const {
  const uint64_t span = makespan();
  return span ? double(q.residence_cycles) / double(span) : 0.0;
}

void RunStatistics::print(std::ostream& os, const std::vector<ChannelQueueFigures>& queues) const {
  const uint64_t span = makespan();
  os << "requests            " << requests_ << "\n"
     << "makespan            " << span << " cycles\n"
     << std::fixed << std::setprecision(3) << "mean window entropy " << entropy_.mean() << " bits (max "
     << entropy_.maximum() << ", " << entropy_.windows() << " windows)\n\n"
     << "channel  requests  busy_cycles  util   mean_q  max_q\n";
  const bool dram = cfg_.memory.model == MemoryModel::kDram;  // its busy figures are in the DRAM table
  for (size_t i = 0; i < channels_.size(); ++i) {
    const auto& c = channels_[i];
    const ChannelQueueFigures q = i < queues.size() ? queues[i] : ChannelQueueFigures{};
    if (dram) {
      os << std::setw(7) << i << std::setw(10) << c.requests << std::setw(13) << "-" << std::setw(7) << "-" << std::setw(8)
         << mean_queue_depth(q) << std::setw(7) << q.max_depth << "\n";
      continue;
    }
    const uint64_t busy = c.requests * service_cycles_;
    os << std::setw(7) << i << std::setw(10) << c.requests << std::setw(13) << busy << std::setw(7)
       << (span ? double(busy) / double(span) : 0.0) << std::setw(8) << mean_queue_depth(q) << std::setw(7) << q.max_depth << "\n";
  }
  if (faults_) os << "faults              " << faults_ << "\n";
  os << "\ntask  requests     reads    writes\n";
  for (size_t t = 0; t < tasks_.size(); ++t)
    if (tasks_[t].requests)
      os << std::setw(4) << t << std::setw(10) << tasks_[t].requests << std::setw(10) << tasks_[t].reads << std::setw(10)
         << tasks_[t].writes << "\n";
  if (!cfg_.has_mmu()) return;
  os << "\napplication       process  task  requests  hit_small  hit_large  misses  nested  walk_reads  faults\n";
  for (const auto& app : cfg_.address_space.applications) {
    const ProcessStats& p = processes_[app.process];
    os << std::left << std::setw(18) << app.name << std::right << std::setw(7) << app.process << std::setw(6) << app.task_type
       << std::setw(10) << p.requests << std::setw(11) << p.hits_small << std::setw(11) << p.hits_large << std::setw(8)
       << p.misses << std::setw(8) << p.nested << std::setw(12) << p.walk_reads << std::setw(8) << p.faults << "\n";
  }
  os << "\nrequests per channel, by application\n" << std::setw(18) << "channel";
  for (size_t c = 0; c < channels_.size(); ++c) os << std::setw(7) << c;
  os << "\n";
  for (const auto& app : cfg_.address_space.applications) {
    os << std::left << std::setw(18) << app.name << std::right;
    for (uint64_t n : processes_[app.process].per_channel) os << std::setw(7) << n;
    os << "\n";
  }
}

}  // namespace gpumem
