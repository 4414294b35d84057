#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include "cusolverDn.h"
#include "cusolverMg.h"
#include "cusolverSp_LOWLEVEL_PREVIEW.h"

namespace cg = cooperative_groups;
