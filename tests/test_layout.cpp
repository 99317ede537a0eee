// The source layout holds (docs/architecture.md, "Source layout"): every
// include of a project header is path-qualified ("mmu/tlb.hpp") and names a
// header of the includer's own library or of one it links, directly or
// through others; the libraries form no cycle; docs/images/libraries.svg
// draws the link graph as the build has it. Reads the manifest
// tests/CMakeLists.txt writes at configure time (files and links of every
// project target), so it checks what CMake builds, not a list kept by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Target {
  std::string type;
  std::vector<fs::path> files;
  std::set<std::string> links;
};

std::map<std::string, Target> read_manifest() {
  std::ifstream in(GPUMEM_LIBRARY_MANIFEST);
  EXPECT_TRUE(in) << "no manifest " << GPUMEM_LIBRARY_MANIFEST;
  std::map<std::string, Target> targets;
  Target* cur = nullptr;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string kind, a, b;
    ls >> kind >> a >> b;
    if (kind == "target") {
      cur = &targets[a];
      cur->type = b;
    } else if (kind == "file" && cur) {
      cur->files.push_back(fs::path(line.substr(5)).lexically_normal());
    } else if (kind == "link" && cur) {
      cur->links.insert(a);
    }
  }
  return targets;
}

bool is_library(const Target& t) { return t.type != "EXECUTABLE"; }

std::string rel(const fs::path& p) { return p.lexically_relative(GPUMEM_SOURCE_DIR).string(); }

class Layout : public ::testing::Test {
 protected:
  void SetUp() override {
    targets_ = read_manifest();
    ASSERT_GT(targets_.size(), 10u);
    for (const auto& [name, t] : targets_)
      if (is_library(t))
        for (const fs::path& f : t.files) owner_[f] = name;
  }
  // The libraries `name` links, directly or through others.
  const std::set<std::string>& closure(const std::string& name) {
    auto memo = closure_.find(name);
    if (memo != closure_.end()) return memo->second;
    std::set<std::string> seen;
    std::vector<std::string> todo{name};
    while (!todo.empty()) {
      const std::string n = todo.back();
      todo.pop_back();
      auto it = targets_.find(n);
      if (it == targets_.end()) continue;
      for (const std::string& l : it->second.links)
        if (seen.insert(l).second) todo.push_back(l);
    }
    return closure_[name] = std::move(seen);
  }
  // Where a path-qualified include resolves: the model's include root, then
  // the project's (the test bench's "tb/...").
  std::optional<fs::path> resolve(const std::string& inc) const {
    for (const fs::path& root : {fs::path(GPUMEM_SOURCE_DIR) / "sc_models", fs::path(GPUMEM_SOURCE_DIR)}) {
      const fs::path p = (root / inc).lexically_normal();
      if (fs::exists(p)) return p;
    }
    return std::nullopt;
  }

  std::map<std::string, Target> targets_;
  std::map<fs::path, std::string> owner_;  // library header or source -> its library
  std::map<std::string, std::set<std::string>> closure_;
};

const std::regex kInclude(R"re(^\s*#\s*include\s+"([^"]+)")re");

std::vector<std::string> quoted_includes(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, kInclude)) out.push_back(m[1]);
  return out;
}

TEST_F(Layout, EveryIncludeIsPathQualifiedAndOfALinkedLibrary) {
  std::vector<std::string> problems;
  size_t checked = 0;
  for (const auto& [name, t] : targets_) {
    const std::set<std::string>& links = closure(name);
    // An executable's own unqualified headers (tests/test_helpers.hpp) are
    // part of it: followed, and held to the same rule.
    std::vector<fs::path> todo(t.files.begin(), t.files.end());
    std::set<fs::path> seen(todo.begin(), todo.end());
    while (!todo.empty()) {
      const fs::path file = todo.back();
      todo.pop_back();
      if (!fs::exists(file) || rel(file).rfind("..", 0) == 0) continue;  // generated, outside the tree
      for (const std::string& inc : quoted_includes(file)) {
        ++checked;
        if (inc.find('/') == std::string::npos) {
          const fs::path local = file.parent_path() / inc;
          if (!fs::exists(local)) continue;  // Verilator's and other packages' headers
          if (is_library(t)) {
            problems.push_back(rel(file) + " (" + name + ") includes \"" + inc + "\": not path-qualified");
          } else if (seen.insert(local).second) {
            todo.push_back(local);
          }
          continue;
        }
        const std::optional<fs::path> header = resolve(inc);
        if (!header) continue;  // a package's ("tlm_utils/...")
        auto o = owner_.find(*header);
        if (o == owner_.end()) {
          problems.push_back(rel(file) + " includes \"" + inc + "\", which no library lists among its files");
        } else if (o->second != name && !links.count(o->second)) {
          problems.push_back(rel(file) + " (" + name + ") includes \"" + inc + "\" of " + o->second +
                             ", which " + name + " does not link");
        }
      }
    }
  }
  EXPECT_GT(checked, 200u) << "the scan found too few includes to mean anything";
  for (const std::string& p : problems) ADD_FAILURE() << p;
}

TEST_F(Layout, EveryHeaderInTheModelAndTheBenchBelongsToALibrary) {
  for (const char* dir : {"sc_models", "tb"})
    for (const auto& e : fs::recursive_directory_iterator(fs::path(GPUMEM_SOURCE_DIR) / dir)) {
      const std::string ext = e.path().extension().string();
      if ((ext == ".hpp" || ext == ".cpp") && !owner_.count(e.path().lexically_normal()))
        ADD_FAILURE() << rel(e.path()) << " is in no library's file list";
    }
}

TEST_F(Layout, LibrariesFormNoCycle) {
  std::map<std::string, int> state;  // 0 new, 1 on the path, 2 done
  std::vector<std::string> path;
  std::function<void(const std::string&)> visit = [&](const std::string& n) {
    state[n] = 1;
    path.push_back(n);
    auto it = targets_.find(n);
    if (it != targets_.end())
      for (const std::string& l : it->second.links) {
        if (state[l] == 1) {
          std::string cycle;
          for (auto p = std::find(path.begin(), path.end(), l); p != path.end(); ++p) cycle += *p + " -> ";
          ADD_FAILURE() << "link cycle: " << cycle << l;
        } else if (state[l] == 0) {
          visit(l);
        }
      }
    path.pop_back();
    state[n] = 2;
  };
  for (const auto& [name, t] : targets_)
    if (is_library(t) && state[name] == 0) visit(name);
}

// The picture's edges, read from the SVG that dot drew from CMake's graph:
// nodes carry the library name as text, edges "nodeA->nodeB" as title.
std::set<std::pair<std::string, std::string>> svg_edges(const fs::path& svg) {
  std::ifstream in(svg);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::map<std::string, std::string> label;
  const std::regex node(R"re(class="node">\s*<title>([^<]+)</title>[\s\S]*?<text[^>]*>([^<]+)</text>)re");
  for (std::sregex_iterator it(text.begin(), text.end(), node), end; it != end; ++it) label[(*it)[1]] = (*it)[2];
  std::set<std::pair<std::string, std::string>> edges;
  const std::regex edge(R"re(class="edge">\s*<title>([^<&]+)&#45;&gt;([^<]+)</title>)re");
  for (std::sregex_iterator it(text.begin(), text.end(), edge), end; it != end; ++it)
    if (std::string((*it)[1]).rfind("legend", 0) != 0)  // the key CMake draws of node shapes
      edges.insert({label[(*it)[1]], label[(*it)[2]]});
  return edges;
}

TEST_F(Layout, ThePictureInTheDocsDrawsTheLinkGraphAsBuilt) {
  const fs::path svg = fs::path(GPUMEM_SOURCE_DIR) / "docs/images/libraries.svg";
  ASSERT_TRUE(fs::exists(svg)) << rel(svg) << " is missing";
  std::set<std::pair<std::string, std::string>> built;
  for (const auto& [name, t] : targets_)
    if (is_library(t))
      for (const std::string& l : t.links) built.insert({name, l});
  const auto drawn = svg_edges(svg);
  const char* fix = "; redraw it with: cmake --build build --target library_graph";
  for (const auto& e : built)
    if (!drawn.count(e)) ADD_FAILURE() << rel(svg) << " lacks the link " << e.first << " -> " << e.second << fix;
  for (const auto& e : drawn)
    if (!built.count(e)) ADD_FAILURE() << rel(svg) << " draws " << e.first << " -> " << e.second << ", which the build does not link" << fix;
}

// The floors of sc_models/ (docs/architecture.md, "Floors"): a folder includes
// only folders on lower floors, so the data path reads bottom-up and shared
// types sit below every block that shares them; the config is read only from
// params/ up, so no block sees it. A new folder needs a floor here.
const std::map<std::string, int> kFloors{
    {"base", 0},
    {"config", 1},   {"payload", 1},    {"metrics", 1},  {"prefetch", 1},
    {"mmu", 2},      {"translator", 2}, {"channel", 2},  {"sources", 2},
    {"regs", 3},     {"frontend", 3},
    {"router", 4},   {"driver", 4},     {"cache", 4},
    {"params", 5},
    {"explorer", 6}, {"stats", 6},
    {"system", 7},
};

// One include of one model folder by another, with a file that makes it.
struct FolderEdge {
  std::string from, to, example;
};

std::vector<std::string> floor_problems(const std::vector<FolderEdge>& edges) {
  std::vector<std::string> problems;
  auto floor = [](const std::string& f) {
    auto it = kFloors.find(f);
    return it == kFloors.end() ? -1 : it->second;
  };
  std::set<std::string> folders;
  for (const FolderEdge& e : edges) folders.insert({e.from, e.to});
  for (const std::string& f : folders)
    if (floor(f) < 0) problems.push_back("sc_models/" + f + "/ has no floor (tests/test_layout.cpp, kFloors)");
  for (const FolderEdge& e : edges) {
    if (e.from == e.to || floor(e.from) < 0 || floor(e.to) < 0) continue;
    if (e.to == "config" && floor(e.from) < floor("params"))
      problems.push_back(e.example + ": " + e.from + "/ includes config/; below params/ a block takes a parameter struct of its own");
    else if (floor(e.to) >= floor(e.from))
      problems.push_back(e.example + ": " + e.from + "/ (floor " + std::to_string(floor(e.from)) + ") includes " + e.to +
                         "/ (floor " + std::to_string(floor(e.to)) + "), which is not below it");
  }
  return problems;
}

TEST_F(Layout, EachModelFolderIncludesOnlyFoldersOnLowerFloors) {
  const fs::path root = fs::path(GPUMEM_SOURCE_DIR) / "sc_models";
  std::vector<FolderEdge> edges;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".hpp" && ext != ".cpp") continue;
    const std::string from = e.path().lexically_relative(root).begin()->string();
    for (const std::string& inc : quoted_includes(e.path())) {
      const auto slash = inc.find('/');
      if (slash == std::string::npos || !fs::exists(root / inc)) continue;
      const std::string to = inc.substr(0, slash);
      if (seen.insert({from, to}).second) edges.push_back({from, to, rel(e.path()) + " includes \"" + inc + "\""});
    }
    edges.push_back({from, from, ""});  // every folder needs a floor, even one that includes no other
  }
  EXPECT_GT(seen.size(), 30u) << "the scan found too few folder includes to mean anything";
  for (const std::string& p : floor_problems(edges)) ADD_FAILURE() << p;
}

TEST(LayoutFloors, APlantedBackEdgeOrConfigReadIsCaught) {
  EXPECT_TRUE(floor_problems({{"regs", "mmu", "x"}, {"system", "config", "x"}, {"params", "config", "x"}}).empty());
  EXPECT_EQ(floor_problems({{"mmu", "system", "x"}}).size(), 1u);      // a back-edge
  EXPECT_EQ(floor_problems({{"mmu", "translator", "x"}}).size(), 1u);  // sideways on one floor
  EXPECT_EQ(floor_problems({{"cache", "config", "x"}}).size(), 1u);    // a block reading the config
  EXPECT_EQ(floor_problems({{"dram", "base", "x"}}).size(), 1u);       // a folder without a floor
  EXPECT_EQ(floor_problems({{"dram", "dram", ""}}).size(), 1u);        // even one that includes no other
}

}  // namespace

namespace {

// Source paths named in prose (sc_models/mmu/tlb.hpp, tb/tlb/, sc_models/mmu/tlb.*)
// exist, so a file moved or renamed cannot leave a doc or a comment pointing
// nowhere. Source folders only: waves/ and <build>/generated/ hold what runs write.
const std::regex kSourcePath(R"re(\b((?:sc_models|tb|tests|rtl|cli|bench|verilator|scripts|configs)/[A-Za-z0-9_./*-]*[A-Za-z0-9_*/]))re");

// Checks every source path in `text` (line `n` of `file`); returns how many it checked.
size_t check_paths(const std::string& text, const fs::path& file, int n) {
  const fs::path src(GPUMEM_SOURCE_DIR);
  size_t checked = 0;
  for (std::sregex_iterator it(text.begin(), text.end(), kSourcePath), end; it != end; ++it) {
    const auto at = static_cast<size_t>(it->position(1));
    if (at > 0 && (text[at - 1] == '/' || text[at - 1] == '>' || text[at - 1] == '-')) continue;  // build/tests/..., <build>/generated/rtl/...
    std::string p = (*it)[1];
    if (p.find("/*") != std::string::npos && p.back() == '*') p = p.substr(0, p.find("/*") + 1);  // tb/*_pin: its folder
    const auto star = p.find('*');
    bool found;
    if (star == std::string::npos) {
      found = fs::exists(src / p);
    } else {  // a pattern: something in its folder starts with what comes before the star
      const fs::path dir = (src / p.substr(0, star)).parent_path();
      const std::string stem = fs::path(p.substr(0, star)).filename().string();
      found = false;
      if (fs::is_directory(dir))
        for (const auto& e : fs::directory_iterator(dir)) found |= e.path().filename().string().rfind(stem, 0) == 0;
    }
    ++checked;
    if (!found) ADD_FAILURE() << rel(file) << ":" << n << " names " << (*it)[1] << ", which does not exist";
  }
  return checked;
}

TEST(DocsPaths, EverySourcePathTheDocsNameExists) {
  const fs::path src(GPUMEM_SOURCE_DIR);
  std::vector<fs::path> docs{src / "README.md", src / "CHANGELOG.md"};
  for (const auto& e : fs::directory_iterator(src / "docs"))
    if (e.path().extension() == ".md") docs.push_back(e.path());
  size_t checked = 0;
  for (const fs::path& doc : docs) {
    std::ifstream in(doc);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) checked += check_paths(line, doc, n);
  }
  EXPECT_GT(checked, 50u);
}

// The comments of one source file, line by line (line number, comment text):
// `//` and `/* */` in C++ and SystemVerilog, skipping string and character
// literals (raw strings included); `#` in CMake and shell.
std::vector<std::pair<int, std::string>> comments(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::vector<std::pair<int, std::string>> out;
  const std::string ext = file.extension().string();
  int line = 1;
  if (ext == ".cmake" || ext == ".sh" || file.filename() == "CMakeLists.txt") {
    std::istringstream ls(text);
    std::string l;
    for (; std::getline(ls, l); ++line) {
      const auto hash = l.find('#');
      if (hash != std::string::npos && (hash == 0 || std::isspace(static_cast<unsigned char>(l[hash - 1]))))
        out.emplace_back(line, l.substr(hash + 1));
    }
    return out;
  }
  std::string cur;  // the comment being read
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') { ++line; continue; }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {  // to the end of the line
      const size_t end = text.find('\n', i);
      out.emplace_back(line, text.substr(i + 2, (end == std::string::npos ? text.size() : end) - i - 2));
      i = (end == std::string::npos ? text.size() : end) - 1;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {  // each line of the block
      const size_t end = std::min(text.find("*/", i + 2), text.size());
      for (size_t j = i + 2; j < end; ++j) {
        if (text[j] == '\n') {
          out.emplace_back(line++, cur);
          cur.clear();
        } else {
          cur += text[j];
        }
      }
      out.emplace_back(line, cur);
      cur.clear();
      i = end + 1;
    } else if (c == 'R' && i + 1 < text.size() && text[i + 1] == '"' && ext != ".sv") {  // R"delim( ... )delim"
      const size_t open = text.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
      const size_t end = std::min(text.find(close, open), text.size());
      line += static_cast<int>(std::count(text.begin() + static_cast<long>(i), text.begin() + static_cast<long>(end), '\n'));
      i = end + close.size() - 1;
    } else if (c == '"' || (c == '\'' && ext != ".sv")) {  // a literal (SystemVerilog's ' starts a cast or a size)
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
      if (i < text.size() && text[i] == '\n') ++line;
    }
  }
  return out;
}

// Paths named in source comments exist too: a comment that points at a
// removed or renamed file fails here.
TEST(DocsPaths, EverySourcePathACommentNamesExists) {
  const fs::path src(GPUMEM_SOURCE_DIR);
  const std::set<std::string> exts{".hpp", ".h", ".cpp", ".sv", ".cmake", ".sh"};
  size_t checked = 0, files = 0;
  for (const char* dir : {"sc_models", "tb", "cli", "rtl", "verilator", "bench", "tests", "scripts"})
    for (const auto& e : fs::recursive_directory_iterator(src / dir)) {
      if (!e.is_regular_file()) continue;
      if (!exts.count(e.path().extension().string()) && e.path().filename() != "CMakeLists.txt") continue;
      ++files;
      for (const auto& [n, text] : comments(e.path())) checked += check_paths(text, e.path(), n);
    }
  EXPECT_GT(files, 200u) << "the scan found too few source files to mean anything";
  EXPECT_GT(checked, 100u) << "the scan found too few paths in comments to mean anything";
}

}  // namespace

namespace {

// What a patch or an editor leaves beside a file (a rejected hunk, the
// original a merge tool kept, a backup) is never part of the tree: one was
// committed once (sc_models/channel/dram_controller.cpp's pre-patch copy).
// Reads the files git tracks; outside a git checkout there is nothing to judge.
TEST(TreeContents, NoPatchOrEditorLeftoverIsTracked) {
  const std::string cmd = "git -C '" + std::string(GPUMEM_SOURCE_DIR) + "' ls-files 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string listing;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) listing.append(buf, n);
  if (pclose(pipe) != 0 || listing.empty()) GTEST_SKIP() << "not a git checkout";
  const std::vector<std::string> leftovers{".orig", ".rej", ".bak", ".swp", "~"};
  std::istringstream in(listing);
  size_t files = 0;
  for (std::string f; std::getline(in, f); ++files)
    for (const std::string& end : leftovers)
      if (f.size() > end.size() && f.compare(f.size() - end.size(), end.size(), end) == 0)
        ADD_FAILURE() << f << " is a patch or editor leftover (its name ends in " << end << ")";
  EXPECT_GT(files, 200u) << "git listed too few files to mean anything";
}

// The kernel runs only through run_kernel() (sc_models/payload/run_kernel.hpp),
// which sets AddressSanitizer's picture of the stack after it: an sc_start()
// written anywhere else would leave a sanitizer build's later calls to
// report a false stack overflow.
TEST(TreeContents, EveryKernelRunGoesThroughRunKernel) {
  const fs::path src(GPUMEM_SOURCE_DIR);
  size_t files = 0;
  for (const char* folder : {"sc_models", "tb", "tests", "bench", "cli"})
    for (const auto& e : fs::recursive_directory_iterator(src / folder)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
      if (e.path() == src / "sc_models/payload/run_kernel.hpp" || e.path() == src / "tests/test_layout.cpp") continue;
      ++files;
      std::ifstream in(e.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        const auto at = line.find("sc_start(");
        if (at != std::string::npos && line.find("//") > at)
          ADD_FAILURE() << rel(e.path()) << ":" << n << " runs the kernel with sc_start(); call run_kernel() instead";
      }
    }
  EXPECT_GT(files, 200u) << "the scan found too few source files to mean anything";
}

// sc_models/README.md, the one screen a reader of the tree meets first,
// places every model folder (kFloors lists them all).
TEST(TreeContents, TheModelsReadmeNamesEveryModelFolder) {
  std::ifstream in(fs::path(GPUMEM_SOURCE_DIR) / "sc_models/README.md");
  ASSERT_TRUE(in) << "sc_models/README.md is missing";
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& [folder, floor] : kFloors)
    EXPECT_NE(text.find("`" + folder + "/`"), std::string::npos) << "sc_models/README.md does not name " << folder << "/";
  for (const auto& e : fs::directory_iterator(fs::path(GPUMEM_SOURCE_DIR) / "sc_models"))
    if (e.is_directory()) {
      EXPECT_TRUE(kFloors.count(e.path().filename().string())) << e.path().filename() << " has no floor";
    }
}

// A header's name says what it is wherever it is included from: no two of
// the model, the test bench and the CLI share one (frontend_params.hpp was
// both the front end's structs and params/' mapping of the config onto them).
TEST(TreeContents, NoTwoHeadersShareAName) {
  std::map<std::string, std::string> seen;
  for (const char* folder : {"sc_models", "tb", "cli"})
    for (const auto& e : fs::recursive_directory_iterator(fs::path(GPUMEM_SOURCE_DIR) / folder)) {
      if (!e.is_regular_file() || e.path().extension() != ".hpp") continue;
      const auto [it, fresh] = seen.emplace(e.path().filename().string(), rel(e.path()));
      if (!fresh) ADD_FAILURE() << rel(e.path()) << " and " << it->second << " share a name";
    }
  EXPECT_GT(seen.size(), 150u) << "the scan found too few headers to mean anything";
}

}  // namespace

