#include "explorer/explore.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "base/bits.hpp"
#include "base/hex.hpp"
#include "base/input_error.hpp"
#include "params/block_params.hpp"
#include "driver/address_space.hpp"
#include "driver/firmware.hpp"
#include "metrics/window_entropy.hpp"
#include "explorer/xor_search.hpp"
#include "mmu/mmu.hpp"
#include "regs/register_bank.hpp"
#include "router/channel_decoder.hpp"
#include "base/baselines.hpp"
#include "base/channel_matrix.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem {

std::vector<TranslatorInput> translator_inputs(const Config& cfg, RequestSource& source) {
  RegisterBank bank(register_params(cfg));
  std::optional<AddressSpaceImage> image;
  if (cfg.has_mmu()) image = build_address_space(cfg, cfg.address_space.nesting);
  program_registers(cfg, image ? &*image : nullptr,
                    [&](uint32_t offset, uint32_t value) { return bank.write(offset, 4, value) == RegStatus::kOk; });
  std::vector<TranslatorInput> out;
  Request r;
  if (!image) {
    while (source.next(r)) out.push_back({r.task_type, r.address});
    return out;
  }
  // The walker reads what the driver wrote; a slot never written reads as an invalid entry.
  const auto& ptes = image->pte_writes;
  const ReadPte read = [&ptes](uint64_t pa) -> uint64_t {
    const auto it = std::lower_bound(ptes.begin(), ptes.end(), pa, [](const PteWrite& w, uint64_t a) { return w.pa < a; });
    return it != ptes.end() && it->pa == pa ? it->value : 0;
  };
  Mmu mmu(mmu_params(cfg), bank.mmu_registers());
  XorTranslator translator(translator_params(cfg), bank.translator_registers());
  const bool before = cfg.translator.position == TranslatorPosition::kBeforeMmu;
  const unsigned small_bits = cfg.mmu.geometry().small_bits;
  while (source.next(r)) {
    const bool write = r.op == Op::kWrite;
    if (before) {
      const unsigned task = bank.translator_registers().task_for(r.process, r.address, small_bits);
      if (mmu.translate(translator.map(r.address, task), write, read).fault == FaultReason::kNone)
        out.push_back({task, r.address});
    } else {
      const MmuOutcome o = mmu.translate(r.address, write, read);
      if (o.fault == FaultReason::kNone) out.push_back({o.task_type, o.pa});
    }
  }
  return out;
}

namespace {

// The stage the search is in, passed on to ExploreOptions::progress.
class Stage {
 public:
  explicit Stage(const ExploreProgress& f) : f_(f) {}
  void set(std::string stage) {
    stage_ = std::move(stage);
    if (f_) f_(stage_, 0, 0);
  }
  // Request i of a pass over `total`: reports every 2^20.
  void pass(size_t i, size_t total) const {
    if ((i & 0xFFFFF) == 0 && i && f_) f_(stage_, i, total);
  }
  const std::string& text() const { return stage_; }

 private:
  const ExploreProgress& f_;
  std::string stage_;
};

// Scores complete sets of mappings on the stream, exactly as gpumem run does.
class Scorer {
 public:
  Scorer(const Config& cfg, const std::vector<TranslatorInput>& stream, unsigned window, const Stage& stage)
      : cfg_(cfg), stream_(stream), window_(window), decoder_(cfg.channel_layout()), stage_(stage) {}

  // With `series`, the candidate carries the windows over time too.
  Candidate score(const std::string& name, const TaskMapping& mapping, const std::vector<TaskMapping>& all,
                  bool series = false) const {
    Config c = cfg_;
    c.translator.tasks = all;
    const TranslatorRegisters regs = registers_from_config(c);
    XorTranslator tr(translator_params(c), regs);
    WindowedEntropy entropy(cfg_.memory.channels, window_);
    if (series) entropy.keep_series();
    std::vector<uint64_t> load(cfg_.memory.channels, 0);
    uint64_t makespan = 0, in_window = 0;
    auto close = [&] {
      makespan += *std::max_element(load.begin(), load.end()) * cfg_.memory.service_cycles;
      std::fill(load.begin(), load.end(), 0);
      in_window = 0;
    };
    for (size_t i = 0; i < stream_.size(); ++i) {
      stage_.pass(i, stream_.size());
      const TranslatorInput& in = stream_[i];
      const unsigned ch = decoder_.channel(tr.map(in.address, in.task_type));
      entropy.add(ch);
      ++load[ch];
      if (++in_window == window_) close();
    }
    if (in_window) close();
    return {name, mapping, entropy.mean(), makespan, entropy.series()};
  }

 private:
  const Config& cfg_;
  const std::vector<TranslatorInput>& stream_;
  unsigned window_;
  ChannelDecoder decoder_;
  const Stage& stage_;
};

// Every member named: TaskMapping is an aggregate that grows.
TaskMapping mapping(unsigned task, Scheme scheme, std::vector<uint32_t> vectors = {}, MatrixRows rows = {},
                    std::string baseline = "") {
  return {task, scheme, std::move(vectors), std::move(rows), std::move(baseline), 1};
}

std::vector<TaskMapping>::iterator find_task(std::vector<TaskMapping>& all, unsigned task) {
  return std::find_if(all.begin(), all.end(), [task](const TaskMapping& t) { return t.task_type == task; });
}

std::vector<TaskMapping> with(std::vector<TaskMapping> all, const TaskMapping& m) {
  *find_task(all, m.task_type) = m;
  return all;
}

// The joint search over task type T's XOR control vectors (docs/explorer.md):
// a beam over the channel bits in order, each step exact over all 2^K vectors
// of one bit given the others, then coordinate passes until nothing improves.
struct XorState {
  std::vector<uint32_t> vectors;
  double score;
};

class XorSearch {
 public:
  XorSearch(const Config& cfg, const std::vector<TranslatorInput>& stream, unsigned task, const std::vector<TaskMapping>& others,
            const ExploreOptions& o, unsigned window, Stage& stage)
      : cfg_(cfg), window_(window), options_(o), stage_(stage) {
    const auto& cb = cfg.translator.channel_bits;
    const auto& pb = cfg.translator.candidate_bits;
    for (unsigned i = 0; i < pb.size(); ++i) masks_.push_back(bit(pb[i]));
    Config c = cfg;
    std::vector<TaskMapping> all = others;
    *find_task(all, task) = mapping(task, Scheme::kNone);
    c.translator.tasks = all;
    const TranslatorRegisters regs = registers_from_config(c);
    XorTranslator tr(translator_params(c), regs);
    const ChannelDecoder dec(cfg.channel_layout());
    channel_.reserve(stream.size());
    pattern_.reserve(stream.size());
    for (size_t i = 0; i < stream.size(); ++i) {
      stage.pass(i, stream.size());
      const TranslatorInput& in = stream[i];
      channel_.push_back(static_cast<uint16_t>(dec.channel(tr.map(in.address, in.task_type))));
      pattern_.push_back(in.task_type == task ? static_cast<uint32_t>(gather_bits(in.address, pb)) : 0u);
    }
    m_ = static_cast<unsigned>(cb.size());
  }

  // Scores of every vector for channel bit j with the other bits' vectors as in `v`.
  std::vector<double> scores(unsigned j, const std::vector<uint32_t>& v) const {
    ChannelBitSearchOptions opt;
    opt.threads = options_.threads;
    ChannelBitSearch search(cfg_.memory.channels, j, static_cast<unsigned>(masks_.size()), window_, opt);
    for (size_t i = 0; i < channel_.size(); ++i) {
      stage_.pass(i, channel_.size());
      uint32_t c = channel_[i];
      const uint32_t p = pattern_[i];
      if (p)
        for (unsigned k = 0; k < m_; ++k)
          if (k != j) c ^= static_cast<uint32_t>(parity(p & v[k])) << k;
      search.add(c, p);
    }
    return search.scores();
  }

  XorState run(double identity_score) const {
    const std::string task = stage_.text();
    std::vector<XorState> beam{{std::vector<uint32_t>(m_, 0), identity_score}};
    const unsigned width = std::max(1u, options_.beam);
    auto better = [](const XorState& a, const XorState& b) { return a.score != b.score ? a.score > b.score : a.vectors < b.vectors; };
    for (unsigned j = 0; j < m_; ++j) {
      std::vector<XorState> next;
      for (size_t b = 0; b < beam.size(); ++b) {
        const XorState& st = beam[b];
        stage_.set(task + ", channel bit " + std::to_string(j) + " of " + std::to_string(m_) + ", beam state " +
                   std::to_string(b + 1) + " of " + std::to_string(beam.size()));
        const std::vector<double> s = scores(j, st.vectors);
        std::vector<uint32_t> order(s.size());
        for (uint32_t a = 0; a < order.size(); ++a) order[a] = a;
        const size_t keep = std::min<size_t>(width, order.size());
        std::partial_sort(order.begin(), order.begin() + static_cast<long>(keep), order.end(),
                          [&](uint32_t a, uint32_t b) { return s[a] != s[b] ? s[a] > s[b] : a < b; });
        for (size_t i = 0; i < keep; ++i) {
          XorState n = st;
          n.vectors[j] = order[i];
          n.score = s[order[i]];
          next.push_back(n);
        }
      }
      std::sort(next.begin(), next.end(), better);
      next.erase(std::unique(next.begin(), next.end(), [](const XorState& a, const XorState& b) { return a.vectors == b.vectors; }),
                 next.end());
      if (next.size() > width) next.resize(width);
      beam = next;
    }
    XorState best = beam.front();
    for (int pass = 0; pass < 3; ++pass) {
      bool moved = false;
      for (unsigned j = 0; j < m_; ++j) {
        stage_.set(task + ", coordinate pass " + std::to_string(pass + 1) + ", channel bit " + std::to_string(j) + " of " +
                   std::to_string(m_));
        const std::vector<double> s = scores(j, best.vectors);
        const uint32_t a = static_cast<uint32_t>(std::max_element(s.begin(), s.end()) - s.begin());
        if (s[a] > best.score) best.vectors[j] = a, best.score = s[a], moved = true;
      }
      if (!moved) break;
    }
    return best;
  }

 private:
  const Config& cfg_;
  unsigned window_, m_ = 0;
  ExploreOptions options_;
  Stage& stage_;
  std::vector<uint64_t> masks_;
  std::vector<uint16_t> channel_;
  std::vector<uint32_t> pattern_;
};

}  // namespace

Exploration explore(const Config& cfg, const std::vector<TranslatorInput>& stream, const ExploreOptions& options) {
  if (!is_pow2(cfg.memory.channels))
    throw InputError(cfg.source, 0, "memory.channels",
                     "the explorer maps per task type, which needs a power-of-two channel count (" +
                         std::to_string(cfg.memory.channels) + " channels share one scheme for all task types)");
  Exploration x;
  x.window = options.window ? options.window : cfg.entropy_window();
  Stage stage(options.progress);
  const Scorer scorer(cfg, stream, x.window, stage);

  // Every task type listed or seen gets an explicit entry, so that the
  // recommendation says what each one uses.
  std::vector<uint64_t> count(kMaxTaskTypes, 0);
  for (const TranslatorInput& in : stream) ++count[in.task_type];
  std::vector<TaskMapping> working;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    const TaskMapping* listed = cfg.task_mapping(t);
    if (listed) working.push_back(*listed);
    else if (count[t]) working.push_back(mapping(t, cfg.translator.default_scheme));
  }
  stage.set("scoring the configured mapping");
  x.configured = scorer.score("configured", {}, working, true);
  std::vector<TaskMapping> identity = working;
  for (TaskMapping& m : identity) m = mapping(m.task_type, Scheme::kNone);
  stage.set("scoring identity");
  x.identity = scorer.score("identity", {}, identity, true);

  std::vector<unsigned> order;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t)
    if (count[t]) order.push_back(t);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return count[a] > count[b]; });

  const auto& cb = cfg.translator.channel_bits;
  const bool contiguous = !cb.empty() && std::is_sorted(cb.begin(), cb.end()) && cb.back() == cb.front() + cb.size() - 1;
  for (size_t i = 0; i < order.size(); ++i) {
    const unsigned t = order[i];
    const std::string task =
        "task type " + std::to_string(t) + " (" + std::to_string(i + 1) + " of " + std::to_string(order.size()) + ")";
    TaskExploration te;
    te.task_type = t;
    te.requests = count[t];
    const TaskMapping current = *find_task(working, t);
    auto add = [&](const std::string& name, const TaskMapping& m) {
      stage.set(task + ": " + name);
      te.ranked.push_back(scorer.score(name, m, with(working, m)));
    };
    add("configured", current);
    if (cfg.memory.channels > 1) {
      add("identity", mapping(t, Scheme::kNone));
      const double identity = te.ranked.back().entropy;
      if (cfg.translator.prime && contiguous) add("prime", mapping(t, Scheme::kPrime));
      for (const std::string& name : baseline_names()) {
        const BaselineMatrix b = baseline_matrix(name, cfg.channel_layout(), cfg.translator_address_bits());
        if (b.why_not.empty()) add(name, mapping(t, Scheme::kMatrix, {}, b.rows, name));
      }
      const size_t k = cfg.translator.candidate_bits.size();
      if (k >= 1 && k <= 24) {
        stage.set(task + ": xor search");
        const XorSearch search(cfg, stream, t, working, options, x.window, stage);
        const XorState best = search.run(identity);
        add("xor search", mapping(t, Scheme::kXor, best.vectors));
        if (te.ranked.back().entropy != best.score)
          throw std::logic_error("explorer: the search predicted " + std::to_string(best.score) + " but the mapping scores " +
                                 std::to_string(te.ranked.back().entropy));
      }
    }
    std::stable_sort(te.ranked.begin(), te.ranked.end(), [](const Candidate& a, const Candidate& b) {
      return a.entropy != b.entropy ? a.entropy > b.entropy : a.makespan < b.makespan;
    });
    *find_task(working, t) = te.ranked.front().mapping;
    x.tasks.push_back(std::move(te));
  }
  x.recommended = working;
  stage.set("scoring the recommendation");
  x.predicted = scorer.score("recommended", {}, working, true);
  return x;
}

std::string tasks_yaml(const std::vector<TaskMapping>& mappings) {
  std::string s = "tasks:\n";
  for (const TaskMapping& m : mappings) s += "  - {task_type: " + std::to_string(m.task_type) + ", " + task_mapping_yaml(m) + "}\n";
  return s;
}

}  // namespace gpumem
