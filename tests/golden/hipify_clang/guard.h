#ifndef STREAM_POOL_H
#define STREAM_POOL_H
#include <vector>

struct stream_pool {
    std::vector<cudaStream_t> streams;
};

#endif
