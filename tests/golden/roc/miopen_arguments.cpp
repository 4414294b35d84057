// cuDNN calls whose MIOpen counterparts take their arguments in another
// order or number (--roc): softmax algorithm and mode go last, a
// convolution's workspace after its output, pooling loses its NaN option,
// LRN gains its mode, workspace queries lose the algorithm.
#include <cudnn.h>

cudnnStatus_t forward(cudnnHandle_t h, const float *alpha, const float *beta, cudnnTensorDescriptor_t xd,
                      const void *x, cudnnFilterDescriptor_t wd, const void *w, cudnnConvolutionDescriptor_t cd,
                      cudnnConvolutionFwdAlgo_t algo, cudnnTensorDescriptor_t yd, void *y, void *ws)
{
    size_t bytes = 0;
    cudnnStatus_t s = cudnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd, algo, &bytes);
    if (s != CUDNN_STATUS_SUCCESS)
        return s;
    s = cudnnConvolutionForward(h, alpha, xd, x, wd, w, cd, algo, ws, bytes, beta, yd, y);
    if (s != CUDNN_STATUS_SUCCESS)
        return s;
    return cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, alpha, yd, y, beta, yd, y);
}

cudnnStatus_t describe(cudnnPoolingDescriptor_t pd, cudnnLRNDescriptor_t ld)
{
    cudnnStatus_t s = cudnnSetPooling2dDescriptor(pd, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2);
    if (s != CUDNN_STATUS_SUCCESS)
        return s;
    return cudnnSetLRNDescriptor(ld, 5, 1e-4, 0.75, 2.0);
}
