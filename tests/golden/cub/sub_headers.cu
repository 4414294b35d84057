// CUB sub-headers all become hipCUB's umbrella header, once.
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/util_type.cuh>

template <int THREADS>
__global__ void prefix(const int *in, int *out)
{
  typedef cub::BlockScan<int, THREADS> Scan;
  __shared__ typename Scan::TempStorage temp;
  int v = in[threadIdx.x];
  Scan(temp).InclusiveSum(v, v);
  out[threadIdx.x] = v;
}
