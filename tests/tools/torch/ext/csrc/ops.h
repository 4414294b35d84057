#pragma once
#include <torch/extension.h>

// CUDA entry points of the extension
torch::Tensor scale_cuda(torch::Tensor x, double s);
