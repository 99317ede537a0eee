#include "base/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>

#include "base/input_error.hpp"

namespace gpumem {

std::string partial_path(const std::string& final_path) {
  return final_path + ".partial-" + std::to_string(::getpid());
}

OutputFile::OutputFile(std::string final_path, std::string option)
    : final_(std::move(final_path)), partial_(partial_path(final_)), option_(std::move(option)) {
  std::error_code ec;
  if (std::filesystem::is_directory(final_, ec)) throw InputError(final_, 0, option_, "is a folder, not a file to write");
  f_ = std::fopen(partial_.c_str(), "w");
  if (!f_) throw InputError(final_, 0, option_, std::string("cannot write: ") + std::strerror(errno));
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
}

OutputFile::~OutputFile() {
  if (!f_ && !failed_) return;
  if (f_) std::fclose(f_);
  std::remove(partial_.c_str());
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
  if (std::rename(partial_.c_str(), final_.c_str()) != 0) {
    failed_ = true;
    throw InputError(final_, 0, option_, std::string("cannot write: ") + std::strerror(errno));
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

void commit_partial_file(const std::string& path) {
  if (std::rename(partial_path(path).c_str(), path.c_str()) != 0)
    throw InputError(path, 0, "", std::string("cannot write: ") + std::strerror(errno));
}

}  // namespace gpumem
