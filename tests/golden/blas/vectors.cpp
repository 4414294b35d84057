#include <cublas_v2.h>
#include <vector>

// Host <-> device vectors with cublasSetVector/GetVector, then AXPY and DOT.
float axpy_dot(cublasHandle_t h, const std::vector<float> &x, std::vector<float> &y,
               float *d_x, float *d_y, float a)
{
    int n = (int)x.size();
    float dot = 0.0f;
    cublasSetVector(n, sizeof(float), x.data(), 1, d_x, 1);
    cublasSetVector(n, sizeof(float), y.data(), 1, d_y, 1);
    cublasSaxpy(h, n, &a, d_x, 1, d_y, 1);
    cublasSdot(h, n, d_x, 1, d_y, 1, &dot);
    cublasGetVector(n, sizeof(float), d_y, 1, y.data(), 1);
    return dot;
}
