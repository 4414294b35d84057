#include <cudnn.h>
#include <cstdio>

#define CHECK_CUDNN(expr)                                               \
    {                                                                   \
        cudnnStatus_t status = (expr);                                  \
        if (status != CUDNN_STATUS_SUCCESS)                             \
            std::fprintf(stderr, "cuDNN: %s\n", cudnnGetErrorString(status)); \
    }

// ReLU over an NCHW float tensor.
void relu_forward(cudnnHandle_t handle, int n, int c, int h, int w,
                  const float *d_in, float *d_out)
{
    cudnnTensorDescriptor_t desc;
    cudnnActivationDescriptor_t act;
    const float alpha = 1.0f, beta = 0.0f;
    CHECK_CUDNN(cudnnCreateTensorDescriptor(&desc));
    CHECK_CUDNN(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w));
    CHECK_CUDNN(cudnnCreateActivationDescriptor(&act));
    CHECK_CUDNN(cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0));
    CHECK_CUDNN(cudnnActivationForward(handle, act, &alpha, desc, d_in, &beta, desc, d_out));
    cudnnDestroyActivationDescriptor(act);
    cudnnDestroyTensorDescriptor(desc);
}
