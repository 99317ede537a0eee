// "Did you mean": the name a user most likely meant when they typed one the
// command does not know (a config key, a scheme, a register, a metric).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

namespace gpumem {

// Edits (insert, delete, replace, swap of two neighbours) from a to b.
inline size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The one name of `names` nearest to `given`, if it is near enough to be a
// slip (at most two edits, and fewer than half of `given`'s letters) and no
// other is as near; else "".
inline std::string nearest_name(const std::string& given, const std::vector<std::string>& names) {
  std::string best;
  size_t best_d = 3, ties = 0;
  for (const std::string& n : names) {
    const size_t d = edit_distance(given, n);
    if (d < best_d) best = n, best_d = d, ties = 0;
    else if (d == best_d) ++ties;
  }
  if (best.empty() || ties || 2 * best_d >= given.size()) return "";
  return best;
}

// "; did you mean 'name'?" for the nearest name, or "".
inline std::string did_you_mean(const std::string& given, const std::vector<std::string>& names) {
  const std::string n = nearest_name(given, names);
  return n.empty() ? "" : "; did you mean '" + n + "'?";
}

}  // namespace gpumem
