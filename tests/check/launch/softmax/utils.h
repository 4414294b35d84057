#pragma once
static const int WS = 32; // warp size
typedef int ctype;
