// ARCH-006: kernels launched here with a known block size and no launch bounds.
#define THREADS 512
#define LAUNCH_BOUNDS_1(n) __launch_bounds__(n)

__global__ void big(float *x) { x[threadIdx.x] = 0.0f; } // expect: ARCH-006

__global__ void __launch_bounds__(1024) marked(float *x) { x[threadIdx.x] = 0.0f; }

__global__ void LAUNCH_BOUNDS_1(256) macro_marked(float *x) { x[threadIdx.x] = 0.0f; }

// 256 threads or fewer: launch bounds are tuning, not a hazard
template <int N>
__global__ void small(float *x) { x[threadIdx.x] = N; }

__global__ void dimmed(float *x) { x[threadIdx.x + blockDim.x * threadIdx.y] = 0.0f; } // expect: ARCH-006

// block sizes known only at run time: nothing to state
__global__ void runtime(float *x) { x[threadIdx.x] = 0.0f; }

// launched from another file: the block size is not known here
__global__ void elsewhere(float *x) { x[threadIdx.x] = 0.0f; }

// the largest of several launches
__global__ void twice(float *x) { x[threadIdx.x] = 0.0f; } // expect: ARCH-006

void launch_all(float *x, int n)
{
	const int threads = 768;

	big<<<1, THREADS>>>(x);
	marked<<<1, 1024>>>(x);
	macro_marked<<<1, 256>>>(x);
	small<4><<<1, 128>>>(x);
	dim3 block(32, 16);
	dimmed<<<1, block>>>(x);
	runtime<<<1, n>>>(x);
	twice<<<1, 64>>>(x);
	twice<<<2, threads>>>(x);
}
