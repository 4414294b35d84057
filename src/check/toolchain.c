#include "check/toolchain.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/file.h"

/* Finds an executable in PATH; returns its resolved path (free it) or NULL. */
static char *find_in_path(const char *name)
{
	const char *path = getenv("PATH");
	util_buf candidate = UTIL_BUF_INIT;
	char *resolved = NULL;

	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);

		util_buf_clear(&candidate);
		util_buf_put(&candidate, n ? path : ".", n ? n : 1);
		util_buf_printf(&candidate, "/%s", name);
		if (!util_buf_oom(&candidate) && access(candidate.ptr, X_OK) == 0) {
			resolved = realpath(candidate.ptr, NULL);
			break;
		}
		path = colon ? colon + 1 : NULL;
	}
	util_buf_dispose(&candidate);
	return resolved;
}

/* Reads HIP_VERSION_MAJOR and HIP_VERSION_MINOR from a hip_version.h. */
static port_version read_version_header(const char *path)
{
	util_buf text = UTIL_BUF_INIT;
	const char *p;
	long major = -1, minor = -1;

	if (util_file_read(&text, path, 1 << 20) == 0) {
		if ((p = strstr(text.ptr, "#define HIP_VERSION_MAJOR")) != NULL)
			major = strtol(p + strlen("#define HIP_VERSION_MAJOR"), NULL, 10);
		if ((p = strstr(text.ptr, "#define HIP_VERSION_MINOR")) != NULL)
			minor = strtol(p + strlen("#define HIP_VERSION_MINOR"), NULL, 10);
	}
	util_buf_dispose(&text);
	if (major < 0 || minor < 0 || major > 999 || minor > 999)
		return 0;
	/* HIP_VERSION_PATCH is a build number (21153): only major.minor count */
	return PORT_VERSION(major, minor, 0);
}

port_version chk_toolchain_hip_version(void)
{
	static const char *const fixed[] = { "/opt/rocm/include/hip/hip_version.h",
					     "/usr/include/hip/hip_version.h" };
	char *hipcc = find_in_path("hipcc");
	port_version v = 0;
	size_t i;

	if (!hipcc)
		return 0;
	{
		/* <prefix>/bin/hipcc -> <prefix>/include/hip/hip_version.h */
		util_buf header = UTIL_BUF_INIT;
		char *slash = strrchr(hipcc, '/');

		if (slash) {
			*slash = '\0';
			util_buf_printf(&header, "%s/../include/hip/hip_version.h", hipcc);
			if (!util_buf_oom(&header))
				v = read_version_header(header.ptr);
		}
		util_buf_dispose(&header);
	}
	for (i = 0; !v && i < sizeof(fixed) / sizeof(fixed[0]); i++)
		v = read_version_header(fixed[i]);
	free(hipcc);
	return v;
}
