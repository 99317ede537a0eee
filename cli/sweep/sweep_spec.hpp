// A sweep spec (docs/sweeps.md): a base config, the subcommand each point
// runs, and axes whose product makes the points. Plain C++, no processes:
// the runner (sweep_runner.hpp), the merge and the tests share it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::sweep {

// An axis: a config key (dotted, `translator.tasks[1].scheme`) or one of the
// point's own inputs, `seed`, `trace` (a file, hashed by its contents) and
// `flags` (extra arguments, one string of words per value).
struct Axis {
  std::string key;
  int line = 0;                     // in the spec, for errors
  std::vector<std::string> values;  // each as YAML flow text ("8", "[8, 9]", "hbm2")
  int zip = -1;                     // the zip group it moves with, -1 alone
  bool is_config() const { return key != "seed" && key != "trace" && key != "flags"; }
};

struct SweepSpec {
  std::string path;     // the spec file as given
  std::string base;     // the base config, resolved against the spec's folder
  std::string base_text;  // its contents, read once
  std::string command;  // run, explore, cosim or compare-prefetch
  std::string output;   // the sweep's folder, resolved likewise
  std::vector<std::string> flags;    // every point's extra arguments
  std::vector<std::string> metrics;  // merge's default columns (dotted paths into the stats JSON)
  std::vector<Axis> axes;            // in the spec's order; a zip group's members are adjacent
};

// Reads and checks a spec: keys, types, an empty or unequal zip group, a
// trace that does not exist. Every point is checked by points(), not here.
// Throws InputError naming the spec's file, line and key.
SweepSpec load_sweep_spec(const std::string& path);

// A point: one value of each axis (zip members alike), made concrete.
struct Point {
  size_t index = 0;
  std::vector<size_t> choice;        // the value index of each axis
  std::string label;                 // "memory.channels=8 seed=2"
  std::string config_yaml;           // the base with the point's overrides, as the point runs it
  std::string trace;                 // a file, or ""
  std::string seed;                  // "", or the --seed value
  std::vector<std::string> flags;    // the spec's and the flags axis's, a word naming a file made absolute
  std::string hash;                  // 16 hex digits: the point's identity (point_hash)
};

// The points in order: the product of the axes, the first axis slowest, a
// zip group counting once. Each point's config is validated as `gpumem`
// would (parse_config); a bad one throws InputError naming the spec, the
// line of the first config axis that point sets, and the point.
// `validate` false skips parse_config (status and merge read outputs of
// points that were validated when they ran, and need only their identity).
size_t point_count(const SweepSpec& spec);
Point make_point(const SweepSpec& spec, size_t index, bool validate = true);
std::vector<Point> all_points(const SweepSpec& spec, bool validate = true);

// The identity of a point's inputs: gpumem's version, the command, the
// config with its keys sorted (so the spec's key order does not matter),
// the trace's contents, the seed and the flags. FNV-1a, 64 bits.
std::string point_hash(const std::string& command, const std::string& canonical_config, const std::string& trace_contents,
                       const std::string& seed, const std::vector<std::string>& flags);
// YAML text with every map's keys sorted, flow style: equal for two texts
// that differ only in key order, comments and layout.
std::string canonical_yaml(const std::string& yaml_text);

// The words of a flags string ("--threads 2" -> {"--threads", "2"}).
std::vector<std::string> split_words(const std::string& s);

}  // namespace gpumem::sweep
