#include <cuda.h>

int pick_block(CUfunction fn, size_t smem) {
  int grid = 0, block = 0;
  CUoccupancyB2DSize to_smem = 0;
  cuOccupancyMaxPotentialBlockSize(&grid, &block, fn, to_smem, smem, 256);
  cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, fn, 0, smem, 0, 0);
  return block;
}
