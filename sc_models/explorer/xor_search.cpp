#include "explorer/xor_search.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include "metrics/window_entropy.hpp"

namespace gpumem {

namespace {

unsigned highest_bit(uint64_t v) { return 63u - static_cast<unsigned>(__builtin_clzll(v)); }

// h[z] = sum over y of value(y) (-1)^popcount(z & y), for z < size. The
// values are read once, into the first three levels, done in registers eight
// at a time; then two levels per pass over h. Integers, so the order of the
// additions does not change a bit.
template <class Int, class Value>
void walsh_hadamard_of(Int* h, size_t size, Value value) {
  size_t len = 1;
  if (size < 8) {
    for (size_t z = 0; z < size; ++z) h[z] = value(z);
  } else {
    for (size_t i = 0; i < size; i += 8) {
      Int* p = h + i;
      const Int v0 = value(i), v1 = value(i + 1), v2 = value(i + 2), v3 = value(i + 3);
      const Int v4 = value(i + 4), v5 = value(i + 5), v6 = value(i + 6), v7 = value(i + 7);
      const Int a0 = v0 + v1, a1 = v0 - v1, a2 = v2 + v3, a3 = v2 - v3;
      const Int a4 = v4 + v5, a5 = v4 - v5, a6 = v6 + v7, a7 = v6 - v7;
      const Int b0 = a0 + a2, b2 = a0 - a2, b1 = a1 + a3, b3 = a1 - a3;
      const Int b4 = a4 + a6, b6 = a4 - a6, b5 = a5 + a7, b7 = a5 - a7;
      p[0] = b0 + b4, p[4] = b0 - b4, p[1] = b1 + b5, p[5] = b1 - b5;
      p[2] = b2 + b6, p[6] = b2 - b6, p[3] = b3 + b7, p[7] = b3 - b7;
    }
    len = 8;
  }
  for (; 4 * len <= size; len *= 4)
    for (size_t i = 0; i < size; i += 4 * len) {
      Int* p = h + i;
      for (size_t j = 0; j < len; ++j) {
        const Int a = p[j], b = p[j + len], c = p[j + 2 * len], d = p[j + 3 * len];
        const Int s0 = a + b, s1 = a - b, s2 = c + d, s3 = c - d;
        p[j] = s0 + s2;
        p[j + 2 * len] = s0 - s2;
        p[j + len] = s1 + s3;
        p[j + 3 * len] = s1 - s3;
      }
    }
  for (; len < size; len <<= 1)
    for (size_t i = 0; i < size; i += 2 * len)
      for (size_t j = i; j < i + len; ++j) {
        const Int a = h[j], b = h[j + len];
        h[j] = a + b;
        h[j + len] = a - b;
      }
}

// The same in place.
template <class Int>
void walsh_hadamard(Int* h, size_t size) {
  walsh_hadamard_of(h, size, [h](size_t z) { return h[z]; });
}

}  // namespace

// One thread's share of the work: the windows it is given, their distinct
// groups, and the spectrum of its windows alone.
class ChannelBitSearch::Accumulator {
 public:
  Accumulator(unsigned k, const std::vector<int64_t>& nlog2n, size_t held_requests)
      : k_(k), nlog2n_(nlog2n), held_(held_requests), spectrum_(size_t{1} << k, 0) {}

  // consecutive windows of n requests each, window w counted counts[w] times.
  void windows(const Request* requests, const std::vector<uint64_t>& counts, unsigned n) {
    for (size_t w = 0; w < counts.size(); ++w) window(requests + w * n, n, counts[w]);
  }

  // Transforms the held groups into the spectrum and forgets them.
  void flush() {
    transform_share(*this, 0, 1);
    forget();
  }

  // After the stream, with more threads: another thread's held groups added
  // to these (the table may then hold more than held_requests), so that a
  // group both held is transformed once...
  void absorb(const Accumulator& other) {
    for (const Slot& s : other.slots_)
      if (s.offset != kEmpty) hold(&other.arena_[s.offset + 1], other.arena_[s.offset], s.count, false);
  }
  // ... by one of the threads, which each transform every share-th group of
  // `table` (from the first-th) into their own spectrum.
  void transform_share(const Accumulator& table, size_t first, size_t share) {
    for (size_t i = first; i < table.slots_.size(); i += share) {
      const Slot& s = table.slots_[i];
      if (s.offset != kEmpty) add_group(&table.arena_[s.offset + 1], table.arena_[s.offset], s.count);
    }
    fold();
  }
  void forget() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    arena_.clear();
    distinct_ = 0;
  }

  // [u]: 2^K times the Walsh spectrum of the sum over this share's windows
  // of sum_c n_c log2 n_c (fixed point), as a function of the vector.
  const std::vector<__int128>& spectrum() const { return spectrum_; }

 private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};
  struct Slot {
    uint64_t count = 0;
    uint32_t offset = kEmpty;  // into arena_: the group's size, then its entries
    uint32_t hash = 0;
  };

  void window(const Request* requests, unsigned n, uint64_t count);
  void hold(const uint32_t* group, unsigned n, uint64_t count, bool may_flush = true);
  void add_group(const uint32_t* group, unsigned n, uint64_t count);
  const int64_t* term_table(unsigned n);
  template <class Int>
  void add_term(Int* g, unsigned n, uint64_t count);
  void fold() {  // near_ into spectrum_
    if (near_bound_ == 0) return;
    for (size_t u = 0; u < near_.size(); ++u) spectrum_[u] += near_[u], near_[u] = 0;
    near_bound_ = 0;
  }

  unsigned k_;
  const std::vector<int64_t>& nlog2n_;
  size_t held_;
  std::vector<__int128> spectrum_;
  // Terms are added here at 64 bits, half the memory and the work of the
  // 128-bit spectrum, and folded into it before the sum could overflow:
  // near_bound_ bounds every |near_[u]| (a term's largest coefficient is
  // G^(0), at most 2^62 a term). Up to K = 20: beyond, a fold (2^K
  // additions) would come after a few hundred groups.
  std::vector<int64_t> near_ = std::vector<int64_t>(k_ <= 20 ? size_t{1} << k_ : 0);
  unsigned __int128 near_bound_ = 0;
  // The held distinct groups: open addressing over arena_, at most half full.
  std::vector<uint32_t> arena_;
  std::vector<Slot> slots_;
  size_t distinct_ = 0;
  // Scratch, grown to the largest window and group seen, then reused.
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> group_;
  std::vector<uint32_t> basis_ = std::vector<uint32_t>(32);  // the group's span: d <= K <= 24 vectors
  std::vector<unsigned> pivot_ = std::vector<unsigned>(32);
  unsigned d_ = 0;
  std::vector<int32_t> h_;
  std::vector<int64_t> g_;
  std::vector<__int128> g_wide_;
  std::vector<std::vector<int64_t>> terms_;
};

void ChannelBitSearch::Accumulator::window(const Request* requests, unsigned n, uint64_t count) {
  // Sorted by group, and inside a group by entry: a group's smallest entry
  // comes first, whatever the issue order.
  keys_.resize(n);
  for (unsigned r = 0; r < n; ++r) keys_[r] = uint64_t{requests[r].group} << 32 | requests[r].entry;
  std::sort(keys_.begin(), keys_.end());
  group_.resize(n);
  for (unsigned start = 0, end; start < n; start = end) {
    end = start + 1;
    while (end < n && (keys_[end] >> 32) == (keys_[start] >> 32)) ++end;
    const unsigned size = end - start;
    if (size < 2) continue;  // T(1) + T(0) = 0 for every vector
    // Canonical form: every entry XOR the smallest (its pattern and its
    // channel bit), sorted. That flips H(a) for the whole group at once,
    // and the term T(n1) + T(n - n1) is the same for n1 and n - n1.
    const uint32_t first = static_cast<uint32_t>(keys_[start]);
    for (unsigned r = 0; r < size; ++r) group_[r] = static_cast<uint32_t>(keys_[start + r]) ^ first;
    if (size + 1 > held_) {
      add_group(group_.data(), size, count);
      continue;
    }
    std::sort(group_.begin(), group_.begin() + size);
    hold(group_.data(), size, count);
  }
}

void ChannelBitSearch::Accumulator::hold(const uint32_t* group, unsigned n, uint64_t count, bool may_flush) {
  if (may_flush && arena_.size() + n + 1 > held_) flush();
  if (2 * (distinct_ + 1) > slots_.size()) {  // grow, and place every held group again
    std::vector<Slot> old(std::max<size_t>(1024, 2 * slots_.size()));
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old)
      if (s.offset != kEmpty) {
        size_t i = s.hash & mask;
        while (slots_[i].offset != kEmpty) i = (i + 1) & mask;
        slots_[i] = s;
      }
  }
  uint64_t h = n * 0x9E3779B97F4A7C15ull;
  for (unsigned r = 0; r < n; ++r) h = (h ^ group[r]) * 0xFF51AFD7ED558CCDull;
  const uint32_t hash = static_cast<uint32_t>(h >> 32);
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.offset == kEmpty) {
      s = Slot{count, static_cast<uint32_t>(arena_.size()), hash};
      arena_.push_back(n);
      arena_.insert(arena_.end(), group, group + n);
      ++distinct_;
      return;
    }
    if (s.hash == hash && arena_[s.offset] == n && std::equal(group, group + n, &arena_[s.offset + 1])) {
      s.count += count;
      return;
    }
  }
}

// One group of n requests (entries pattern << 1 | bit), seen `count` times:
// their term of the window's sum, as a function of the vector a, added to
// the spectrum.
void ChannelBitSearch::Accumulator::add_group(const uint32_t* group, unsigned n, uint64_t count) {
  // The span of the patterns relative to the first, in reduced row echelon
  // form (each pivot bit in one basis vector only): a relative pattern's
  // coordinate i is its bit at pivot[i].
  uint32_t* basis = basis_.data();
  unsigned* pivot = pivot_.data();
  unsigned d = 0;
  for (unsigned r = 1; r < n; ++r) {
    uint32_t u = (group[r] ^ group[0]) >> 1;
    for (unsigned i = 0; i < d; ++i)
      if ((u >> pivot[i]) & 1) u ^= basis[i];
    if (!u) continue;
    const unsigned p = highest_bit(u);
    for (unsigned i = 0; i < d; ++i)
      if ((basis[i] >> p) & 1) basis[i] ^= u;
    basis[d] = u;
    pivot[d++] = p;
  }
  // Lowest pivot first: the coordinates the scatter (add_on_span) changes
  // most often then move only low bits of the spectrum index, and its
  // writes stay close together.
  for (unsigned i = 1; i < d; ++i)
    for (unsigned j = i; j > 0 && pivot[j - 1] > pivot[j]; --j) {
      std::swap(pivot[j - 1], pivot[j]);
      std::swap(basis[j - 1], basis[j]);
    }
  d_ = d;
  const size_t size = size_t{1} << d;
  if (h_.size() < size) h_.resize(size), g_.resize(size), g_wide_.resize(size);

  // H(z) = sum_r (-1)^(bit_r xor z.y_r): the signed histogram of the
  // coordinates, transformed; |H| <= n. Bit j set on n1 = (n - H) / 2
  // requests; the group's term is T(n1) + T(n - n1) (T: nlog2n_fixed).
  int32_t* h = h_.data();
  std::fill(h, h + size, 0);
  for (unsigned r = 0; r < n; ++r) {
    const uint32_t u = (group[r] ^ group[0]) >> 1;
    uint32_t y = 0;
    for (unsigned i = 0; i < d; ++i) y |= ((u >> pivot[i]) & 1u) << i;
    h[y] += (group[r] & 1) ? -1 : 1;
  }
  walsh_hadamard(h, size);
  // G^ is at most G^(0) = sum_z g(z) <= 2^d T(n) in size (g >= 0): 64 bits
  // while that fits, which is always for windows up to 1024 requests.
  if (d + highest_bit(static_cast<uint64_t>(nlog2n_[n]) | 1) < 62)
    add_term(g_.data(), n, count);
  else
    add_term(g_wide_.data(), n, count);
}

// T(n1) + T(n - n1) for n1 = 0..n.
const int64_t* ChannelBitSearch::Accumulator::term_table(unsigned n) {
  if (terms_.size() <= n) terms_.resize(n + 1);
  std::vector<int64_t>& v = terms_[n];
  if (v.empty()) {
    v.resize(n + 1);
    for (unsigned n1 = 0; n1 <= n; ++n1) v[n1] = nlog2n_[n1] + nlog2n_[n - n1];
  }
  return v.data();
}

namespace {
// sum[u(c)] += scale * g[c] for every c < size, u(c) = sum_i c_i basis[i]:
// c in Gray-code order, one XOR a step.
template <class Sum, class Int, class Scale>
void add_on_span(Sum* sum, const Int* g, size_t size, const uint32_t* basis, Scale scale) {
  sum[0] += g[0] * scale;
  uint32_t u = 0;
  for (uint32_t c = 1, gray = 0; c < size; ++c) {
    const unsigned i = static_cast<unsigned>(__builtin_ctz(c));
    gray ^= 1u << i;
    u ^= basis[i];
    sum[u] += g[gray] * scale;
  }
}
}  // namespace

// The group's term g(z) = T(n1) + T(n - n1) from H = h_, transformed to G^.
// The term is g(z(a)), z_i = parity(a & basis[i]); its spectrum at
// u = sum_i c_i basis[i] is 2^(K-d) * G^(c), zero off the span.
template <class Int>
void ChannelBitSearch::Accumulator::add_term(Int* g, unsigned n, uint64_t count) {
  const size_t size = size_t{1} << d_;
  const int32_t* h = h_.data();
  const int64_t* t = term_table(n);
  const int32_t total = static_cast<int32_t>(n);
  walsh_hadamard_of(g, size, [h, t, total](size_t z) -> Int { return t[(total - h[z]) >> 1]; });
  if (g[0] == 0) return;  // |G^(c)| <= G^(0): the term is 0
  if constexpr (std::is_same_v<Int, int64_t>) {
    constexpr unsigned __int128 kLimit = static_cast<unsigned __int128>(1) << 62;
    const unsigned __int128 bound = (static_cast<unsigned __int128>(g[0]) * count) << (k_ - d_);
    if (!near_.empty() && bound <= kLimit) {
      if (near_bound_ + bound > kLimit) fold();
      near_bound_ += bound;
      add_on_span(near_.data(), g, size, basis_.data(), static_cast<int64_t>(count << (k_ - d_)));
      return;
    }
  }
  // A multiplication, not a shift: G^ may be negative.
  add_on_span(spectrum_.data(), g, size, basis_.data(), static_cast<__int128>(count) << (k_ - d_));
}

// Worker threads over batches of whole windows. A batch goes to whichever
// worker is free; each adds into its own accumulator, so which worker took
// which batch does not change the sum.
class ChannelBitSearch::Pool {
 public:
  Pool(std::vector<std::unique_ptr<Accumulator>>& accumulators, unsigned window)
      : accumulators_(accumulators), window_(window) {
    flush_.assign(accumulators.size(), false);
    for (size_t i = 0; i < accumulators.size(); ++i)
      threads_.emplace_back([this, i, a = accumulators[i].get()] { run(i, *a); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    work_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  // Blocks while the queue is full, so the batches in memory stay few.
  void submit(Batch&& batch) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return queue_.size() < 2 * threads_.size(); });
    queue_.push_back(std::move(batch));
    work_.notify_one();
  }

  // An emptied batch to fill again (no allocation once the pool is warm).
  Batch spare() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (spare_.empty()) return {};
    Batch b = std::move(spare_.back());
    spare_.pop_back();
    return b;
  }

  // Returns once every batch is in and every held group is transformed:
  // then the accumulators are the caller's to read. The workers' held groups
  // are gathered into the first's table and the workers each transform a
  // share of it, so a group every worker holds (a strided stream's) is
  // transformed once, not once per worker.
  void flush() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return queue_.empty() && busy_ == 0; });
    for (size_t i = 1; i < accumulators_.size(); ++i) accumulators_[0]->absorb(*accumulators_[i]);
    std::fill(flush_.begin(), flush_.end(), true);
    work_.notify_all();
    done_.wait(lock, [this] { return std::none_of(flush_.begin(), flush_.end(), [](bool f) { return f; }); });
    for (auto& a : accumulators_) a->forget();
  }

 private:
  void run(size_t i, Accumulator& accumulator) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      work_.wait(lock, [&] { return stop_ || !queue_.empty() || flush_[i]; });
      if (!queue_.empty()) {
        Batch batch = std::move(queue_.front());
        queue_.pop_front();
        ++busy_;
        lock.unlock();
        accumulator.windows(batch.requests.data(), batch.counts, window_);
        batch.requests.clear();
        batch.counts.clear();
        lock.lock();
        --busy_;
        spare_.push_back(std::move(batch));
        done_.notify_all();
      } else if (flush_[i]) {
        lock.unlock();
        accumulator.transform_share(*accumulators_[0], i, accumulators_.size());
        lock.lock();
        flush_[i] = false;
        done_.notify_all();
      } else {
        return;
      }
    }
  }

  std::vector<std::unique_ptr<Accumulator>>& accumulators_;
  unsigned window_;
  std::mutex mutex_;
  std::condition_variable work_, done_;
  std::deque<Batch> queue_;
  std::vector<Batch> spare_;
  std::vector<bool> flush_;
  unsigned busy_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

ChannelBitSearch::ChannelBitSearch(unsigned channels, unsigned bit, unsigned k, unsigned window,
                                   ChannelBitSearchOptions options)
    : bit_(bit), k_(k), window_(window) {
  if (channels < 2 || (channels & (channels - 1)) || (1u << bit) >= channels)
    throw std::invalid_argument("ChannelBitSearch: channel bit " + std::to_string(bit) + " of " + std::to_string(channels) +
                                " channels");
  if (k == 0 || k > 24) throw std::invalid_argument("ChannelBitSearch: K = " + std::to_string(k) + " (1 to 24)");
  if (window == 0) throw std::invalid_argument("ChannelBitSearch: window 0");
  if (options.threads == 0) throw std::invalid_argument("ChannelBitSearch: 0 threads");
  pattern_mask_ = (uint32_t{1} << k) - 1;
  nlog2n_.resize(size_t{window} + 1);
  for (unsigned n = 0; n <= window; ++n) nlog2n_[n] = nlog2n_fixed(n);
  // The first table gathers every thread's at the end: together they stay
  // below 2^31 entries (32-bit offsets).
  const size_t held = std::min<size_t>(options.held_requests, (size_t{1} << 31) / options.threads);
  for (unsigned i = 0; i < options.threads; ++i) accumulators_.push_back(std::make_unique<Accumulator>(k, nlog2n_, held));
  batch_ = window;
  if (options.threads > 1) {
    batch_ = std::max<size_t>(1, options.batch_requests / window) * window;
    pool_ = std::make_unique<Pool>(accumulators_, window);
  }
  pending_.requests.reserve(batch_);
}

ChannelBitSearch::~ChannelBitSearch() = default;

void ChannelBitSearch::add(uint32_t channel, uint32_t pattern) {
  pending_.requests.push_back({channel & ~(1u << bit_), (pattern & pattern_mask_) << 1 | ((channel >> bit_) & 1)});
  if (++open_ == window_) window_closed(1);
}

void ChannelBitSearch::add_window(const uint32_t* channels, const uint32_t* patterns, uint64_t count) {
  if (open_) throw std::logic_error("ChannelBitSearch: add_window with a window open");
  for (unsigned r = 0; r < window_; ++r)
    pending_.requests.push_back(
        {channels[r] & ~(1u << bit_), (patterns[r] & pattern_mask_) << 1 | ((channels[r] >> bit_) & 1)});
  window_closed(count);
}

void ChannelBitSearch::window_closed(uint64_t count) {
  open_ = 0;
  windows_ += count;
  pending_.counts.push_back(count);
  if (pending_.requests.size() == batch_) hand_over(pending_.counts.size());
}

// The first `windows` whole windows of pending_ to an accumulator.
void ChannelBitSearch::hand_over(size_t windows) {
  const size_t requests = windows * window_;
  if (!pool_) {
    accumulators_[0]->windows(pending_.requests.data(), pending_.counts, window_);
    pending_.requests.erase(pending_.requests.begin(), pending_.requests.begin() + static_cast<ptrdiff_t>(requests));
    pending_.counts.clear();
    return;
  }
  Batch rest = pool_->spare();
  rest.requests.reserve(batch_);
  rest.requests.assign(pending_.requests.begin() + static_cast<ptrdiff_t>(requests), pending_.requests.end());
  pending_.requests.resize(requests);
  pool_->submit(std::move(pending_));
  pending_ = std::move(rest);
}

std::vector<double> ChannelBitSearch::scores() {
  if (const size_t whole = pending_.counts.size()) hand_over(whole);
  if (pool_)
    pool_->flush();
  else
    accumulators_[0]->flush();
  uint64_t windows = windows_, n = window_;
  if (windows_ == 0 && open_) {  // a stream shorter than one window scores that window
    n = open_;
    accumulators_[0]->windows(pending_.requests.data(), {1}, open_);
    accumulators_[0]->flush();
    windows = 1;
    pending_.requests.clear();
    open_ = 0;
  }
  // The inverse transform: 2^K times each vector's total, exactly.
  std::vector<__int128> total = accumulators_[0]->spectrum();
  for (size_t i = 1; i < accumulators_.size(); ++i)
    for (size_t u = 0; u < total.size(); ++u) total[u] += accumulators_[i]->spectrum()[u];
  walsh_hadamard(total.data(), total.size());
  std::vector<double> out(total.size());
  for (size_t a = 0; a < out.size(); ++a) out[a] = mean_window_entropy(total[a] / (__int128{1} << k_), windows, n);
  return out;
}

std::vector<double> channel_bit_scores_naive(const std::vector<uint32_t>& channels, const std::vector<uint32_t>& patterns,
                                             unsigned channel_count, unsigned bit, unsigned k, unsigned window) {
  std::vector<double> out(size_t{1} << k);
  for (uint32_t a = 0; a < out.size(); ++a) {
    WindowedEntropy e(channel_count, window);
    for (size_t r = 0; r < channels.size(); ++r)
      e.add(channels[r] ^ (static_cast<uint32_t>(__builtin_popcount(a & patterns[r]) & 1) << bit));
    out[a] = e.mean();
  }
  return out;
}

}  // namespace gpumem
