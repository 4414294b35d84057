#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void k(float *p)
{
    cg::thread_block block = cg::this_thread_block();
    p[block.thread_rank()] = 0.0f;
}
