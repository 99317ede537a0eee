// Register accesses as a user writes them (`gpumem regs`, docs/register-map.md,
// "From the command line"): NAME reads, NAME=VALUE writes; NAME is a row of
// the register map with its indices (CTRL, TASK_SCHEME[3], XOR_VECTOR[1][0])
// or a byte offset (0x0044). The same bank the model and the co-simulation
// use answers them; a refused access is an InputError naming it.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "regs/register_bank.hpp"

namespace gpumem {

struct RegisterAccess {
  bool write = false;
  uint64_t offset = 0;
  uint32_t value = 0;  // written
  std::string text;    // as the user wrote it, for messages
  std::string file;    // where it was written ("" on the command line)
  int line = 0;
};

// Throws InputError(file, line, text, why) for a name, index or value that
// does not parse.
RegisterAccess parse_register_access(const std::string& text, const std::string& file = "", int line = 0);

// A register script: one access per line, '#' starts a comment, blank
// lines are skipped; an InputError names `file` and the line.
std::vector<RegisterAccess> read_register_script(std::istream& in, const std::string& file);

// The register element at `offset` as the map names it ("XOR_VECTOR[1][0]"),
// or "" in a gap.
std::string register_element_name(uint64_t offset);

// Makes the access on the bank and prints one line for it; a refused access
// throws InputError naming the access and the refusal, having changed
// nothing (the bank's rule).
void perform_register_access(RegisterBank& bank, const RegisterAccess& a, std::ostream& out);

}  // namespace gpumem
