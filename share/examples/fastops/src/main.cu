// fastops_demo: runs every op on small random inputs and compares the results
// with a straightforward CPU implementation.  Exits non-zero on any mismatch.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "fastops/common.cuh"
#include "fastops/ops.h"

namespace {

// Owning device allocation; copies go through `stream`.
template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    CUDA_CHECK(cudaMalloc(&ptr_, count * sizeof(T)));
  }
  explicit DeviceBuffer(const std::vector<T>& host, cudaStream_t stream)
      : DeviceBuffer(host.size()) {
    CUDA_CHECK(cudaMemcpyAsync(ptr_, host.data(), count_ * sizeof(T),
                               cudaMemcpyHostToDevice, stream));
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }

  // Waits for the work queued on `stream`, then copies back to the host.
  std::vector<T> download(cudaStream_t stream) const {
    std::vector<T> host(count_);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const cudaError_t err = cudaMemcpy(host.data(), ptr_, count_ * sizeof(T),
                                       cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
      std::fprintf(stderr, "cudaMemcpy failed reading back %zu bytes: %s\n",
                   count_ * sizeof(T), cudaGetErrorString(err));
      std::exit(EXIT_FAILURE);
    }
    return host;
  }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

std::mt19937 rng(20240607);

std::vector<float> random_floats(size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

template <typename A, typename B>
double max_abs_diff(const std::vector<A>& a, const std::vector<B>& b) {
  double err = 0.0;
  for (size_t i = 0; i < a.size(); ++i)
    err = std::max(err, std::fabs(double(a[i]) - double(b[i])));
  return err;
}

int report(const char* op, double err, double tol) {
  const bool ok = err <= tol;
  std::printf("%-20s max abs err %.3e  (tol %.1e)  %s\n", op, err, tol,
              ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}

int test_scaled_add(cudaStream_t stream) {
  const int64_t n = (1 << 16) + 3;  // odd: exercises the scalar tail
  const float scale = 0.5f;
  std::vector<__half> x(n), y(n);
  const std::vector<float> xf = random_floats(n, -2.0f, 2.0f);
  const std::vector<float> yf = random_floats(n, -2.0f, 2.0f);
  std::vector<float> ref(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = __float2half(xf[i]);
    y[i] = __float2half(yf[i]);
    ref[i] = __half2float(x[i]) + __half2float(y[i]) * scale;
  }

  DeviceBuffer<__half> dx(x, stream), dy(y, stream), dout(n);
  fastops::scaled_add(dx.get(), dy.get(), dout.get(), scale, n, stream);
  const std::vector<__half> out = dout.download(stream);

  std::vector<float> got(n);
  for (int64_t i = 0; i < n; ++i) got[i] = __half2float(out[i]);
  // |out| <= 3, where one fp16 ulp is 2^-9; allow a few roundings.
  return report("scaled_add (fp16)", max_abs_diff(got, ref), 1e-2);
}

int test_row_ops(cudaStream_t stream) {
  int failures = 0;
  // 1000 columns take the 256-thread softmax, 100 the 128-thread one.
  for (const int cols : {1000, 100}) {
    const int rows = 64;
    const std::vector<float> in = random_floats(size_t(rows) * cols, -8.0f, 8.0f);
    std::vector<double> ref_sum(rows);
    std::vector<double> ref_softmax(in.size());
    for (int r = 0; r < rows; ++r) {
      const float* row = &in[size_t(r) * cols];
      const float mx = *std::max_element(row, row + cols);
      double s = 0.0, e = 0.0;
      for (int c = 0; c < cols; ++c) {
        s += row[c];
        e += std::exp(double(row[c]) - mx);
      }
      ref_sum[r] = s;
      for (int c = 0; c < cols; ++c)
        ref_softmax[size_t(r) * cols + c] = std::exp(double(row[c]) - mx) / e;
    }

    DeviceBuffer<float> din(in, stream), dsum(rows), dsoft(in.size());
    fastops::row_sum(din.get(), dsum.get(), rows, cols, stream);
    fastops::softmax(din.get(), dsoft.get(), rows, cols, stream);

    char name[32];
    std::snprintf(name, sizeof(name), "row_sum [%dx%d]", rows, cols);
    failures += report(name, max_abs_diff(dsum.download(stream), ref_sum), 1e-3);
    std::snprintf(name, sizeof(name), "softmax [%dx%d]", rows, cols);
    failures += report(name, max_abs_diff(dsoft.download(stream), ref_softmax), 1e-5);
  }
  return failures;
}

int test_count_nonzero(cudaStream_t stream) {
  const int64_t n = 100003;
  std::vector<float> in = random_floats(n, -1.0f, 1.0f);
  for (float& v : in)
    if (v < -0.4f) v = 0.0f;  // about 30% zeros
  const unsigned int ref =
      unsigned(std::count_if(in.begin(), in.end(), [](float v) { return v != 0.0f; }));

  DeviceBuffer<float> din(in, stream);
  DeviceBuffer<unsigned int> dcount(1);
  fastops::count_nonzero(din.get(), n, dcount.get(), stream);
  const unsigned int got = dcount.download(stream)[0];
  return report("count_nonzero", std::fabs(double(got) - double(ref)), 0.0);
}

int test_histograms(cudaStream_t stream) {
  const int num_bins = 16;
  const int64_t n = 1 << 12;
  // Finer bins around zero, as for an activation histogram.
  std::vector<float> edges(num_bins + 1);
  for (int b = 0; b <= num_bins; ++b) {
    const float t = float(b - num_bins / 2) / (num_bins / 2);  // [-1, 1]
    edges[b] = 4.0f * t * std::fabs(t);
  }
  const std::vector<float> in = random_floats(n, -5.0f, 5.0f);  // some out of range
  // Weights are multiples of 1/4 and bin totals stay below 512, so every
  // partial sum is exact in fp16 regardless of the order of the atomics.
  std::vector<__half> weights(n);
  std::uniform_int_distribution<int> quarter(1, 4);
  for (auto& w : weights) w = __float2half(0.25f * quarter(rng));

  std::vector<unsigned int> ref_counts(num_bins, 0);
  std::vector<float> ref_weights(num_bins, 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    const auto it = std::upper_bound(edges.begin(), edges.end(), in[i]);
    const int b = int(it - edges.begin()) - 1;
    if (b < 0 || b >= num_bins) continue;
    ++ref_counts[b];
    ref_weights[b] += __half2float(weights[i]);
  }

  fastops::set_bin_edges(edges.data(), num_bins);
  DeviceBuffer<float> din(in, stream);
  DeviceBuffer<__half> dw(weights, stream), dwbins(num_bins);
  DeviceBuffer<unsigned int> dbins(num_bins);
  fastops::histogram(din.get(), n, num_bins, dbins.get(), stream);
  fastops::weighted_histogram(din.get(), dw.get(), n, num_bins, dwbins.get(), stream);

  std::vector<float> got_weights(num_bins);
  const std::vector<__half> wbins = dwbins.download(stream);
  for (int b = 0; b < num_bins; ++b) got_weights[b] = __half2float(wbins[b]);

  int failures = 0;
  failures += report("histogram", max_abs_diff(dbins.download(stream), ref_counts), 0.0);
  failures += report("weighted_histogram", max_abs_diff(got_weights, ref_weights), 0.0);
  return failures;
}

int test_transpose(cudaStream_t stream) {
  const int rows = 300, cols = 197;  // not multiples of the tile size
  const std::vector<float> in = random_floats(size_t(rows) * cols, -1.0f, 1.0f);
  std::vector<float> ref(in.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) ref[size_t(c) * rows + r] = in[size_t(r) * cols + c];

  DeviceBuffer<float> din(in, stream), dout(in.size());
  fastops::transpose(din.get(), dout.get(), rows, cols, stream);
  return report("transpose", max_abs_diff(dout.download(stream), ref), 0.0);
}

int test_gemm() {
  const int m = 128, n = 96, k = 64;
  const std::vector<float> A = random_floats(size_t(m) * k, -1.0f, 1.0f);
  const std::vector<float> B = random_floats(size_t(k) * n, -1.0f, 1.0f);
  std::vector<float> Bt(B.size());  // [n, k]
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < n; ++j) Bt[size_t(j) * k + i] = B[size_t(i) * n + j];

  std::vector<double> ref(size_t(m) * n, 0.0);
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p)
      for (int j = 0; j < n; ++j)
        ref[size_t(i) * n + j] += double(A[size_t(i) * k + p]) * B[size_t(p) * n + j];

  int failures = 0;
  std::vector<float> C(size_t(m) * n);
  float ms = fastops::gemm(A.data(), B.data(), C.data(), m, n, k, false);
  failures += report("gemm (NN)", max_abs_diff(C, ref), 1e-3);
  ms += fastops::gemm(A.data(), Bt.data(), C.data(), m, n, k, true);
  failures += report("gemm (NT)", max_abs_diff(C, ref), 1e-3);
  std::printf("%-20s %.3f ms for both calls\n", "gemm time", ms);
  return failures;
}

}  // namespace

int main() {
  int device_count = 0;
  const cudaError_t err = cudaGetDeviceCount(&device_count);
  if (err != cudaSuccess || device_count == 0) {
    std::fprintf(stderr, "no CUDA device available: %s\n",
                 err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    return 1;
  }
  CUDA_CHECK(cudaSetDevice(0));
  fastops::print_device_info(0);

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));

  int failures = 0;
  failures += test_scaled_add(stream);
  failures += test_row_ops(stream);
  failures += test_count_nonzero(stream);
  failures += test_histograms(stream);
  failures += test_transpose(stream);
  failures += test_gemm();

  // Surfaces asynchronous faults that no earlier cudaStreamSynchronize saw.
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaStreamDestroy(stream));

  if (failures != 0) {
    std::printf("%d check(s) FAILED\n", failures);
    return 1;
  }
  std::printf("all checks passed\n");
  return 0;
}
