/* A stand-in for libamdhip64 that reports GPUs, so that the tests can run
 * hipport doctor's GPU paths on machines without one. FAKE_HIP_DEVICES is
 * the number of devices (default 1; 0 gives hipErrorNoDevice), FAKE_HIP_ARCH
 * their target id (default gfx942:sramecc+:xnack-). The properties are laid
 * out as no HIP version does, on purpose: hipport must not depend on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hipGetDeviceCount(int *count);
const char *hipGetErrorName(int error);
int hipRuntimeGetVersion(int *version);
int hipDeviceGetName(char *name, int len, int device);
int hipDeviceTotalMem(size_t *bytes, int device);
int hipGetDevicePropertiesR0600(void *props, int device);

static int devices(void)
{
	const char *n = getenv("FAKE_HIP_DEVICES");

	return n ? atoi(n) : 1;
}

int hipGetDeviceCount(int *count)
{
	*count = devices();
	return *count > 0 ? 0 : 100;
}

const char *hipGetErrorName(int error)
{
	return error == 0 ? "hipSuccess" : error == 100 ? "hipErrorNoDevice" : "hipErrorInvalidDevice";
}

int hipRuntimeGetVersion(int *version)
{
	*version = 60241134; /* HIP 6.2.41134 */
	return 0;
}

int hipDeviceGetName(char *name, int len, int device)
{
	if (device < 0 || device >= devices())
		return 101;
	snprintf(name, (size_t)len, "AMD Instinct MI300X");
	return 0;
}

int hipDeviceTotalMem(size_t *bytes, int device)
{
	*bytes = (size_t)196592 << 20;
	return device < 0 || device >= devices() ? 101 : 0;
}

int hipGetDevicePropertiesR0600(void *props, int device)
{
	const char *arch = getenv("FAKE_HIP_ARCH") ? getenv("FAKE_HIP_ARCH") : "gfx942:sramecc+:xnack-";
	unsigned char *p = props;
	size_t i;

	if (device < 0 || device >= devices())
		return 101;
	/* a name, numbers that are no text, a plain "gfx942" in a field of its
	 * own (as HIP 5's name was), then the target id */
	strcpy((char *)p, "AMD Instinct MI300X");
	for (i = 256; i < 700; i++)
		p[i] = (unsigned char)(i * 7);
	snprintf((char *)p + 712, 64, "%.*s", (int)strcspn(arch, ":"), arch);
	snprintf((char *)p + 1160, 256, "%s", arch);
	return 0;
}
