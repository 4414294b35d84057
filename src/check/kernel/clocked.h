/* Which outputs of a kernel hold clock readings: a pointer parameter whose
 * every store is a value computed from clock(), clock64() or a timer
 * register (the cycles a block took, as CUB's examples and the CUDA
 * samples' clock kernel write them). Such values differ from run to run
 * and from GPU to GPU: no check can compare them, so none does, and it
 * says so (docs/checks.md, "Clock readings"). Lexical, over one definition
 * as chk_kernel_definitions gives it. */
#ifndef HIPPORT_CHECK_KERNEL_CLOCKED_H
#define HIPPORT_CHECK_KERNEL_CLOCKED_H

#include <stddef.h>
#include <stdint.h>

/* Bit i set: parameter i (from 0; the first 64) holds clock readings. */
uint64_t chk_kernel_clocked_params(const char *definition, size_t len);

#endif
