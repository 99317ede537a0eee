// A TLB of the port contract (docs/cosim.md) with a different response
// latency, for the tests of `gpumem cosim --rtl`: the project's TLB
// (rtl/gpumem_nested_tlb.sv, compiled with it) behind one more register
// stage on the response, so an operation answers two cycles after it was
// accepted instead of one. The answer is still the state at the accepting
// edge, as the contract requires; only its delivery is later.
module tlb_extra_stage
  import gpumem_pkg::*;
#(
  parameter int unsigned VA_BITS = 40,
  parameter int unsigned SMALL_BITS = 12,
  parameter int unsigned LARGE_BITS = 16,
  parameter int unsigned ENTRIES = 64,
  parameter int unsigned WAYS = 4,
  parameter int unsigned PLRU = 1,
  parameter int unsigned NESTED_TAIL = 1,
  localparam int unsigned SetBits = ENTRIES / WAYS > 1 ? $clog2(ENTRIES / WAYS) : 1,
  localparam int unsigned WayBits = WAYS > 1 ? $clog2(WAYS) : 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            flush_i,
  input  logic                            req_valid_i,
  output logic                            req_ready_o,
  input  logic                            req_fill_i,
  input  logic [VA_BITS-1:0]              req_va_i,
  input  pte_t                            req_pte_i,
  output logic                            rsp_valid_o,
  input  logic                            rsp_ready_i,
  output logic                            rsp_fill_o,
  output tlb_result_e                     rsp_result_o,
  output logic [SetBits-1:0]              rsp_set_o,
  output logic [WayBits-1:0]              rsp_way_o,
  output logic [PTE_PFN_BITS+LARGE_BITS-1:0] rsp_pa_o,
  output logic                            rsp_evicted_o,
  output logic                            rsp_entry_large_page_o,
  output logic [VA_BITS-SMALL_BITS-1:0]   rsp_entry_vpn_o,
  output logic [PTE_PFN_BITS-1:0]         rsp_entry_pfn_o,
  output logic [PTE_NESTED_FLAG_BITS-1:0] rsp_entry_nested_flag_o,
  output logic [PTE_TASK_TYPE_BITS-1:0]   rsp_entry_task_type_o,
  output logic                            rsp_entry_readable_o,
  output logic                            rsp_entry_writable_o
);
  // The inner TLB's response, as one packed word for the extra stage.
  typedef struct packed {
    logic fill;
    tlb_result_e result;
    logic [SetBits-1:0] set_index;
    logic [WayBits-1:0] way;
    logic [PTE_PFN_BITS+LARGE_BITS-1:0] pa;
    logic evicted, large_page;
    logic [VA_BITS-SMALL_BITS-1:0] vpn;
    logic [PTE_PFN_BITS-1:0] pfn;
    logic [PTE_NESTED_FLAG_BITS-1:0] nested_flag;
    logic [PTE_TASK_TYPE_BITS-1:0] task_type;
    logic readable, writable;
  } response_t;

  response_t inner, held;
  logic inner_valid, inner_ready, held_valid;

  gpumem_nested_tlb #(
    .VA_BITS(VA_BITS), .SMALL_BITS(SMALL_BITS), .LARGE_BITS(LARGE_BITS), .ENTRIES(ENTRIES), .WAYS(WAYS),
    .PLRU(PLRU), .NESTED_TAIL(NESTED_TAIL)
  ) tlb (
    .clk_i, .rst_ni, .flush_i, .req_valid_i, .req_ready_o, .req_fill_i, .req_va_i, .req_pte_i,
    .rsp_valid_o(inner_valid), .rsp_ready_i(inner_ready), .rsp_fill_o(inner.fill), .rsp_result_o(inner.result),
    .rsp_set_o(inner.set_index), .rsp_way_o(inner.way), .rsp_pa_o(inner.pa), .rsp_evicted_o(inner.evicted),
    .rsp_entry_large_page_o(inner.large_page), .rsp_entry_vpn_o(inner.vpn), .rsp_entry_pfn_o(inner.pfn),
    .rsp_entry_nested_flag_o(inner.nested_flag), .rsp_entry_task_type_o(inner.task_type),
    .rsp_entry_readable_o(inner.readable), .rsp_entry_writable_o(inner.writable)
  );

  // The extra stage: takes the inner response when empty or being emptied.
  assign inner_ready = !held_valid || rsp_ready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_valid <= 1'b0;
    end else if (inner_ready) begin
      held_valid <= inner_valid;
      if (inner_valid) held <= inner;
    end
  end

  assign rsp_valid_o = held_valid;
  assign {rsp_fill_o, rsp_result_o, rsp_set_o, rsp_way_o, rsp_pa_o, rsp_evicted_o, rsp_entry_large_page_o,
          rsp_entry_vpn_o, rsp_entry_pfn_o, rsp_entry_nested_flag_o, rsp_entry_task_type_o, rsp_entry_readable_o,
          rsp_entry_writable_o} = held;
endmodule
