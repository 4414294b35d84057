void f(int *p)
{
    p[(1] = 0;
}
