// The matrix scheme's algebra: channel bit c_j of the mapped address
// is the parity of the address ANDed with row j, a mask of address bits;
// every other bit stays. Plain C++: the config, the register bank, the
// translator and the explorer check and invert matrices with these.
//
// Writing x as its channel bits c and its other bits o, row j is
// (A_j | B_j) and the mapped channel bits are c' = A c + B o over GF(2). The
// map is a bijection exactly when A (the rows restricted to the channel
// bits, m x m) has rank m, and its inverse has the same form:
// c = A^-1 c' + A^-1 B o. Only channel bits change, and the config keeps them
// below the smallest task-tagged page, so no matrix moves data across pages
// (isolation); what a row may not do is read a bit inside the interleave
// granule (the bytes of one request would go to different channels) or
// beyond the address space.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/channel_layout.hpp"

namespace gpumem {

using MatrixRows = std::vector<uint64_t>;  // row j: the address bits whose XOR is channel bit c_j

// Rank over GF(2) of the rows restricted to the channel bits (A).
unsigned channel_matrix_rank(const MatrixRows& rows, const std::vector<unsigned>& channel_bits);

// Why `rows` is not a mapping the translator can apply, or "" if it is.
// `bad_row` receives the offending row, or -1 when the fault is the whole
// matrix (a wrong row count, singular A).
std::string channel_matrix_problem(const MatrixRows& rows, const ChannelLayout& layout, unsigned address_bits,
                                   int* bad_row = nullptr);

// The rows of the inverse mapping (again channel bit c_j = parity(mapped &
// row j)). Precondition: channel_matrix_problem(rows, ...) is empty.
MatrixRows channel_matrix_inverse(const MatrixRows& rows, const std::vector<unsigned>& channel_bits);

// The xor scheme as a matrix: row j = c_j plus the candidate bits vector j selects.
MatrixRows xor_vectors_as_matrix(const std::vector<uint32_t>& vectors, const std::vector<unsigned>& channel_bits,
                                 const std::vector<unsigned>& candidate_bits);

// Apply rows: the address with every channel bit c_j replaced by parity(address & rows[j]).
uint64_t apply_channel_matrix(const MatrixRows& rows, const std::vector<unsigned>& channel_bits, uint64_t address);

// "[8, 13, 20]": a row as the address bits it XORs, as the config writes it.
std::string matrix_row_text(uint64_t row);

}  // namespace gpumem
