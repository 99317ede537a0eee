// A SystemVerilog bench with no C++ of its own: it drives an XOR translator
// (rtl/gpumem_xor_translator.sv, or any RTL of its port contract) and checks
// every response and every register write's answer through gpumem_ref_pkg,
// the golden model as DPI-C functions (docs/dpi.md). tests/dpi/run-dpi-bench.sh
// builds and runs it the way docs/dpi.md shows.
//
// The pins come from the model's own random stimulus, so with the same
// +config, +seed and +transactions this is the run `gpumem cosim --block
// translator` makes, edge for edge: its summary lines are printed in that
// command's words, and the test compares the two.
//
// Plusargs: +config=FILE (required), +seed=N (1), +transactions=N (1000000),
// +hang_cycles=N (1000). Exit status: 0 agreement, nonzero otherwise ($fatal).
module translator_dpi_tb;
  import gpumem_pkg::*;
  import gpumem_ref_pkg::*;

  // The DUT's geometry: configs/default.yaml's. Another config needs its own
  // values here (verilator -G...); the bench checks them against the config.
  parameter int unsigned ADDRESS_BITS = 40;
  parameter int unsigned CHANNEL_BIT_COUNT = 4;
  parameter int unsigned CANDIDATE_BIT_COUNT = 8;
  parameter logic [CHANNEL_BIT_COUNT*8-1:0] CHANNEL_BITS = 32'h0B0A_0908;
  parameter logic [CANDIDATE_BIT_COUNT*8-1:0] CANDIDATE_BITS = 64'h1312_1110_0F0E_0D0C;
  parameter int unsigned PRIME = 7;

  logic clk_i = 1'b0, rst_ni = 1'b1;
  logic reg_we_i = 1'b0, reg_error_o;
  logic [REG_ADDR_BITS-1:0] reg_addr_i = '0;
  logic [31:0] reg_wdata_i = '0;
  // The register read port: gpumem's benches read it back after a refused
  // write (docs/cosim.md); this bench compares the write answers only.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] reg_rdata_o;
  /* verilator lint_on UNUSEDSIGNAL */
  logic req_valid_i = 1'b0, req_ready_o;
  logic [ADDRESS_BITS-1:0] req_addr_i = '0;
  logic [PTE_TASK_TYPE_BITS-1:0] req_task_type_i = '0;
  logic rsp_valid_o, rsp_ready_i = 1'b0;
  logic [ADDRESS_BITS-1:0] rsp_mapped_o;
  logic [CHANNEL_BIT_COUNT-1:0] rsp_channel_o;
  scheme_e rsp_scheme_o;

  gpumem_xor_translator #(
    .ADDRESS_BITS(ADDRESS_BITS), .CHANNEL_BIT_COUNT(CHANNEL_BIT_COUNT), .CANDIDATE_BIT_COUNT(CANDIDATE_BIT_COUNT),
    .CHANNEL_BITS(CHANNEL_BITS), .CANDIDATE_BITS(CANDIDATE_BITS), .PRIME(PRIME)
  ) dut (.*);

  // A request accepted and the response the model expects for it.
  typedef struct {
    longint unsigned transaction, address;
    int unsigned task_type;
    longint unsigned mapped;
    int unsigned channel, scheme;
  } expected_t;
  expected_t expected[$];

  chandle model, stimulus;
  longint unsigned seed = 1, transactions = 1000000, hang_cycles = 1000;
  longint unsigned cycle = 0, requests = 0, compared = 0, discarded = 0, idle_cycles = 0;
  longint unsigned writes_accepted = 0, writes_refused = 0;
  bit in_reset = 1'b0;

  function automatic void check_geometry();
    if (gpumem_ref_address_bits(model) != ADDRESS_BITS)
      $fatal(1, "DUT ADDRESS_BITS %0d, config memory.address_bits %0d", ADDRESS_BITS, gpumem_ref_address_bits(model));
    if (gpumem_ref_channel_bit_count(model) != CHANNEL_BIT_COUNT)
      $fatal(1, "DUT CHANNEL_BIT_COUNT %0d, config %0d channel bits", CHANNEL_BIT_COUNT, gpumem_ref_channel_bit_count(model));
    if (gpumem_ref_candidate_bit_count(model) != CANDIDATE_BIT_COUNT)
      $fatal(1, "DUT CANDIDATE_BIT_COUNT %0d, config %0d candidate bits", CANDIDATE_BIT_COUNT,
             gpumem_ref_candidate_bit_count(model));
    for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++)
      if (gpumem_ref_channel_bit(model, j) != int'(CHANNEL_BITS[8*j +: 8]))
        $fatal(1, "DUT channel bit c_%0d = %0d, config %0d", j, CHANNEL_BITS[8*j +: 8], gpumem_ref_channel_bit(model, j));
    for (int unsigned i = 0; i < CANDIDATE_BIT_COUNT; i++)
      if (gpumem_ref_candidate_bit(model, i) != int'(CANDIDATE_BITS[8*i +: 8]))
        $fatal(1, "DUT candidate bit p_%0d = %0d, config %0d", i, CANDIDATE_BITS[8*i +: 8],
               gpumem_ref_candidate_bit(model, i));
    if (gpumem_ref_prime(model) != PRIME) $fatal(1, "DUT PRIME %0d, config translator.prime %0d", PRIME, gpumem_ref_prime(model));
  endfunction

  function automatic void print_summary();
    $display("compared     %0d transactions in %0d cycles", compared, cycle);
    $display("writes       %0d accepted, %0d refused (as the model answers for the RTL port)", writes_accepted,
             writes_refused);
  endfunction

  // Everything the edge that ends this cycle does, judged on the values
  // before it: the response taken, then the request accepted, then the
  // register write (a request of the same edge sees the old registers).
  function automatic void check_edge();
    int status;
    bit refused;
    if (!rst_ni) begin
      if (!in_reset) begin  // the reset's later edges change nothing more
        discarded += 64'(expected.size());
        expected.delete();
        gpumem_ref_reset(model);
      end
      in_reset = 1'b1;
      return;
    end
    in_reset = 1'b0;
    if (rsp_valid_o && rsp_ready_i) begin
      expected_t e;
      if (expected.size() == 0) $fatal(1, "cycle %0d: a response without a request", cycle);
      e = expected.pop_front();
      compared++;
      if (rsp_mapped_o != e.mapped[ADDRESS_BITS-1:0] || rsp_channel_o != e.channel[CHANNEL_BIT_COUNT-1:0] ||
          int'(rsp_scheme_o) != e.scheme) begin
        print_summary();
        $display("MISMATCH transaction %0d, cycle %0d, seed %0d: address 0x%010h, task type %0d", e.transaction, cycle,
                 seed, e.address, e.task_type);
        $display("  model  mapped 0x%010h channel %0d scheme %s", e.mapped, e.channel, gpumem_ref_scheme_name(e.scheme));
        $display("  rtl    mapped 0x%010h channel %0d scheme %s", rsp_mapped_o, rsp_channel_o,
                 gpumem_ref_scheme_name(int'(rsp_scheme_o)));
        $fatal(1, "translator mismatch");
      end
    end
    if (req_valid_i && req_ready_o) begin
      expected_t e;
      e.transaction = requests++;
      e.address = 64'(req_addr_i);
      e.task_type = int'(req_task_type_i);
      gpumem_ref_map(model, e.address, e.task_type, e.mapped, e.channel, e.scheme);
      expected.push_back(e);
    end
    if (reg_we_i) begin
      status = gpumem_ref_reg_write(model, 32'(reg_addr_i), reg_wdata_i);
      refused = status != 0;
      if (refused) writes_refused++;
      else writes_accepted++;
      if (refused != reg_error_o) begin
        print_summary();
        $display("MISMATCH transaction %0d (a register write), cycle %0d, seed %0d: offset 0x%04h (%s), value 0x%08h",
                 requests, cycle, seed, reg_addr_i, gpumem_ref_reg_name(32'(reg_addr_i)), reg_wdata_i);
        $display("  model  %s", refused ? {"refused (", gpumem_ref_reg_status_name(status), ")"} : "accepted");
        $display("  rtl    %s", reg_error_o ? "refused" : "accepted");
        $fatal(1, "translator mismatch");
      end
    end
  endfunction

  initial begin
    string config_path;
    int reset, req_valid, rsp_ready, reg_we;
    // The DPI outputs are as wide as their C types; the pins take their low bits.
    /* verilator lint_off UNUSEDSIGNAL */
    longint unsigned req_addr;
    int unsigned req_task_type, reg_addr, reg_wdata;
    /* verilator lint_on UNUSEDSIGNAL */
    bit accepted = 1'b0;
    if (!$value$plusargs("config=%s", config_path)) $fatal(1, "+config=FILE is required");
    void'($value$plusargs("seed=%d", seed));
    void'($value$plusargs("transactions=%d", transactions));
    void'($value$plusargs("hang_cycles=%d", hang_cycles));
    model = gpumem_ref_open(config_path, "translator");
    if (model == null) $fatal(1, "%s", gpumem_ref_error());
    check_geometry();
    stimulus = gpumem_ref_translator_stimulus(model, seed, transactions);

    // Four cycles of reset, every input idle, as `gpumem cosim` starts.
    rst_ni = 1'b0;
    repeat (4) begin
      #1 clk_i = 1'b1;
      cycle++;
      #1 clk_i = 1'b0;
    end
    rst_ni = 1'b1;

    while (compared < transactions) begin
      // Clock low: the cycle's pins, then the outputs settle.
      gpumem_ref_translator_stimulus_next(stimulus, int'(accepted), discarded, reset, req_valid, req_addr,
                                          req_task_type, rsp_ready, reg_we, reg_addr, reg_wdata);
      rst_ni = reset == 0;
      req_valid_i = req_valid != 0;
      req_addr_i = req_addr[ADDRESS_BITS-1:0];
      req_task_type_i = req_task_type[PTE_TASK_TYPE_BITS-1:0];
      rsp_ready_i = rsp_ready != 0;
      reg_we_i = reg_we != 0;
      reg_addr_i = reg_addr[REG_ADDR_BITS-1:0];
      reg_wdata_i = reg_wdata;
      #1;
      cycle++;
      accepted = req_valid_i && req_ready_o;
      // A watchdog, as the C++ bench's: no handshake while a request or a
      // response waits on the RTL.
      if (!rst_ni || accepted || (rsp_valid_o && rsp_ready_i) || (!req_valid_i && expected.size() == 0)) idle_cycles = 0;
      else if (++idle_cycles >= hang_cycles) $fatal(1, "HANG: %0d cycles without a handshake at cycle %0d", idle_cycles, cycle);
      check_edge();
      clk_i = 1'b1;
      #1 clk_i = 1'b0;
    end
    print_summary();
    $display("result       agreement");
    gpumem_ref_stimulus_free(stimulus);
    gpumem_ref_close(model);
    $finish;
  end
endmodule
