// Größe in Latin-1
void f() { cudaDeviceSynchronize(); }
