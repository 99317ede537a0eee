// The RTL's package gpumem_pkg against the model's tables it is printed from,
// and the RTL sources against the rule that they state no encoding of their
// own (a sized literal wider than one bit, a scheme or result constant, a
// slice of the PTE).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/types.hpp"
#include "mmu/pte.hpp"
#include "payload/tlb_result.hpp"
#include "regs/rtl_package.hpp"

namespace gpumem {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(RtlPackage, PteStructIsThePteLayoutMostSignificantFirst) {
  const std::string pkg = systemverilog_package();
  std::map<std::string, unsigned> bits;
  const std::regex param(R"(localparam int unsigned (PTE_\w+_BITS) = (\d+);)");
  for (auto it = std::sregex_iterator(pkg.begin(), pkg.end(), param); it != std::sregex_iterator(); ++it)
    bits[(*it)[1]] = static_cast<unsigned>(std::stoul((*it)[2]));
  const auto b = pkg.find("typedef struct packed {"), e = pkg.find("} pte_t;");
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  const std::string body = pkg.substr(b, e - b);
  std::vector<std::pair<std::string, unsigned>> fields;  // as declared: MSB first
  const std::regex member(R"(logic (?:\[(\w+)-1:0\] )?(\w+);)");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), member); it != std::sregex_iterator(); ++it) {
    const std::string width = (*it)[1];
    ASSERT_TRUE(width.empty() || bits.count(width)) << width << " is not a parameter of the package";
    fields.emplace_back((*it)[2], width.empty() ? 1 : bits[width]);
  }
  ASSERT_EQ(fields.size(), kPteLayout.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    const PteField& f = kPteLayout[kPteLayout.size() - 1 - i];
    EXPECT_EQ(fields[i].first, f.name);
    EXPECT_EQ(fields[i].second, f.width) << f.name;
  }
}

TEST(RtlPackage, EnumerationsCarryTheModelsValues) {
  const std::string pkg = systemverilog_package();
  auto expect_member = [&](const std::string& name, unsigned value) {
    const std::string line = name + " = 2'd" + std::to_string(value);
    EXPECT_NE(pkg.find(line), std::string::npos) << line << " not in the package";
  };
  expect_member("SCHEME_NONE", static_cast<unsigned>(Scheme::kNone));
  expect_member("SCHEME_XOR", static_cast<unsigned>(Scheme::kXor));
  expect_member("SCHEME_PRIME", static_cast<unsigned>(Scheme::kPrime));
  expect_member("TLB_HIT_SMALL", static_cast<unsigned>(TlbResult::kHitSmall));
  expect_member("TLB_HIT_LARGE", static_cast<unsigned>(TlbResult::kHitLarge));
  expect_member("TLB_NESTED", static_cast<unsigned>(TlbResult::kNested));
  expect_member("TLB_MISS", static_cast<unsigned>(TlbResult::kMiss));
  EXPECT_NE(pkg.find("TASK_TYPE_COUNT = " + std::to_string(kMaxTaskTypes) + ";"), std::string::npos);
}

TEST(RtlPackage, TheRtlIsBuiltFromTheCurrentPackage) {
  const std::filesystem::path built = std::filesystem::path(GPUMEM_BINARY_DIR) / "generated/rtl/gpumem_pkg.sv";
  ASSERT_TRUE(std::filesystem::exists(built)) << built;
  EXPECT_EQ(read(built), systemverilog_package()) << built << " is stale: rebuild (target rtl_generated)";
}

TEST(RtlSources, StateNoEncodingOfTheirOwn) {
  const std::regex wide_literal(R"(\b([2-9]|[1-9]\d+)'[sS]?[bBdDhHoO])");
  const std::regex own_constant(R"(localparam\s+logic\s*\[\d+:0\]\s+(Scheme|Result)\w*)");
  const std::regex pte_slice(R"(pte_i\s*\[)");
  unsigned files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(GPUMEM_SOURCE_DIR) / "rtl")) {
    if (entry.path().extension() != ".sv") continue;
    ++files;
    const std::string text = read(entry.path());
    EXPECT_NE(text.find("import gpumem_pkg::*;"), std::string::npos) << entry.path() << " does not import gpumem_pkg";
    std::istringstream lines(text);
    std::string line;
    for (unsigned n = 1; std::getline(lines, line); ++n) {
      const std::string code = line.substr(0, line.find("//"));
      const std::string where = entry.path().filename().string() + ":" + std::to_string(n) + ": " + line;
      // Parameter defaults (bit positions of the default config) are the one place a literal belongs.
      if (std::regex_search(code, wide_literal) && code.find("parameter") == std::string::npos)
        ADD_FAILURE() << "a sized literal re-encodes a value of gpumem_pkg\n  " << where;
      if (std::regex_search(code, own_constant)) ADD_FAILURE() << "a constant gpumem_pkg defines\n  " << where;
      if (std::regex_search(code, pte_slice)) ADD_FAILURE() << "a bit slice of a pte_t: use its fields\n  " << where;
    }
  }
  EXPECT_EQ(files, 2u);
}

}  // namespace
}  // namespace gpumem
