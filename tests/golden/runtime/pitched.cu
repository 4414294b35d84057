#include <cuda_runtime.h>

// Copies a width x height image into pitched device memory and back.
cudaError_t copy_image(const unsigned char *src, unsigned char *dst,
                       size_t width, size_t height, cudaStream_t stream)
{
    unsigned char *d_img;
    size_t pitch;
    cudaError_t err = cudaMallocPitch((void **)&d_img, &pitch, width, height);
    if (err != cudaSuccess)
        return err;
    cudaMemcpy2DAsync(d_img, pitch, src, width, width, height,
                      cudaMemcpyHostToDevice, stream);
    cudaMemsetAsync(d_img, 0, pitch, stream);
    cudaMemcpy2D(dst, width, d_img, pitch, width, height, cudaMemcpyDeviceToHost);
    unsigned char *mapped;
    cudaHostAlloc((void **)&mapped, width, cudaHostAllocMapped);
    void *d_mapped;
    cudaHostGetDevicePointer(&d_mapped, mapped, 0);
    cudaMemcpyAsync(d_mapped, d_img, width, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    cudaFreeHost(mapped);
    return cudaFree(d_img);
}
