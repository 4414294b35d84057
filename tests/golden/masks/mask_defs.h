#ifndef MASK_DEFS_H
#define MASK_DEFS_H

// No CUDA here: the header is left as it is, so its includers widen
// FULL_MASK at their calls.
#define FULL_MASK 0xffffffff

#endif
