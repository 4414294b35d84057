#include <stdio.h>
#include <iostream>

// A .cu file with no CUDA call in it: nvcc still gave it the runtime header.
int main()
{
    std::cout << "ready" << std::endl;
    printf("%d\n", 42);
    return 0;
}
