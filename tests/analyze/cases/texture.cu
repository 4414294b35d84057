// Texture references (CUDA 11 and older; removed in CUDA 12) next to the
// texture-object code that replaces them.
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> tex_weights; // expect: MEM-002
texture<float, 2, cudaReadModeElementType> tex_image; // expect: MEM-002

// Binds the legacy references to linear and pitched device memory.
void bind_legacy(const float *d_weights, size_t count, const float *d_image, int width,
                 int height, size_t pitch)
{
  cudaBindTexture(nullptr, tex_weights, d_weights, count * sizeof(float)); // expect: MEM-002
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaBindTexture2D(nullptr, tex_image, d_image, desc, width, height, pitch); // expect: MEM-002
}

// The replacement: a texture object for the same linear buffer.
cudaTextureObject_t make_weights_object(float *d_weights, size_t count)
{
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d_weights;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = count * sizeof(float);
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  td.filterMode = cudaFilterModePoint;
  cudaTextureObject_t obj = 0;
  cudaCreateTextureObject(&obj, &res, &td, nullptr);
  return obj;
}

// Embedding lookup through the texture object.
__global__ void embed_lookup(cudaTextureObject_t weights, const int *__restrict__ ids,
                             float *__restrict__ out, int n, int dim)
{
  const int row = blockIdx.x;
  if (row >= n) return;
  const int base = ids[row] * dim;
  for (int d = threadIdx.x; d < dim; d += blockDim.x)
    out[(size_t)row * dim + d] = tex1Dfetch<float>(weights, base + d);
}

void lookup(float *d_weights, size_t count, const int *d_ids, float *d_out, int n, int dim)
{
  cudaTextureObject_t obj = make_weights_object(d_weights, count);
  embed_lookup<<<n, 128>>>(obj, d_ids, d_out, n, dim);
  cudaDeviceSynchronize();
  cudaDestroyTextureObject(obj);
}
