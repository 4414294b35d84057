#include "check/toolchain/gpu.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/toolchain/arch.h"
#include "check/toolchain/toolchain.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/process.h"

static int add_gpu(tc_gpu_list *out, tc_gpu_vendor vendor, int index, const char *name, size_t name_len,
		   const char *arch, size_t arch_len, long long memory_mib, const char *source)
{
	tc_gpu *grown = realloc(out->items, (out->count + 1) * sizeof(*grown));
	tc_gpu *g;

	if (!grown)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	out->items = grown;
	g = &grown[out->count];
	memset(g, 0, sizeof(*g));
	g->vendor = vendor;
	g->index = index;
	g->memory_mib = memory_mib;
	g->source = source;
	if ((name_len && !(g->name = strndup(name, name_len))) || (arch_len && !(g->arch = strndup(arch, arch_len)))) {
		free(g->name);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	out->count++;
	return 0;
}

/* The field after n tabs of line (up to the next tab or the line's end). */
static const char *field(const char *line, int n, size_t *len)
{
	while (n-- > 0) {
		line += strcspn(line, "\t\n");
		if (*line != '\t')
			return *len = 0, "";
		line++;
	}
	*len = strcspn(line, "\t\n");
	return line;
}

/* The HIP probe child's lines:
 *   library NAME | version HIPVERSION | count ERROR ERRORNAME N | gpu INDEX NAME ARCH MEMORY_MIB
 * (fields separated by tabs). */
int tc_gpu_parse_probe(tc_gpu_list *out, const char *text)
{
	const char *line = text;

	while (line && *line) {
		size_t n1, n2, n3, n4;
		const char *f1 = field(line, 1, &n1), *f2 = field(line, 2, &n2), *f3 = field(line, 3, &n3),
			   *f4 = field(line, 4, &n4);
		int error = 0;

		if (strncmp(line, "library\t", 8) == 0 && n1) {
			free(out->hip_library);
			error = (out->hip_library = strndup(f1, n1)) ? 0 : UTIL_ENOMEM;
		} else if (strncmp(line, "version\t", 8) == 0 && n1) {
			long v = strtol(f1, NULL, 10);

			free(out->hip_version);
			/* HIP_VERSION: major * 10^7 + minor * 10^5 + patch */
			error = asprintf(&out->hip_version, "%ld.%ld.%ld", v / 10000000, v / 100000 % 100, v % 100000) < 0
					? UTIL_ENOMEM
					: 0;
		} else if (strncmp(line, "count\t", 6) == 0) {
			out->hip_error = (int)strtol(f1, NULL, 10);
			free(out->hip_error_name);
			out->hip_error_name = n2 ? strndup(f2, n2) : NULL;
			error = n2 && !out->hip_error_name ? UTIL_ENOMEM : 0;
		} else if (strncmp(line, "gpu\t", 4) == 0) {
			error = add_gpu(out, TC_GPU_AMD, (int)strtol(f1, NULL, 10), f2, n2, f3, n3,
					strtoll(f4, NULL, 10), "hip");
		}
		if (error < 0)
			return util_error_set(UTIL_ENOMEM, "out of memory");
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return 0;
}

/* "  Key:   value   " of rocminfo: the value, trimmed, if line has key. */
static const char *rocminfo_value(const char *line, const char *key, size_t *len)
{
	const char *p = line + strspn(line, " \t"), *end;
	size_t klen = strlen(key);

	if (strncmp(p, key, klen) != 0 || p[klen] != ':')
		return NULL;
	p += klen + 1;
	p += strspn(p, " \t");
	end = p + strcspn(p, "\r\n");
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	*len = (size_t)(end - p);
	return p;
}

int tc_gpu_parse_rocminfo(tc_gpu_list *out, const char *text)
{
	const char *line = text, *name = NULL, *market = NULL, *isa = NULL;
	size_t name_len = 0, market_len = 0, isa_len = 0;
	bool gpu = false, in_agent = false;
	int index = 0;

	for (;;) {
		const char *v, *p = line ? line + strspn(line, " \t") : NULL;
		size_t len;
		bool ends = !line || !*line || strncmp(p, "Agent ", 6) == 0 || strncmp(p, "*** Done ***", 12) == 0;

		if (ends && in_agent && gpu && (isa || name)) {
			if (add_gpu(out, TC_GPU_AMD, index++, market, market_len, isa ? isa : name,
				    isa ? isa_len : name_len, 0, "rocminfo") < 0)
				return UTIL_ENOMEM;
		}
		if (!line || !*line)
			break;
		if (ends) {
			in_agent = strncmp(p, "Agent ", 6) == 0;
			gpu = false;
			name = market = isa = NULL;
		} else if ((v = rocminfo_value(line, "Name", &len)) != NULL) {
			/* the agent's name comes first; an ISA's name is amdgcn-amd-amdhsa--gfx90a:... */
			if (strncmp(v, "gfx", 3) == 0 && !name) {
				name = v;
				name_len = len;
			} else if (len > 19 && strncmp(v, "amdgcn-amd-amdhsa--", 19) == 0 && !isa) {
				isa = v + 19;
				isa_len = len - 19;
			}
		} else if ((v = rocminfo_value(line, "Marketing Name", &len)) != NULL) {
			market = v;
			market_len = len;
		} else if ((v = rocminfo_value(line, "Device Type", &len)) != NULL) {
			gpu = len == 3 && strncmp(v, "GPU", 3) == 0;
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return 0;
}

int tc_gpu_parse_nvidia_smi(tc_gpu_list *out, const char *text)
{
	const char *line = text;

	while (line && *line) {
		const char *end = line + strcspn(line, "\r\n"), *f[4];
		size_t n[4];
		int k;

		/* index, name, compute_cap, memory.total ("143771 MiB") */
		f[0] = line;
		for (k = 0; k < 4; k++) {
			const char *comma = memchr(f[k], ',', (size_t)(end - f[k]));
			const char *stop = comma && k < 3 ? comma : end;

			while (f[k] < stop && *f[k] == ' ')
				f[k]++;
			n[k] = (size_t)(stop - f[k]);
			while (n[k] && f[k][n[k] - 1] == ' ')
				n[k]--;
			if (k < 3) {
				if (!comma)
					break;
				f[k + 1] = comma + 1;
			}
		}
		if (k == 4 && n[0] && isdigit((unsigned char)f[0][0])) {
			char arch[16] = "";
			unsigned major, minor;

			if (sscanf(f[2], "%u.%u", &major, &minor) == 2 && major < 100 && minor < 10)
				snprintf(arch, sizeof(arch), "sm_%u%u", major, minor);
			if (add_gpu(out, TC_GPU_NVIDIA, atoi(f[0]), f[1], n[1], arch, strlen(arch),
				    strtoll(f[3], NULL, 10), "nvidia-smi") < 0)
				return UTIL_ENOMEM;
		}
		line = *end ? end + 1 : NULL;
	}
	return 0;
}

bool tc_gpu_find_target_id(char *out, size_t size, const unsigned char *props, size_t len)
{
	size_t i;
	bool found = false;

	for (i = 0; i + 3 < len; i++) {
		char text[64];
		size_t n = 0;
		tc_arch a;

		if ((i && props[i - 1]) || memcmp(props + i, "gfx", 3) != 0)
			continue;
		while (i + n < len && props[i + n] && n < sizeof(text) - 1) {
			text[n] = (char)props[i + n];
			n++;
		}
		if (i + n >= len || props[i + n])
			continue; /* not NUL-terminated within the buffer, or too long */
		text[n] = '\0';
		if (tc_arch_parse(&a, text) < 0)
			continue;
		if (!found || strchr(text, ':')) {
			snprintf(out, size, "%s", text);
			found = true;
			if (strchr(text, ':'))
				return true;
		}
	}
	return found;
}

/* In the probe child: loads the HIP runtime and prints what it says (the
 * lines tc_gpu_parse_probe reads). Returns 0, or 1 when no runtime loads. */
static int hip_probe(void *payload)
{
	static const char *const libraries[] = { "libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
						 "libamdhip64.so.5", "/opt/rocm/lib/libamdhip64.so" };
	const char *wanted = payload;
	typedef int (*count_fn)(int *);
	typedef const char *(*name_fn)(int);
	typedef int (*version_fn)(int *);
	typedef int (*devname_fn)(char *, int, int);
	typedef int (*mem_fn)(size_t *, int);
	typedef int (*props_fn)(void *, int);
	void *hip = NULL;
	const char *loaded = NULL, *said;
	count_fn count;
	name_fn error_name;
	version_fn version;
	devname_fn devname;
	mem_fn mem;
	props_fn props;
	int n = 0, e, i, v = 0;
	size_t k;

	unsetenv("HIP_VISIBLE_DEVICES");
	unsetenv("CUDA_VISIBLE_DEVICES");
	unsetenv("HSA_OVERRIDE_GFX_VERSION");
	if (wanted) {
		hip = dlopen(wanted, RTLD_NOW | RTLD_LOCAL);
		loaded = wanted;
	}
	for (k = 0; !wanted && !hip && k < sizeof(libraries) / sizeof(libraries[0]); k++)
		if ((hip = dlopen(libraries[k], RTLD_NOW | RTLD_LOCAL)) != NULL)
			loaded = libraries[k];
	if (!hip || !(count = (count_fn)dlsym(hip, "hipGetDeviceCount"))) {
		printf("%s\n", wanted ? dlerror() : "libamdhip64.so, .so.7, .so.6 and .so.5 cannot be loaded");
		return 1;
	}
	error_name = (name_fn)dlsym(hip, "hipGetErrorName");
	version = (version_fn)dlsym(hip, "hipRuntimeGetVersion");
	devname = (devname_fn)dlsym(hip, "hipDeviceGetName");
	mem = (mem_fn)dlsym(hip, "hipDeviceTotalMem");
	/* HIP 6 keeps the old layout under the old name, the new one under R0600 */
	if (!(props = (props_fn)dlsym(hip, "hipGetDevicePropertiesR0600")))
		props = (props_fn)dlsym(hip, "hipGetDeviceProperties");
	printf("library\t%s\n", loaded);
	if (version && version(&v) == 0 && v > 0)
		printf("version\t%d\n", v);
	e = count(&n);
	said = error_name ? error_name(e) : NULL;
	printf("count\t%d\t%s\t%d\n", e, said ? said : "", e ? 0 : n);
	for (i = 0; e == 0 && i < n && i < 64; i++) {
		char name[256] = "", arch[64] = "";
		size_t bytes = 0;
		unsigned char *buf = calloc(1, 64 * 1024); /* far larger than any hipDeviceProp_t */

		if (devname && devname(name, sizeof(name), i) != 0)
			name[0] = '\0';
		name[sizeof(name) - 1] = '\0';
		for (k = 0; name[k]; k++)
			if ((unsigned char)name[k] < ' ')
				name[k] = ' ';
		if (buf && props && props(buf, i) == 0)
			tc_gpu_find_target_id(arch, sizeof(arch), buf, 64 * 1024);
		free(buf);
		if (mem && mem(&bytes, i) != 0)
			bytes = 0;
		printf("gpu\t%d\t%s\t%s\t%zu\n", i, name, arch, bytes >> 20);
	}
	return 0;
}

/* Notes what one way of finding GPUs said into *tried ("; " between). */
static void note_tried(char **tried, const char *fmt, ...) UTIL_PRINTF(2, 3);

static void note_tried(char **tried, const char *fmt, ...)
{
	util_buf b = UTIL_BUF_INIT;
	va_list ap;

	if (*tried)
		util_buf_printf(&b, "%s; ", *tried);
	va_start(ap, fmt);
	util_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (util_buf_oom(&b)) {
		util_buf_dispose(&b);
		return;
	}
	free(*tried);
	*tried = util_buf_detach(&b);
}

static int probe_hip(tc_gpu_list *out)
{
	const char *wanted = getenv("HIPPORT_HIP_RUNTIME");
	util_process_result r;
	char *outcome;
	int error;

	out->hip_error = -1;
	if (wanted && strcmp(wanted, "none") == 0) {
		note_tried(&out->amd_tried, "HIP runtime: not loaded (HIPPORT_HIP_RUNTIME=none)");
		return 0;
	}
	if ((error = util_process_call(&r, hip_probe, (void *)(wanted && *wanted ? wanted : NULL),
				       tc_toolchain_timeout_ms())) < 0)
		return error;
	if (r.status == 0 && !r.timed_out) {
		error = tc_gpu_parse_probe(out, r.out.ptr);
		if (out->hip_error > 0)
			note_tried(&out->amd_tried, "HIP runtime (%s): hipGetDeviceCount gave %s (%d)", out->hip_library,
				   out->hip_error_name ? out->hip_error_name : "an error", out->hip_error);
		else if (out->hip_error == 0 && out->count == 0)
			note_tried(&out->amd_tried, "HIP runtime (%s): no device", out->hip_library);
	} else if (r.status == 1 && !r.timed_out) {
		r.out.ptr[strcspn(r.out.ptr, "\n")] = '\0';
		note_tried(&out->amd_tried, "HIP runtime: %s", r.out.ptr);
	} else {
		outcome = tc_toolchain_outcome(&r);
		note_tried(&out->amd_tried, "HIP runtime probe: %s", outcome ? outcome : "failed");
		free(outcome);
	}
	util_process_result_dispose(&r);
	return error;
}

/* Runs a tool for the list; 0 with r filled when it ran and exited 0; else
 * notes why not in *tried (and *said) and returns 1. */
static int run_listing(util_process_result *r, const char *const *argv, char **tried, const char *what, char **said)
{
	char *outcome;

	if (util_process_run(r, argv, tc_toolchain_timeout_ms()) < 0) {
		note_tried(tried, "%s: %s", what, util_error_last());
		return 1;
	}
	if (r->status == 0 && !r->timed_out)
		return 0;
	outcome = tc_toolchain_outcome(r);
	note_tried(tried, "%s: %s", what, outcome ? outcome : "failed");
	if (said)
		*said = outcome;
	else
		free(outcome);
	util_process_result_dispose(r);
	return 1;
}

static int probe_rocminfo(tc_gpu_list *out)
{
	char *rocminfo = tc_toolchain_rocm_tool("rocminfo");
	const char *argv[] = { rocminfo, NULL };
	util_process_result r;
	size_t before = out->count;
	int error = 0;

	if (!rocminfo) {
		note_tried(&out->amd_tried, "rocminfo: not found");
		return 0;
	}
	if (run_listing(&r, argv, &out->amd_tried, "rocminfo", &out->rocminfo_said) == 0) {
		out->rocminfo_status = 0;
		error = tc_gpu_parse_rocminfo(out, r.out.ptr);
		if (error == 0 && out->count == before)
			note_tried(&out->amd_tried, "rocminfo: no GPU agent");
		util_process_result_dispose(&r);
	} else {
		out->rocminfo_status = r.timed_out ? -1 : r.status;
	}
	free(rocminfo);
	return error;
}

static int probe_nvidia(tc_gpu_list *out)
{
	char *smi = tc_toolchain_which("nvidia-smi");
	const char *argv[] = { smi, "--query-gpu=index,name,compute_cap,memory.total", "--format=csv,noheader",
			       NULL };
	util_process_result r;
	int error = 0;

	if (!smi) {
		note_tried(&out->nvidia_tried, "nvidia-smi: not found");
		return 0;
	}
	if (run_listing(&r, argv, &out->nvidia_tried, "nvidia-smi", NULL) == 0) {
		error = tc_gpu_parse_nvidia_smi(out, r.out.ptr);
		util_process_result_dispose(&r);
	}
	free(smi);
	return error;
}

int tc_gpu_probe(tc_gpu_list *out)
{
	int error;
	size_t amd;

	memset(out, 0, sizeof(*out));
	out->rocminfo_status = -1;
	if ((error = probe_hip(out)) < 0)
		goto done;
	if (tc_gpu_list_amd_count(out) == 0 && (error = probe_rocminfo(out)) < 0)
		goto done;
	amd = tc_gpu_list_amd_count(out);
	if (amd) {
		free(out->amd_tried);
		out->amd_tried = NULL;
	}
	if ((error = probe_nvidia(out)) < 0)
		goto done;
	if (out->count > amd) {
		free(out->nvidia_tried);
		out->nvidia_tried = NULL;
	}
done:
	if (error < 0)
		tc_gpu_list_dispose(out);
	return error;
}

void tc_gpu_list_dispose(tc_gpu_list *list)
{
	size_t i;

	for (i = 0; i < list->count; i++) {
		free(list->items[i].name);
		free(list->items[i].arch);
	}
	free(list->items);
	free(list->hip_library);
	free(list->hip_version);
	free(list->hip_error_name);
	free(list->rocminfo_said);
	free(list->amd_tried);
	free(list->nvidia_tried);
	memset(list, 0, sizeof(*list));
}

const char *tc_gpu_list_amd_arch(const tc_gpu_list *list)
{
	size_t i;

	for (i = 0; i < list->count; i++)
		if (list->items[i].vendor == TC_GPU_AMD && list->items[i].arch)
			return list->items[i].arch;
	return NULL;
}

size_t tc_gpu_list_amd_count(const tc_gpu_list *list)
{
	size_t i, n = 0;

	for (i = 0; i < list->count; i++)
		n += list->items[i].vendor == TC_GPU_AMD;
	return n;
}
