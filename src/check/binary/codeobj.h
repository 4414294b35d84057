/* AMDGPU code objects (ELF, e_machine EM_AMDGPU): the target id
 * (gfx942:sramecc+:xnack-) that their e_flags encode. */
#ifndef HIPPORT_CHECK_BINARY_CODEOBJ_H
#define HIPPORT_CHECK_BINARY_CODEOBJ_H

#include <stddef.h>
#include <stdint.h>

/* The processor of EF_AMDGPU_MACH (e_flags & 0xff): "gfx90a" for 0x3f, or
 * NULL for a value LLVM does not define (or an R600 one). */
const char *bin_codeobj_processor(unsigned mach);

/* The target id of e_flags: the processor and the features the flags pin,
 * in LLVM's order (sramecc before xnack). abi_version is e_ident's
 * EI_ABIVERSION: 2 and later (code object v4+) encode xnack in 0x300 and
 * sramecc in 0xc00 (any 0x100/0x400, off 0x200/0x800, on 0x300/0xc00);
 * before, the bits 0x100 and 0x200 say only "on". UTIL_EINPUT for an
 * unknown processor. */
int bin_codeobj_target(char *out, size_t size, uint32_t e_flags, unsigned abi_version);

/* The target id of the code object in data: UTIL_EINPUT when it is not an
 * ELF file of machine EM_AMDGPU, or is truncated. */
int bin_codeobj_read(char *out, size_t size, const unsigned char *data, size_t len);

#endif
