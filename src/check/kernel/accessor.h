/* Tensor accessors passed by value (PyTorch's PackedTensorAccessor32 and
 * 64, GenericPackedTensorAccessor): what their type spells. A spec makes
 * one over a contiguous buffer of the element type (docs/checks.md,
 * "Tensor accessors"). */
#ifndef HIPPORT_CHECK_KERNEL_ACCESSOR_H
#define HIPPORT_CHECK_KERNEL_ACCESSOR_H

#include <stdbool.h>
#include <stddef.h>

/* Whether type spells a packed tensor accessor with a literal number of
 * dimensions; then *elem (allocated) is its element type and *dims that number. */
bool chk_accessor_of(const char *type, char **elem, unsigned *dims);

/* What the file's `#define name ...` stands for (a line, continuations
 * joined), allocated; NULL when the file defines no such object-like macro. */
char *chk_macro_text(const char *src, size_t len, const char *name);

#endif
