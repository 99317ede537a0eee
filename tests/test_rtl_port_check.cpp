// The port check of `gpumem cosim --rtl` (tb/common/rtl_port_check.hpp): a
// module's port widths from Verilator's XML, each kind of type included, and
// one message per port that breaks the contract. The whole path, from
// verilator --xml-only to the exit status, is in test_cosim_rtl_cli.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "config/config.hpp"
#include "tb/common/rtl_port_check.hpp"
#include "tb/translator/translator_contract.hpp"
#include "temporary_file.hpp"

namespace gpumem::tb {
namespace {

// The shape of what verilator --xml-only writes (5.006), cut to what is read.
const char* kXml = R"(<?xml version="1.0" ?>
<verilator_xml>
  <netlist>
    <module name="m" origName="m" topModule="1">
      <var name="P" dtype_id="1" vartype="int" origName="P" param="true"/>
      <var name="L" dtype_id="1" vartype="int" origName="L" localparam="true"/>
      <var name="clk_i" dtype_id="2" dir="input" origName="clk_i"/>
      <var name="bus_i" dtype_id="3" dir="input" origName="bus_i"/>
      <var name="pte_i" dtype_id="10" dir="input" origName="pte_i"/>
      <var name="kind_o" dtype_id="20" dir="output" origName="kind_o"/>
      <var name="arr_i" dtype_id="30" dir="input" origName="arr_i"/>
      <var name="mem_i" dtype_id="40" dir="input" origName="mem_i"/>
      <var name="io" dtype_id="2" dir="inout" origName="io"/>
      <var name="internal" dtype_id="3" origName="internal"/>
    </module>
    <typetable>
      <basicdtype id="1" name="int" left="31" right="0"/>
      <basicdtype id="2" name="logic"/>
      <basicdtype id="3" name="logic" left="39" right="0"/>
      <structdtype id="10" name="pkg::pte_t">
        <memberdtype id="11" name="hi" sub_dtype_id="12"/>
        <memberdtype id="13" name="lo" sub_dtype_id="14"/>
      </structdtype>
      <basicdtype id="12" name="logic" left="55" right="0"/>
      <basicdtype id="14" name="logic" left="7" right="0"/>
      <refdtype id="20" name="scheme_e" sub_dtype_id="21"/>
      <enumdtype id="21" name="pkg::scheme_e" sub_dtype_id="22"/>
      <basicdtype id="22" name="logic" left="1" right="0"/>
      <packarraydtype id="30" sub_dtype_id="31">
        <range><const name="32'sh3"/><const name="32'sh0"/></range>
      </packarraydtype>
      <basicdtype id="31" name="logic" left="7" right="0"/>
      <unpackarraydtype id="40" sub_dtype_id="31">
        <range><const name="32'h0"/><const name="32'h1"/></range>
      </unpackarraydtype>
    </typetable>
  </netlist>
</verilator_xml>
)";

TEST(RtlPortCheck, WidthsOfEveryKindOfType) {
  const std::string path = gpumem::test::temporary_file("ports.xml", kXml);
  const RtlModule m = read_rtl_module(path, "m");
  EXPECT_EQ(m.parameters, std::vector<std::string>{"P"});  // not the localparam
  std::map<std::string, std::pair<std::string, unsigned>> got;
  for (const RtlModulePort& p : m.ports) got[p.name] = {p.direction, p.width};
  const std::map<std::string, std::pair<std::string, unsigned>> want{
      {"clk_i", {"input", 1}},   {"bus_i", {"input", 40}},  {"pte_i", {"input", 64}}, {"kind_o", {"output", 2}},
      {"arr_i", {"input", 32}},  {"mem_i", {"input", 0}},   {"io", {"inout", 1}}};
  EXPECT_EQ(got, want);
  EXPECT_THROW(read_rtl_module(path, "other"), std::runtime_error);
  EXPECT_THROW(read_rtl_module(path + ".missing", "m"), std::runtime_error);
}

// The translator's contract at configs/default.yaml's geometry, as ports.
RtlModule conforming(const RtlContract& c) {
  RtlModule m{"t", {}, {}};
  for (const RtlContractPort& p : c.ports) m.ports.push_back({p.name, p.output ? "output" : "input", p.width});
  return m;
}

TEST(RtlPortCheck, OneMessagePerPortThatBreaksTheContract) {
  const RtlContract c = translator_contract(load_config(GPUMEM_SOURCE_DIR "/configs/default.yaml"));
  RtlModule m = conforming(c);
  EXPECT_TRUE(check_ports(c, m).empty());
  m.ports.push_back({"debug_o", "output", 7});  // an extra output is allowed
  EXPECT_TRUE(check_ports(c, m).empty());

  for (RtlModulePort& p : m.ports) {
    if (p.name == "req_addr_i") p.width = 39;
    if (p.name == "rsp_ready_i") p.direction = "inout";
    if (p.name == "reg_wdata_i") p.width = 0;
  }
  m.ports.erase(std::remove_if(m.ports.begin(), m.ports.end(), [](const RtlModulePort& p) { return p.name == "clk_i"; }),
                m.ports.end());
  m.ports.push_back({"mode_i", "input", 2});
  EXPECT_EQ(check_ports(c, m),
            (std::vector<std::string>{
                "port clk_i: missing (the contract: input, 1 bit, clock; everything happens at its rising edge)",
                "port reg_wdata_i: an unpacked array, the contract says input, 32 bits",
                "port req_addr_i: 39 bits, the contract says 40 (memory.address_bits)",
                "port rsp_ready_i: an inout, the contract says input",
                "port mode_i: an input the contract does not have (nothing would drive it)"}));
}

TEST(RtlContract, PackedPositionsAreTheBuildsLiterals) {
  EXPECT_EQ(packed_positions({8, 9, 10, 11}), "32'h0B0A0908");  // configs/default.yaml's translator.channel_bits
  EXPECT_EQ(packed_positions({12, 13, 14, 15, 16, 17, 18, 19}), "64'h131211100F0E0D0C");
  const RtlContract c = translator_contract(load_config(GPUMEM_SOURCE_DIR "/configs/default.yaml"));
  EXPECT_EQ(c.inputs() + c.outputs(), c.ports.size());
  EXPECT_EQ(c.ports[0].name, "clk_i");  // every adapter clocks input 0 and resets through input 1
  EXPECT_EQ(c.ports[1].name, "rst_ni");
}

}  // namespace
}  // namespace gpumem::tb
