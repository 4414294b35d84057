#endif
#pragma clang __debug crash
#if 0
