// Constants a kernel file includes: the warp size under a name that does
// not say so, as in a benchmark's utils.h.
static const int WS = 32;  // warp size
static const int TILE = 16;
