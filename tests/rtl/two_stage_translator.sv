// A second implementation of the translator's port contract (docs/cosim.md),
// written apart from rtl/gpumem_xor_translator.sv, for the tests of
// `gpumem cosim --rtl`: the mapping is split over two pipeline stages, so a
// response comes two cycles after its request instead of one, and two
// requests can be in flight.
//   stage 1 (at the accepting edge): the scheme and, for xor, the parity of
//            each channel bit's candidates, with the registers of that edge;
//   stage 2: the mapped address from them, into the response register.
// Back-pressure stalls both stages; the request side opens when stage 1 can
// move on.
module two_stage_translator
  import gpumem_pkg::*;
#(
  parameter int unsigned ADDRESS_BITS = 40,
  parameter int unsigned CHANNEL_BIT_COUNT = 4,
  parameter int unsigned CANDIDATE_BIT_COUNT = 8,
  parameter logic [CHANNEL_BIT_COUNT*8-1:0] CHANNEL_BITS = 32'h0B0A_0908,
  parameter logic [CANDIDATE_BIT_COUNT*8-1:0] CANDIDATE_BITS = 64'h1312_1110_0F0E_0D0C,
  parameter int unsigned PRIME = 0
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          reg_we_i,
  input  logic [REG_ADDR_BITS-1:0]      reg_addr_i,
  input  logic [31:0]                   reg_wdata_i,
  output logic                          reg_error_o,
  output logic [31:0]                   reg_rdata_o,
  input  logic                          req_valid_i,
  output logic                          req_ready_o,
  input  logic [ADDRESS_BITS-1:0]       req_addr_i,
  input  logic [PTE_TASK_TYPE_BITS-1:0] req_task_type_i,
  output logic                          rsp_valid_o,
  input  logic                          rsp_ready_i,
  output logic [ADDRESS_BITS-1:0]       rsp_mapped_o,
  output logic [CHANNEL_BIT_COUNT-1:0]  rsp_channel_o,
  output scheme_e                       rsp_scheme_o
);
  localparam int unsigned M = CHANNEL_BIT_COUNT;
  localparam int unsigned K = CANDIDATE_BIT_COUNT;
  localparam int unsigned T = TASK_TYPE_COUNT;
  localparam int unsigned Field = int'(CHANNEL_BITS[7:0]);  // c_0: the prime scheme's channel field starts here

  function automatic bit contiguous();
    for (int unsigned j = 1; j < M; j++)
      if (int'(CHANNEL_BITS[8*j +: 8]) != Field + int'(j)) return 1'b0;
    return 1'b1;
  endfunction
  localparam bit HasPrime = PRIME != 0 && contiguous();
  localparam int unsigned IdxW = $clog2(ADDRESS_BITS);
  function automatic logic [IdxW-1:0] c(int unsigned j);  // channel bit c_j
    return CHANNEL_BITS[8*j +: IdxW];
  endfunction
  function automatic logic [IdxW-1:0] p(int unsigned i);  // candidate bit p_i
    return CANDIDATE_BITS[8*i +: IdxW];
  endfunction

  // ---- registers: CTRL.INTERLEAVE_ENABLE, TASK_SCHEME[t], XOR_VECTOR[t][j]
  logic                     interleave_q;
  scheme_e [T-1:0]          scheme_q;
  logic [T-1:0][M-1:0][K-1:0] vector_q;

  logic [15:0] offset;
  assign offset = 16'(reg_addr_i);
  logic        is_ctrl, is_scheme, is_vector, scheme_ok;
  logic [3:0]  reg_t;
  logic [2:0]  reg_j;
  always_comb begin
    is_ctrl   = offset == 16'(CTRL_OFFSET);
    is_scheme = offset >= 16'(TASK_SCHEME_OFFSET) && offset < 16'(TASK_SCHEME_OFFSET + 4 * T) && offset[1:0] == 2'b00;
    is_vector = offset >= 16'(XOR_VECTOR_OFFSET) && offset < 16'(XOR_VECTOR_OFFSET + 4 * T * XOR_VECTOR_DIM1) &&
                offset[1:0] == 2'b00;
    reg_t     = is_scheme ? 4'((offset - 16'(TASK_SCHEME_OFFSET)) >> 2) : 4'((offset - 16'(XOR_VECTOR_OFFSET)) >> 5);
    reg_j     = 3'((offset - 16'(XOR_VECTOR_OFFSET)) >> 2);
    scheme_ok = reg_wdata_i < 32'(SCHEME_PRIME) || (reg_wdata_i == 32'(SCHEME_PRIME) && HasPrime);
    reg_error_o = reg_we_i && !((is_ctrl && (reg_wdata_i & CTRL_TRANSLATOR_POSITION) == '0) || (is_scheme && scheme_ok) ||
                                (is_vector && 32'(reg_j) < M));
  end

  // Reads: the register at the port's address as this block holds it.
  always_comb begin
    reg_rdata_o = '0;
    if (is_ctrl) reg_rdata_o = interleave_q ? CTRL_INTERLEAVE_ENABLE : '0;
    if (is_scheme) reg_rdata_o = 32'(scheme_q[reg_t]);
    if (is_vector && 32'(reg_j) < M) reg_rdata_o = 32'(vector_q[reg_t][reg_j[$clog2(M > 1 ? M : 2)-1:0]]);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      interleave_q <= |(CTRL_RESET & CTRL_INTERLEAVE_ENABLE);
      scheme_q     <= '{default: scheme_e'(TASK_SCHEME_RESET[1:0])};
      vector_q     <= '0;
    end else if (reg_we_i && !reg_error_o) begin
      if (is_ctrl) interleave_q <= |(reg_wdata_i & CTRL_INTERLEAVE_ENABLE);
      if (is_scheme) scheme_q[reg_t] <= scheme_e'(reg_wdata_i[1:0]);
      if (is_vector) vector_q[reg_t][reg_j[$clog2(M > 1 ? M : 2)-1:0]] <= reg_wdata_i[K-1:0];
    end
  end

  // ---- stage 1: scheme and parities at the accepting edge
  logic                    s1_valid, s2_valid;
  logic [ADDRESS_BITS-1:0] s1_addr;
  scheme_e                 s1_scheme;
  logic [M-1:0]            s1_flip;
  logic                    s2_free, s1_moves;
  assign s2_free     = !s2_valid || rsp_ready_i;
  assign s1_moves    = s1_valid && s2_free;
  assign req_ready_o = !s1_valid || s2_free;

  logic [K-1:0] candidates;
  logic [M-1:0] flip;
  always_comb begin
    for (int unsigned i = 0; i < K; i++) candidates[i] = req_addr_i[p(i)];
    for (int unsigned j = 0; j < M; j++) flip[j] = ^(candidates & vector_q[req_task_type_i][j]);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid <= 1'b0;
    end else if (req_ready_o) begin
      s1_valid <= req_valid_i;
      if (req_valid_i) begin
        s1_addr   <= req_addr_i;
        s1_scheme <= interleave_q ? scheme_q[req_task_type_i] : SCHEME_NONE;
        s1_flip   <= flip;
      end
    end
  end

  // ---- stage 2: the mapped address
  logic [ADDRESS_BITS-1:0] mapped;
  logic [M-1:0]            channel;
  always_comb begin
    mapped = s1_addr;
    if (s1_scheme == SCHEME_XOR)
      for (int unsigned j = 0; j < M; j++) mapped[c(j)] = s1_addr[c(j)] ^ s1_flip[j];
    if (s1_scheme == SCHEME_PRIME) mapped[Field +: M] = M'(s1_addr[Field +: M] * M'(PRIME));
    for (int unsigned j = 0; j < M; j++) channel[j] = mapped[c(j)];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s2_valid <= 1'b0;
    end else if (s2_free) begin
      s2_valid <= s1_moves;
      if (s1_moves) begin
        rsp_mapped_o  <= mapped;
        rsp_channel_o <= channel;
        rsp_scheme_o  <= s1_scheme;
      end
    end
  end
  assign rsp_valid_o = s2_valid;
endmodule
