#include "check/toolchain/toolchain.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/toolchain/arch.h"
#include "check/toolchain/root.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"

char *tc_toolchain_which(const char *name)
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

/* dir/name when it is an executable file (dir may be NULL or empty). */
static char *executable_in(const char *dir, const char *name)
{
	util_buf path = UTIL_BUF_INIT;
	char *resolved = NULL;

	if (!dir || !*dir)
		return NULL;
	util_buf_printf(&path, "%s/%s", dir, name);
	if (!util_buf_oom(&path) && access(path.ptr, X_OK) == 0)
		resolved = realpath(path.ptr, NULL);
	util_buf_dispose(&path);
	return resolved;
}

/* The directory of a path, as a new string. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
}

int tc_toolchain_timeout_ms(void)
{
	const char *text = getenv("HIPPORT_TOOL_TIMEOUT");
	char *end;
	double seconds;

	if (!text || !*text)
		return 10000;
	seconds = strtod(text, &end);
	if (*end || seconds <= 0 || seconds > 3600)
		return 10000;
	return (int)(seconds * 1000);
}

int tc_toolchain_run(util_process_result *out, const char *const *argv)
{
	return util_process_run(out, argv, tc_toolchain_timeout_ms());
}

/* The last non-empty line of text, without terminal escapes and control
 * characters, at most 160 bytes. */
static void put_last_line(util_buf *b, const char *text)
{
	const char *end = text + strlen(text), *start;
	size_t kept = 0;

	while (end > text && isspace((unsigned char)end[-1]))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	for (; start < end && kept < 160; start++) {
		if (*start == '\033') {
			while (start + 1 < end && !isalpha((unsigned char)start[1]))
				start++;
			start++;
			continue;
		}
		util_buf_putc(b, (unsigned char)*start < ' ' ? ' ' : *start);
		kept++;
	}
}

char *tc_toolchain_outcome(const util_process_result *r)
{
	util_buf b = UTIL_BUF_INIT;
	const char *said = NULL;

	if (r->timed_out)
		util_buf_printf(&b, "timed out after %g s", tc_toolchain_timeout_ms() / 1000.0);
	else if (r->not_found)
		util_buf_puts(&b, "cannot be run");
	else if (r->signal)
		util_buf_printf(&b, "killed by signal %d", r->signal);
	else
		util_buf_printf(&b, "exit %d", r->status);
	/* rocminfo says why on standard output, a crash on standard error */
	if (r->out.ptr && strspn(r->out.ptr, " \t\r\n") < r->out.len)
		said = r->out.ptr;
	else if (r->err.ptr && strspn(r->err.ptr, " \t\r\n") < r->err.len)
		said = r->err.ptr;
	if (said) {
		util_buf_puts(&b, ": ");
		put_last_line(&b, said);
	}
	return util_buf_detach(&b);
}

/* Runs argv; on success (exit 0) returns 0 and leaves the output in r.
 * Otherwise notes "what: outcome" and returns -1 (r disposed). */
static int run_noted(tc_toolchain *tc, util_process_result *r, const char *const *argv, const char *what);

static int add_note(tc_toolchain *tc, const char *fmt, ...) UTIL_PRINTF(2, 3);

static int add_note(tc_toolchain *tc, const char *fmt, ...)
{
	util_buf b = UTIL_BUF_INIT;
	char **grown;
	va_list ap;

	va_start(ap, fmt);
	util_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	grown = realloc(tc->notes, (tc->nnotes + 1) * sizeof(*grown));
	if (util_buf_oom(&b) || !grown) {
		util_buf_dispose(&b);
		if (grown)
			tc->notes = grown;
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	tc->notes = grown;
	tc->notes[tc->nnotes++] = util_buf_detach(&b);
	return 0;
}

static int run_noted(tc_toolchain *tc, util_process_result *r, const char *const *argv, const char *what)
{
	char *outcome;

	if (tc_toolchain_run(r, argv) < 0)
		return add_note(tc, "%s: %s", what, util_error_last()) < 0 ? UTIL_ENOMEM : -1;
	if (r->status == 0)
		return 0;
	outcome = tc_toolchain_outcome(r);
	util_process_result_dispose(r);
	if (!outcome || add_note(tc, "%s: %s", what, outcome) < 0) {
		free(outcome);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	free(outcome);
	return -1;
}

/* Skips to the digits after prefix in text; NULL if prefix is absent. */
static const char *after(const char *text, const char *prefix)
{
	const char *p = strstr(text, prefix);

	return p ? p + strlen(prefix) : NULL;
}

/* Copies MAJOR.MINOR[.PATCH] digits from p; 0 or UTIL_EINPUT. */
static int copy_version(char **out, const char *p, const char *what)
{
	size_t n = 0, dots = 0;

	*out = NULL;
	if (!p || !isdigit((unsigned char)*p))
		return util_error_set(UTIL_EINPUT, "no version in %s", what);
	while (isdigit((unsigned char)p[n]) || (p[n] == '.' && isdigit((unsigned char)p[n + 1]) && dots < 2)) {
		dots += p[n] == '.';
		n++;
	}
	if (dots == 0 || n > 32)
		return util_error_set(UTIL_EINPUT, "no version in %s", what);
	*out = strndup(p, n);
	return *out ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
}

int tc_parse_hipconfig_version(char **out, const char *text)
{
	const char *p = text + strspn(text, " \t\r\n");
	size_t n = strcspn(p, " \t\r\n"), len;

	*out = NULL;
	/* the whole output is one version, perhaps with a -build suffix */
	if (p[n + strspn(p + n, " \t\r\n")] != '\0')
		return util_error_set(UTIL_EINPUT, "more than a version in hipconfig --version's output");
	if (copy_version(out, p, "hipconfig --version's output") < 0)
		return UTIL_EINPUT;
	len = strlen(*out);
	if (len != n && p[len] != '-') {
		free(*out);
		*out = NULL;
		return util_error_set(UTIL_EINPUT, "no version in hipconfig --version's output");
	}
	return 0;
}

int tc_parse_hip_version_header(char **out, const char *text)
{
	const char *major = after(text, "#define HIP_VERSION_MAJOR"), *minor = after(text, "#define HIP_VERSION_MINOR"),
		   *patch = after(text, "#define HIP_VERSION_PATCH");
	long ma, mi, pa;

	*out = NULL;
	if (!major || !minor)
		return util_error_set(UTIL_EINPUT, "no HIP_VERSION_MAJOR/MINOR in hip_version.h");
	ma = strtol(major, NULL, 10);
	mi = strtol(minor, NULL, 10);
	pa = patch ? strtol(patch, NULL, 10) : 0;
	if (ma <= 0 || ma > 999 || mi < 0 || mi > 999 || pa < 0 || pa > 99999999)
		return util_error_set(UTIL_EINPUT, "no HIP_VERSION_MAJOR/MINOR in hip_version.h");
	if (asprintf(out, "%ld.%ld.%ld", ma, mi, pa) < 0) {
		*out = NULL;
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	return 0;
}

int tc_parse_nvcc_version(char **out, const char *text)
{
	const char *v = after(text, ", V");

	if (v && copy_version(out, v, "nvcc --version's output") == 0)
		return 0;
	return copy_version(out, after(text, "release "), "nvcc --version's output");
}

int tc_parse_clang_version(char **out, const char *text)
{
	return copy_version(out, after(text, "clang version "), "clang --version's output");
}

/* gfx600 before gfx1030: by length, then by name. */
static int by_number(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strlen(x), ly = strlen(y);

	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

int tc_parse_supported_cpus(char ***out, size_t *count, const char *text)
{
	util_buf names = UTIL_BUF_INIT;
	const char *line = text;
	int error;

	while (line && *line) {
		const char *p = line + strspn(line, " \t");
		size_t n = strcspn(p, " \t\r\n");

		if (n > 3 && n < 32 && strncmp(p, "gfx", 3) == 0 && p > line && p[n] != ' ')
			util_buf_printf(&names, "%.*s;", (int)n, p);
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	if (util_buf_oom(&names))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	error = tc_arch_list_split(out, count, names.ptr ? names.ptr : "");
	util_buf_dispose(&names);
	if (error == 0 && *count > 1)
		qsort(*out, *count, sizeof(**out), by_number);
	return error;
}

/* The full HIP version from a hip_version.h, or NULL. */
static char *header_version(const char *path)
{
	util_buf text = UTIL_BUF_INIT;
	char *v = NULL;

	if (util_file_read(&text, path, 1 << 20) == 0 && tc_parse_hip_version_header(&v, text.ptr) < 0)
		v = NULL;
	util_buf_dispose(&text);
	return v;
}

/* hip_version.h next to hipcc (<prefix>/bin/hipcc -> <prefix>/include/hip/),
 * else in /opt/rocm or /usr. */
static char *installed_header_version(const char *hipcc)
{
	static const char *const fixed[] = { "/opt/rocm/include/hip/hip_version.h", "/usr/include/hip/hip_version.h" };
	char *v = NULL, *dir;
	size_t i;

	if (hipcc && (dir = dir_of(hipcc)) != NULL) {
		util_buf header = UTIL_BUF_INIT;

		util_buf_printf(&header, "%s/../include/hip/hip_version.h", dir);
		if (!util_buf_oom(&header))
			v = header_version(header.ptr);
		util_buf_dispose(&header);
		free(dir);
	}
	for (i = 0; !v && i < sizeof(fixed) / sizeof(fixed[0]); i++)
		v = header_version(fixed[i]);
	return v;
}

static port_version major_minor(const char *version)
{
	unsigned long major, minor;

	if (!version || sscanf(version, "%lu.%lu", &major, &minor) != 2 || major > 999 || minor > 999)
		return 0;
	return PORT_VERSION(major, minor, 0);
}

port_version tc_toolchain_hip_version(void)
{
	char *hipcc = tc_toolchain_which("hipcc"), *v;
	port_version hip = 0;

	if (!hipcc)
		return 0;
	v = installed_header_version(hipcc);
	hip = major_minor(v);
	free(v);
	free(hipcc);
	return hip;
}

port_version tc_toolchain_torch_version(void)
{
	/* the package's metadata: as sure as `import torch`, without its seconds of start-up */
	const char *python = getenv("PYTHON") && *getenv("PYTHON") ? getenv("PYTHON") : "python3";
	const char *argv[] = { python, "-c", "import importlib.metadata as m; print(m.version('torch'))", NULL };
	util_process_result r;
	port_version torch = 0;

	if (tc_toolchain_run(&r, argv) == 0 && r.status == 0 && !util_buf_oom(&r.out) && r.out.ptr)
		torch = major_minor(r.out.ptr);
	util_process_result_dispose(&r);
	return torch;
}

/* An environment variable's directory + "/bin/" + name, when executable. */
static char *in_env_bin(const char *var, const char *name)
{
	util_buf dir = UTIL_BUF_INIT;
	char *found = NULL;

	if (getenv(var) && *getenv(var)) {
		util_buf_printf(&dir, "%s/bin", getenv(var));
		if (!util_buf_oom(&dir))
			found = executable_in(dir.ptr, name);
	}
	util_buf_dispose(&dir);
	return found;
}

char *tc_toolchain_rocm_tool(const char *name)
{
	char *p = tc_toolchain_which(name);

	if (!p)
		p = in_env_bin("HIP_PATH", name);
	if (!p)
		p = in_env_bin("ROCM_PATH", name);
	if (!p)
		p = executable_in("/opt/rocm/bin", name);
	return p;
}

static char *find_nvcc(void)
{
	char *p = in_env_bin("CUDA_HOME", "nvcc");

	if (!p)
		p = in_env_bin("CUDA_PATH", "nvcc");
	if (!p)
		p = tc_toolchain_which("nvcc");
	if (!p)
		p = executable_in("/usr/local/cuda/bin", "nvcc");
	return p;
}

/* The output of `tool arg` when it runs and prints one word; else NULL.
 * Sets *hung when the tool timed out (so it is not asked again). */
static int ask_hipconfig(tc_toolchain *tc, char **out, const char *arg, bool *hung)
{
	const char *argv[] = { tc->hipconfig, arg, NULL };
	util_process_result r;
	util_buf what = UTIL_BUF_INIT;
	int rc;

	*out = NULL;
	if (*hung)
		return 0;
	util_buf_printf(&what, "hipconfig %s", arg);
	if (util_buf_oom(&what))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	rc = run_noted(tc, &r, argv, what.ptr);
	util_buf_dispose(&what);
	if (rc == UTIL_ENOMEM)
		return rc;
	if (rc < 0) {
		*hung = tc->nnotes && strstr(tc->notes[tc->nnotes - 1], "timed out");
		return 0;
	}
	*out = util_buf_detach(&r.out);
	util_process_result_dispose(&r);
	return *out ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
}

/* The clang hipcc runs: hipcc --version names its version and directory;
 * there, clang-MAJOR (Debian's hipcc runs clang-15 while clang is another
 * LLVM) or clang. */
static int find_hipcc_clang(tc_toolchain *tc)
{
	const char *argv[] = { tc->hipcc, "--version", NULL };
	util_process_result r;
	const char *dir;
	char *version = NULL;
	int rc;

	if ((rc = run_noted(tc, &r, argv, "hipcc --version")) < 0)
		return rc == UTIL_ENOMEM ? rc : 0;
	if ((dir = after(r.out.ptr, "InstalledDir: ")) != NULL &&
	    tc_parse_clang_version(&version, r.out.ptr) == 0) {
		util_buf name = UTIL_BUF_INIT;
		char *installed = strndup(dir, strcspn(dir, "\r\n"));

		util_buf_printf(&name, "clang-%d", atoi(version));
		if (installed && !util_buf_oom(&name))
			tc->clang = executable_in(installed, name.ptr);
		if (installed && !tc->clang)
			tc->clang = executable_in(installed, "clang");
		util_buf_dispose(&name);
		free(installed);
	}
	free(version);
	util_process_result_dispose(&r);
	return 0;
}

static int detect_hip(tc_toolchain *tc)
{
	char *text = NULL, *dir;
	bool hung = false;
	int error;

	if (!(tc->hipconfig = tc_toolchain_which("hipconfig")) && tc->hipcc && (dir = dir_of(tc->hipcc))) {
		tc->hipconfig = executable_in(dir, "hipconfig");
		free(dir);
	}
	if (tc->hipconfig) {
		if ((error = ask_hipconfig(tc, &text, "--version", &hung)) < 0)
			return error;
		if (text && tc_parse_hipconfig_version(&tc->hip_version, text) < 0 &&
		    add_note(tc, "hipconfig --version: unexpected output '%.60s'", text) < 0) {
			free(text);
			return UTIL_ENOMEM;
		}
		free(text);
		tc->hip_version_from = tc->hip_version ? "hipconfig" : NULL;
	}
	if (!tc->hip_version && tc->hipcc && (tc->hip_version = installed_header_version(tc->hipcc)))
		tc->hip_version_from = "hip_version.h";
	tc->hip = major_minor(tc->hip_version);
	if (getenv("HIP_PLATFORM") && *getenv("HIP_PLATFORM")) {
		tc->hip_platform = strdup(getenv("HIP_PLATFORM"));
	} else if (tc->hipconfig) {
		if ((error = ask_hipconfig(tc, &text, "--platform", &hung)) < 0)
			return error;
		if (text) {
			text[strcspn(text, " \t\r\n")] = '\0';
			if (strcmp(text, "amd") == 0 || strcmp(text, "nvidia") == 0)
				tc->hip_platform = strdup(text);
			else if (add_note(tc, "hipconfig --platform: unexpected output '%.60s'", text) < 0)
				error = UTIL_ENOMEM;
			free(text);
			if (error < 0)
				return error;
		}
	}
	/* a root's hipcc runs the root's clang: the wrapper beside it */
	if (tc_root_holds(tc->hipcc) && (dir = dir_of(tc->hipcc))) {
		tc->clang = executable_in(dir, "clang");
		free(dir);
	}
	if (tc->hipcc && !tc->clang && (error = find_hipcc_clang(tc)) < 0)
		return error;
	if (!tc->clang)
		tc->clang = executable_in(getenv("HIP_CLANG_PATH"), "clang");
	if (!tc->clang && tc->hipcc && (dir = dir_of(tc->hipcc))) {
		tc->clang = executable_in(dir, "clang");
		free(dir);
	}
	if (!tc->clang)
		tc->clang = tc_toolchain_which("clang");
	return 0;
}

/* Runs `tool --version` and parses its output into *out; what fails is
 * noted (only running out of memory is an error). */
static int tool_version(tc_toolchain *tc, char **out, const char *tool, const char *name,
			int (*parse)(char **, const char *))
{
	const char *argv[] = { tool, "--version", NULL };
	util_process_result r;
	int rc;

	if ((rc = run_noted(tc, &r, argv, name)) < 0)
		return rc == UTIL_ENOMEM ? rc : 0;
	if (parse(out, r.out.ptr) < 0 && add_note(tc, "%s: no version in its output", name) < 0)
		rc = UTIL_ENOMEM;
	util_process_result_dispose(&r);
	return rc;
}

static int detect_clang(tc_toolchain *tc)
{
	const char *cpus[] = { tc->clang, "--target=amdgcn-amd-amdhsa", "-nogpulib", "--print-supported-cpus",
			       "-x", "c", "/dev/null", NULL };
	util_process_result r;
	int rc;

	if ((rc = tool_version(tc, &tc->clang_version, tc->clang, "clang --version", tc_parse_clang_version)) < 0)
		return rc;
	if ((rc = run_noted(tc, &r, cpus, "clang --print-supported-cpus")) < 0)
		return rc == UTIL_ENOMEM ? rc : 0;
	/* clang lists them on standard output or error, by version */
	util_buf_puts(&r.out, r.err.ptr);
	rc = util_buf_oom(&r.out) ? util_error_set(UTIL_ENOMEM, "out of memory")
				  : tc_parse_supported_cpus(&tc->offload_archs, &tc->noffload_archs, r.out.ptr);
	util_process_result_dispose(&r);
	return rc;
}

int tc_toolchain_detect(tc_toolchain *out)
{
	int error = 0;

	memset(out, 0, sizeof(*out));
	out->hipcc = tc_toolchain_rocm_tool("hipcc");
	if ((error = detect_hip(out)) < 0)
		goto done;
	if (out->clang && (error = detect_clang(out)) < 0)
		goto done;
	out->nvcc = find_nvcc();
	if (out->nvcc &&
	    (error = tool_version(out, &out->cuda_version, out->nvcc, "nvcc --version", tc_parse_nvcc_version)) < 0)
		goto done;
	out->rocminfo = tc_toolchain_rocm_tool("rocminfo");
done:
	if (error < 0)
		tc_toolchain_dispose(out);
	return error;
}

void tc_toolchain_dispose(tc_toolchain *tc)
{
	size_t i;

	free(tc->hipcc);
	free(tc->hipconfig);
	free(tc->hip_version);
	free(tc->hip_platform);
	free(tc->clang);
	free(tc->clang_version);
	tc_arch_list_free(tc->offload_archs, tc->noffload_archs);
	free(tc->nvcc);
	free(tc->cuda_version);
	free(tc->rocminfo);
	for (i = 0; i < tc->nnotes; i++)
		free(tc->notes[i]);
	free(tc->notes);
	memset(tc, 0, sizeof(*tc));
}

/* Answers of tc_toolchain_knows_arch: "clang\narch" -> known. */
typedef struct known_arch {
	char *key;
	bool known;
} known_arch;

static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;
static known_arch known[32];
static size_t nknown;

bool tc_toolchain_knows_arch(const tc_toolchain *tc, const char *arch)
{
	const char *argv[] = { tc->clang, "-x", "hip", NULL, "--cuda-device-only", "-nogpulib", "-nogpuinc",
			       "-fsyntax-only", "/dev/null", NULL };
	util_buf key = UTIL_BUF_INIT, option = UTIL_BUF_INIT;
	util_process_result r;
	bool answer = false, cached = false;
	size_t i;

	if (!tc->clang || !arch)
		return false;
	util_buf_printf(&key, "%s\n%s", tc->clang, arch);
	util_buf_printf(&option, "--offload-arch=%s", arch);
	if (util_buf_oom(&key) || util_buf_oom(&option))
		goto done;
	pthread_mutex_lock(&known_lock);
	for (i = 0; i < nknown && !cached; i++)
		if (strcmp(known[i].key, key.ptr) == 0) {
			answer = known[i].known;
			cached = true;
		}
	pthread_mutex_unlock(&known_lock);
	if (cached)
		goto done;
	argv[3] = option.ptr;
	if (tc_toolchain_run(&r, argv) == 0) {
		answer = r.status == 0;
		util_process_result_dispose(&r);
		pthread_mutex_lock(&known_lock);
		if (nknown < sizeof(known) / sizeof(known[0])) {
			known[nknown].key = util_buf_detach(&key);
			known[nknown++].known = answer;
		}
		pthread_mutex_unlock(&known_lock);
	}
done:
	util_buf_dispose(&key);
	util_buf_dispose(&option);
	return answer;
}
