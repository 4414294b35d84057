#endif
#pragma clang __debug overflow_stack
#if 0
