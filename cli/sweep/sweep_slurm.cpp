#include "sweep/sweep_slurm.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/child_process.hpp"
#include "base/input_error.hpp"
#include "base/output_file.hpp"
#include "base/user_paths.hpp"

namespace gpumem::sweep {

namespace fs = std::filesystem;

namespace {

std::string jobs_file(const SweepSpec& spec) { return spec.output + "/slurm/jobs.txt"; }

}  // namespace

std::vector<size_t> chunks_of(const std::vector<size_t>& points, unsigned points_per_task) {
  std::vector<size_t> chunks;
  for (size_t p : points) {
    const size_t c = p / std::max(1u, points_per_task);
    if (chunks.empty() || chunks.back() != c) chunks.push_back(c);
  }
  return chunks;
}

std::string array_spec(const std::vector<size_t>& chunks, unsigned throttle) {
  std::string s;
  bool contiguous = !chunks.empty() && chunks.front() == 0;
  for (size_t k = 0; contiguous && k < chunks.size(); ++k) contiguous = chunks[k] == k;
  if (contiguous) {
    s = "0-" + std::to_string(chunks.size() - 1);
  } else {
    for (size_t c : chunks) s += (s.empty() ? "" : ",") + std::to_string(c);
  }
  return throttle ? s + "%" + std::to_string(throttle) : s;
}

std::string sbatch_script(const SweepSpec& spec, const std::string& gpumem, const std::string& array, const SlurmOptions& o) {
  const std::string out = absolute_path(spec.output);
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "#SBATCH --job-name=gpumem-sweep-" << fs::path(spec.path).stem().string() << "\n"
    << "#SBATCH --array=" << array << "\n"
    << "#SBATCH --output=" << out << "/slurm/%A_%a.out\n"
    << "#SBATCH --cpus-per-task=1\n";
  if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.time.empty()) s << "#SBATCH --time=" << o.time << "\n";
  if (!o.mem.empty()) s << "#SBATCH --mem=" << o.mem << "\n";
  for (const std::string& a : o.sbatch_args) s << "#SBATCH " << a << "\n";
  s << "# Written by gpumem sweep --slurm (docs/sweeps.md, \"On a cluster\"): array task T runs "
    << (o.points_per_task == 1 ? std::string("point T")
                               : "points T*" + std::to_string(o.points_per_task) + " to T*" + std::to_string(o.points_per_task) +
                                     "+" + std::to_string(o.points_per_task - 1))
    << ",\n# skipping any that already has a whole output.\n"
    << "exec " << shell_quoted(gpumem) << " sweep " << shell_quoted(absolute_path(spec.path))
    << " --point \"$SLURM_ARRAY_TASK_ID\" --points-per-task " << o.points_per_task << " --jobs 1 --resume";
  if (o.retries) s << " --retries " << o.retries;
  s << "\n";
  return s.str();
}

Submission submit_array(const SweepSpec& spec, const std::string& gpumem, const std::vector<size_t>& chunks,
                        const SlurmOptions& o) {
  Submission sub;
  sub.tasks = chunks.size();
  create_output_folder(spec.output + "/slurm", "output");
  unsigned n = 1;
  while (fs::exists(spec.output + "/slurm/sweep-" + std::to_string(n) + ".sbatch")) ++n;
  sub.script = spec.output + "/slurm/sweep-" + std::to_string(n) + ".sbatch";
  write_output_file(sub.script, "--slurm", sbatch_script(spec, gpumem, array_spec(chunks, o.throttle), o));
  fs::permissions(sub.script, fs::perms::owner_exec, fs::perm_options::add);
  if (o.emit_only) return sub;
  int status = 0;
  const std::string out = run_captured({"sbatch", "--parsable", sub.script}, status);
  if (status != 0) {
    const std::string why = status == 127 ? "sbatch not found: is this a Slurm login node? (--emit-only writes the script alone)"
                                          : "sbatch refused " + sub.script + ": " + out.substr(0, out.find_last_not_of('\n') + 1);
    throw InputError("", 0, "--slurm", why);
  }
  sub.job = out.substr(0, out.find_first_of(";\n"));
  std::ofstream(jobs_file(spec), std::ios::app) << sub.job << " " << o.points_per_task << "\n";
  return sub;
}

std::map<size_t, std::string> queued_points(const SweepSpec& spec, size_t point_count) {
  std::map<size_t, std::string> states;
  std::ifstream in(jobs_file(spec));
  std::map<std::string, unsigned> per_task;  // job -> points per task
  for (std::string job; in >> job;) {
    unsigned k = 1;
    in >> k;
    per_task[job] = k;
  }
  if (per_task.empty()) return states;
  std::string ids;
  for (const auto& [job, k] : per_task) ids += (ids.empty() ? "" : ",") + job;
  int status = 0;
  // -r: one line per array task ("123_4 PENDING"); a pending range is "123_[5-9%2]" without -r.
  const std::string out = run_captured({"squeue", "-h", "-r", "-j", ids, "-o", "%i %T"}, status);
  if (status != 0) return states;
  std::istringstream lines(out);
  for (std::string id, state; lines >> id >> state;) {
    const size_t us = id.find('_');
    if (us == std::string::npos) continue;
    const auto it = per_task.find(id.substr(0, us));
    if (it == per_task.end()) continue;
    const std::string task = id.substr(us + 1);
    if (task.empty() || task.find_first_not_of("0123456789") != std::string::npos) continue;
    const size_t t = std::stoul(task);
    for (size_t p = t * it->second; p < (t + 1) * it->second && p < point_count; ++p) states[p] = state;
  }
  return states;
}

}  // namespace gpumem::sweep
