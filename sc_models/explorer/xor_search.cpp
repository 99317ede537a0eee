#include "explorer/xor_search.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "explorer/window_entropy.hpp"

namespace gpumem {

namespace {

unsigned highest_bit(uint32_t v) { return 31u - static_cast<unsigned>(__builtin_clz(v)); }

// In place: h[z] = sum over y of h[y] (-1)^popcount(z & y).
void walsh_hadamard(int64_t* h, size_t size) {
  for (size_t len = 1; len < size; len <<= 1)
    for (size_t i = 0; i < size; i += 2 * len)
      for (size_t j = i; j < i + len; ++j) {
        const int64_t a = h[j], b = h[j + len];
        h[j] = a + b;
        h[j + len] = a - b;
      }
}

}  // namespace

ChannelBitSearch::ChannelBitSearch(unsigned channels, unsigned bit, unsigned k, unsigned window)
    : channels_(channels), bit_(bit), k_(k), window_(window) {
  if (channels < 2 || (channels & (channels - 1)) || (1u << bit) >= channels)
    throw std::invalid_argument("ChannelBitSearch: channel bit " + std::to_string(bit) + " of " + std::to_string(channels) +
                                " channels");
  if (k == 0 || k > 24) throw std::invalid_argument("ChannelBitSearch: K = " + std::to_string(k) + " (1 to 24)");
  if (window == 0) throw std::invalid_argument("ChannelBitSearch: window 0");
  spectrum_.assign(size_t{1} << k, 0);
  open_.reserve(window);
}

void ChannelBitSearch::add(uint32_t channel, uint32_t pattern) {
  open_.push_back({channel & ~(1u << bit_), pattern & static_cast<uint32_t>((uint64_t{1} << k_) - 1), ((channel >> bit_) & 1) != 0});
  if (open_.size() == window_) {
    close_window(window_);
    ++windows_;
    open_.clear();
  }
}

void ChannelBitSearch::close_window(unsigned n) {
  // Group by the other channel bits (the order inside a group does not
  // matter to the sums; a stable sort keeps issue order anyway).
  std::stable_sort(open_.begin(), open_.begin() + n, [](const Request& a, const Request& b) { return a.group < b.group; });
  for (unsigned start = 0; start < n;) {
    unsigned end = start + 1;
    while (end < n && open_[end].group == open_[start].group) ++end;
    add_group(&open_[start], end - start);
    start = end;
  }
}

// One group of n requests: their term of the window's sum, as a function of
// the vector a, added to the spectrum.
void ChannelBitSearch::add_group(const Request* group, unsigned n) {
  // The span of the patterns relative to the first, in reduced row echelon
  // form (each pivot bit in one basis vector only): a relative pattern's
  // coordinate i is its bit at basis[i]'s pivot.
  std::vector<uint32_t>& basis = basis_;
  basis.clear();
  for (unsigned r = 1; r < n; ++r) {
    uint32_t u = group[r].pattern ^ group[0].pattern;
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
    const uint32_t u = group[r].pattern ^ group[0].pattern;
    uint32_t y = 0;
    for (unsigned i = 0; i < d; ++i) y |= ((u >> highest_bit(basis[i])) & 1u) << i;
    h_[y] += group[r].bit ? -1 : 1;
  }
  walsh_hadamard(h_.data(), size);
  g_.resize(size);
  const int64_t total = n;
  for (size_t z = 0; z < size; ++z) {
    const int64_t n1 = (total - h_[z]) / 2;
    g_[z] = nlog2n_fixed(static_cast<uint64_t>(n1)) + nlog2n_fixed(static_cast<uint64_t>(total - n1));
  }
  // The term is g(z(a)), z_i = parity(a & basis[i]); its spectrum at
  // u = sum_i c_i basis[i] is 2^(K-d) * G^(c), zero off the span.
  walsh_hadamard(g_.data(), size);
  const __int128 scale = __int128{1} << (k_ - d);  // a multiplication: G^ may be negative
  uint32_t u = 0;
  spectrum_[0] += g_[0] * scale;
  for (uint32_t c = 1, gray = 0; c < size; ++c) {
    const unsigned i = static_cast<unsigned>(__builtin_ctz(c));
    gray ^= 1u << i;
    u ^= basis[i];
    spectrum_[u] += g_[gray] * scale;
  }
}

std::vector<double> ChannelBitSearch::scores() {
  uint64_t windows = windows_, n = window_;
  if (windows_ == 0 && !open_.empty()) {  // a stream shorter than one window scores that window
    n = open_.size();
    close_window(static_cast<unsigned>(n));
    windows = 1;
    open_.clear();
  }
  // The inverse transform: 2^K times each vector's total, exactly.
  std::vector<__int128> total = spectrum_;
  for (size_t len = 1; len < total.size(); len <<= 1)
    for (size_t i = 0; i < total.size(); i += 2 * len)
      for (size_t j = i; j < i + len; ++j) {
        const __int128 a = total[j], b = total[j + len];
        total[j] = a + b;
        total[j + len] = a - b;
      }
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
