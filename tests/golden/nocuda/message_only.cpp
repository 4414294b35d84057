// A file without CUDA stays as it is, its strings too.
#include <cstdio>

void explain()
{
    puts("build with cudaMalloc support to use this");
}
