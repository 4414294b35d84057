/* The machine checks of hipport doctor: tool output parsers, GPU listings,
 * arch names, and the ENV findings over made-up machines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <git2.h>
#include <string.h>
#include <unistd.h>

#include "check/toolchain/arch.h"
#include "check/toolchain/env.h"
#include "check/toolchain/gpu.h"
#include "check/toolchain/toolchain.h"
#include "util/error.h"
#include "util/file.h"
#include "util/process.h"

/* parse(out, text) == 0 and out equals want; or, want NULL, UTIL_EINPUT. */
static void expect_version(int (*parse)(char **, const char *), const char *text, const char *want)
{
	char *v = NULL;
	int rc = parse(&v, text);

	if (want) {
		assert_int_equal(rc, 0);
		assert_string_equal(v, want);
	} else {
		assert_int_equal(rc, UTIL_EINPUT);
		assert_null(v);
	}
	free(v);
}

static void test_hipconfig_version(void **state)
{
	(void)state;
	expect_version(tc_parse_hipconfig_version, "5.2.21153-0", "5.2.21153");
	expect_version(tc_parse_hipconfig_version, "6.2.41133-dd7f95766\n", "6.2.41133");
	expect_version(tc_parse_hipconfig_version, "  7.0.1\n", "7.0.1");
	expect_version(tc_parse_hipconfig_version, "6.4", "6.4");
	expect_version(tc_parse_hipconfig_version, "", NULL);
	expect_version(tc_parse_hipconfig_version, "garbage", NULL);
	expect_version(tc_parse_hipconfig_version, "5.2.21153x", NULL);
	expect_version(tc_parse_hipconfig_version, "Traceback (most recent call last):\n  File", NULL);
	expect_version(tc_parse_hipconfig_version, "5.2.21153-0\nERROR: something\n", NULL);
}

static void test_hip_version_header(void **state)
{
	(void)state;
	expect_version(tc_parse_hip_version_header,
		       "#define HIP_VERSION_MAJOR 5\n#define HIP_VERSION_MINOR 2\n#define HIP_VERSION_PATCH 21153\n",
		       "5.2.21153");
	/* ROCm 6 writes the same names; the patch may be missing */
	expect_version(tc_parse_hip_version_header, "#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 4\n",
		       "6.4.0");
	expect_version(tc_parse_hip_version_header, "#define HIP_VERSION 50221153\n", NULL);
	expect_version(tc_parse_hip_version_header, "", NULL);
}

static void test_nvcc_and_clang_version(void **state)
{
	(void)state;
	expect_version(tc_parse_nvcc_version,
		       "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2025 NVIDIA Corporation\n"
		       "Built on Wed_Aug_20_01:58:59_PM_PDT_2025\nCuda compilation tools, release 13.0, V13.0.88\n"
		       "Build cuda_13.0.r13.0/compiler.36424714_0\n",
		       "13.0.88");
	expect_version(tc_parse_nvcc_version, "Cuda compilation tools, release 11.8\n", "11.8");
	expect_version(tc_parse_nvcc_version, "command not found", NULL);
	expect_version(tc_parse_clang_version, "Debian clang version 15.0.6\nTarget: x86_64-pc-linux-gnu\n", "15.0.6");
	expect_version(tc_parse_clang_version,
		       "AMD clang version 18.0.0git (https://github.com/RadeonOpenCompute/llvm-project roc-6.2.0)\n",
		       "18.0.0");
	expect_version(tc_parse_clang_version, "gcc (Debian 12.2.0-14) 12.2.0\n", NULL);
}

/* The list, joined by blanks, is want; the list is freed. */
static void expect_list(char **list, size_t n, const char *want)
{
	char joined[256] = "";
	size_t i;

	for (i = 0; i < n; i++) {
		strcat(joined, i ? " " : "");
		strcat(joined, list[i]);
	}
	assert_string_equal(joined, want);
	tc_arch_list_free(list, n);
}

static void test_supported_cpus(void **state)
{
	char **archs;
	size_t n;

	(void)state;
	assert_int_equal(tc_parse_supported_cpus(&archs, &n,
						  "Debian clang version 15.0.6\nAvailable CPUs for this target:\n\n"
						  "\tbonaire\n\tgfx1030\n\tgfx600\n\tgfx90a\n\tgfx940\n\thawaii\n\n"
						  "Use -mcpu or -mtune to specify the target's processor.\n"),
			 0);
	expect_list(archs, n, "gfx600 gfx90a gfx940 gfx1030");
	assert_int_equal(tc_parse_supported_cpus(&archs, &n, "clang: error: unknown target\n"), 0);
	expect_list(archs, n, "");
}

static void test_arch_parse(void **state)
{
	tc_arch a, d;

	(void)state;
	assert_int_equal(tc_arch_parse(&a, "gfx90a"), 0);
	assert_string_equal(a.processor, "gfx90a");
	assert_int_equal(a.xnack, TC_FEATURE_ANY);
	assert_int_equal(tc_arch_parse(&a, "gfx90a:sramecc+:xnack-"), 0);
	assert_string_equal(a.processor, "gfx90a");
	assert_int_equal(a.sramecc, TC_FEATURE_ON);
	assert_int_equal(a.xnack, TC_FEATURE_OFF);
	assert_int_equal(tc_arch_parse(&a, "gfx1100"), 0);
	assert_int_equal(tc_arch_parse(&a, "gfx942:xnack+"), 0);
	assert_int_equal(tc_arch_parse(&a, "gfx9-generic"), 0);
	assert_int_equal(tc_arch_parse(&a, "gfx10-3-generic"), 0);
	assert_int_equal(tc_arch_parse(&a, "banana"), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "'banana' is not an AMD GPU arch"));
	assert_int_equal(tc_arch_parse(&a, "sm_90"), UTIL_EINPUT);
	assert_int_equal(tc_arch_parse(&a, "gfx"), UTIL_EINPUT);
	assert_int_equal(tc_arch_parse(&a, "gfx90"), UTIL_EINPUT);
	assert_int_equal(tc_arch_parse(&a, "gfx90A"), UTIL_EINPUT);
	assert_int_equal(tc_arch_parse(&a, "gfx12345"), UTIL_EINPUT);
	assert_int_equal(tc_arch_parse(&a, "gfx90a:xnack"), UTIL_EINPUT);
	assert_int_equal(tc_arch_parse(&a, "gfx90a:foo+"), UTIL_EINPUT);
	assert_int_equal(tc_arch_parse(&a, "gfx90a:xnack+:xnack-"), UTIL_EINPUT);
	assert_int_equal(tc_arch_parse(&a, "gfx90a:"), UTIL_EINPUT);
	assert_int_equal(tc_arch_parse(&a, ""), UTIL_EINPUT);
	assert_int_equal(tc_arch_parse(&a, NULL), UTIL_EINPUT);

	/* code for a target runs on a device of the same processor, unless a
	 * pinned feature disagrees */
	tc_arch_parse(&d, "gfx90a:sramecc+:xnack-");
	tc_arch_parse(&a, "gfx90a");
	assert_true(tc_arch_runs_on(&a, &d));
	tc_arch_parse(&a, "gfx90a:xnack-");
	assert_true(tc_arch_runs_on(&a, &d));
	tc_arch_parse(&a, "gfx90a:xnack+");
	assert_false(tc_arch_runs_on(&a, &d));
	tc_arch_parse(&a, "gfx942");
	assert_false(tc_arch_runs_on(&a, &d));
}

static void test_gfx_version(void **state)
{
	/* both ways: the minor and the stepping are the name's hex digits */
	static const char *const pairs[][2] = {
		{ "9.4.2", "gfx942" }, { "9.0.10", "gfx90a" }, { "10.3.0", "gfx1030" }, { "11.0.0", "gfx1100" }
	};
	static const char *const not_versions[] = { "9.4", "9.0.16", "gfx942", "9.4.2 ", "" };
	static const char *const not_processors[] = { "gfx9-generic", "sm_90", "gfx" };
	char out[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		assert_int_equal(tc_arch_from_gfx_version(out, sizeof(out), pairs[i][0]), 0);
		assert_string_equal(out, pairs[i][1]);
		assert_int_equal(tc_arch_to_gfx_version(out, sizeof(out), pairs[i][1]), 0);
		assert_string_equal(out, pairs[i][0]);
	}
	for (i = 0; i < sizeof(not_versions) / sizeof(not_versions[0]); i++)
		assert_int_equal(tc_arch_from_gfx_version(out, sizeof(out), not_versions[i]), UTIL_EINPUT);
	for (i = 0; i < sizeof(not_processors) / sizeof(not_processors[0]); i++)
		assert_int_equal(tc_arch_to_gfx_version(out, sizeof(out), not_processors[i]), UTIL_EINPUT);
}

static void test_arch_list(void **state)
{
	char **list;
	size_t n;

	(void)state;
	assert_int_equal(tc_arch_list_split(&list, &n, "gfx90a;gfx942"), 0);
	expect_list(list, n, "gfx90a gfx942");
	assert_int_equal(tc_arch_list_split(&list, &n, " gfx90a, gfx942 ;;gfx1100 "), 0);
	expect_list(list, n, "gfx90a gfx942 gfx1100");
	assert_int_equal(tc_arch_list_split(&list, &n, ";"), 0);
	expect_list(list, n, "");
}

static void test_offload_arch_choose(void **state)
{
	tc_arch_choice c;

	(void)state;
	assert_int_equal(tc_offload_arch_choose(&c, "gfx942", "gfx90a", "gfx1100"), 0);
	assert_string_equal(c.value, "gfx942");
	assert_int_equal(c.source, TC_ARCH_FROM_OPTION);
	tc_arch_choice_dispose(&c);
	assert_int_equal(tc_offload_arch_choose(&c, NULL, "gfx90a", "gfx1100"), 0);
	assert_string_equal(c.value, "gfx90a");
	assert_string_equal(tc_arch_source_name(c.source), "config");
	tc_arch_choice_dispose(&c);
	assert_int_equal(tc_offload_arch_choose(&c, NULL, NULL, "gfx90a:sramecc+:xnack-"), 0);
	assert_string_equal(c.value, "gfx90a:sramecc+:xnack-");
	assert_string_equal(tc_arch_source_name(c.source), "device");
	tc_arch_choice_dispose(&c);
	assert_int_equal(tc_offload_arch_choose(&c, NULL, NULL, NULL), 0);
	assert_null(c.value);
	assert_string_equal(tc_arch_source_name(c.source), "none");
	assert_int_equal(tc_offload_arch_choose(&c, NULL, "banana", "gfx90a"), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "check.offloadArch"));
	assert_int_equal(tc_offload_arch_choose(&c, "sm_90", NULL, NULL), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "--offload-arch"));
}

/* The option, else check.offloadArch of the repository's configuration,
 * else the GPU (none here: no runtime is loaded, no tool is on PATH). */
static void test_offload_arch_resolve(void **state)
{
	const char *base = getenv("HIPPORT_TEST_TMP");
	char root[4096], config[4200], *path;
	const char *text;
	tc_arch_choice c;

	(void)state;
	git_libgit2_init();
	snprintf(root, sizeof(root), "%s/check-test-%d/", base ? base : "/tmp", (int)getpid());
	snprintf(config, sizeof(config), "%s.hipport/config", root);
	assert_int_equal(util_file_make_parents(config), 0);
	text = "[check]\n\toffloadArch = gfx90a:xnack+\n";
	assert_int_equal(util_file_write_atomic(config, text, strlen(text)), 0);
	path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("HIPPORT_HIP_RUNTIME", "none", 1);
	setenv("PATH", "/nonexistent", 1);
	unsetenv("HIP_PATH");
	unsetenv("ROCM_PATH");

	assert_int_equal(tc_offload_arch_resolve("gfx942", root, &c), 0);
	assert_string_equal(c.value, "gfx942");
	assert_int_equal(c.source, TC_ARCH_FROM_OPTION);
	tc_arch_choice_dispose(&c);
	assert_int_equal(tc_offload_arch_resolve(NULL, root, &c), 0);
	assert_string_equal(c.value, "gfx90a:xnack+");
	assert_int_equal(c.source, TC_ARCH_FROM_CONFIG);
	tc_arch_choice_dispose(&c);
	assert_int_equal(tc_offload_arch_resolve(NULL, NULL, &c), 0);
	assert_null(c.value);
	assert_int_equal(c.source, TC_ARCH_FROM_NONE);
	text = "[check]\n\toffloadArch = banana\n";
	assert_int_equal(util_file_write_atomic(config, text, strlen(text)), 0);
	assert_int_equal(tc_offload_arch_resolve(NULL, root, &c), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "check.offloadArch: 'banana'"));
	unlink(config);
	*strrchr(config, '/') = '\0';
	rmdir(config);
	rmdir(root);
	setenv("PATH", path, 1);
	free(path);
	unsetenv("HIPPORT_HIP_RUNTIME");
	git_libgit2_shutdown();
}

static void test_gpu_listings(void **state)
{
	tc_gpu_list l;
	unsigned char props[2048];
	char arch[64];

	(void)state;
	memset(&l, 0, sizeof(l));
	/* the first line as nvidia-smi printed it on an H200 machine */
	assert_int_equal(tc_gpu_parse_nvidia_smi(&l, "0, NVIDIA H200, 9.0, 143771 MiB\n1, NVIDIA A100-SXM4-80GB, 8.0, "
						     "81920 MiB\n"),
			 0);
	assert_int_equal(l.count, 2);
	assert_int_equal(l.items[0].vendor, TC_GPU_NVIDIA);
	assert_string_equal(l.items[0].name, "NVIDIA H200");
	assert_string_equal(l.items[0].arch, "sm_90");
	assert_int_equal(l.items[0].memory_mib, 143771);
	assert_string_equal(l.items[1].arch, "sm_80");
	assert_int_equal(l.items[1].index, 1);
	assert_int_equal(tc_gpu_list_amd_count(&l), 0);
	assert_null(tc_gpu_list_amd_arch(&l));
	tc_gpu_list_dispose(&l);

	assert_int_equal(tc_gpu_parse_probe(&l, "library\tlibamdhip64.so\nversion\t50221153\ncount\t100\thipErrorNoDevice\t0\n"),
			 0);
	assert_string_equal(l.hip_version, "5.2.21153");
	assert_int_equal(l.hip_error, 100);
	assert_string_equal(l.hip_error_name, "hipErrorNoDevice");
	assert_int_equal(l.count, 0);
	tc_gpu_list_dispose(&l);
	assert_int_equal(tc_gpu_parse_probe(&l, "library\tlibamdhip64.so.6\ncount\t0\thipSuccess\t1\n"
						 "gpu\t0\tAMD Instinct MI300X\tgfx942:sramecc+:xnack-\t196592\n"),
			 0);
	assert_int_equal(l.count, 1);
	assert_string_equal(tc_gpu_list_amd_arch(&l), "gfx942:sramecc+:xnack-");
	assert_string_equal(l.items[0].name, "AMD Instinct MI300X");
	assert_int_equal(l.items[0].memory_mib, 196592);
	tc_gpu_list_dispose(&l);

	assert_int_equal(tc_gpu_parse_rocminfo(&l, "*******\nAgent 1\n*******\n  Name:                    AMD EPYC 7763\n"
						    "  Device Type:             CPU\n*******\nAgent 2\n*******\n"
						    "  Name:                    gfx90a\n"
						    "  Marketing Name:          AMD Instinct MI250X/MI250\n"
						    "  Device Type:             GPU\n  ISA Info:\n    ISA 1\n"
						    "      Name:                    amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-\n"
						    "*** Done ***\n"),
			 0);
	assert_int_equal(l.count, 1);
	assert_string_equal(l.items[0].arch, "gfx90a:sramecc+:xnack-");
	assert_string_equal(l.items[0].name, "AMD Instinct MI250X/MI250");
	assert_string_equal(l.items[0].source, "rocminfo");
	tc_gpu_list_dispose(&l);

	/* a hipDeviceProp_t of unknown layout: the name first, the target id somewhere after */
	memset(props, 0, sizeof(props));
	strcpy((char *)props, "AMD Instinct MI250X");
	strcpy((char *)props + 300, "gfx90a");
	strcpy((char *)props + 1160, "gfx90a:sramecc+:xnack-");
	assert_true(tc_gpu_find_target_id(arch, sizeof(arch), props, sizeof(props)));
	assert_string_equal(arch, "gfx90a:sramecc+:xnack-");
	memset(props, 0, sizeof(props));
	memcpy(props + sizeof(props) - 6, "gfx90a", 6); /* not terminated */
	assert_false(tc_gpu_find_target_id(arch, sizeof(arch), props, sizeof(props)));
	strcpy((char *)props + 8, "xgfx90a");
	assert_false(tc_gpu_find_target_id(arch, sizeof(arch), props, sizeof(props)));
}

/* A machine for the ENV rules: a toolchain, GPUs, variables, an offload arch. */
typedef struct machine {
	tc_toolchain tc;
	tc_gpu_list gpus;
	tc_gpu gpu;
	tc_arch_choice offload;
	tc_env_facts facts;
	tc_env_finding *findings;
	size_t n;
	char *archs[2];
} machine;

static void machine_init(machine *m, const char *device_arch, const char *offload, tc_arch_source source)
{
	memset(m, 0, sizeof(*m));
	m->archs[0] = "gfx90a";
	m->archs[1] = "gfx940";
	m->tc.hipcc = "/usr/bin/hipcc";
	m->tc.hip_version = "5.2.21153";
	m->tc.clang_version = "15.0.6";
	m->tc.offload_archs = m->archs;
	m->tc.noffload_archs = 2;
	if (device_arch) {
		m->gpu.vendor = TC_GPU_AMD;
		m->gpu.name = "AMD Instinct MI250X";
		m->gpu.arch = (char *)device_arch;
		m->gpus.items = &m->gpu;
		m->gpus.count = 1;
	} else {
		m->gpus.amd_tried = "HIP runtime (libamdhip64.so): hipGetDeviceCount gave hipErrorNoDevice (100)";
	}
	m->offload.value = (char *)offload;
	m->offload.source = offload ? source : TC_ARCH_FROM_NONE;
	m->facts.toolchain = &m->tc;
	m->facts.gpus = &m->gpus;
	m->facts.offload = &m->offload;
	m->facts.offload_known = offload ? 1 : -1;
}

/* Runs the rules; returns the ids found, space separated, in a static buffer. */
static const char *ids(machine *m)
{
	static char text[256];
	size_t i;

	text[0] = '\0';
	assert_int_equal(tc_env_findings(&m->findings, &m->n, &m->facts), 0);
	for (i = 0; i < m->n; i++) {
		strcat(text, i ? " " : "");
		strcat(text, m->findings[i].id);
		strcat(text, m->findings[i].severity == AN_ERROR ? "E" : m->findings[i].severity == AN_WARNING ? "W" : "N");
	}
	tc_env_findings_free(m->findings, m->n);
	return text;
}

/* One machine and the findings it gives: ids with E, W or N for the severity. */
typedef struct env_case {
	const char *what;
	const char *device, *offload; /* the AMD GPU's arch (NULL: none), the offload arch */
	tc_arch_source source;
	int known;                    /* whether the compiler knows the offload arch */
	tc_env_vars vars;
	const char *cuda;             /* nvcc's CUDA version, or NULL */
	bool no_hipcc;
	const char *want;
} env_case;

static const env_case env_cases[] = {
	{ "the GPU's own arch, XNACK on", "gfx90a:sramecc+:xnack+", "gfx90a", TC_ARCH_FROM_OPTION, 1,
	  { .hsa_xnack = "1" }, NULL, false, "" },
	{ "the Must show: PYTORCH_ROCM_ARCH=gfx90a, --offload-arch=gfx942 with clang 15", NULL, "gfx942",
	  TC_ARCH_FROM_OPTION, 0, { .pytorch_rocm_arch = "gfx90a" }, NULL, false, "ENV-002W ENV-005E ENV-006N" },
	{ "offload arch against the device", "gfx90a:sramecc+:xnack-", "gfx942", TC_ARCH_FROM_CONFIG, 1, { 0 },
	  NULL, false, "ENV-001E ENV-007N" },
	{ "a pinned feature against the device", "gfx90a:sramecc+:xnack-", "gfx90a:xnack+", TC_ARCH_FROM_OPTION, 1,
	  { .hsa_xnack = "1" }, NULL, false, "ENV-001E" },
	{ "the device's own arch never disagrees with it", "gfx90a:sramecc+:xnack-", "gfx90a:sramecc+:xnack-",
	  TC_ARCH_FROM_DEVICE, 1, { .hsa_xnack = "0" }, NULL, false, "ENV-007N" },
	{ "PYTORCH_ROCM_ARCH with garbage, without the device's arch", "gfx942", "gfx942", TC_ARCH_FROM_DEVICE, 1,
	  { .pytorch_rocm_arch = "gfx90a;banana" }, NULL, false, "ENV-002W ENV-002E" },
	{ "PYTORCH_ROCM_ARCH with the device's arch", "gfx942", NULL, TC_ARCH_FROM_NONE, -1,
	  { .pytorch_rocm_arch = "gfx90a,gfx942" }, NULL, false, "" },
	{ "PYTORCH_ROCM_ARCH empty", "gfx942", NULL, TC_ARCH_FROM_NONE, -1, { .pytorch_rocm_arch = "" }, NULL, false,
	  "ENV-002W" },
	{ "an override that matches neither", "gfx90a", "gfx942", TC_ARCH_FROM_OPTION, 1,
	  { .hsa_override_gfx_version = "9.4.2" }, NULL, false, "ENV-001E ENV-004W" },
	{ "an override against the offload arch", "gfx942", "gfx942", TC_ARCH_FROM_OPTION, 1,
	  { .hsa_override_gfx_version = "9.0.10" }, NULL, false, "ENV-003E ENV-004W" },
	{ "an override that matches", "gfx942", "gfx942", TC_ARCH_FROM_OPTION, 1,
	  { .hsa_override_gfx_version = "9.4.2" }, NULL, false, "" },
	{ "an override that is no version", "gfx942", "gfx942", TC_ARCH_FROM_OPTION, 1,
	  { .hsa_override_gfx_version = "gfx942" }, NULL, false, "ENV-003W" },
	{ "HIP on NVIDIA with CUDA 13", "gfx942", NULL, TC_ARCH_FROM_NONE, -1, { .hip_platform = "nvidia" },
	  "13.0.88", false, "ENV-008E" },
	{ "HIP on NVIDIA with CUDA 12", "gfx942", NULL, TC_ARCH_FROM_NONE, -1, { .hip_platform = "nvidia" },
	  "12.4.131", false, "ENV-008W" },
	{ "HIP_PLATFORM neither amd nor nvidia", "gfx942", NULL, TC_ARCH_FROM_NONE, -1, { .hip_platform = "hcc" },
	  NULL, false, "ENV-008W" },
	{ "HIP_PLATFORM=amd", "gfx942", NULL, TC_ARCH_FROM_NONE, -1, { .hip_platform = "amd" }, NULL, false, "" },
	{ "a visible device", "gfx942", NULL, TC_ARCH_FROM_NONE, -1, { .hip_visible_devices = "0" }, NULL, false, "" },
	{ "a device past the last", "gfx942", NULL, TC_ARCH_FROM_NONE, -1, { .hip_visible_devices = "1" }, NULL, false,
	  "ENV-009W" },
	{ "-1 first", "gfx942", NULL, TC_ARCH_FROM_NONE, -1, { .hip_visible_devices = "-1,0" }, NULL, false,
	  "ENV-009W" },
	{ "empty", "gfx942", NULL, TC_ARCH_FROM_NONE, -1, { .hip_visible_devices = "" }, NULL, false, "ENV-009W" },
	{ "a UUID", "gfx942", NULL, TC_ARCH_FROM_NONE, -1, { .hip_visible_devices = "GPU-5f3c" }, NULL, false, "" },
	{ "no hipcc, no GPU", NULL, NULL, TC_ARCH_FROM_NONE, -1, { 0 }, NULL, true, "ENV-006N ENV-010W" },
};

static void test_env_rules(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(env_cases) / sizeof(env_cases[0]); i++) {
		const env_case *c = &env_cases[i];
		machine m;
		const char *got;

		machine_init(&m, c->device, c->offload, c->source);
		m.facts.offload_known = c->known;
		m.facts.vars = c->vars;
		m.tc.cuda_version = (char *)c->cuda;
		if (c->no_hipcc)
			m.tc.hipcc = NULL;
		got = ids(&m);
		if (strcmp(got, c->want) != 0)
			fail_msg("%s: '%s', expected '%s'", c->what, got, c->want);
	}
}

static void test_env_messages(void **state)
{
	machine m;

	(void)state;
	machine_init(&m, NULL, "gfx942", TC_ARCH_FROM_OPTION);
	m.facts.offload_known = 0;
	assert_int_equal(tc_env_findings(&m.findings, &m.n, &m.facts), 0);
	assert_int_equal(m.n, 2);
	assert_string_equal(m.findings[0].id, "ENV-005");
	assert_non_null(strstr(m.findings[0].message, "clang 15.0.6, HIP 5.2.21153"));
	assert_non_null(strstr(m.findings[0].message, "gfx942 (from --offload-arch)"));
	assert_non_null(strstr(m.findings[0].advice, "ROCm 6.0 or newer"));
	assert_non_null(strstr(m.findings[1].message, "hipErrorNoDevice (100)"));
	tc_env_findings_free(m.findings, m.n);
}

static int print_and_fail(void *payload)
{
	(void)payload;
	printf("from the child\n");
	return 3;
}

static void test_process(void **state)
{
	const char *echo[] = { "sh", "-c", "echo out; echo err >&2; exit 4", NULL };
	const char *hang[] = { "sleep", "30", NULL };
	const char *missing[] = { "/nonexistent/tool", NULL };
	const char *silent[] = { "sh", "-c", "exec >&- 2>&-; sleep 30", NULL };
	util_process_result r;

	(void)state;
	assert_int_equal(util_process_run(&r, echo, 10000), 0);
	assert_int_equal(r.status, 4);
	assert_string_equal(r.out.ptr, "out\n");
	assert_string_equal(r.err.ptr, "err\n");
	assert_false(r.timed_out);
	util_process_result_dispose(&r);
	assert_int_equal(util_process_run(&r, hang, 200), 0);
	assert_true(r.timed_out);
	assert_int_equal(r.signal, 9);
	util_process_result_dispose(&r);
	/* a child that closes its output and lives on is killed at the limit too */
	assert_int_equal(util_process_run(&r, silent, 200), 0);
	assert_true(r.timed_out);
	util_process_result_dispose(&r);
	assert_int_equal(util_process_run(&r, missing, 10000), 0);
	assert_true(r.not_found);
	util_process_result_dispose(&r);
	assert_int_equal(util_process_call(&r, print_and_fail, NULL, 10000), 0);
	assert_int_equal(r.status, 3);
	assert_string_equal(r.out.ptr, "from the child\n");
	util_process_result_dispose(&r);
}

static void test_outcome(void **state)
{
	util_process_result r;
	char *said;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.status = 1;
	util_buf_puts(&r.out, "\033[31mROCk module is NOT loaded, possibly no GPU devices\033[0m\n");
	util_buf_puts(&r.err, "Error: could not get list of modules\n");
	said = tc_toolchain_outcome(&r);
	assert_string_equal(said, "exit 1: ROCk module is NOT loaded, possibly no GPU devices");
	free(said);
	util_process_result_dispose(&r);
	memset(&r, 0, sizeof(r));
	r.timed_out = true;
	r.signal = 9;
	said = tc_toolchain_outcome(&r);
	assert_non_null(strstr(said, "timed out after"));
	free(said);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hipconfig_version), cmocka_unit_test(test_hip_version_header),
		cmocka_unit_test(test_nvcc_and_clang_version), cmocka_unit_test(test_supported_cpus),
		cmocka_unit_test(test_arch_parse), cmocka_unit_test(test_gfx_version),
		cmocka_unit_test(test_arch_list), cmocka_unit_test(test_offload_arch_choose),
		cmocka_unit_test(test_offload_arch_resolve),
		cmocka_unit_test(test_gpu_listings), cmocka_unit_test(test_env_rules),
		cmocka_unit_test(test_env_messages), cmocka_unit_test(test_process),
		cmocka_unit_test(test_outcome),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
