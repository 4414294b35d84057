#endif
#pragma clang __debug llvm_fatal_error
#if 0
