// Runtime of the kernel-check harnesses that hipport generates (one per
// kernel, harness/NAME.cu in a bundle; docs/checks.md). Written in HIP
// names: hipcc builds it as it is, nvcc through proxy/include/hip_compat.h,
// which maps the names to CUDA. Every runtime call and the launch are
// checked; inputs come from compare.c's seeded generator, so that the
// reference and the port see the same bits.
//
// usage: HARNESS OUTDIR [REFDIR RESULT.json]
//   writes each output to OUTDIR/ARG.bin and OUTDIR/meta.txt; with REFDIR,
//   compares the outputs with REFDIR's and writes the check's result.
// exit: 0 pass (or outputs written), 1 fail, 2 usage or file error,
//       3 no device, 4 runtime error.
#ifndef HIPPORT_HARNESS_H
#define HIPPORT_HARNESS_H

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <type_traits>
#include <utility>

#include "compare.c"
#include "hipport_timing.h"

#ifndef HIPPORT_PLATFORM_ID
#define HIPPORT_PLATFORM_ID 2
#endif

enum { HP_PASS = 0, HP_FAIL = 1, HP_USAGE = 2, HP_NO_DEVICE = 3, HP_ERROR = 4 };
enum { HP_UNIFORM = 0, HP_CONSTANT = 1, HP_IOTA = 2, HP_FILE = 3 };
enum { HP_IN = 0, HP_OUT = 1, HP_INOUT = 2 };
#define HP_MAX_BUFFERS 64

struct hp_buffer {
	const char *arg;
	chk_dtype dtype;
	size_t elems; // lanes, not elements of the C type
	int role;
	chk_tolerance tol;
	void *host, *device;
	int global; // a __device__ variable's storage: not freed
};

static struct {
	const char *name, *source, *kernel, *outdir, *refdir, *result;
	uint64_t seed;
	char arch[256], device[256], ref_platform[256], ref_arch[256], ref_device[256];
	struct hp_buffer buffers[HP_MAX_BUFFERS];
	int nbuffers;
	int collected;                     // the outputs are on the host (hp_collect)
	struct hp_timing timing, ref_timing; // this run's, and the reference's (its meta.txt)
} hp;

static const char *hp_platform(void)
{
	return HIPPORT_PLATFORM_ID == 0 ? "nvidia" : HIPPORT_PLATFORM_ID == 1 ? "nvidia-proxy" : "amd";
}

// sep "key": "value"
static void hp_field(FILE *f, const char *sep, const char *key, const char *value)
{
	fprintf(f, "%s\"%s\": ", sep, key);
	chk_json_string(f, value);
}

// One side's time: {"median_us": ..., "q1_us": ..., "q3_us": ..., "runs": N, "device": ...}, or null.
static void hp_json_side(FILE *f, const char *key, const struct hp_timing *t, const char *device)
{
	fprintf(f, "\"%s\": ", key);
	if (!t->measured) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"median_us\": %.4f, \"q1_us\": %.4f, \"q3_us\": %.4f, \"runs\": %d", t->median_us, t->q1_us,
		t->q3_us, t->runs);
	hp_field(f, ", ", "device", device);
	fputc('}', f);
}

// "time": what each side's kernel took and the bytes its buffers moved
// (read, written: an inout buffer both), from the sizes the spec gives.
static void hp_json_time(FILE *f)
{
	double bytes = 0;
	int i;

	if (!hp.timing.measured && !hp.ref_timing.measured && !hp.timing.why[0])
		return;
	for (i = 0; i < hp.nbuffers; i++)
		bytes += (double)hp.buffers[i].elems * chk_dtype_size(hp.buffers[i].dtype) *
			 (hp.buffers[i].role == HP_INOUT ? 2 : 1);
	fputs(", \"time\": {", f);
	hp_json_side(f, "reference", &hp.ref_timing, hp.ref_device);
	fputs(", ", f);
	hp_json_side(f, "port", &hp.timing, hp.device);
	fprintf(f, ", \"bytes\": %.0f", bytes);
	hp_field(f, ", ", "note", hp.timing.why[0] ? hp.timing.why : hp.ref_timing.why);
	fputc('}', f);
}

// The check's result: {"name": ..., "status": ..., ...} in hp.result
// (nothing for a reference run, which writes outputs only).
static void hp_result(const char *status, const char *message, const chk_stats *stats, const int *pass)
{
	FILE *f;
	int i, k = 0;

	fprintf(stderr, "%s: %s%s%s\n", hp.name, status, message && *message ? ": " : "", message ? message : "");
	if (!hp.result)
		return;
	if (!(f = fopen(hp.result, "w"))) {
		perror(hp.result);
		exit(HP_USAGE);
	}
	hp_field(f, "{", "name", hp.name);
	hp_field(f, ", ", "source", hp.source);
	hp_field(f, ", ", "kernel", hp.kernel);
	hp_field(f, ", ", "status", status);
	hp_field(f, ", ", "platform", hp_platform());
	hp_field(f, ", ", "arch", hp.arch);
	hp_field(f, ", ", "device", hp.device);
	hp_field(f, ", \"reference\": {", "platform", hp.ref_platform);
	hp_field(f, ", ", "arch", hp.ref_arch);
	fprintf(f, "}, \"seed\": %llu", (unsigned long long)hp.seed);
	hp_field(f, ", ", "message", message ? message : "");
	hp_json_time(f);
	fputs(", \"errors\": [", f);
	for (i = 0; stats && i < hp.nbuffers; i++) {
		struct hp_buffer *b = &hp.buffers[i];

		if (b->role == HP_IN)
			continue;
		fputs(k++ ? ", " : "", f);
		chk_json_stats(f, b->arg, b->dtype, &stats[i], &b->tol, pass[i]);
	}
	fputs("]}\n", f);
	fclose(f);
}

static void hp_stop(int code, const char *status, const char *message)
{
	hp_result(status, message, NULL, NULL);
	exit(code);
}

static void hp_api_error(const char *call, hipError_t e, int line)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), "%s failed: %s (harness line %d)", call, hipGetErrorString(e), line);
	hp_stop(HP_ERROR, "error", msg);
}

#define HP_CHECK(call)                                         \
	do {                                                   \
		hipError_t hp_e_ = (call);                     \
		if (hp_e_ != hipSuccess)                       \
			hp_api_error(#call, hp_e_, __LINE__);  \
	} while (0)

static void hp_start(int argc, char **argv, const char *name, const char *source, const char *kernel,
		     uint64_t seed, unsigned timeout)
{
	hp.name = name;
	hp.source = source;
	hp.kernel = kernel;
	hp.seed = seed;
	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: %s OUTDIR [REFDIR RESULT.json]\n", argv[0]);
		exit(HP_USAGE);
	}
	hp.outdir = argv[1];
	if (argc == 4) {
		char path[4096], line[512], key[64], value[256];
		FILE *f;

		hp.refdir = argv[2];
		hp.result = argv[3];
		snprintf(path, sizeof(path), "%s/meta.txt", hp.refdir);
		if ((f = fopen(path, "r"))) {
			// a line each: KEY VALUE (output lines have more words)
			while (fgets(line, sizeof(line), f)) {
				if (sscanf(line, "%63s %255s", key, value) != 2)
					continue;
				if (strcmp(key, "platform") == 0)
					snprintf(hp.ref_platform, sizeof(hp.ref_platform), "%s", value);
				else if (strcmp(key, "arch") == 0)
					snprintf(hp.ref_arch, sizeof(hp.ref_arch), "%s", value);
				else if (strcmp(key, "device") == 0) // spaces written as _
					for (size_t k = 0; k < sizeof(hp.ref_device) && (hp.ref_device[k] = value[k]); k++)
						hp.ref_device[k] = value[k] == '_' ? ' ' : value[k];
				else if (strcmp(key, "time_us") == 0)
					hp.ref_timing.measured = sscanf(value, "%lf", &hp.ref_timing.median_us) == 1;
				else if (strcmp(key, "time_q1_us") == 0)
					sscanf(value, "%lf", &hp.ref_timing.q1_us);
				else if (strcmp(key, "time_q3_us") == 0)
					sscanf(value, "%lf", &hp.ref_timing.q3_us);
				else if (strcmp(key, "time_runs") == 0)
					sscanf(value, "%d", &hp.ref_timing.runs);
			}
			fclose(f);
		}
	}
	if (getenv("HIPPORT_TIMEOUT")) // run.sh's, where CHECK_TIMEOUT overrides the spec's
		timeout = (unsigned)strtoul(getenv("HIPPORT_TIMEOUT"), NULL, 10);
	if (timeout)
		alarm(timeout); // a hanging kernel ends the process: reported as an error
}

static void hp_device(void)
{
	hipDeviceProp_t prop;
	int count = 0;
	hipError_t e = hipGetDeviceCount(&count);

	if (e != hipSuccess || count == 0) {
		char msg[512];

		snprintf(msg, sizeof(msg), "no GPU: hipGetDeviceCount: %s",
			 e != hipSuccess ? hipGetErrorString(e) : "0 devices");
		hp_stop(HP_NO_DEVICE, "no-device", msg);
	}
	HP_CHECK(hipSetDevice(0));
	HP_CHECK(hipGetDeviceProperties(&prop, 0));
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
	snprintf(hp.arch, sizeof(hp.arch), "%s", prop.gcnArchName);
#else
	snprintf(hp.arch, sizeof(hp.arch), "sm_%d%d", prop.major, prop.minor);
#endif
	snprintf(hp.device, sizeof(hp.device), "%s", prop.name);
}

// A buffer of elems lanes of dtype on the host, filled as init says.
static struct hp_buffer *hp_host_buffer(const char *arg, int index, chk_dtype t, size_t elems, int role, int init,
					 double a, double b, double tol_abs, double tol_rel, double tol_ulp)
{
	struct hp_buffer *buf;
	size_t bytes = elems * chk_dtype_size(t);

	if (hp.nbuffers == HP_MAX_BUFFERS)
		hp_stop(HP_USAGE, "error", "too many buffers");
	buf = &hp.buffers[hp.nbuffers++];
	buf->arg = arg;
	buf->dtype = t;
	buf->elems = elems;
	buf->role = role;
	buf->tol.abs = tol_abs;
	buf->tol.rel = tol_rel;
	buf->tol.ulp = tol_ulp;
	if (tol_abs < 0) // the spec gave none (dtype = auto): the dtype's
		buf->tol = chk_default_tolerance(t);
	if (!(buf->host = malloc(bytes ? bytes : 1)))
		hp_stop(HP_ERROR, "error", "out of host memory");
	if (init == HP_UNIFORM)
		chk_fill_uniform(t, buf->host, elems, a, b, hp.seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(index + 1)));
	else if (init == HP_IOTA)
		chk_fill_iota(t, buf->host, elems, a, b);
	else
		chk_fill_constant(t, buf->host, elems, a);
	return buf;
}

// dtype = auto (a typedef of the program's, float or __nv_bfloat16 as it
// chooses): the dtype of a lane of T and the lanes, from the compiler's type.
// A vector type's lanes are its x's type; a 16-bit float class is told from a
// bfloat16 by how 1/3 rounds; any other class is compared as bytes.
template <class T, class = void> struct hp_lane {
	typedef T type;
};
template <class T> struct hp_lane<T, decltype((void)std::declval<T>().x, void())> {
	typedef typename std::decay<decltype(std::declval<T>().x)>::type type;
};
template <class L>
static chk_dtype hp_half_dtype(std::true_type)
{
	return (float)L(1.0f / 3.0f) == 0.333251953125f ? CHK_F16 : CHK_BF16;
}
template <class L> static chk_dtype hp_half_dtype(std::false_type)
{
	return CHK_U8;
}
template <class T> static chk_dtype hp_dtype_of(void)
{
	typedef typename hp_lane<T>::type L;

	if (std::is_floating_point<L>::value)
		return sizeof(L) == 8 ? CHK_F64 : CHK_F32;
	if (std::is_integral<L>::value)
		return sizeof(L) == 1 ? (std::is_signed<L>::value ? CHK_I8 : CHK_U8)
		       : sizeof(L) == 2 ? (std::is_signed<L>::value ? CHK_I16 : CHK_U16)
		       : sizeof(L) == 4 ? (std::is_signed<L>::value ? CHK_I32 : CHK_U32)
					: (std::is_signed<L>::value ? CHK_I64 : CHK_U64);
	return hp_half_dtype<L>(std::integral_constant < bool, sizeof(L) == 2 && std::is_constructible<L, float>::value &&
				std::is_convertible<L, float>::value > ());
}
template <class T> static unsigned hp_lanes_of(void)
{
	return (unsigned)(sizeof(T) / chk_dtype_size(hp_dtype_of<T>()));
}

// A tensor accessor's strides over a contiguous buffer of these sizes
// (row-major: the last dimension's stride is 1).
static inline void hp_contiguous(const int64_t *sizes, int64_t *strides, size_t dims)
{
	int64_t stride = 1;

	while (dims-- > 0) {
		strides[dims] = stride;
		stride *= sizes[dims];
	}
}

// Where each argument's buffer lives (HIPPORT_ARGS_MAP: a file, one "name
// address bytes" line each), so that a memory checker's faulting address can
// be told as an argument whose size the spec got wrong.
static void hp_note_buffer(const char *arg, const void *device, size_t bytes)
{
	const char *path = getenv("HIPPORT_ARGS_MAP");
	FILE *f = path && *path ? fopen(path, "a") : NULL;

	if (!f)
		return;
	fprintf(f, "%s %llu %lu\n", arg, (unsigned long long)(uintptr_t)device, (unsigned long)bytes);
	fclose(f);
}

// A device buffer of elems lanes of dtype, filled on the host and copied.
static void *hp_buffer(const char *arg, int index, chk_dtype t, size_t elems, int role, int init, double a,
		       double b, double tol_abs, double tol_rel, double tol_ulp)
{
	struct hp_buffer *buf = hp_host_buffer(arg, index, t, elems, role, init, a, b, tol_abs, tol_rel, tol_ulp);
	size_t bytes = elems * chk_dtype_size(t);

	HP_CHECK(hipMalloc(&buf->device, bytes ? bytes : 1));
	HP_CHECK(hipMemcpy(buf->device, buf->host, bytes, hipMemcpyHostToDevice));
	hp_note_buffer(arg, buf->device, bytes);
	return buf->device;
}

// A device buffer of elems lanes of dtype holding a recorded input: the
// bytes, base64 in b64 (len characters), that the program's allocation held
// before the launch (hipport check --draft-spec --from-record); only
// harnesses of recorded drafts call it.
__attribute__((unused)) static void *hp_buffer_input(const char *arg, int index, chk_dtype t, size_t elems, int role,
						    const char *b64, size_t len, double tol_abs, double tol_rel,
						    double tol_ulp)
{
	struct hp_buffer *buf = hp_host_buffer(arg, index, t, elems, role, HP_CONSTANT, 0, 0, tol_abs, tol_rel, tol_ulp);
	size_t bytes = elems * chk_dtype_size(t), n = 0, i;
	unsigned char *out = (unsigned char *)buf->host;
	unsigned v = 0;
	int bits = 0;

	for (i = 0; i < len && b64[i] != '='; i++) {
		char c = b64[i];
		int d = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
			: c == '+' ? 62 : c == '/' ? 63 : -1;

		if (d < 0)
			continue;
		v = v << 6 | (unsigned)d;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n < bytes)
				out[n] = (unsigned char)(v >> bits & 0xff);
			n++;
		}
	}
	if (n != bytes) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s: the recorded input has %lu bytes, its count gives %lu", arg,
			 (unsigned long)n, (unsigned long)bytes);
		hp_stop(HP_USAGE, "error", msg);
	}
	HP_CHECK(hipMalloc(&buf->device, bytes ? bytes : 1));
	HP_CHECK(hipMemcpy(buf->device, buf->host, bytes, hipMemcpyHostToDevice));
	hp_note_buffer(arg, buf->device, bytes);
	return buf->device;
}

// A scalar of type T from its recorded bytes in hex (a struct, a half, a
// vector: what no literal spells exactly).
template <class T> static T hp_from_hex(const char *hex)
{
	// bytes, not a union: __half and the like have constructors
	alignas(T) unsigned char bytes[sizeof(T)];
	size_t i, n = strlen(hex);

	if (n != 2 * sizeof(T)) {
		char msg[256];

		snprintf(msg, sizeof(msg), "a recorded scalar has %lu bytes, its type %lu", (unsigned long)n / 2,
			 (unsigned long)sizeof(T));
		hp_stop(HP_USAGE, "error", msg);
	}
	for (i = 0; i < sizeof(T); i++) {
		unsigned x = 0;

		sscanf(hex + 2 * i, "%2x", &x);
		bytes[i] = (unsigned char)x;
	}
	return *reinterpret_cast<const T *>(bytes);
}

// A __device__ variable of the program as a buffer: symbol is its host-side
// handle (HIP_SYMBOL(name)); bytes, its size, bounds elems.
static void hp_global(const char *arg, int index, chk_dtype t, size_t elems, int role, int init, double a,
		      double b, double tol_abs, double tol_rel, double tol_ulp, const void *symbol, size_t bytes)
{
	struct hp_buffer *buf;
	void *device = NULL;
	size_t need = elems * chk_dtype_size(t);

	if (need > bytes) {
		char msg[512];

		snprintf(msg, sizeof(msg), "global %s: count of %lu values is more than its %lu bytes", arg,
			 (unsigned long)elems, (unsigned long)bytes);
		hp_stop(HP_USAGE, "error", msg);
	}
	HP_CHECK(hipGetSymbolAddress(&device, symbol));
	buf = hp_host_buffer(arg, index, t, elems, role, init, a, b, tol_abs, tol_rel, tol_ulp);
	buf->global = 1;
	buf->device = device;
	HP_CHECK(hipMemcpy(device, buf->host, need, hipMemcpyHostToDevice));
}

// What the kernel printed: device printf reaches stdout at the synchronize
// after the launch, so stdout goes to a file for that call. It is the output
// of a kernel that writes nothing else (a tutorial's hello, a demo that
// prints its reduction).
static struct {
	char *text;
	size_t len;
} hp_printed;

// The outputs, copied to the host once the checked launch is done.
static void hp_collect(void)
{
	int i;

	for (i = 0; i < hp.nbuffers; i++) {
		struct hp_buffer *b = &hp.buffers[i];

		if (b->role != HP_IN)
			HP_CHECK(hipMemcpy(b->host, b->device, b->elems * chk_dtype_size(b->dtype), hipMemcpyDeviceToHost));
	}
	hp.collected = 1;
}

static void hp_launched(void)
{
	char path[] = "/tmp/hipport-printf.XXXXXX";
	int fd, saved = -1;
	hipError_t e;

	HP_CHECK(hipGetLastError());
	fflush(stdout);
	if ((fd = mkstemp(path)) >= 0) {
		unlink(path);
		if ((saved = dup(1)) >= 0 && dup2(fd, 1) < 0) {
			close(saved);
			saved = -1;
		}
	}
	e = hipDeviceSynchronize();
	fflush(stdout);
	if (saved >= 0) {
		off_t end = lseek(fd, 0, SEEK_END);

		dup2(saved, 1);
		close(saved);
		if (end > 0 && (hp_printed.text = (char *)malloc((size_t)end + 1)) != NULL &&
		    pread(fd, hp_printed.text, (size_t)end, 0) == (ssize_t)end) {
			hp_printed.len = (size_t)end;
			hp_printed.text[end] = '\0';
			fwrite(hp_printed.text, 1, hp_printed.len, stdout); // still shown, as the program would
		}
	}
	if (fd >= 0)
		close(fd);
	HP_CHECK(e);
	hp_collect();
}

// The launch the check compares, timed (hipport_timing.h), then repeated
// for its time once its outputs are on the host.
template <class F> static void hp_run(F launch)
{
	hipEvent_t start = NULL, stop = NULL;

	hp_time_first(&start, &stop, launch);
	hp_launched();
	hp_time_repeats(&hp.timing, start, stop, hp_printed.len > 0, launch);
}

static int hp_by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

// The lines of text, sorted (threads print in no fixed order); text is cut up.
static char **hp_lines(char *text, size_t *n)
{
	char **v, *p;
	size_t cap = 1;

	for (p = text; *p; p++)
		cap += *p == '\n';
	if (!(v = (char **)malloc(cap * sizeof(*v))))
		hp_stop(HP_ERROR, "error", "out of host memory");
	*n = 0;
	for (p = text; *p;) {
		char *nl = strchr(p, '\n');

		v[(*n)++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	qsort(v, *n, sizeof(*v), hp_by_text);
	return v;
}

static int hp_number_at(const char *p)
{
	return isdigit((unsigned char)*p) || ((*p == '-' || *p == '+' || *p == '.') && isdigit((unsigned char)p[1]));
}

// Whether two printed lines say the same: numbers within a float tolerance
// (another GPU rounds otherwise), pointers (0x and 8 or more hex digits)
// not compared, the rest byte for byte.
static int hp_line_matches(const char *a, const char *b)
{
	while (*a && *b) {
		if (a[0] == '0' && a[1] == 'x' && b[0] == '0' && b[1] == 'x' && strspn(a + 2, "0123456789abcdefABCDEF") >= 8 &&
		    strspn(b + 2, "0123456789abcdefABCDEF") >= 8) {
			a += 2 + strspn(a + 2, "0123456789abcdefABCDEF");
			b += 2 + strspn(b + 2, "0123456789abcdefABCDEF");
		} else if (hp_number_at(a) && hp_number_at(b)) {
			char *ea, *eb;
			double x = strtod(a, &ea), y = strtod(b, &eb);

			if (ea == a || eb == b || !(fabs(x - y) <= 1e-5 + 1e-5 * fabs(x)))
				return 0;
			a = ea;
			b = eb;
		} else if (*a++ != *b++) {
			return 0;
		}
	}
	return *a == *b;
}

// Compares what the kernel printed with the reference's printf.txt.
static void hp_compare_printed(char *msg, size_t size, int *failed)
{
	char path[4096], *ref = NULL, **rl, **gl;
	size_t nr, ng, i, len = 0;
	FILE *f;
	long end;

	snprintf(path, sizeof(path), "%s/printf.txt", hp.refdir);
	if (!(f = fopen(path, "rb")) || fseek(f, 0, SEEK_END) != 0 || (end = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    !(ref = (char *)malloc((size_t)end + 1)) || (len = fread(ref, 1, (size_t)end, f)) != (size_t)end) {
		snprintf(msg, size, "%s: missing or unreadable: the reference printed nothing", path);
		if (f)
			fclose(f);
		free(ref);
		hp_stop(HP_USAGE, "error", msg);
	}
	fclose(f);
	ref[len] = '\0';
	rl = hp_lines(ref, &nr);
	gl = hp_lines(hp_printed.text, &ng);
	for (i = 0; i < nr && i < ng && hp_line_matches(rl[i], gl[i]); i++)
		;
	if (i < nr || i < ng) {
		*failed = 1;
		snprintf(msg, size, "printf: %lu lines printed, the reference %lu; sorted, line %lu differs: expected \"%.200s\", "
			 "got \"%.200s\"", (unsigned long)ng, (unsigned long)nr, (unsigned long)i + 1, i < nr ? rl[i] : "",
			 i < ng ? gl[i] : "");
	} else {
		snprintf(msg, size, "printf: %lu lines printed, as the reference's (numbers within 1e-5)", (unsigned long)ng);
	}
	free(rl);
	free(gl);
	free(ref);
}

static void hp_write(const char *dir, const char *file, const void *data, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		char msg[4200];

		snprintf(msg, sizeof(msg), "cannot write %s", path);
		hp_stop(HP_USAGE, "error", msg);
	}
}

// Reads dir/ARG.bin; 0 when it is missing or of another size.
static int hp_read(const char *dir, const struct hp_buffer *b, void *out, size_t len)
{
	char path[4096];
	FILE *f;
	size_t got;

	snprintf(path, sizeof(path), "%s/%s.bin", dir, b->arg);
	if (!(f = fopen(path, "rb")))
		return 0;
	got = fread(out, 1, len, f);
	if (got == len && fgetc(f) != EOF)
		got = len + 1;
	fclose(f);
	return got == len;
}

// Copies the outputs back, writes them, compares them with the reference.
static void hp_finish(void)
{
	char meta[8192], msg[2048], file[512];
	chk_stats stats[HP_MAX_BUFFERS];
	int pass[HP_MAX_BUFFERS], i, failed = 0, compared = 0;
	size_t m;

	m = (size_t)snprintf(meta, sizeof(meta), "platform %s\narch %s\nseed %llu\n", hp_platform(),
			     hp.arch[0] ? hp.arch : "-", (unsigned long long)hp.seed);
	msg[0] = '\0';
	// a check that compares nothing is no pass
	for (i = 0; i < hp.nbuffers; i++)
		if (hp.buffers[i].role != HP_IN && hp.buffers[i].elems > 0)
			break;
	if (i == hp.nbuffers && !hp_printed.len)
		hp_stop(HP_USAGE, "error",
			"nothing to compare: no argument or __device__ global of the spec is an output (role out or "
			"inout with a count above 0), and the kernel printed nothing; mark what the kernel writes");
	if (i == hp.nbuffers) {
		// what it printed is its output
		int failed = 0;
		char sum[17];

		chk_checksum(sum, hp_printed.text, hp_printed.len);
		if (m < sizeof(meta))
			m += (size_t)snprintf(meta + m, sizeof(meta) - m, "output printf text %lu %s\n",
					      (unsigned long)hp_printed.len, sum);
		hp_write(hp.outdir, "printf.txt", hp_printed.text, hp_printed.len);
		hp_write(hp.outdir, "meta.txt", meta, strlen(meta));
		if (!hp.refdir)
			exit(HP_PASS);
		hp_compare_printed(msg, sizeof(msg), &failed);
		hp_result(failed ? "fail" : "pass", msg, NULL, NULL);
		exit(failed ? HP_FAIL : HP_PASS);
	}
	for (i = 0; i < hp.nbuffers; i++) {
		struct hp_buffer *b = &hp.buffers[i];
		size_t bytes = b->elems * chk_dtype_size(b->dtype);
		char sum[17];

		if (b->role == HP_IN)
			continue;
		if (!hp.collected)
			HP_CHECK(hipMemcpy(b->host, b->device, bytes, hipMemcpyDeviceToHost));
		snprintf(file, sizeof(file), "%s.bin", b->arg);
		hp_write(hp.outdir, file, b->host, bytes);
		chk_checksum(sum, b->host, bytes);
		if (m < sizeof(meta))
			m += (size_t)snprintf(meta + m, sizeof(meta) - m, "output %s %s %lu %s\n", b->arg,
					      chk_dtype_name(b->dtype), (unsigned long)b->elems, sum);
	}
	if (hp.timing.measured && m < sizeof(meta)) {
		char device[256];
		size_t k;

		for (k = 0; k + 1 < sizeof(device) && hp.device[k]; k++)
			device[k] = hp.device[k] == ' ' ? '_' : hp.device[k];
		device[k] = '\0';
		m += (size_t)snprintf(meta + m, sizeof(meta) - m,
				      "device %s\ntime_us %.4f\ntime_q1_us %.4f\ntime_q3_us %.4f\ntime_runs %d\n", device,
				      hp.timing.median_us, hp.timing.q1_us, hp.timing.q3_us, hp.timing.runs);
	}
	hp_write(hp.outdir, "meta.txt", meta, strlen(meta));
	// a repeat for the time may have failed: the outputs were taken before
	for (i = 0; i < hp.nbuffers; i++)
		if (!hp.buffers[i].global)
			(void)hipFree(hp.buffers[i].device);
	if (!hp.refdir)
		exit(HP_PASS);
	for (i = 0; i < hp.nbuffers; i++) {
		struct hp_buffer *b = &hp.buffers[i];
		size_t bytes = b->elems * chk_dtype_size(b->dtype);
		void *ref;

		if (b->role == HP_IN)
			continue;
		if (!(ref = malloc(bytes ? bytes : 1)))
			hp_stop(HP_ERROR, "error", "out of host memory");
		if (!hp_read(hp.refdir, b, ref, bytes)) {
			snprintf(msg, sizeof(msg), "%s/%s.bin: missing, or not %lu bytes of %s", hp.refdir, b->arg,
				 (unsigned long)bytes, chk_dtype_name(b->dtype));
			free(ref);
			hp_stop(HP_USAGE, "error", msg);
		}
		pass[i] = chk_compare(&stats[i], b->dtype, ref, b->host, b->elems, &b->tol);
		compared += b->elems > 0;
		if (!pass[i]) {
			size_t n = strlen(msg);

			failed++;
			snprintf(msg + n, sizeof(msg) - n,
				 "%s%s: %lu of %lu values beyond tolerance (%lu NaN, %lu Inf placements differ), first at "
				 "%lu: expected %.9g, got %.9g; max abs %.3g, max rel %.3g, max ulp %.0f",
				 n ? "; " : "", b->arg, (unsigned long)stats[i].mismatches, (unsigned long)b->elems,
				 (unsigned long)stats[i].nan_mismatches, (unsigned long)stats[i].inf_mismatches,
				 (unsigned long)stats[i].first_mismatch, stats[i].expected_at_first,
				 stats[i].got_at_first, stats[i].max_abs, stats[i].max_rel, stats[i].max_ulp);
		}
		free(ref);
	}
	if (!failed)
		snprintf(msg, sizeof(msg), "%d output%s within tolerance", compared, compared == 1 ? "" : "s");
	hp_result(failed ? "fail" : "pass", msg, stats, pass);
	exit(failed ? HP_FAIL : HP_PASS);
}

#endif
