// Plain C++ next to the CUDA sources: nothing here is CUDA.
#include <string>

std::string greeting() { return "hello"; }
