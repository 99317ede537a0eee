#include "run_statistics.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace gpumem {

RunStatistics::RunStatistics(const Config& cfg)
    : service_cycles_(cfg.memory.service_cycles),
      channels_(cfg.memory.channels),
      tasks_(kMaxTaskTypes),
      entropy_(cfg.memory.channels, cfg.entropy_window()) {
  for (auto& t : tasks_) t.per_channel.assign(cfg.memory.channels, 0);
}

void RunStatistics::on_completion(const Completion& c) {
  ChannelStats& ch = channels_[c.how.channel];
  ++ch.requests;
  ch.bytes += c.request.size;
  ch.residence_cycles += c.completion_cycle - c.issue_cycle;
  ch.max_queue_depth = std::max(ch.max_queue_depth, c.how.queue_depth);
  TaskStats& t = tasks_[c.request.task];
  ++t.requests;
  (c.request.op == Op::kWrite ? t.writes : t.reads)++;
  t.bytes += c.request.size;
  ++t.per_channel[c.how.channel];
  entropy_.add(c.how.channel);
  ++requests_;
  first_issue_ = std::min(first_issue_, c.issue_cycle);
  last_completion_ = std::max(last_completion_, c.completion_cycle);
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
                        {"utilisation", span ? double(c.requests * service_cycles_) / double(span) : 0.0},
                        {"mean_queue_depth", span ? double(c.residence_cycles) / double(span) : 0.0},
                        {"max_queue_depth", c.max_queue_depth}});
  }
  json tasks = json::array();
  for (size_t t = 0; t < tasks_.size(); ++t) {
    const auto& s = tasks_[t];
    if (!s.requests) continue;
    tasks.push_back({{"task", t},
                     {"requests", s.requests},
                     {"reads", s.reads},
                     {"writes", s.writes},
                     {"bytes", s.bytes},
                     {"per_channel", s.per_channel}});
  }
  uint64_t max_requests = 0;
  for (const auto& c : channels_) max_requests = std::max(max_requests, c.requests);
  return {{"requests", requests_},
          {"makespan", span},
          {"first_issue_cycle", requests_ ? first_issue_ : 0},
          {"last_completion_cycle", last_completion_},
          {"mean_window_entropy", entropy_.mean()},
          {"max_entropy", entropy_.maximum()},
          {"entropy_windows", entropy_.windows()},
          {"channel_imbalance", requests_ ? double(max_requests) * double(channels_.size()) / double(requests_) : 0.0},
          {"channels", channels},
          {"tasks", tasks}};
}

void RunStatistics::print(std::ostream& os) const {
  const uint64_t span = makespan();
  os << "requests            " << requests_ << "\n"
     << "makespan            " << span << " cycles\n"
     << std::fixed << std::setprecision(3) << "mean window entropy " << entropy_.mean() << " bits (max "
     << entropy_.maximum() << ", " << entropy_.windows() << " windows)\n\n"
     << "channel  requests  busy_cycles  util   mean_q  max_q\n";
  for (size_t i = 0; i < channels_.size(); ++i) {
    const auto& c = channels_[i];
    const uint64_t busy = c.requests * service_cycles_;
    os << std::setw(7) << i << std::setw(10) << c.requests << std::setw(13) << busy << std::setw(7)
       << (span ? double(busy) / double(span) : 0.0) << std::setw(8)
       << (span ? double(c.residence_cycles) / double(span) : 0.0) << std::setw(7) << c.max_queue_depth << "\n";
  }
  os << "\ntask  requests     reads    writes\n";
  for (size_t t = 0; t < tasks_.size(); ++t)
    if (tasks_[t].requests)
      os << std::setw(4) << t << std::setw(10) << tasks_[t].requests << std::setw(10) << tasks_[t].reads << std::setw(10)
         << tasks_[t].writes << "\n";
}

}  // namespace gpumem
