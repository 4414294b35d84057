#include <cuda_runtime.h>

template <typename T, int VEC> struct LaunchTraits {
    static constexpr int kThreads = 256 / VEC;
};

template <typename T, int VEC> __global__ void vec_copy(const T *in, T *out, int n);

// Launch geometry from a traits class: the commas inside <...> are not
// separators of the launch configuration.
template <typename T>
void copy(const T *in, T *out, int n, cudaStream_t s)
{
    vec_copy<T, 4><<<n / LaunchTraits<T, 4>::kThreads, LaunchTraits<T, 4>::kThreads,
                     0, s>>>(in, out, n);
}
