#include "check/toolchain/root.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/error.h"

const char *tc_root_dir(void)
{
	const char *dir = getenv("HIPPORT_ROCM_ROOT");

	return dir && *dir ? dir : NULL;
}

int tc_root_activate(void)
{
	const char *path = getenv("PATH");
	util_buf hipcc = UTIL_BUF_INIT, newpath = UTIL_BUF_INIT;
	char *dir;
	int error = 0;

	if (!tc_root_dir())
		return 0;
	/* resolved, so that the tools found through PATH are known as the root's */
	if (!(dir = realpath(tc_root_dir(), NULL)))
		return util_error_set(UTIL_EINPUT, "HIPPORT_ROCM_ROOT=%s: no such directory (make the root with tools/rocm-root)",
				      tc_root_dir());
	util_buf_printf(&hipcc, "%s/bin/hipcc", dir);
	util_buf_printf(&newpath, "%s/bin%s%s", dir, path && *path ? ":" : "", path ? path : "");
	if (util_buf_oom(&hipcc) || util_buf_oom(&newpath))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else if (access(hipcc.ptr, X_OK) != 0)
		error = util_error_set(UTIL_EINPUT, "HIPPORT_ROCM_ROOT=%s: no bin/hipcc there (make the root with tools/rocm-root)",
				       dir);
	else if (setenv("PATH", newpath.ptr, 1) != 0 || setenv("HIPPORT_ROCM_ROOT", dir, 1) != 0)
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	free(dir);
	util_buf_dispose(&hipcc);
	util_buf_dispose(&newpath);
	return error;
}

bool tc_root_holds(const char *path)
{
	const char *dir = tc_root_dir();
	size_t n;

	if (!dir || !path)
		return false;
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return strncmp(path, dir, n) == 0 && strncmp(path + n, "/bin/", 5) == 0 && !strchr(path + n + 5, '/');
}
