#include <algorithm>
#include <cmath>
#include <vector>

// Plain C++ whose names look like CUDA's: its own float2, min/max, a dim3-like
// struct and a "kernel" launcher that is just a function.
struct float2 { float x, y; };
struct dim3_like { unsigned x, y, z; };

template <typename T> T min(T a, T b) { return a < b ? a : b; }
template <typename T> T max(T a, T b) { return a > b ? a : b; }

static float2 make_float2(float x, float y) { return float2{x, y}; }

float clamp_len(const std::vector<float2> &pts, float lo, float hi)
{
    float best = 0.0f;
    for (const float2 &p : pts)
        best = ::max(best, std::sqrt(p.x * p.x + p.y * p.y));
    float2 c = make_float2(::min(best, hi), lo);
    return std::min(std::max(c.x, c.y), hi);
}

int launch(int grid, int block) { return grid << 3 >> 1 < block; }
