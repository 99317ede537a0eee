#include "stats/dram_command_csv.hpp"

#include <cstring>

namespace gpumem {

namespace {

// Digits of v at p; past them. (fprintf's parsing was most of the trace's
// cost: a command takes a few dozen bytes.)
char* put(char* p, uint64_t v) {
  char digits[20];
  int n = 0;
  do digits[n++] = char('0' + v % 10);
  while ((v /= 10) != 0);
  while (n > 0) *p++ = digits[--n];
  return p;
}

char* put(char* p, const char* s) {
  const size_t n = std::strlen(s);
  std::memcpy(p, s, n);
  return p + n;
}

}  // namespace

DramCommandCsv::DramCommandCsv(const std::string& path, RefreshMode refresh)
    : out_(path, "--dram-commands"), f_(out_.stream()), refresh_(refresh) {
  std::fprintf(f_, "%s\n", kDramCommandHeader);
}

void DramCommandCsv::command(unsigned channel, const DramCommand& c) {
  char line[160];
  char* p = line;
  const bool column = c.kind == DramCommandKind::kRead || c.kind == DramCommandKind::kWrite;
  const bool refresh = c.kind == DramCommandKind::kRefresh;
  p = put(p, c.cycle), *p++ = ',';
  p = put(p, channel), *p++ = ',';
  p = put(p, c.rank), *p++ = ',';
  // A field a command has no use for stays empty: the bank of an all-bank
  // refresh, the bank group of a same-bank one, a refresh's row, a row
  // command's column.
  if (!refresh || refresh_ == RefreshMode::kPerBank) p = put(p, c.bank_group), *p++ = ',', p = put(p, c.bank);
  else if (refresh_ == RefreshMode::kSameBank) *p++ = ',', p = put(p, c.bank);
  else *p++ = ',';
  *p++ = ',';
  if (!refresh) p = put(p, c.row);
  *p++ = ',';
  if (column) p = put(p, c.column);
  *p++ = ',';
  p = put(p, refresh && refresh_ == RefreshMode::kPerBank    ? "REFpb"
             : refresh && refresh_ == RefreshMode::kSameBank ? "REFsb"
             : column && c.auto_precharge ? (c.kind == DramCommandKind::kRead ? "RDA" : "WRA")
                                          : dram_command_name(c.kind));
  *p++ = ',';
  if (c.request != DramCommand::kNoRequest) p = put(p, c.request);
  *p++ = '\n';
  std::fwrite(line, 1, size_t(p - line), f_);
}

}  // namespace gpumem
