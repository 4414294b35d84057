// The harness runtime on the mock runtime: a "kernel" on the host writes
// y = 2 x (+ a wrong value, a NaN, ... by mode), so that reference and port
// runs can be compared without a GPU.
// usage: harness_mock MODE OUTDIR [REFDIR RESULT.json]
//   MODE: same, off (y[7] off by 0.5), nan (y[3] NaN), nodev, nomem, crash,
//   hang (ended by the harness's alarm), stuck (deaf to it: run.sh's limit ends it),
//   global (the sum goes to a __device__-style global too; globaloff: it is off),
//   nooutput (every buffer an input: nothing to compare), racy (y[7] differs
//   from run to run, as a race would make it)
#include <math.h>
#include <signal.h>
#include <unistd.h>

#define HIPPORT_PLATFORM_ID 1
#define HP_TIME_FLUSH_BYTES 4096 // host memory stands for the device's
#include "mock_hip.h"
#include "hipport_harness.h"

static float total[2]; // a __device__ global of the "program"

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "same";
	int n = 100, i;

	if (strcmp(mode, "nodev") == 0)
		mock_devices = 0;
	if (strcmp(mode, "nomem") == 0)
		mock_fail_malloc = 1;
	hp_start(argc - 1, argv + 1, "mock.k", "src/mock.cu", "k", 1234ull, 10);
	hp_device();
	float *x = (float *)hp_buffer("x", 0, CHK_F32, (size_t)n, HP_IN, HP_UNIFORM, -1, 1, 0, 0, 0);
	int out = strcmp(mode, "nooutput") == 0 ? HP_IN : HP_OUT;
	float *y = (float *)hp_buffer("y", 1, CHK_F32, (size_t)n, out, HP_CONSTANT, 0, 0, 1e-5, 1e-5, 4);
	unsigned *count = (unsigned *)hp_buffer("count", 2, CHK_U32, 1, out == HP_IN ? HP_IN : HP_INOUT, HP_CONSTANT,
						0, 0, 0, 0, 0);
	if (strncmp(mode, "global", 6) == 0)
		hp_global("total", 3, CHK_F32, 2, HP_OUT, HP_CONSTANT, 0, 0, 1e-5, 1e-5, 4, (const void *)&HIP_SYMBOL(total),
			  sizeof(total));
	for (i = 0; i < n; i++)
		y[i] = 2 * x[i];
	*count = (unsigned)n;
	for (i = 0; i < n; i++)
		total[i % 2] += y[i];
	if (strcmp(mode, "globaloff") == 0)
		total[1] += 1;
	if (strcmp(mode, "off") == 0)
		y[7] += 0.5f;
	if (strcmp(mode, "nan") == 0)
		y[3] = NAN;
	if (strcmp(mode, "racy") == 0)
		y[7] += (float)(getpid() % 1000 + 1);
	if (strcmp(mode, "stuck") == 0)
		signal(SIGALRM, SIG_IGN);
	if (strcmp(mode, "hang") == 0 || strcmp(mode, "stuck") == 0)
		for (;;)
			pause(); // a kernel that never ends: the harness's alarm ends it
	if (strcmp(mode, "crash") == 0)
		abort();
	hp_run([&]() {}); // the "kernel" ran above: timed, repeated, as a launch is
	hp_finish();
	return 0;
}
