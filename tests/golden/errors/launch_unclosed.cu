__global__ void k(int *p);

void run(int *p)
{
    k<<<1, 32(p);
}
