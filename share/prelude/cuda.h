/* The parse prelude: what hipport's analyzer needs of CUDA to resolve types
 * without a CUDA SDK. It is read before every file (-include, precompiled)
 * and compiled into hipport. Declarations only, close to CUDA's own where
 * types matter (atomics, half types, warp intrinsics); system headers are not
 * read. */
#pragma once

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define CUDART_CB /* a host callback's calling convention: nothing on Linux */
#define __CUDACC__ 1
#define __NVCC__ 1
#define CUDART_VERSION 12000
#define CUDA_VERSION 12000
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef unsigned int uint; /* glibc's sys/types.h, used by much CUDA code */
typedef unsigned short ushort;
typedef unsigned long ulong;
typedef __UINTPTR_TYPE__ uintptr_t;
namespace std {
using ::size_t; using ::int8_t; using ::uint8_t; using ::int16_t; using ::uint16_t; using ::int32_t;
using ::uint32_t; using ::int64_t; using ::uint64_t; using ::intptr_t; using ::uintptr_t; using ::ptrdiff_t;
template <class T> __host__ __device__ const T &min(const T &a, const T &b);
template <class T> __host__ __device__ const T &max(const T &a, const T &b);
template <class T> __host__ __device__ void swap(T &a, T &b);
}
#define NULL nullptr

/* Everything from here to the launch configuration lives in a namespace
 * that the global one uses: name lookup finds it as if global, and a walk of
 * the file's top-level declarations meets one namespace instead of the
 * hundreds of declarations below (each read back from the precompiled
 * prelude). */
namespace hipport_prelude {

/* vector types */
#define HIPPORT_VEC(T, N)                                                          \
	struct N##1 { T x; };                                                      \
	struct N##2 { T x, y; };                                                   \
	struct N##3 { T x, y, z; };                                                \
	struct __attribute__((aligned(4 * sizeof(T)))) N##4 { T x, y, z, w; };    \
	__host__ __device__ N##1 make_##N##1(T);                                   \
	__host__ __device__ N##2 make_##N##2(T, T);                                \
	__host__ __device__ N##3 make_##N##3(T, T, T);                             \
	__host__ __device__ N##4 make_##N##4(T, T, T, T);
HIPPORT_VEC(signed char, char)
HIPPORT_VEC(unsigned char, uchar)
HIPPORT_VEC(short, short)
HIPPORT_VEC(unsigned short, ushort)
HIPPORT_VEC(int, int)
HIPPORT_VEC(unsigned int, uint)
HIPPORT_VEC(long, long)
HIPPORT_VEC(unsigned long, ulong)
HIPPORT_VEC(long long, longlong)
HIPPORT_VEC(unsigned long long, ulonglong)
HIPPORT_VEC(float, float)
HIPPORT_VEC(double, double)
#undef HIPPORT_VEC
struct dim3 {
	unsigned int x, y, z;
	__host__ __device__ dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1);
	__host__ __device__ dim3(uint3 v);
	__host__ __device__ operator uint3() const;
};

/* builtin variables */
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

/* 16-bit floating point (cuda_fp16.h, cuda_bf16.h) */
struct __half_raw { unsigned short x; };
struct __half2_raw { unsigned short x, y; };
#define HIPPORT_HALF(H)                                                            \
	struct H {                                                                 \
		__host__ __device__ H();                                           \
		__host__ __device__ H(float f);                                    \
		__host__ __device__ H(double f);                                   \
		__host__ __device__ H(int i);                                      \
		__host__ __device__ H(unsigned int i);                             \
		__host__ __device__ H(__half_raw r);                               \
		__host__ __device__ operator float() const;                        \
		__host__ __device__ H &operator=(float f);                         \
		__host__ __device__ H &operator+=(const H &h);                     \
		__host__ __device__ H &operator-=(const H &h);                     \
		__host__ __device__ H &operator*=(const H &h);                     \
		__host__ __device__ H &operator/=(const H &h);                     \
	protected:                                                                 \
		unsigned short __x;                                                \
	};                                                                         \
	__device__ H operator+(const H &a, const H &b);                            \
	__device__ H operator-(const H &a, const H &b);                            \
	__device__ H operator*(const H &a, const H &b);                            \
	__device__ H operator/(const H &a, const H &b);                            \
	__device__ H operator-(const H &a);                                        \
	__device__ bool operator==(const H &a, const H &b);                        \
	__device__ bool operator!=(const H &a, const H &b);                        \
	__device__ bool operator<(const H &a, const H &b);                         \
	__device__ bool operator>(const H &a, const H &b);                         \
	__device__ bool operator<=(const H &a, const H &b);                        \
	__device__ bool operator>=(const H &a, const H &b);
#define HIPPORT_HALF2(H2, H)                                                       \
	struct H2 {                                                                \
		H x, y;                                                            \
		__host__ __device__ H2();                                          \
		__host__ __device__ H2(const H &a, const H &b);                    \
		__host__ __device__ H2(__half2_raw r);                             \
		__host__ __device__ H2 &operator+=(const H2 &h);                   \
		__host__ __device__ H2 &operator*=(const H2 &h);                   \
	};                                                                         \
	__device__ H2 operator+(const H2 &a, const H2 &b);                         \
	__device__ H2 operator-(const H2 &a, const H2 &b);                         \
	__device__ H2 operator*(const H2 &a, const H2 &b);                         \
	__device__ H2 operator/(const H2 &a, const H2 &b);
HIPPORT_HALF(__half)
HIPPORT_HALF2(__half2, __half)
HIPPORT_HALF(__nv_bfloat16)
HIPPORT_HALF2(__nv_bfloat162, __nv_bfloat16)
#undef HIPPORT_HALF
#undef HIPPORT_HALF2
typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

__host__ __device__ __half __float2half(float);
__host__ __device__ __half __float2half_rn(float);
__host__ __device__ float __half2float(__half);
__host__ __device__ __half2 __float2half2_rn(float);
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ __half2 __halves2half2(__half, __half);
__host__ __device__ __half2 __half2half2(__half);
__host__ __device__ float2 __half22float2(__half2);
__host__ __device__ __half __low2half(__half2);
__host__ __device__ __half __high2half(__half2);
__host__ __device__ float __low2float(__half2);
__host__ __device__ float __high2float(__half2);
__device__ unsigned short __half_as_ushort(__half);
__device__ __half __ushort_as_half(unsigned short);
__device__ short __half_as_short(__half);
__device__ __half __short_as_half(short);
__device__ __half __hadd(__half, __half);
__device__ __half __hsub(__half, __half);
__device__ __half __hmul(__half, __half);
__device__ __half __hdiv(__half, __half);
__device__ __half __hfma(__half, __half, __half);
__device__ __half __hneg(__half);
__device__ __half __habs(__half);
__device__ __half __hmax(__half, __half);
__device__ __half __hmin(__half, __half);
__device__ __half2 __hadd2(__half2, __half2);
__device__ __half2 __hsub2(__half2, __half2);
__device__ __half2 __hmul2(__half2, __half2);
__device__ __half2 __hfma2(__half2, __half2, __half2);
__device__ __half2 __hmax2(__half2, __half2);
__device__ bool __hlt(__half, __half);
__device__ bool __hgt(__half, __half);
__device__ bool __heq(__half, __half);
__device__ __half hexp(__half);
__device__ __half hlog(__half);
__device__ __half hsqrt(__half);
__device__ __half hrsqrt(__half);
__device__ __half2 h2exp(__half2);
__host__ __device__ __nv_bfloat16 __float2bfloat16(float);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(float);
__host__ __device__ float __bfloat162float(__nv_bfloat16);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(float);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float, float);
__host__ __device__ float2 __bfloat1622float2(__nv_bfloat162);
__host__ __device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16, __nv_bfloat16);
__device__ unsigned short __bfloat16_as_ushort(__nv_bfloat16);
__device__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short);
__device__ __nv_bfloat16 __hadd(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hmul(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hfma(__nv_bfloat16, __nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat162 __hadd2(__nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat162 __hmul2(__nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat162 __hfma2(__nv_bfloat162, __nv_bfloat162, __nv_bfloat162);

/* atomics (sm_60+ scoped variants too) */
#define HIPPORT_ATOMIC(NAME, T)                                                    \
	__device__ T NAME(T *address, T val);                                      \
	__device__ T NAME##_block(T *address, T val);                              \
	__device__ T NAME##_system(T *address, T val);
#define HIPPORT_ATOMIC_INT(NAME)                                                   \
	HIPPORT_ATOMIC(NAME, int)                                                  \
	HIPPORT_ATOMIC(NAME, unsigned int)                                         \
	HIPPORT_ATOMIC(NAME, unsigned long long)
HIPPORT_ATOMIC_INT(atomicAdd)
HIPPORT_ATOMIC(atomicAdd, float)
HIPPORT_ATOMIC(atomicAdd, double)
HIPPORT_ATOMIC(atomicAdd, __half)
HIPPORT_ATOMIC(atomicAdd, __half2)
HIPPORT_ATOMIC(atomicAdd, __nv_bfloat16)
HIPPORT_ATOMIC(atomicAdd, __nv_bfloat162)
HIPPORT_ATOMIC_INT(atomicSub)
HIPPORT_ATOMIC(atomicSub, float)
HIPPORT_ATOMIC_INT(atomicExch)
HIPPORT_ATOMIC(atomicExch, float)
HIPPORT_ATOMIC_INT(atomicMin)
HIPPORT_ATOMIC(atomicMin, long long)
HIPPORT_ATOMIC(atomicMin, float)
HIPPORT_ATOMIC(atomicMin, double)
HIPPORT_ATOMIC_INT(atomicMax)
HIPPORT_ATOMIC(atomicMax, long long)
HIPPORT_ATOMIC(atomicMax, float)
HIPPORT_ATOMIC(atomicMax, double)
HIPPORT_ATOMIC_INT(atomicAnd)
HIPPORT_ATOMIC_INT(atomicOr)
HIPPORT_ATOMIC_INT(atomicXor)
HIPPORT_ATOMIC(atomicInc, unsigned int)
HIPPORT_ATOMIC(atomicDec, unsigned int)
#undef HIPPORT_ATOMIC_INT
#undef HIPPORT_ATOMIC
#define HIPPORT_CAS(T)                                                             \
	__device__ T atomicCAS(T *address, T compare, T val);                      \
	__device__ T atomicCAS_block(T *address, T compare, T val);                \
	__device__ T atomicCAS_system(T *address, T compare, T val);
HIPPORT_CAS(int)
HIPPORT_CAS(unsigned int)
HIPPORT_CAS(unsigned long long)
HIPPORT_CAS(unsigned short)
#undef HIPPORT_CAS

/* warp-level primitives */
template <class T> __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);
template <class T> __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <class T> __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);
template <class T> __device__ T __shfl(T var, int srcLane, int width = 32);
template <class T> __device__ T __shfl_up(T var, unsigned int delta, int width = 32);
template <class T> __device__ T __shfl_down(T var, unsigned int delta, int width = 32);
template <class T> __device__ T __shfl_xor(T var, int laneMask, int width = 32);
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ unsigned int __ballot(int predicate);
__device__ unsigned int __activemask();
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ int __any(int predicate);
__device__ int __all(int predicate);
__device__ unsigned int __uni_sync(unsigned int mask, int predicate);
template <class T> __device__ unsigned int __match_any_sync(unsigned int mask, T value);
template <class T> __device__ unsigned int __match_all_sync(unsigned int mask, T value, int *pred);
template <class T> __device__ T __reduce_add_sync(unsigned int mask, T value);
__device__ void __syncwarp(unsigned int mask = 0xffffffff);
/* __syncthreads is a builtin of the NVPTX side (the auxiliary target):
 * declaring it too makes every call ambiguous */
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ void __threadfence_system();
__device__ unsigned int __lanemask_lt();
__device__ unsigned int __lanemask_le();
__device__ unsigned int __lanemask_gt();
__device__ unsigned int __lanemask_ge();
__device__ unsigned int __lanemask_eq();

/* cooperative groups (cooperative_groups.h and its reduce.h, scan.h; HIP's
 * has the same namespace): without it `namespace cg = cooperative_groups;`
 * is an error that ends the parse of the file. The groups and collectives
 * kernels name, members as CUDA 12 types them. */
namespace cooperative_groups {
class thread_group {
public:
	__device__ void sync() const;
	__device__ unsigned long long size() const;
	__device__ unsigned long long num_threads() const;
	__device__ unsigned long long thread_rank() const;
};
class thread_block : public thread_group {
public:
	__device__ void sync() const;
	__device__ unsigned int size() const;
	__device__ unsigned int num_threads() const;
	__device__ unsigned int thread_rank() const;
	__device__ dim3 group_index() const;
	__device__ dim3 thread_index() const;
	__device__ dim3 group_dim() const;
	__device__ dim3 dim_threads() const;
};
class grid_group : public thread_group {
public:
	__device__ void sync() const;
	__device__ bool is_valid() const;
	__device__ unsigned long long size() const;
	__device__ unsigned long long num_threads() const;
	__device__ unsigned long long thread_rank() const;
	__device__ unsigned long long num_blocks() const;
	__device__ unsigned long long block_rank() const;
	__device__ dim3 group_dim() const;
	__device__ dim3 dim_blocks() const;
	__device__ dim3 block_index() const;
};
/* the members a warp's worth of threads share: shuffles and votes */
#define HIPPORT_CG_WARP                                                            \
	__device__ void sync() const;                                              \
	__device__ unsigned int size() const;                                      \
	__device__ unsigned int num_threads() const;                               \
	__device__ unsigned int thread_rank() const;                               \
	__device__ unsigned int meta_group_rank() const;                           \
	__device__ unsigned int meta_group_size() const;                           \
	template <class T> __device__ T shfl(T var, int srcRank) const;            \
	template <class T> __device__ T shfl_up(T var, unsigned int delta) const;  \
	template <class T> __device__ T shfl_down(T var, unsigned int delta) const; \
	template <class T> __device__ T shfl_xor(T var, unsigned int mask) const;  \
	__device__ int any(int predicate) const;                                   \
	__device__ int all(int predicate) const;                                   \
	__device__ unsigned int ballot(int predicate) const;                       \
	template <class T> __device__ unsigned int match_any(T value) const;       \
	template <class T> __device__ unsigned int match_all(T value, int &pred) const;
class coalesced_group : public thread_group {
public:
	HIPPORT_CG_WARP
};
/* a tile of ParentT converts to the tile of no named parent, as CUDA's */
template <unsigned int Size, class ParentT = void> class thread_block_tile : public thread_group {
public:
	template <class P> __device__ thread_block_tile(const thread_block_tile<Size, P> &tile);
	HIPPORT_CG_WARP
};
#undef HIPPORT_CG_WARP
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &g);
__device__ thread_group tiled_partition(const thread_group &g, unsigned int size);
template <class G> __device__ coalesced_group labeled_partition(const G &g, int label);
template <class G> __device__ coalesced_group binary_partition(const G &g, bool pred);
template <class G> __device__ void sync(const G &g);
template <class G> __device__ void wait(const G &g);
template <class G, class T, class S> __device__ void memcpy_async(const G &g, T *dst, const T *src, const S &shape);
#define HIPPORT_CG_OP(N) template <class T> struct N { __device__ T operator()(const T &a, const T &b) const; };
HIPPORT_CG_OP(plus) HIPPORT_CG_OP(less) HIPPORT_CG_OP(greater)
HIPPORT_CG_OP(bit_and) HIPPORT_CG_OP(bit_or) HIPPORT_CG_OP(bit_xor)
#undef HIPPORT_CG_OP
/* by value: the result has the value's type, as CUDA's */
template <class G, class T, class Op> __device__ T reduce(const G &g, T val, Op op);
template <class G, class T> __device__ T inclusive_scan(const G &g, T val);
template <class G, class T, class Op> __device__ T inclusive_scan(const G &g, T val, Op op);
template <class G, class T> __device__ T exclusive_scan(const G &g, T val);
template <class G, class T, class Op> __device__ T exclusive_scan(const G &g, T val, Op op);
}

/* integer intrinsics */
__device__ int __popc(unsigned int);
__device__ int __popcll(unsigned long long);
__device__ int __ffs(int);
__device__ int __ffsll(long long);
__device__ int __clz(int);
__device__ int __clzll(long long);
__device__ unsigned int __brev(unsigned int);
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ int __mul24(int, int);
__device__ int __mulhi(int, int);
__device__ unsigned int __umulhi(unsigned int, unsigned int);
__device__ unsigned int __sad(int, int, unsigned int);
__device__ int __float_as_int(float);
__device__ unsigned int __float_as_uint(float);
__device__ float __int_as_float(int);
__device__ float __uint_as_float(unsigned int);
__device__ long long __double_as_longlong(double);
__device__ double __longlong_as_double(long long);
__device__ long long clock64();
__device__ int clock();

/* read-only loads */
template <class T> __device__ T __ldg(const T *);
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ T __ldlu(const T *);
template <class T> __device__ void __stcg(T *, T);
template <class T> __device__ void __stcs(T *, T);

/* math: single and double precision, and the fast-math intrinsics */
#define HIPPORT_MATH1(F) __host__ __device__ float F##f(float); __host__ __device__ double F(double);
#define HIPPORT_MATH2(F) __host__ __device__ float F##f(float, float); __host__ __device__ double F(double, double);
HIPPORT_MATH1(exp) HIPPORT_MATH1(exp2) HIPPORT_MATH1(exp10) HIPPORT_MATH1(expm1) HIPPORT_MATH1(log)
HIPPORT_MATH1(log2) HIPPORT_MATH1(log10) HIPPORT_MATH1(log1p) HIPPORT_MATH1(sqrt) HIPPORT_MATH1(rsqrt)
HIPPORT_MATH1(cbrt) HIPPORT_MATH1(sin) HIPPORT_MATH1(cos) HIPPORT_MATH1(tan) HIPPORT_MATH1(asin)
HIPPORT_MATH1(acos) HIPPORT_MATH1(atan) HIPPORT_MATH1(sinh) HIPPORT_MATH1(cosh) HIPPORT_MATH1(tanh)
HIPPORT_MATH1(erf) HIPPORT_MATH1(erfc) HIPPORT_MATH1(fabs) HIPPORT_MATH1(floor) HIPPORT_MATH1(ceil)
HIPPORT_MATH1(round) HIPPORT_MATH1(trunc) HIPPORT_MATH1(rint) HIPPORT_MATH1(lgamma) HIPPORT_MATH1(tgamma)
HIPPORT_MATH2(pow) HIPPORT_MATH2(fmax) HIPPORT_MATH2(fmin) HIPPORT_MATH2(fmod) HIPPORT_MATH2(atan2)
HIPPORT_MATH2(hypot) HIPPORT_MATH2(copysign) HIPPORT_MATH2(remainder) HIPPORT_MATH2(fdim)
#undef HIPPORT_MATH1
#undef HIPPORT_MATH2
__host__ __device__ float fmaf(float, float, float);
__host__ __device__ double fma(double, double, double);
__host__ __device__ int abs(int);
__host__ __device__ long long llabs(long long);
__host__ __device__ int min(int, int);
__host__ __device__ int max(int, int);
__host__ __device__ unsigned int umin(unsigned int, unsigned int);
__host__ __device__ unsigned int umax(unsigned int, unsigned int);
__host__ __device__ bool isnan(float);
__host__ __device__ bool isinf(float);
__host__ __device__ bool isfinite(float);
__device__ float __expf(float);
__device__ float __exp10f(float);
__device__ float __logf(float);
__device__ float __log2f(float);
__device__ float __log10f(float);
__device__ float __powf(float, float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __tanf(float);
__device__ void __sincosf(float, float *, float *);
__device__ float __fdividef(float, float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __frsqrt_rn(float);
__device__ float __saturatef(float);
__device__ float __fadd_rn(float, float);
__device__ float __fmul_rn(float, float);
__device__ float __fmaf_rn(float, float, float);
__device__ int __float2int_rn(float);
__device__ int __float2int_rz(float);
__device__ unsigned int __float2uint_rn(float);
__device__ float __int2float_rn(int);
__device__ float __uint2float_rn(unsigned int);
__device__ double __ll2double_rn(long long);

/* the runtime API the analyzer follows (memory kinds, attributes, streams) */
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
enum cudaFuncAttribute {
	cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
	cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
enum cudaMemcpyKind {
	cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
	cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
};
#define cudaSuccess 0
#define cudaMemAttachGlobal 0x01
#define cudaHostAllocDefault 0x00
#define cudaHostAllocMapped 0x02
cudaError_t cudaMalloc(void **p, size_t size);
template <class T> cudaError_t cudaMalloc(T **p, size_t size);
cudaError_t cudaMallocManaged(void **p, size_t size, unsigned int flags = cudaMemAttachGlobal);
template <class T> cudaError_t cudaMallocManaged(T **p, size_t size, unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void **p, size_t size);
template <class T> cudaError_t cudaMallocHost(T **p, size_t size);
cudaError_t cudaHostAlloc(void **p, size_t size, unsigned int flags);
template <class T> cudaError_t cudaHostAlloc(T **p, size_t size, unsigned int flags);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind, cudaStream_t s = 0);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s = 0);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value);
template <class T> cudaError_t cudaFuncSetAttribute(T *entry, cudaFuncAttribute attr, int value);
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0,
			     cudaStream_t stream = 0);
template <class T> cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
						size_t sharedMem = 0, cudaStream_t stream = 0);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
					size_t sharedMem = 0, cudaStream_t stream = 0);
template <class T> cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
							   size_t sharedMem = 0, cudaStream_t stream = 0);
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags);
cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer);
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t n);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t n, cudaStream_t s = 0);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);

} /* namespace hipport_prelude */
using namespace hipport_prelude;

/* what clang needs to parse kernel<<<grid, block, shared, stream>>>(...) */
extern "C" unsigned int __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
						   cudaStream_t stream = 0);
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
