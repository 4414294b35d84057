/* A C file from a CUDA project that has no CUDA in it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int device; size_t bytes; } alloc_req;

static int parse_size(const char *s, size_t *out)
{
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return -1;
    if (*end == 'k' || *end == 'K') v <<= 10;
    else if (*end == 'm' || *end == 'M') v <<= 20;
    *out = (size_t)v;
    return 0;
}

int main(int argc, char **argv)
{
    alloc_req r = { 0, 0 };
    if (argc > 1 && parse_size(argv[1], &r.bytes) == 0)
        printf("device %d: %zu bytes\n", r.device, r.bytes);
    return 0;
}
