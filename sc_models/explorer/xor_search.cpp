#include "explorer/xor_search.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "metrics/window_entropy.hpp"

namespace gpumem {

namespace {

unsigned highest_bit(uint64_t v) { return 63u - static_cast<unsigned>(__builtin_clzll(v)); }

// In place: h[z] = sum over y of h[y] (-1)^popcount(z & y).
template <class Int>
void walsh_hadamard(Int* h, size_t size) {
  for (size_t len = 1; len < size; len <<= 1)
    for (size_t i = 0; i < size; i += 2 * len)
      for (size_t j = i; j < i + len; ++j) {
        const Int a = h[j], b = h[j + len];
        h[j] = a + b;
        h[j + len] = a - b;
      }
}

}  // namespace

// One thread's share of the work: the windows it is given, their distinct
// groups, and the spectrum of its windows alone.
class ChannelBitSearch::Accumulator {
 public:
  Accumulator(unsigned k, const std::vector<int64_t>& nlog2n, size_t held_requests)
      : k_(k), nlog2n_(nlog2n), held_(std::min<size_t>(held_requests, uint32_t{1} << 31)), spectrum_(size_t{1} << k, 0) {}

  // `count` consecutive windows of n requests each.
  void windows(const Request* requests, size_t count, unsigned n) {
    for (size_t w = 0; w < count; ++w) window(requests + w * n, n);
  }

  // Transforms the held groups into the spectrum and forgets them.
  void flush() {
    for (const Slot& s : slots_)
      if (s.offset != kEmpty) add_group(&arena_[s.offset + 1], arena_[s.offset], s.count);
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

  void window(const Request* requests, unsigned n);
  void hold(const uint32_t* group, unsigned n);
  void add_group(const uint32_t* group, unsigned n, uint64_t count);
  template <class Int>
  void add_term(std::vector<Int>& g, unsigned n, uint64_t count);

  unsigned k_;
  const std::vector<int64_t>& nlog2n_;
  size_t held_;
  std::vector<__int128> spectrum_;
  // The held distinct groups: open addressing over arena_, at most half full.
  std::vector<uint32_t> arena_;
  std::vector<Slot> slots_;
  size_t distinct_ = 0;
  // Scratch, grown to the largest window and group seen, then reused.
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> group_, basis_;
  std::vector<int64_t> h_, g_;
  std::vector<__int128> g_wide_;
};

void ChannelBitSearch::Accumulator::window(const Request* requests, unsigned n) {
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
      add_group(group_.data(), size, 1);
      continue;
    }
    std::sort(group_.begin(), group_.begin() + size);
    hold(group_.data(), size);
  }
}

void ChannelBitSearch::Accumulator::hold(const uint32_t* group, unsigned n) {
  if (arena_.size() + n + 1 > held_) flush();
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
      s = Slot{1, static_cast<uint32_t>(arena_.size()), hash};
      arena_.push_back(n);
      arena_.insert(arena_.end(), group, group + n);
      ++distinct_;
      return;
    }
    if (s.hash == hash && arena_[s.offset] == n && std::equal(group, group + n, &arena_[s.offset + 1])) {
      ++s.count;
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
  // coordinate i is its bit at basis[i]'s pivot.
  std::vector<uint32_t>& basis = basis_;
  basis.clear();
  for (unsigned r = 1; r < n; ++r) {
    uint32_t u = (group[r] ^ group[0]) >> 1;
    for (uint32_t v : basis)
      if ((u >> highest_bit(v)) & 1) u ^= v;
    if (!u) continue;
    const unsigned pivot = highest_bit(u);
    for (uint32_t& v : basis)
      if ((v >> pivot) & 1) v ^= u;
    basis.push_back(u);
  }
  const unsigned d = static_cast<unsigned>(basis.size());
  const size_t size = size_t{1} << d;

  // H(z) = sum_r (-1)^(bit_r xor z.y_r): the signed histogram of the
  // coordinates, transformed. Bit j set on n1 = (n - H) / 2 requests; the
  // group's term is T(n1) + T(n - n1) (T: nlog2n_fixed).
  h_.assign(size, 0);
  for (unsigned r = 0; r < n; ++r) {
    const uint32_t u = (group[r] ^ group[0]) >> 1;
    uint32_t y = 0;
    for (unsigned i = 0; i < d; ++i) y |= ((u >> highest_bit(basis[i])) & 1u) << i;
    h_[y] += (group[r] & 1) ? -1 : 1;
  }
  walsh_hadamard(h_.data(), size);
  // G^ is at most G^(0) = sum_z g(z) <= 2^d T(n) in size (g >= 0): 64 bits
  // while that fits, which is always for windows up to 1024 requests.
  if (d + highest_bit(static_cast<uint64_t>(nlog2n_[n]) | 1) < 62)
    add_term(g_, n, count);
  else
    add_term(g_wide_, n, count);
}

// The group's term g(z) = T(n1) + T(n - n1) from H = h_, transformed to G^.
// The term is g(z(a)), z_i = parity(a & basis[i]); its spectrum at
// u = sum_i c_i basis[i] is 2^(K-d) * G^(c), zero off the span.
template <class Int>
void ChannelBitSearch::Accumulator::add_term(std::vector<Int>& g, unsigned n, uint64_t count) {
  const int64_t* t = nlog2n_.data();
  const int64_t total = n;
  const size_t size = h_.size();
  g.resize(size);
  for (size_t z = 0; z < size; ++z) g[z] = t[(total - h_[z]) / 2] + t[(total + h_[z]) / 2];
  walsh_hadamard(g.data(), size);
  const __int128 scale = static_cast<__int128>(count) << (k_ - basis_.size());  // a multiplication: G^ may be negative
  __int128* spectrum = spectrum_.data();
  uint32_t u = 0;
  spectrum[0] += g[0] * scale;
  for (uint32_t c = 1, gray = 0; c < size; ++c) {
    const unsigned i = static_cast<unsigned>(__builtin_ctz(c));
    gray ^= 1u << i;
    u ^= basis_[i];
    spectrum[u] += g[gray] * scale;
  }
}

// Worker threads over batches of whole windows. A batch goes to whichever
// worker is free; each adds into its own accumulator, so which worker took
// which batch does not change the sum.
class ChannelBitSearch::Pool {
 public:
  Pool(std::vector<std::unique_ptr<Accumulator>>& accumulators, unsigned window) : window_(window) {
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
  void submit(std::vector<Request>&& batch) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return queue_.size() < 2 * threads_.size(); });
    queue_.push_back(std::move(batch));
    work_.notify_one();
  }

  // An emptied batch to fill again (no allocation once the pool is warm).
  std::vector<Request> spare() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (spare_.empty()) return {};
    std::vector<Request> b = std::move(spare_.back());
    spare_.pop_back();
    return b;
  }

  // Returns once every batch is in and every worker has flushed its held
  // groups: then the accumulators are the caller's to read.
  void flush() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return queue_.empty() && busy_ == 0; });
    std::fill(flush_.begin(), flush_.end(), true);
    work_.notify_all();
    done_.wait(lock, [this] { return std::none_of(flush_.begin(), flush_.end(), [](bool f) { return f; }); });
  }

 private:
  void run(size_t i, Accumulator& accumulator) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      work_.wait(lock, [&] { return stop_ || !queue_.empty() || flush_[i]; });
      if (!queue_.empty()) {
        std::vector<Request> batch = std::move(queue_.front());
        queue_.pop_front();
        ++busy_;
        lock.unlock();
        accumulator.windows(batch.data(), batch.size() / window_, window_);
        batch.clear();
        lock.lock();
        --busy_;
        spare_.push_back(std::move(batch));
        done_.notify_all();
      } else if (flush_[i]) {
        lock.unlock();
        accumulator.flush();
        lock.lock();
        flush_[i] = false;
        done_.notify_all();
      } else {
        return;
      }
    }
  }

  unsigned window_;
  std::mutex mutex_;
  std::condition_variable work_, done_;
  std::deque<std::vector<Request>> queue_;
  std::vector<std::vector<Request>> spare_;
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
  for (unsigned i = 0; i < options.threads; ++i)
    accumulators_.push_back(std::make_unique<Accumulator>(k, nlog2n_, options.held_requests));
  batch_ = window;
  if (options.threads > 1) {
    batch_ = std::max<size_t>(1, options.batch_requests / window) * window;
    pool_ = std::make_unique<Pool>(accumulators_, window);
  }
  pending_.reserve(batch_);
}

ChannelBitSearch::~ChannelBitSearch() = default;

void ChannelBitSearch::add(uint32_t channel, uint32_t pattern) {
  pending_.push_back({channel & ~(1u << bit_), (pattern & pattern_mask_) << 1 | ((channel >> bit_) & 1)});
  if (++open_ < window_) return;
  open_ = 0;
  ++windows_;
  if (pending_.size() == batch_) hand_over(batch_);
}

// The first `requests` of pending_ (whole windows) to an accumulator.
void ChannelBitSearch::hand_over(size_t requests) {
  if (!pool_) {
    accumulators_[0]->windows(pending_.data(), requests / window_, window_);
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<ptrdiff_t>(requests));
    return;
  }
  std::vector<Request> rest = pool_->spare();
  rest.reserve(batch_);
  rest.assign(pending_.begin() + static_cast<ptrdiff_t>(requests), pending_.end());
  pending_.resize(requests);
  pool_->submit(std::move(pending_));
  pending_ = std::move(rest);
}

std::vector<double> ChannelBitSearch::scores() {
  if (const size_t whole = pending_.size() - open_) hand_over(whole);
  if (pool_)
    pool_->flush();
  else
    accumulators_[0]->flush();
  uint64_t windows = windows_, n = window_;
  if (windows_ == 0 && open_) {  // a stream shorter than one window scores that window
    n = open_;
    accumulators_[0]->windows(pending_.data(), 1, open_);
    accumulators_[0]->flush();
    windows = 1;
    pending_.clear();
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
