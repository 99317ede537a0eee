#include "explorer/explore.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
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
  // The last request kept: an element of its strided request (the same id)
  // in its granule is the same access.
  uint64_t last_id = ~uint64_t{0}, last_granule = 0;
  const unsigned granule_shift = cfg.channel_layout().granule_shift;
  const bool dram = cfg.memory.model == MemoryModel::kDram;
  const unsigned burst_shift = dram ? dram_offset_bits(cfg.memory.dram) : 0;
  auto keep = [&](unsigned task, uint64_t address) {
    const uint64_t granule = address >> granule_shift;
    const uint64_t bursts = dram && r.size > 1 ? ((address + r.size - 1) >> burst_shift) - (address >> burst_shift) + 1 : 1;
    out.push_back({task, r.id == last_id && granule == last_granule, uint16_t(bursts), address});
    last_id = r.id;
    last_granule = granule;
  };
  if (!image) {
    while (source.next(r)) keep(r.task_type, r.address);
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
      if (mmu.translate(translator.map(r.address, task), write, read).fault == FaultReason::kNone) keep(task, r.address);
    } else {
      const MmuOutcome o = mmu.translate(r.address, write, read);
      if (o.fault == FaultReason::kNone) keep(o.task_type, o.pa);
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
  // Requests i to i + n - 1 of a pass at once: reports a multiple of 2^20 among them.
  void passed(size_t i, size_t n, size_t total) const {
    const size_t mark = (i + n - 1) & ~size_t{0xFFFFF};
    if (mark >= i) pass(mark, total);
  }
  const std::string& text() const { return stage_; }

 private:
  const ExploreProgress& f_;
  std::string stage_;
};

// Scores complete sets of mappings on the stream, exactly as gpumem run does.
class Scorer {
 public:
  Scorer(const Config& cfg, const std::vector<TranslatorInput>& stream, unsigned window, const MakespanModel& makespan,
         const Stage& stage)
      : cfg_(cfg), stream_(stream), window_(window), makespan_(makespan), decoder_(cfg.channel_layout()), stage_(stage) {}

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
    uint64_t units = 0, in_window = 0;
    auto close = [&] {
      units += *std::max_element(load.begin(), load.end()) * makespan_.access_units;
      std::fill(load.begin(), load.end(), 0);
      in_window = 0;
    };
    for (size_t i = 0; i < stream_.size(); ++i) {
      stage_.pass(i, stream_.size());
      const TranslatorInput& in = stream_[i];
      const unsigned ch = decoder_.channel(tr.map(in.address, in.task_type));
      entropy.add(ch);
      load[ch] += in.same_access ? 0 : in.accesses;
      if (++in_window == window_) close();
    }
    if (in_window) close();
    return {name, mapping, entropy.mean(), makespan_.cycles(units), entropy.series()};
  }

 private:
  const Config& cfg_;
  const std::vector<TranslatorInput>& stream_;
  unsigned window_;
  const MakespanModel& makespan_;
  ChannelDecoder decoder_;
  const Stage& stage_;
};

// Every member named: TaskMapping is an aggregate that grows.
TaskMapping mapping(unsigned task, Scheme scheme, std::vector<uint32_t> vectors = {}, MatrixRows rows = {},
                    std::string baseline = "") {
  return {task, scheme, std::move(vectors), std::move(rows), std::move(baseline), 1};
}

template <typename Mappings>  // a vector of TaskMapping, const or not
auto find_task(Mappings& all, unsigned task) {
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

// A stream's whole windows, each kept once with how often it comes, up to
// one XOR on every channel and one on every pattern: mapped with any
// vectors, such windows differ by one XOR on every channel, which renames the
// channels and leaves the window's entropy, and every channel bit's search,
// as they are (docs/explorer.md, "The search"). A strided stream's windows
// repeat so, and each pass of the search then reads each once. A window is
// kept as its requests XOR its first, sorted.
class DistinctWindows {
 public:
  explicit DistinctWindows(unsigned window) : window_(window), open_(window) {}

  void add(uint32_t channel, uint32_t pattern) {
    open_[filled_++] = uint64_t{channel} << 32 | pattern;
    if (filled_ < window_) return;
    filled_ = 0;
    const uint64_t first = open_[0];
    for (uint64_t& e : open_) e ^= first;
    std::sort(open_.begin(), open_.end());
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (uint64_t e : open_) h = (h ^ e) * 0xFF51AFD7ED558CCDull;
    if (2 * (counts_.size() + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      if (slots_[i] == 0) {
        slots_[i] = static_cast<uint32_t>(counts_.size() + 1);
        hashes_.push_back(h);
        counts_.push_back(1);
        for (uint64_t e : open_) {
          channel_.push_back(static_cast<uint16_t>(e >> 32));
          pattern_.push_back(static_cast<uint32_t>(e));
        }
        return;
      }
      const size_t w = slots_[i] - 1;
      if (hashes_[w] == h && same(w)) {
        ++counts_[w];
        return;
      }
    }
  }

  // Room for `requests` without a reallocation (the most a stream of that
  // many can keep), and the room left over given back after the stream.
  void reserve(size_t requests) {
    channel_.reserve(requests);
    pattern_.reserve(requests);
  }
  void shrink_to_fit() {
    channel_.shrink_to_fit();
    pattern_.shrink_to_fit();
  }

  size_t size() const { return counts_.size(); }
  uint64_t count(size_t w) const { return counts_[w]; }
  const uint16_t* channels(size_t w) const { return &channel_[w * window_]; }
  const uint32_t* patterns(size_t w) const { return &pattern_[w * window_]; }

 private:
  bool same(size_t w) const {
    for (unsigned r = 0; r < window_; ++r)
      if ((uint64_t{channel_[w * window_ + r]} << 32 | pattern_[w * window_ + r]) != open_[r]) return false;
    return true;
  }
  void grow() {
    std::vector<uint32_t> slots(std::max<size_t>(1024, 2 * slots_.size()), 0);
    const size_t mask = slots.size() - 1;
    for (size_t w = 0; w < counts_.size(); ++w) {
      size_t i = hashes_[w] & mask;
      while (slots[i]) i = (i + 1) & mask;
      slots[i] = static_cast<uint32_t>(w + 1);
    }
    slots_.swap(slots);
  }

  unsigned window_;
  std::vector<uint64_t> open_;  // the window being filled
  unsigned filled_ = 0;
  std::vector<uint32_t> slots_;  // open addressing: distinct window + 1, 0 empty
  std::vector<uint64_t> hashes_, counts_;
  // The distinct windows' requests (a channel below kMaxChannels, XOR another).
  static_assert(kMaxChannels <= 65536, "a channel in 16 bits");
  std::vector<uint16_t> channel_;
  std::vector<uint32_t> pattern_;
};

class XorSearch {
 public:
  XorSearch(const Config& cfg, const std::vector<TranslatorInput>& stream, unsigned task, const std::vector<TaskMapping>& others,
            const ExploreOptions& o, unsigned window, Stage& stage)
      : cfg_(cfg), window_(window), options_(o), stage_(stage), windows_(window) {
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
    // A stream shorter than one window is scored as that window (ChannelBitSearch).
    const bool short_stream = stream.size() < window;
    if (!short_stream) windows_.reserve(stream.size() / window * window);
    for (size_t i = 0; i < stream.size(); ++i) {
      stage.pass(i, stream.size());
      const TranslatorInput& in = stream[i];
      const uint32_t channel = dec.channel(tr.map(in.address, in.task_type));
      const uint32_t pattern = in.task_type == task ? static_cast<uint32_t>(gather_bits(in.address, pb)) : 0u;
      if (short_stream) {
        short_channel_.push_back(channel);
        short_pattern_.push_back(pattern);
      } else {
        windows_.add(channel, pattern);  // the requests after the last whole window count nowhere
      }
    }
    windows_.shrink_to_fit();
    m_ = static_cast<unsigned>(cb.size());
  }

  // Scores of every vector for channel bit j with the other bits' vectors as in `v`.
  std::vector<double> scores(unsigned j, const std::vector<uint32_t>& v) const {
    ChannelBitSearchOptions opt;
    opt.threads = options_.threads;
    ChannelBitSearch search(cfg_.memory.channels, j, static_cast<unsigned>(masks_.size()), window_, opt);
    auto mapped = [&](uint32_t c, uint32_t p) {
      if (p)
        for (unsigned k = 0; k < m_; ++k)
          if (k != j) c ^= static_cast<uint32_t>(parity(p & v[k])) << k;
      return c;
    };
    for (size_t i = 0; i < short_channel_.size(); ++i) search.add(mapped(short_channel_[i], short_pattern_[i]), short_pattern_[i]);
    std::vector<uint32_t> channels(window_);
    const size_t total = windows_.size() * window_;
    for (size_t w = 0; w < windows_.size(); ++w) {
      stage_.passed(w * window_, window_, total);
      const uint16_t* c = windows_.channels(w);
      const uint32_t* p = windows_.patterns(w);
      for (unsigned r = 0; r < window_; ++r) channels[r] = mapped(c[r], p[r]);
      search.add_window(channels.data(), p, windows_.count(w));
    }
    return search.scores();
  }

  XorState run(double identity_score) const {
    const std::string task = stage_.text();
    // Bit j's best vector and its score given the other bits' vectors (the
    // lowest of equal scores), by j and those vectors: a coordinate pass asks
    // again what the beam's last step or the pass before already scored.
    std::map<std::vector<uint32_t>, std::pair<uint32_t, double>> best_of;
    auto key = [](unsigned j, std::vector<uint32_t> v) {
      v[j] = ~uint32_t{0};
      return v;
    };
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
        best_of[key(j, st.vectors)] = {order[0], s[order[0]]};
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
        auto known = best_of.find(key(j, best.vectors));
        if (known == best_of.end()) {
          const std::vector<double> s = scores(j, best.vectors);
          const uint32_t a = static_cast<uint32_t>(std::max_element(s.begin(), s.end()) - s.begin());
          known = best_of.emplace(key(j, best.vectors), std::make_pair(a, s[a])).first;
        }
        const auto [a, score] = known->second;
        if (score > best.score) best.vectors[j] = a, best.score = score, moved = true;
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
  DistinctWindows windows_;
  std::vector<uint32_t> short_channel_, short_pattern_;
};

// Per task type, its candidate bits' entropy over windows of its own
// requests (TaskExploration::candidate_bits).
std::vector<AddressBitEntropy> candidate_bit_entropy(const Config& cfg, const std::vector<TranslatorInput>& stream,
                                                     unsigned window, const std::vector<uint64_t>& count) {
  const auto& pb = cfg.translator.candidate_bits;
  std::vector<AddressBitEntropy> bits;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) bits.emplace_back(count[t] ? static_cast<unsigned>(pb.size()) : 0u, window);
  for (const TranslatorInput& in : stream) bits[in.task_type].add(gather_bits(in.address, pb));
  return bits;
}

}  // namespace

MakespanModel makespan_model(const Config& cfg) {
  MakespanModel m;
  m.cycle_ps = cfg.simulation.cycle_ps();
  char text[400];
  if (cfg.memory.model == MemoryModel::kDram) {
    const DramSpec& d = cfg.memory.dram;
    m.access_units = d.timing.tBL;
    m.unit_ps = d.tck_ps;
    std::snprintf(text, sizeof text,
                  "per window, the busiest channel's accesses x %g cycles, summed: a window's requests all outstanding, "
                  "each channel's data bus at its peak (%s: one %u-byte access per tBL = %u tCK of %llu ps); banks, rows, "
                  "refresh and bus turnarounds are ignored, so a run takes longer",
                  m.cycles_per_access(), d.preset.empty() ? "memory.dram" : d.preset.c_str(), d.org.access_bytes(),
                  d.timing.tBL, static_cast<unsigned long long>(d.tck_ps));
  } else {
    m.access_units = cfg.memory.service_cycles;
    std::snprintf(text, sizeof text,
                  "per window, the busiest channel's accesses x %g cycle%s (memory.service_cycles), summed: a window's "
                  "requests all outstanding, each channel serving its own back to back",
                  m.cycles_per_access(), m.access_units == 1 ? "" : "s");
  }
  m.assumes = text;
  return m;
}

uint64_t MakespanModel::cycles(uint64_t units) const {
  if (!unit_ps) return units;
  const unsigned __int128 ps = static_cast<unsigned __int128>(units) * unit_ps;
  return static_cast<uint64_t>((ps + cycle_ps - 1) / cycle_ps);
}

double MakespanModel::cycles_per_access() const {
  return unit_ps ? static_cast<double>(access_units * unit_ps) / static_cast<double>(cycle_ps) : static_cast<double>(access_units);
}

namespace {

// Task type te.task_type's candidates, scored with the other task types on
// `working`, best first: the configured mapping, identity, prime where the
// channel bits allow it, each baseline, and the XOR search's best.
void rank_candidates(const Config& cfg, const std::vector<TranslatorInput>& stream, const ExploreOptions& options, const Scorer& scorer,
                     Stage& stage, unsigned window, const std::vector<TaskMapping>& working, const std::string& task,
                     TaskExploration& te) {
  const auto& cb = cfg.translator.channel_bits;
  const bool contiguous = !cb.empty() && std::is_sorted(cb.begin(), cb.end()) && cb.back() == cb.front() + cb.size() - 1;
  const TaskMapping current = *find_task(working, te.task_type);
  auto add = [&](const std::string& name, const TaskMapping& m) {
    stage.set(task + ": " + name);
    te.ranked.push_back(scorer.score(name, m, with(working, m)));
  };
  add("configured", current);
  if (cfg.memory.channels > 1) {
    add("identity", mapping(te.task_type, Scheme::kNone));
    const double identity = te.ranked.back().entropy;
    if (cfg.translator.prime && contiguous) add("prime", mapping(te.task_type, Scheme::kPrime));
    for (const std::string& name : baseline_names()) {
      const BaselineMatrix b = baseline_matrix(name, cfg.channel_layout(), cfg.translator_address_bits());
      if (b.why_not.empty()) add(name, mapping(te.task_type, Scheme::kMatrix, {}, b.rows, name));
    }
    const size_t k = cfg.translator.candidate_bits.size();
    if (k >= 1 && k <= 24) {
      stage.set(task + ": xor search");
      const XorSearch search(cfg, stream, te.task_type, working, options, window, stage);
      const XorState best = search.run(identity);
      add("xor search", mapping(te.task_type, Scheme::kXor, best.vectors));
      if (te.ranked.back().entropy != best.score)
        throw std::logic_error("explorer: the search predicted " + std::to_string(best.score) + " but the mapping scores " +
                               std::to_string(te.ranked.back().entropy));
    }
  }
  std::stable_sort(te.ranked.begin(), te.ranked.end(), [](const Candidate& a, const Candidate& b) {
    return a.entropy != b.entropy ? a.entropy > b.entropy : a.makespan < b.makespan;
  });
}

}  // namespace

Exploration explore(const Config& cfg, const std::vector<TranslatorInput>& stream, const ExploreOptions& options) {
  if (!is_pow2(cfg.memory.channels))
    throw InputError(cfg.source, 0, "memory.channels",
                     "the explorer maps per task type, which needs a power-of-two channel count (" +
                         std::to_string(cfg.memory.channels) + " channels share one scheme for all task types)");
  Exploration x;
  x.window = options.window ? options.window : cfg.entropy_window();
  x.makespan = makespan_model(cfg);
  Stage stage(options.progress);
  const Scorer scorer(cfg, stream, x.window, x.makespan, stage);

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
  const std::vector<AddressBitEntropy> bits = candidate_bit_entropy(cfg, stream, x.window, count);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return count[a] > count[b]; });

  for (size_t i = 0; i < order.size(); ++i) {
    const unsigned t = order[i];
    const std::string task =
        "task type " + std::to_string(t) + " (" + std::to_string(i + 1) + " of " + std::to_string(order.size()) + ")";
    TaskExploration te;
    te.task_type = t;
    te.requests = count[t];
    for (size_t b = 0; b < cfg.translator.candidate_bits.size(); ++b)
      te.candidate_bits.push_back({cfg.translator.candidate_bits[b], bits[t].mean(static_cast<unsigned>(b))});
    te.bit_windows = bits[t].windows();
    rank_candidates(cfg, stream, options, scorer, stage, x.window, working, task, te);
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
