#include "sweep/sweep_merge.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <map>
#include <set>
#include <sstream>

#include "base/input_error.hpp"
#include "base/input_file.hpp"
#include "base/junit_report.hpp"
#include "base/nearest_name.hpp"
#include "base/output_file.hpp"
#include "sweep/sweep_runner.hpp"
#include "tb/common/code_coverage.hpp"
#include "tb/common/coverage.hpp"

namespace gpumem::sweep {

namespace fs = std::filesystem;

namespace {


std::string csv_cell(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string listed(const std::vector<size_t>& indices, const std::vector<Point>& points) {
  std::string s;
  for (size_t k = 0; k < indices.size() && k < 5; ++k)
    s += (k ? "; " : "") + std::to_string(points[indices[k]].index) + " (" + points[indices[k]].label + ")";
  if (indices.size() > 5) s += "; and " + std::to_string(indices.size() - 5) + " more";
  return s;
}

}  // namespace

std::string top_level_members(const std::string& t, const std::set<std::string>& keep) {
  constexpr size_t npos = std::string::npos;
  auto ws = [&](size_t i) {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t')) ++i;
    return i;
  };
  auto string_end = [&](size_t i) {  // t[i] is the opening quote
    for (++i; i < t.size(); ++i) {
      if (t[i] == '\\') ++i;
      else if (t[i] == '"') return i + 1;
    }
    return npos;
  };
  auto value_end = [&](size_t i) -> size_t {
    if (i >= t.size()) return npos;
    if (t[i] == '"') return string_end(i);
    if (t[i] == '{' || t[i] == '[') {
      // A table of the bytes that matter, so the loop runs over the rest
      // (digits, commas, blanks) with one test each.
      static const auto kind = [] {
        std::array<uint8_t, 256> k{};
        k['"'] = 1;
        k['{'] = k['['] = 2;
        k['}'] = k[']'] = 3;
        return k;
      }();
      const char* const data = t.data();
      int depth = 0;
      for (; i < t.size(); ++i) {
        const uint8_t c = kind[static_cast<unsigned char>(data[i])];
        if (c == 0) continue;
        if (c == 1) {
          i = string_end(i);
          if (i == npos) return npos;
          --i;
        } else if (c == 2) {
          ++depth;
        } else if (--depth == 0) {
          return i + 1;
        }
      }
      return npos;
    }
    while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && t[i] != ' ' && t[i] != '\n') ++i;
    return i;
  };
  std::string out = "{";
  size_t i = ws(0);
  if (i >= t.size() || t[i] != '{') return t;
  for (i = ws(i + 1); i < t.size() && t[i] != '}';) {
    if (t[i] != '"') return t;
    const size_t key_end = string_end(i);
    if (key_end == npos) return t;
    const std::string key = t.substr(i + 1, key_end - i - 2);
    i = ws(key_end);
    if (i >= t.size() || t[i] != ':') return t;
    i = ws(i + 1);
    const size_t end = value_end(i);
    if (end == npos) return t;
    if (keep.count(key)) out += (out.size() > 1 ? ",\"" : "\"") + key + "\":" + t.substr(i, end - i);
    i = ws(end);
    if (i < t.size() && t[i] == ',') i = ws(i + 1);
  }
  return out + "}";
}

SweepStatus sweep_status(const SweepSpec& spec, const std::vector<Point>& points, const std::map<size_t, std::string>& queued) {
  SweepStatus s;
  for (size_t k = 0; k < points.size(); ++k) {
    if (point_is_whole(spec, points[k])) {
      s.done.push_back(k);
    } else if (fs::is_regular_file(failure_file(spec, points[k]))) {
      s.failed.push_back(k);
      std::string line = "point " + std::to_string(points[k].index) + " (" + points[k].label + ")";
      try {
        const nlohmann::json j = nlohmann::json::parse(read_input_file(failure_file(spec, points[k]), "failure record"));
        line += ": " + j.value("status", std::string("failed"));
        const std::string err = j.value("stderr", std::string()), divergence = j.value("first_divergence", std::string());
        if (!divergence.empty()) line += ": " + divergence;
        else if (!err.empty()) line += ": " + err.substr(err.rfind('\n') == std::string::npos ? 0 : err.rfind('\n') + 1);
      } catch (const nlohmann::json::exception&) {
        line += ": failed (its record is unreadable)";
      }
      s.failure_lines.push_back(line);
    } else if (const auto q = queued.find(points[k].index); q != queued.end()) {
      s.queued.push_back(k);
      s.queue_states.push_back(q->second);
    } else {
      s.missing.push_back(k);
    }
  }
  return s;
}

std::string sweep_junit(const SweepSpec& spec, const std::vector<Point>& points, const SweepStatus& s) {
  std::vector<JUnitCase> cases(points.size());
  for (size_t k = 0; k < points.size(); ++k) {
    cases[k].classname = "sweep." + spec.command;
    cases[k].name = "point " + std::to_string(points[k].index) + " (" + points[k].label + ")";
    cases[k].skipped = "no output";
  }
  for (size_t k : s.done) cases[k].skipped.clear();
  for (size_t k : s.failed) {
    JUnitCase& c = cases[k];
    c.skipped.clear();
    try {
      const nlohmann::json j = nlohmann::json::parse(read_input_file(failure_file(spec, points[k]), "failure record"));
      const std::string status = j.value("status", std::string("failed")), err = j.value("stderr", std::string());
      c.message = j.value("first_divergence", std::string());
      c.failure = j.value("failure", std::string());
      if (c.message.empty()) {
        c.message = status;
        if (!err.empty()) c.message += ": " + err.substr(err.rfind('\n') == std::string::npos ? 0 : err.rfind('\n') + 1);
      }
      if (c.failure.empty()) c.failure = status + (err.empty() ? "" : "\n" + err);
    } catch (const nlohmann::json::exception&) {
      c.message = c.failure = "failed (its record is unreadable)";
    }
  }
  return junit_report("gpumem sweep " + fs::path(spec.path).filename().string(), cases);
}

std::string status_report(const SweepStatus& s, const std::vector<Point>& points) {
  std::ostringstream o;
  o << points.size() << " points: " << s.done.size() << " done, " << s.failed.size() << " failed, ";
  if (!s.queued.empty()) o << s.queued.size() << " queued, ";
  o << s.missing.size() << " missing\n";
  for (const std::string& f : s.failure_lines) o << "failed   " << f << "\n";
  for (size_t q = 0; q < s.queued.size(); ++q)
    o << "queued   point " << points[s.queued[q]].index << " (" << points[s.queued[q]].label << "): " << s.queue_states[q] << "\n";
  for (size_t k : s.missing) o << "missing  point " << points[k].index << " (" << points[k].label << ")\n";
  return o.str();
}

namespace {

// The value at a dotted path of a parsed document, or null.
const nlohmann::json* at_path(const nlohmann::json& j, const std::string& path) {
  const nlohmann::json* at = &j;
  size_t pos = 0;
  while (pos <= path.size()) {
    const size_t dot = path.find('.', pos);
    std::string part = path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    const size_t bracket = part.find('[');
    const std::string name = part.substr(0, bracket);
    if (!name.empty()) {
      if (!at->is_object() || !at->contains(name)) return nullptr;
      at = &(*at)[name];
    }
    for (size_t b = bracket; b != std::string::npos; b = part.find('[', b + 1)) {
      const size_t close = part.find(']', b);
      if (close == std::string::npos) return nullptr;
      const std::string digits = part.substr(b + 1, close - b - 1);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return nullptr;
      const size_t i = std::stoul(digits);
      if (!at->is_array() || i >= at->size()) return nullptr;
      at = &(*at)[i];
    }
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  return at;
}

// Every dotted path of a document that leads to a value, an array's members
// by its first ([0]): the names a misspelt metric is held against.
void value_paths(const nlohmann::json& j, const std::string& prefix, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) value_paths(*it, prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_array()) {
    if (!j.empty()) value_paths(j[0], prefix + "[0]", out);
  } else {
    out.push_back(prefix);
  }
}

std::string text_of(const nlohmann::json* v, bool& found) {
  found = v != nullptr;
  return !v ? "" : v->is_string() ? v->get<std::string>() : v->dump();
}

}  // namespace

std::string json_path_value(const std::string& json_text, const std::string& path, bool& found) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  found = false;
  return j.is_discarded() ? "" : text_of(at_path(j, path), found);
}

MergedTable merged_table(const SweepSpec& spec, const std::vector<Point>& points, const std::vector<std::string>& metrics,
                         bool allow_partial) {
  const SweepStatus status = sweep_status(spec, points);
  std::vector<size_t> absent = status.missing;  // merge reads no queue: a queued point has no output either
  if (!allow_partial && (!status.failed.empty() || !absent.empty())) {
    std::string why = std::to_string(status.failed.size() + absent.size()) + " of " + std::to_string(points.size()) +
                      " points have no output";
    if (!status.failed.empty()) why += "; failed: " + listed(status.failed, points);
    if (!absent.empty()) why += "; missing: " + listed(absent, points);
    throw InputError(spec.path, 0, "", why + " (gpumem sweep status says more; --allow-partial merges the rest)");
  }
  std::vector<bool> metric_seen(metrics.size(), false);
  std::vector<std::vector<std::string>> rows;
  std::vector<tb::CoverageGroup> coverage;  // cosim points: every point's bins added up
  std::set<std::string> top;                 // the top-level members the metrics and the coverage read
  for (const std::string& m : metrics) top.insert(m.substr(0, m.find_first_of(".[")));
  if (spec.command == "cosim") top.insert("coverage");
  for (size_t k : status.done) {
    const Point& p = points[k];
    std::vector<std::string> row{std::to_string(p.index), p.hash};
    for (size_t a = 0; a < spec.axes.size(); ++a) row.push_back(spec.axes[a].values[p.choice[a]]);
    // Parsed once for every metric, keeping only the top-level members a
    // metric (or the coverage) reads: a stats JSON can be large (its series).
    const nlohmann::json stats =
        nlohmann::json::parse(top_level_members(read_input_file(point_folder(spec, p) + "/stats.json", "stats JSON"), top), nullptr, false);
    if (spec.command == "cosim") {
      const nlohmann::json* groups = stats.is_discarded() ? nullptr : at_path(stats, "coverage");
      const std::string why = groups ? tb::add_coverage_json(groups->dump(), coverage) : "no coverage";
      if (!why.empty())
        throw InputError(point_folder(spec, p) + "/stats.json", 0, "coverage", why + " (point " + std::to_string(p.index) + ")");
    }
    for (size_t m = 0; m < metrics.size(); ++m) {
      bool found = false;
      row.push_back(stats.is_discarded() ? "" : text_of(at_path(stats, metrics[m]), found));
      metric_seen[m] = metric_seen[m] || found;
    }
    rows.push_back(std::move(row));
  }
  for (size_t m = 0; m < metrics.size(); ++m)
    if (!metric_seen[m] && !rows.empty()) {
      // Only now the first point's whole JSON: the paths a slip may have meant.
      std::vector<std::string> paths;
      const nlohmann::json first =
          nlohmann::json::parse(read_input_file(point_folder(spec, points[status.done.front()]) + "/stats.json", "stats JSON"), nullptr, false);
      if (!first.is_discarded()) value_paths(first, "", paths);
      throw InputError(spec.path, 0, "--metrics",
                       "'" + metrics[m] + "' is in no point's stats JSON (a dotted path such as channels[0].requests)" +
                           did_you_mean(metrics[m], paths));
    }

  MergedTable t;
  t.done = status.done;
  t.header = {"index", "hash"};
  for (const Axis& a : spec.axes) t.header.push_back(a.key);
  t.header.insert(t.header.end(), metrics.begin(), metrics.end());
  t.rows = std::move(rows);
  if (spec.command == "cosim") {
    std::vector<const tb::CoverageGroup*> groups;
    for (const tb::CoverageGroup& g : coverage) groups.push_back(&g);
    std::ostringstream report;
    // As one run's report: long lines folded, the unhit bins that do not fit counted.
    tb::print_coverage(report, groups, tb::kReportWidth, "each point's stats.json lists every bin");
    t.coverage = report.str();
  }
  return t;
}

namespace {

// Cosim points run with --code-coverage DIR (the spec's flags or a flags
// axis): their .dat files, DIR taken from each point's own folder, merged
// per block into <output>/code-coverage (docs/sweeps.md); "" when none.
std::string merge_point_code_coverage(const SweepSpec& spec, const std::vector<Point>& points, const std::vector<size_t>& done) {
  if (spec.command != "cosim") return "";
  std::map<std::string, std::set<std::string>> dats;  // by block; a folder the points share is read once
  for (size_t k : done) {
    const std::vector<std::string>& flags = points[k].flags;
    for (size_t f = 0; f + 1 < flags.size(); ++f) {
      if (flags[f] != "--code-coverage") continue;
      const fs::path dir = fs::path(point_folder(spec, points[k])) / flags[f + 1];
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        const size_t seed = name.find("-seed");
        if (e.path().extension() == ".dat" && seed != std::string::npos) dats[name.substr(0, seed)].insert(e.path().string());
      }
    }
  }
  if (dats.empty()) return "";
  const std::string dir = spec.output + "/code-coverage";
  create_output_folder(dir, "output");
  std::string report;
  for (const auto& [block, files] : dats) {
    try {
      report += tb::code_coverage_report(tb::merge_code_coverage(dir, block, {files.begin(), files.end()}));
    } catch (const std::runtime_error& e) {
      throw InputError(dir, 0, "--code-coverage", e.what());
    }
  }
  return report;
}

}  // namespace

std::string merge_sweep(const SweepSpec& spec, const std::vector<Point>& points, const std::vector<std::string>& metrics,
                        bool allow_partial, const std::string& out) {
  const MergedTable t = merged_table(spec, points, metrics, allow_partial);
  const std::vector<std::string>& header = t.header;
  const std::vector<std::vector<std::string>>& rows = t.rows;
  std::string text;
  if (out.size() >= 5 && out.compare(out.size() - 5, 5, ".json") == 0) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& row : rows) {
      nlohmann::ordered_json o;
      for (size_t c = 0; c < header.size(); ++c) {
        const nlohmann::json parsed = nlohmann::json::parse(row[c], nullptr, false);
        o[header[c]] = c >= 2 && !parsed.is_discarded() && !row[c].empty() ? parsed : nlohmann::json(row[c]);
      }
      j.push_back(o);
    }
    text = j.dump(2) + "\n";
  } else {
    for (size_t c = 0; c < header.size(); ++c) text += (c ? "," : "") + csv_cell(header[c]);
    text += "\n";
    for (const auto& row : rows) {
      for (size_t c = 0; c < row.size(); ++c) text += (c ? "," : "") + csv_cell(row[c]);
      text += "\n";
    }
  }
  write_output_file(out, "--out", text);
  return t.coverage + merge_point_code_coverage(spec, points, t.done);
}

std::string sweep_plot_json(const MergedTable& t, const std::string& x, const std::string& y, const std::string& lines) {
  auto column = [&](const std::string& name, const char* flag, bool axis) {
    for (size_t c = 2; c < t.header.size(); ++c)
      if (t.header[c] == name) return c;
    throw InputError("", 0, flag,
                     "'" + name + "' is not " + (axis ? "an axis of the sweep" : "a metric of the merge (--metrics or the spec's metrics)") +
                         did_you_mean(name, std::vector<std::string>(t.header.begin() + 2, t.header.end())));
  };
  const size_t cx = column(x, "--x", true), cy = column(y, "--y", false);
  const size_t cl = lines.empty() ? 0 : column(lines, "--lines", true);
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& row : t.rows) {
    const nlohmann::json yv = nlohmann::json::parse(row[cy], nullptr, false);
    if (yv.is_discarded() || !yv.is_number()) continue;  // a point whose JSON lacks the metric
    points.push_back({{"x", row[cx]}, {"y", yv}, {"line", lines.empty() ? "" : row[cl]}});
  }
  nlohmann::ordered_json j;
  j["sweep"] = {{"x", x}, {"y", y}, {"lines", lines}, {"points", points}};
  return j.dump();
}

}  // namespace gpumem::sweep
