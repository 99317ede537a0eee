// Errors in user input (config, trace, CLI). Carry where the problem is so the
// CLI can print "file:line: key: message" and exit nonzero; caught once there.
#pragma once
#include <stdexcept>
#include <string>

namespace gpumem {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, std::string key, const std::string& message)
      : InputError(std::move(file), line, 0, std::move(key), message) {}
  // With the column (1-based) of a text line: "file:line:column: key: message".
  InputError(std::string file, int line, int column, std::string key, const std::string& message)
      : std::runtime_error(format(file, line, column, key, message)),
        file_(std::move(file)), line_(line), column_(column), key_(std::move(key)), message_(message) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 1-based; 0 when not known
  int column() const { return column_; }  // 1-based; 0 when not known
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }  // without where

 private:
  static std::string format(const std::string& file, int line, int column, const std::string& key,
                            const std::string& message) {
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line);
    if (line > 0 && column > 0) s += ":" + std::to_string(column);
    if (!s.empty()) s += ": ";  // a command-line flag has no file
    if (!key.empty()) s += key + ": ";
    return printable(s + message);
  }
  // The user's bytes quoted in a message may hold a NUL (which would end the
  // message where what() is printed), other control bytes, or bytes that
  // are not UTF-8 (a binary file's, which a terminal garbles, eating the
  // quote after them): \xNN instead. UTF-8 text (a name with an accent)
  // stays as it is.
  static std::string printable(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
      const auto u = static_cast<unsigned char>(text[i]);
      const size_t n = utf8_length(text, i);
      if (n > 1) {
        out.append(text, i, n);
        i += n - 1;
      } else if ((u >= 0x20 && u < 0x7f) || u == '\n' || u == '\t') {
        out += text[i];
      } else {
        static const char kHex[] = "0123456789abcdef";
        out += {'\\', 'x', kHex[u >> 4], kHex[u & 15]};
      }
    }
    return out;
  }
  // The bytes of the UTF-8 sequence of two or more bytes that starts at
  // text[i], or 0 when none does.
  static size_t utf8_length(const std::string& text, size_t i) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const size_t n = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > text.size()) return 0;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
    return n;
  }
  std::string file_;
  int line_;
  int column_;
  std::string key_;
  std::string message_;
};

}  // namespace gpumem
