#include <cstdio>

void report(int code)
{
    printf("cuda error %d\n, code);
}
