// Other programs gpumem runs, one helper for all: Verilator, make and the
// compiler for RTL verilated at run time, verilator_coverage and genhtml for
// the RTL's code coverage, a sweep's points, Slurm's sbatch and squeue, the
// plot script's Python. A run of gpumem's own code in a child (`run
// --compare-prefetch`) forks without a program and is not this.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace gpumem {

// An executable: `name` with a slash as it is, else the first in $PATH; ""
// when there is none.
std::string find_tool(const std::string& name);

// How a child starts: its standard streams, its folder, its process group.
struct ChildSetup {
  std::string in;        // a file for stdin; "": gpumem's
  std::string out, err;  // files for stdout and stderr (the same path: one file); "": gpumem's
  bool append = false;   // to `out` and `err`, else they are truncated
  bool err_to_out = false;  // stderr where stdout goes
  int out_fd = -1;          // stdout and stderr to this descriptor (a pipe's), in place of `out` and `err`
  std::string folder;    // it runs there; "": gpumem's
  // A process group of its own, so that whoever stops it stops its children
  // too (make's compilers would otherwise run on).
  bool own_group = false;
  // Registered while it runs (base/stop_request.hpp, add_child_group), so
  // that gpumem ending on a signal kills the group whole; needs own_group.
  bool killed_with_gpumem = false;
  bool default_signals = false;  // SIGINT and SIGTERM at their defaults in the child
};

// Starts argv (argv[0] a path) as `setup` says; its pid, or -1 when it
// cannot fork. A child that cannot open its files, enter its folder or run
// the program exits 127.
pid_t start_child(const std::vector<std::string>& argv, const ChildSetup& setup = {});
// Waits for a child start_child started (a signal's EINTR retried); its
// exit code, 128 + the signal that ended it, or -1 when it cannot be waited for.
int wait_child(pid_t pid, const ChildSetup& setup = {});
// The exit code of a waitpid() status: its exit code, or 128 + its signal.
int exit_code(int wait_status);

// start_child and wait_child: the exit code (-1: it could not start).
int run_child(const std::vector<std::string>& argv, const ChildSetup& setup = {});

// A tool's run with stdout and stderr appended to `log`, in a process group
// of its own that a signal ending gpumem kills whole; its exit code as
// wait_child's (-1: it could not start).
int run_tool(const std::vector<std::string>& argv, const std::string& log);

// Runs argv (argv[0] looked up on PATH) with stdout and stderr into the
// returned text; `status` its exit code as wait_child's (127, as a shell
// says it, when argv[0] is on no PATH; -1: it could not start).
std::string run_captured(const std::vector<std::string>& argv, int& status);

}  // namespace gpumem
