// WARP-011: cooperative groups' reduce and scans, which HIP has only from
// 7.13. The header folds into hip_cooperative_groups.h; the calls do not build.
// args: --target-hip=6.2
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <numeric>
namespace cg = cooperative_groups;

__global__ void tile_sum(const float *in, float *out)
{
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = in[threadIdx.x];
  float s = cg::reduce(tile, v, cg::plus<float>()); // expect: WARP-011
  float p = cooperative_groups::inclusive_scan(tile, v); // expect: WARP-011
  float q = cg::exclusive_scan<float>(tile, v); // expect: WARP-011
  tile.sync();
  out[threadIdx.x] = s + p + q;
}

// not cooperative groups: std::reduce and a member named reduce
struct Acc { float reduce(float a) const { return a; } };
float host_sum(const float *a, int n, Acc acc) { return acc.reduce(std::reduce(a, a + n, 0.0f)); }
