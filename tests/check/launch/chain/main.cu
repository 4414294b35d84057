// A template argument handed down through two template functions, and a
// count divided into blocks that the program reads at run time.
#include <cstdlib>

template <typename T, int N>
__global__ void scan(long nblocks, T *out, const T *in)
{
	__shared__ T tile[N];
	int i = blockIdx.x * N + threadIdx.x;
	tile[threadIdx.x] = in[i];
	__syncthreads();
	out[i] = tile[N - 1 - threadIdx.x];
}

template <typename T, int N>
void runTest(long n, T *out, const T *in)
{
	long num_blocks = (n + N - 1) / N;
	scan<T, N><<<num_blocks, N>>>(num_blocks, out, in);
}

template <int N>
void run(long n, float *out, const float *in)
{
	runTest<float, N>(n, out, in);
}

int main(int argc, char **argv)
{
	long n = atol(argv[1]);
	float *out, *in;
	cudaMalloc(&out, n * sizeof(float));
	cudaMalloc(&in, n * sizeof(float));
	run<512>(n, out, in);
	return 0;
}

// float2 memory handed to a kernel as floats: twice as many elements
__global__ void negate(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = -x[i];
}

void negate_pairs(float2 *unused)
{
	float2 *d;
	const int pairs = 1000;
	cudaMalloc(&d, pairs * sizeof(float2));
	negate<<<(2 * pairs + 255) / 256, 256>>>((float *)d, 2 * pairs);
}
