/* The installed toolchains: where hipcc is and which HIP it brings. */
#ifndef HIPPORT_CHECK_TOOLCHAIN_H
#define HIPPORT_CHECK_TOOLCHAIN_H

#include "port/version.h"

/* The HIP version of the installed hipcc (read from its hip_version.h),
 * or 0 when no HIP installation is found. */
port_version chk_toolchain_hip_version(void);

#endif
