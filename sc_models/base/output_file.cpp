#include "base/output_file.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "base/input_error.hpp"

namespace gpumem {

namespace {

// The list a signal handler reads: fixed slots of atomic pointers, so that
// it never sees a half-made entry and needs no lock or allocation. Files
// past the last slot are not listed (a process has a handful open at once);
// they are left under their temporary names, as after a kill.
struct Listed {
  const char* partial;
  const char* final_path;
  uint64_t order;
};
constexpr int kSlots = 64;
std::atomic<const Listed*> g_listed[kSlots];
Listed g_entries[kSlots];
std::atomic<uint64_t> g_order{0};
static_assert(std::atomic<const Listed*>::is_always_lock_free, "a signal handler reads the list");

class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &s, &old_);
  }
  ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

 private:
  sigset_t old_;
};

// The descriptor a path names when it is one of this process's own streams
// (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), else -1.
int own_stream(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const size_t n = std::strlen(prefix);
    if (path.compare(0, n, prefix) != 0 || path.size() == n || path.size() > n + 6) continue;
    int fd = 0;
    for (size_t i = n; i < path.size(); ++i) {
      if (path[i] < '0' || path[i] > '9') return -1;
      fd = fd * 10 + (path[i] - '0');
    }
    return fd;
  }
  return -1;
}

}  // namespace

PendingFile::PendingFile(std::string partial, std::string final_path)
    : partial_(std::move(partial)), final_(std::move(final_path)) {
  const SignalsHeld held;  // a slot is taken and filled before a handler can look
  for (int i = 0; i < kSlots; ++i) {
    if (g_listed[i].load() || g_entries[i].partial) continue;
    g_entries[i] = {partial_.c_str(), final_.empty() ? nullptr : final_.c_str(), g_order++};
    g_listed[i].store(&g_entries[i]);
    slot_ = i;
    return;
  }
}

void PendingFile::release() {
  if (slot_ < 0) return;
  const SignalsHeld held;
  g_listed[slot_].store(nullptr);
  g_entries[slot_] = {};
  slot_ = -1;
}

void PendingFile::commit(const std::string& option) {
  const SignalsHeld held;
  if (std::rename(partial_.c_str(), final_.c_str()) != 0)
    throw InputError(final_, 0, option, std::string("cannot write: ") + std::strerror(errno));
  release();
}

size_t remove_pending_files(const char** finals, size_t max) {
  const Listed* found[kSlots];
  int n = 0;
  for (int i = 0; i < kSlots; ++i)
    if (const Listed* l = g_listed[i].load()) found[n++] = l;
  for (int i = 1; i < n; ++i)  // opening order: insertion sort, no library call
    for (int j = i; j > 0 && found[j - 1]->order > found[j]->order; --j) {
      const Listed* t = found[j];
      found[j] = found[j - 1];
      found[j - 1] = t;
    }
  size_t named = 0;
  for (int i = 0; i < n; ++i) {
    ::unlink(found[i]->partial);
    if (found[i]->final_path && named < max) finals[named++] = found[i]->final_path;
  }
  return named;
}

std::string partial_path(const std::string& final_path) {
  return final_path + ".partial-" + std::to_string(::getpid());
}

OutputFile::OutputFile(std::string final_path, std::string option)
    : final_(std::move(final_path)), partial_(partial_path(final_)), option_(std::move(option)), pending_(partial_, final_) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(final_, ec);
  if (fs::is_directory(st)) throw InputError(final_, 0, option_, "is a folder, not a file to write");
  // A device or a pipe (/dev/null, a FIFO a reader waits on), or anything
  // under /dev or /proc, is written in place: renamed over, it would become
  // a plain file (for root, /dev/null or the /dev/stdout link itself), and a
  // reader of the pipe would see nothing. One of this process's own streams
  // (/dev/stdout, /dev/fd/2) is written through that stream, sharing its
  // offset, so that it follows what the run prints there even in a file.
  const std::string where = fs::absolute(final_, ec).lexically_normal().string();
  in_place_ = (fs::exists(st) && !fs::is_regular_file(st)) || where.rfind("/dev/", 0) == 0 || where.rfind("/proc/", 0) == 0;
  if (in_place_) {
    pending_.release();
    partial_ = final_;
  }
  const int own = own_stream(where);
  if (own >= 0) {
    std::fflush(nullptr);  // what the run printed so far goes first
    const int fd = ::dup(own);
    f_ = fd < 0 ? nullptr : ::fdopen(fd, "w");
  } else {
    f_ = std::fopen(partial_.c_str(), "w");
  }
  if (!f_) throw InputError(final_, 0, option_, std::string("cannot write: ") + std::strerror(errno));
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
}

OutputFile::~OutputFile() {
  if (!f_ && !failed_) return;
  if (f_) std::fclose(f_);
  if (!in_place_) std::remove(partial_.c_str());
}

void OutputFile::commit() {
  if (!f_) return;
  const bool wrote = std::fflush(f_) == 0 && !std::ferror(f_);
  const int write_errno = errno;
  const bool closed = std::fclose(f_) == 0;
  f_ = nullptr;
  if (!wrote || !closed) {
    failed_ = true;
    throw InputError(final_, 0, option_, std::string("cannot write: ") + std::strerror(wrote ? errno : write_errno));
  }
  if (in_place_) return;
  try {
    pending_.commit(option_);
  } catch (...) {
    failed_ = true;
    throw;
  }
}

void write_output_file(const std::string& path, const std::string& option, const std::string& text) {
  OutputFile f(path, option);
  std::fwrite(text.data(), 1, text.size(), f.stream());
  f.commit();
}

void check_output_folder(const std::string& path, const std::string& option) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (path.empty()) throw InputError("", 0, option, "empty path");
  fs::path p = path;
  while (!p.empty() && !fs::exists(p, ec)) p = p.parent_path();
  if (p.empty()) p = ".";
  if (!fs::is_directory(p, ec))
    throw InputError(path, 0, option, p == fs::path(path) ? "is a file, not a folder" : p.string() + " is a file, not a folder");
  if (::access(p.c_str(), W_OK | X_OK) != 0) throw InputError(path, 0, option, std::string("cannot write: ") + std::strerror(errno));
}

void create_output_folder(const std::string& path, const std::string& option) {
  check_output_folder(path, option);
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw InputError(path, 0, option, "cannot create folder: " + ec.message());
}

}  // namespace gpumem
