// Paths as gpumem shows them to a user and as it writes them into a command
// for a user to run later (a replay file, a job script). A report names a
// file the way the user would type it from the folder they ran in; a command
// in a file names every path absolutely, so that it runs the same from any
// folder.
#pragma once
#include <string>

namespace gpumem {

// `path` made absolute against the working folder, with no "." or ".."
// left in it.
std::string absolute_path(const std::string& path);

// `path` relative to the working folder when it lies inside it
// ("waves/tlb-seed1.fst", also for an absolute path given), else absolute
// ("/scratch/w/tlb-seed1.fst", also for "../w/tlb-seed1.fst").
std::string shown_path(const std::string& path);

// One word for sh and bash: single-quoted, a quote inside written '\''.
std::string shell_quoted(const std::string& word);

// The absolute path of the running executable, as the kernel knows it.
std::string running_program();

}  // namespace gpumem
