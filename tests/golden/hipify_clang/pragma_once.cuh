// Row helpers shared by the solver kernels.
#pragma once
// The standard headers come after the pragma.
#include <cstddef>

__device__ inline std::size_t row_start(const int *offsets, int row) { return offsets[row]; }
