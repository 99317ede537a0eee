// A translator that implements two schemes of the port contract
// (docs/cosim.md), none and matrix, written apart from
// rtl/gpumem_xor_translator.sv for the tests of `gpumem cosim --schemes`:
// the shape of a GPU's own hash block (IPOLY and the other baselines are
// matrices), which has no XOR control vectors and no prime multiplier.
// `gpumem cosim --rtl matrix_translator.sv --top matrix_translator
// --schemes none,matrix` checks it; the model refuses what it lacks
// (TASK_SCHEME 1 and 2, XOR_VECTOR) as this module does.
//
// The commit check is an XOR-basis insertion, not the project RTL's
// Gauss-Jordan: each row's channel-bit part is reduced by the basis vectors
// of its set bits, highest first, and the rows are independent when every
// one leaves a new leading bit. It also refuses an empty row, a bit inside
// the interleave granule and a bit beyond the address, as the model does.
// A request is answered in the next cycle from one response register.
module matrix_translator
  import gpumem_pkg::*;
#(
  parameter int unsigned ADDRESS_BITS = 40,
  parameter int unsigned CHANNEL_BIT_COUNT = 4,
  parameter logic [CHANNEL_BIT_COUNT*8-1:0] CHANNEL_BITS = 32'h0B0A_0908,
  parameter int unsigned GRANULE_SHIFT = 8
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
  localparam int unsigned T = TASK_TYPE_COUNT;
  localparam int unsigned IdxW = $clog2(ADDRESS_BITS);
  localparam int unsigned JW = M > 1 ? $clog2(M) : 1;
  function automatic logic [IdxW-1:0] c(int unsigned j);  // channel bit c_j
    return CHANNEL_BITS[8*j +: IdxW];
  endfunction

  // The model's acceptance rule (channel_matrix_problem) on 64-bit rows.
  function automatic bit acceptable(logic [M-1:0][63:0] rows);
    logic [M-1:0][M-1:0] basis;  // basis[b]: a reduced row whose highest set bit is b
    logic [M-1:0]        have;   // basis[b] is filled
    logic [M-1:0]        v;
    bit                  placed;
    basis = '0;
    have  = '0;
    for (int unsigned j = 0; j < M; j++) begin
      if (rows[j] == 64'h0) return 1'b0;
      if ((rows[j] & ((64'h1 << GRANULE_SHIFT) - 64'h1)) != 64'h0) return 1'b0;
      if (ADDRESS_BITS < 64 && (rows[j] >> ADDRESS_BITS) != 64'h0) return 1'b0;
      for (int unsigned k = 0; k < M; k++) v[k] = rows[j][c(k)];
      placed = 1'b0;
      for (int b = int'(M) - 1; b >= 0; b--) begin
        if (!placed && v[b]) begin
          if (have[b]) begin
            v = v ^ basis[b];
          end else begin
            basis[b] = v;
            have[b]  = 1'b1;
            placed   = 1'b1;
          end
        end
      end
      if (!placed) return 1'b0;  // reduced to zero: this row depends on the earlier ones
    end
    return 1'b1;
  endfunction

  // ---- register port: CTRL, TASK_SCHEME[t] (0 or 3), MATRIX_ROW_LO/HI[t][j < m]
  logic                         interleave_q;
  scheme_e [T-1:0]              scheme_q;
  logic [T-1:0][M-1:0][63:0]    staged_q;
  logic [T-1:0][M-1:0][ADDRESS_BITS-1:0] row_q;

  logic [15:0] offset;
  logic        is_ctrl, is_scheme, is_lo, is_hi;
  logic [15:0] scheme_index, lo_index, hi_index;
  logic [3:0]  wt;  // the task type a TASK_SCHEME or MATRIX_ROW write addresses
  logic [JW-1:0] wj;  // and a MATRIX_ROW write's row
  always_comb begin
    offset       = 16'(reg_addr_i);
    scheme_index = (offset - 16'(TASK_SCHEME_OFFSET)) >> 2;
    lo_index     = (offset - 16'(MATRIX_ROW_LO_OFFSET)) >> 2;
    hi_index     = (offset - 16'(MATRIX_ROW_HI_OFFSET)) >> 2;
    is_ctrl      = offset == 16'(CTRL_OFFSET);
    is_scheme    = offset >= 16'(TASK_SCHEME_OFFSET) && offset[1:0] == 2'b00 && scheme_index < 16'(T);
    is_lo        = offset >= 16'(MATRIX_ROW_LO_OFFSET) && offset[1:0] == 2'b00 &&
                   lo_index < 16'(T * MATRIX_ROW_LO_DIM1) && lo_index % 16'(MATRIX_ROW_LO_DIM1) < 16'(M);
    is_hi        = offset >= 16'(MATRIX_ROW_HI_OFFSET) && offset[1:0] == 2'b00 &&
                   hi_index < 16'(T * MATRIX_ROW_HI_DIM1) && hi_index % 16'(MATRIX_ROW_HI_DIM1) < 16'(M);
    wt           = is_scheme ? 4'(scheme_index) : is_lo ? 4'(lo_index / 16'(MATRIX_ROW_LO_DIM1))
                                                        : 4'(hi_index / 16'(MATRIX_ROW_HI_DIM1));
    wj           = JW'(is_lo ? lo_index % 16'(MATRIX_ROW_LO_DIM1) : hi_index % 16'(MATRIX_ROW_HI_DIM1));
    reg_error_o  = reg_we_i && !((is_ctrl && (reg_wdata_i & CTRL_TRANSLATOR_POSITION) == '0) ||
                                 (is_scheme && reg_wdata_i == 32'(SCHEME_NONE)) ||
                                 (is_scheme && reg_wdata_i == 32'(SCHEME_MATRIX) && acceptable(staged_q[wt])) ||
                                 is_lo || is_hi);
  end

  // Reads: the register at the port's address as this block holds it, and
  // the committed rows in the contract's debug window.
  logic [15:0] use_index;
  always_comb begin
    logic [63:0] committed;
    use_index   = (offset - 16'(MATRIX_IN_USE_OFFSET)) >> 2;
    committed   = 64'(row_q[4'(use_index / 16'(MATRIX_ROW_LO_DIM1))][JW'(use_index % 16'(MATRIX_ROW_LO_DIM1))]);
    reg_rdata_o = '0;
    if (is_ctrl) reg_rdata_o = interleave_q ? CTRL_INTERLEAVE_ENABLE : '0;
    if (is_scheme) reg_rdata_o = 32'(scheme_q[wt]);
    if (is_lo) reg_rdata_o = staged_q[wt][wj][31:0];
    if (is_hi) reg_rdata_o = staged_q[wt][wj][63:32];
    if (offset >= 16'(MATRIX_IN_USE_OFFSET) && offset[1:0] == 2'b00 && use_index < 16'(2 * T * MATRIX_ROW_LO_DIM1) &&
        use_index % 16'(MATRIX_ROW_LO_DIM1) < 16'(M))
      reg_rdata_o = use_index >= 16'(T * MATRIX_ROW_LO_DIM1) ? committed[63:32] : committed[31:0];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      interleave_q <= |(CTRL_RESET & CTRL_INTERLEAVE_ENABLE);
      scheme_q     <= '{default: SCHEME_NONE};
      staged_q     <= '0;
      row_q        <= '0;
    end else if (reg_we_i && !reg_error_o) begin
      if (is_ctrl) interleave_q <= |(reg_wdata_i & CTRL_INTERLEAVE_ENABLE);
      if (is_scheme) begin
        scheme_q[wt] <= scheme_e'(reg_wdata_i[1:0]);
        if (reg_wdata_i == 32'(SCHEME_MATRIX))
          for (int unsigned j = 0; j < M; j++) row_q[wt][j] <= staged_q[wt][j][ADDRESS_BITS-1:0];
      end
      if (is_lo) staged_q[wt][wj][31:0] <= reg_wdata_i;
      if (is_hi) staged_q[wt][wj][63:32] <= reg_wdata_i;
    end
  end

  // ---- the mapping, into one response register
  logic                    matrix;
  logic [ADDRESS_BITS-1:0] mapped;
  always_comb begin
    matrix = interleave_q && scheme_q[req_task_type_i] == SCHEME_MATRIX;
    mapped = req_addr_i;
    if (matrix)
      for (int unsigned j = 0; j < M; j++) mapped[c(j)] = ^(req_addr_i & row_q[req_task_type_i][j]);
  end

  assign req_ready_o = !rsp_valid_o || rsp_ready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_valid_o <= 1'b0;
    end else if (req_ready_o) begin
      rsp_valid_o <= req_valid_i;
      if (req_valid_i) begin
        rsp_mapped_o <= mapped;
        for (int unsigned j = 0; j < M; j++) rsp_channel_o[j] <= mapped[c(j)];
        rsp_scheme_o <= matrix ? SCHEME_MATRIX : SCHEME_NONE;
      end
    end
  end
endmodule
