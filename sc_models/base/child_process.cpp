#include "base/child_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "base/stop_request.hpp"

namespace gpumem {

namespace fs = std::filesystem;

std::string find_tool(const std::string& name) {
  auto runnable = [](const std::string& p) { return access(p.c_str(), X_OK) == 0 && !fs::is_directory(p); };
  if (name.find('/') != std::string::npos) return runnable(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && runnable(dir + "/" + name)) return dir + "/" + name;
  return "";
}

namespace {

// In the child, between fork and exec: async-signal-safe calls only.
[[noreturn]] void become(const std::vector<char*>& args, const ChildSetup& s) {
  if (s.own_group) setpgid(0, 0);
  if (s.default_signals) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
  }
  if (!s.folder.empty() && chdir(s.folder.c_str()) != 0) _exit(127);
  const int write_flags = O_WRONLY | O_CREAT | (s.append ? O_APPEND : O_TRUNC);
  const auto redirect = [](const std::string& path, int flags, int fd) {
    const int f = open(path.c_str(), flags, 0644);
    if (f < 0) _exit(127);
    dup2(f, fd);
    close(f);
  };
  if (!s.in.empty()) redirect(s.in, O_RDONLY, STDIN_FILENO);
  if (s.out_fd >= 0) {
    dup2(s.out_fd, STDOUT_FILENO);
    dup2(s.out_fd, STDERR_FILENO);
  }
  if (!s.out.empty()) redirect(s.out, write_flags, STDOUT_FILENO);
  if (!s.err.empty()) {
    if (s.err == s.out) dup2(STDOUT_FILENO, STDERR_FILENO);
    else redirect(s.err, write_flags, STDERR_FILENO);
  }
  if (s.err_to_out) dup2(STDOUT_FILENO, STDERR_FILENO);
  execv(args[0], args.data());
  _exit(127);
}

}  // namespace

pid_t start_child(const std::vector<std::string>& argv, const ChildSetup& setup) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) {
    if (pid > 0 && setup.own_group) setpgid(pid, pid);  // as the child does: whichever runs first
    if (pid > 0 && setup.own_group && setup.killed_with_gpumem) add_child_group(pid);
    return pid;
  }
  become(args, setup);
}

int exit_code(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return -1;
}

int wait_child(pid_t pid, const ChildSetup& setup) {
  int status = 0;
  pid_t done;
  while ((done = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (setup.own_group && setup.killed_with_gpumem) remove_child_group(pid);
  return done < 0 ? -1 : exit_code(status);
}

int run_child(const std::vector<std::string>& argv, const ChildSetup& setup) {
  const pid_t pid = start_child(argv, setup);
  return pid < 0 ? -1 : wait_child(pid, setup);
}

int run_tool(const std::vector<std::string>& argv, const std::string& log) {
  ChildSetup s;
  s.out = s.err = log;
  s.append = true;
  s.own_group = s.killed_with_gpumem = true;
  return run_child(argv, s);
}

std::string run_captured(const std::vector<std::string>& argv, int& status) {
  std::string out;
  std::vector<std::string> args = argv;
  args[0] = find_tool(argv[0]);
  if (args[0].empty()) {
    status = 127;
    return out;
  }
  int fd[2];  // close-on-exec both: the child's copies are its stdout and stderr
  if (pipe2(fd, O_CLOEXEC) != 0) {
    status = -1;
    return out;
  }
  ChildSetup setup;
  setup.out_fd = fd[1];
  const pid_t pid = start_child(args, setup);
  close(fd[1]);
  if (pid < 0) {
    close(fd[0]);
    status = -1;
    return out;
  }
  char buf[4096];
  for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    out.append(buf, static_cast<size_t>(n));
  }
  close(fd[0]);
  status = wait_child(pid);
  return out;
}

}  // namespace gpumem
