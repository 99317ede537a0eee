// Each block's ports are written once, as its port table
// (tb/<block>/<block>_ports.hpp); everything in C++ that lists them is made
// from it. These tests hold the SystemVerilog module to the table: the
// project's RTL elaborated by Verilator (--xml-only, as `gpumem cosim --rtl`
// checks any RTL) at a geometry has the table's ports, directions and widths
// at that geometry, in the table's order, and no other.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "tb/common/rtl_library.hpp"
#include "tb/common/rtl_port_check.hpp"
#include "tb/tlb/tlb_contract.hpp"
#include "tb/tlb/tlb_driver.hpp"
#include "tb/translator/translator_contract.hpp"
#include "tb/translator/translator_driver.hpp"

namespace gpumem::tb {
namespace {

Config example(const std::string& name) { return load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/" + name); }

std::vector<std::string> differences(const RtlContract& contract, const std::vector<RtlContractPort>& table) {
  const std::string work = ::testing::TempDir() + "gpumem-port-table-" + contract.block;
  const RtlModule module = elaborate_project_rtl(contract, work);
  std::filesystem::remove_all(work);
  EXPECT_EQ(module.ports.size(), table.size());
  return table_differences(table, module);
}

// Every built-in geometry, and one that is not (other widths of the
// channel and set ports).
TEST(PortTable, TheTranslatorModuleHasTheTablesPorts) {
  for (const RtlTranslatorGeometry& g :
       {rtl_translator_geometry(), translator_geometry_of_config(example("examples/cosim-8-channels.yaml"))})
    EXPECT_EQ(differences(translator_contract(g), translator_port_table(g)), std::vector<std::string>{})
        << g.channel_bits.size() << " channel bits";
}

TEST(PortTable, TheTlbModuleHasTheTablesPorts) {
  std::vector<RtlTlbGeometry> geometries = rtl_tlb_variants();
  geometries.push_back(tlb_geometry_of_config(example("examples/cosim-8-channels.yaml")));
  for (const RtlTlbGeometry& g : geometries)
    EXPECT_EQ(differences(tlb_contract(g), tlb_port_table(g)), std::vector<std::string>{}) << g.variant;
}

// The comparison itself: each kind of difference is one line.
TEST(PortTable, EveryDifferenceIsNamed) {
  const std::vector<RtlContractPort> table{{"clk_i", false, 1, "1", ""}, {"a_i", false, 8, "8", ""},
                                           {"b_o", true, 4, "4", ""}};
  const RtlModule same{"m", {{"clk_i", "input", 1}, {"a_i", "input", 8}, {"b_o", "output", 4}}, {}};
  EXPECT_TRUE(table_differences(table, same).empty());
  const RtlModule other{"m", {{"clk_i", "input", 1}, {"a_i", "input", 7}, {"dbg_o", "output", 1}}, {}};
  EXPECT_EQ(table_differences(table, other),
            (std::vector<std::string>{"port a_i: the table says input, 8 bits, m has input, 7 bits",
                                      "port b_o: in the table (output, 4 bits), not in m",
                                      "port dbg_o: in m (output, 1 bit), not in the table"}));
  const RtlModule reordered{"m", {{"a_i", "input", 8}, {"clk_i", "input", 1}, {"b_o", "output", 4}}, {}};
  EXPECT_EQ(table_differences(table, reordered),
            std::vector<std::string>{"port order: the table's is clk_i a_i b_o; m's is a_i clk_i b_o"});
}

}  // namespace
}  // namespace gpumem::tb
