// A kernel file whose last line has no newline.
__global__ void k(int *p) { p[0] = 0; }