// Launch recording for hipport's record-and-compare checks (docs/checks.md):
// hipport rewrites each launch of a kernel the repository defines,
// kernel<<<grid, block, shared, stream>>>(args), into
// HIPPORT_RECORD_LAUNCH("kernel", "file:line", kernel, grid, block, shared,
// stream)(args), in a copy of the original and of the port (a launch through
// a function pointer, HIPPORT_RECORD_LAUNCH_POINTER("file:line", pointer,
// grid, ...), takes the name of the kernel it points to; one through
// cudaLaunchKernel or cudaLaunchCooperativeKernel, HIPPORT_RECORD_LAUNCH_CALL,
// reads its arguments from the array it passes). Around the launch
// it captures the device memory each pointer argument reaches (its whole
// allocation, found by the driver) and the scalars' bytes, before and after,
// into HIPPORT_RECORD_DIR: launches.log, one line per fact, and the
// allocations after each launch as SEQ.ARG.bin (hashes alone above
// HIPPORT_RECORD_MAX bytes). A kernel's launches past its first
// HIPPORT_RECORD_LAUNCHES (16) are logged with their status but not captured:
// a benchmark that loops a kernel a thousand times is judged on its first
// ones. The same header serves the CUDA original (nvcc), the HIP port (hipcc)
// and the port built by nvcc through hip_compat.h.
#ifndef HIPPORT_RECORD_H
#define HIPPORT_RECORD_H

#include <ctype.h>
#include <cxxabi.h>
#include <dlfcn.h>
#include <initializer_list>
#include <memory>
#include <new>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>
#include <unistd.h>
#include <utility>

#if defined(__HIP__) || defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
#include <hip/hip_runtime.h>
#define HPR_API(x) hip##x
typedef hipStream_t hpr_stream;
#else
#include <cuda_runtime.h>
#define HPR_API(x) cuda##x
typedef cudaStream_t hpr_stream;
#endif

namespace hipport_record {

struct state {
	FILE *log;
	const char *dir;
	unsigned long long seq;
	size_t max_bytes;
	unsigned long long max_launches;
	bool off;
	// launches so far per kernel name, for HIPPORT_RECORD_LAUNCHES
	const char *names[256];
	unsigned long long counts[256];
	// the driver's cuMemGetAddressRange, looked up at run time (no -lcuda)
	int (*range)(unsigned long long *, size_t *, unsigned long long);
	// a launch's time: events on its stream around it (made at the first)
	HPR_API(Event_t) start, stop;
	bool timed;
	int timed_device; // where start and stop were made: an event times only its device's streams
};

static state &the()
{
	static state s;
	static bool ready;

	if (!ready) {
		char path[4096];
		const char *max = getenv("HIPPORT_RECORD_MAX");
		const char *launches = getenv("HIPPORT_RECORD_LAUNCHES");

		ready = true;
		s.dir = getenv("HIPPORT_RECORD_DIR");
		s.max_bytes = max ? strtoull(max, NULL, 10) : (size_t)64 << 20;
		s.max_launches = launches ? strtoull(launches, NULL, 10) : 16;
		if (!s.dir || !*s.dir) {
			s.off = true;
			return s;
		}
		snprintf(path, sizeof(path), "%s/launches.log", s.dir);
		// a run command that starts the program more than once records every
		// run: a later process goes on after the launches already logged
		if ((s.log = fopen(path, "r"))) {
			char line[4096];
			while (fgets(line, sizeof(line), s.log))
				s.seq += strncmp(line, "launch ", 7) == 0;
			fclose(s.log);
		}
		if (!(s.log = fopen(path, "a"))) {
			fprintf(stderr, "hipport record: cannot write %s\n", path);
			s.off = true;
			return s;
		}
#if !defined(__HIP__) && !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_HCC__)
		void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
		if (cuda)
			s.range = (int (*)(unsigned long long *, size_t *, unsigned long long))dlsym(
				cuda, "cuMemGetAddressRange_v2");
#endif
	}
	return s;
}

// FNV-1a over 64-bit words, then the tail bytes: equal allocations hash
// equal, at memory speed rather than a byte at a time
static uint64_t hash(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

// Whether this launch of kernel name is one of its first max_launches.
static bool capture_this(state &s, const char *name)
{
	size_t i;

	for (i = 0; i < 256 && s.names[i] && strcmp(s.names[i], name) != 0; i++)
		;
	if (i == 256)
		return false;
	s.names[i] = name;
	return s.counts[i]++ < s.max_launches;
}

// A vector type's lane (float2's float): what it is compared as, when its
// x, y, z, w are all of that type and fill it (a struct { float x; int y; }
// stays bytes).
#define HPR_MEMBER_TRAIT(NAME, M)                                                                         \
	template <typename T, typename L, typename = void> struct NAME : std::false_type {};                 \
	template <typename T, typename L>                                                                     \
	struct NAME<T, L, decltype((void)std::declval<T &>().M, void())>                                      \
		: std::is_same<typename std::remove_cv<                                                       \
				       typename std::remove_reference<decltype(std::declval<T &>().M)>::type>::type, \
			       L> {};
HPR_MEMBER_TRAIT(hpr_has_y, y)
HPR_MEMBER_TRAIT(hpr_has_z, z)
HPR_MEMBER_TRAIT(hpr_has_w, w)
template <typename T, typename = void> struct lane_of {
	typedef void type;
};
template <typename T> struct lane_of<T, decltype((void)std::declval<T &>().x, void())> {
	typedef typename std::remove_cv<typename std::remove_reference<decltype(std::declval<T &>().x)>::type>::type type;
};

template <typename T> struct dtype_of;
template <typename L, typename U> static const char *lane_name(L *, U *)
{
	const size_t n = sizeof(U) / sizeof(L);
	const bool lanes = sizeof(U) % sizeof(L) == 0 &&
			   (n == 1 || (n == 2 && hpr_has_y<U, L>::value) ||
			    (n == 3 && hpr_has_y<U, L>::value && hpr_has_z<U, L>::value) ||
			    (n == 4 && hpr_has_y<U, L>::value && hpr_has_z<U, L>::value && hpr_has_w<U, L>::value));

	return std::is_arithmetic<L>::value && lanes ? dtype_of<L>::name() : NULL;
}
template <typename U> static const char *lane_name(void *, U *)
{
	return NULL;
}

template <typename T> struct dtype_of {
	static const char *name()
	{
		typedef typename std::remove_cv<T>::type U;
		typedef typename lane_of<U>::type L;
		const char *lane = lane_name((L *)0, (U *)0);
		if (std::is_same<U, float>::value)
			return "f32";
		if (std::is_same<U, double>::value)
			return "f64";
		if (std::is_floating_point<U>::value)
			return "f64";
		if (std::is_integral<U>::value)
			return std::is_signed<U>::value ? (sizeof(U) == 1 ? "i8" : sizeof(U) == 2 ? "i16" : sizeof(U) == 4 ? "i32" : "i64")
						       : (sizeof(U) == 1 ? "u8" : sizeof(U) == 2 ? "u16" : sizeof(U) == 4 ? "u32" : "u64");
		if (lane)
			return lane; // float2, int4: lane by lane
		// __half, __nv_bfloat16, user types: by their size, bits compared
		return sizeof(U) == 2 ? "f16?" : "bytes";
	}
};

// The allocation p points into: its base and size (0 when p is not device memory).
static size_t allocation(const void *p, const void **base)
{
	*base = NULL;
	if (!p)
		return 0;
#if defined(__HIP__) || defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
	void *b = NULL;
	size_t n = 0;
	if (hipMemGetAddressRange(&b, &n, const_cast<void *>(p)) != hipSuccess) {
		(void)hipGetLastError();
		return 0;
	}
	*base = b;
	return n;
#else
	unsigned long long b = 0;
	size_t n = 0;
	if (!the().range || the().range(&b, &n, (unsigned long long)(uintptr_t)p) != 0)
		return 0;
	*base = (const void *)(uintptr_t)b;
	return n;
#endif
}

struct arg_record {
	bool pointer;
	const char *dtype;
	const void *base;
	size_t bytes, offset;
	uint64_t before;
	unsigned char scalar[16];
	size_t scalar_bytes;
	size_t owner, at; // a pointer inside a struct argument: that argument and the byte it is at
	bool field;
};

// Pointers a struct argument holds (Params structs of inference kernels):
// captured after the arguments, as arguments of their own.
enum { max_fields = 32 };

static uint64_t device_hash(const void *base, size_t bytes, unsigned char **copy)
{
	unsigned char *h = (unsigned char *)malloc(bytes ? bytes : 1);
	uint64_t r;

	if (!h)
		return 0;
	// a context a launch broke (an assert, 710) copies nothing: zeroes on
	// both sides, not what malloc left there
	if (HPR_API(Memcpy)(h, base, bytes, HPR_API(MemcpyDeviceToHost)) != HPR_API(Success))
		memset(h, 0, bytes);
	r = hash(h, bytes);
	if (copy)
		*copy = h;
	else
		free(h);
	return r;
}

// The device allocation p points into, as the record of a pointer.
static void pointer_before(arg_record &r, const void *p, const char *dtype)
{
	r.pointer = true;
	r.dtype = dtype;
	r.bytes = allocation(p, &r.base);
	r.offset = r.base ? (size_t)((const char *)p - (const char *)r.base) : 0;
	if (r.bytes)
		r.before = device_hash(r.base, r.bytes, NULL);
}

// The bytes argument a passes as a parameter of type D, copied bit for bit
// as the launch hands them to the kernel: no copy constructor or destructor
// of the program's runs (CUDA by Example's Lock frees its mutex in ~Lock(),
// which a copy here would do before the launch).
template <typename D, typename A> static void param_bytes(unsigned char *out, const A &a)
{
	typedef typename std::decay<A>::type U;
	if constexpr (std::is_same<U, D>::value || (std::is_class<D>::value && std::is_base_of<D, U>::value)) {
		memcpy(out, (const void *)std::addressof(static_cast<const D &>(a)), sizeof(D));
	} else if constexpr (std::is_class<D>::value) {
		// converted as the launch converts it, into storage never destroyed
		alignas(D) unsigned char raw[sizeof(D)];
		::new ((void *)raw) D(a);
		memcpy(out, raw, sizeof(D));
	} else {
		D v = (D)a;
		memcpy(out, (const void *)&v, sizeof(D));
	}
}

template <typename P, typename A>
static void before(arg_record &r, size_t i, arg_record *fields, size_t &nfields, const A &a)
{
	memset(&r, 0, sizeof(r));
	typedef typename std::decay<P>::type D;
	size_t first_field = nfields;
	(void)first_field;
	if constexpr (std::is_pointer<D>::value) {
		pointer_before(r, (const void *)a, dtype_of<typename std::remove_pointer<D>::type>::name());
	} else {
		alignas(D) unsigned char v[sizeof(D)];
		param_bytes<D>(v, a);
		// each aligned word of a struct that is a device address is a pointer field
		for (size_t at = 0; std::is_class<D>::value && at + sizeof(void *) <= sizeof(D) && nfields < max_fields;
		     at += sizeof(void *)) {
			const void *p, *base;
			memcpy(&p, v + at, sizeof(p));
			if (!p || !allocation(p, &base))
				continue;
			arg_record &f = fields[nfields++];
			memset(&f, 0, sizeof(f));
			pointer_before(f, p, "bytes");
			f.field = true;
			f.owner = i;
			f.at = at;
		}
		r.dtype = dtype_of<D>::name();
		r.scalar_bytes = sizeof(D) < sizeof(r.scalar) ? sizeof(D) : sizeof(r.scalar);
		memcpy(r.scalar, v, r.scalar_bytes);
		// addresses differ from run to run: a field is compared by what it points to
		for (size_t k = first_field; k < nfields; k++)
			if (fields[k].at < r.scalar_bytes)
				memset(r.scalar + fields[k].at, 0, sizeof(void *));
	}
}

static void after(state &s, unsigned long long seq, size_t i, const arg_record &r, const arg_record *all)
{
	if (!r.pointer) {
		fprintf(s.log, "arg %zu scalar %s ", i, r.dtype);
		for (size_t k = 0; k < r.scalar_bytes; k++)
			fprintf(s.log, "%02x", r.scalar[k]);
		fputc('\n', s.log);
		return;
	}
	if (!r.bytes) {
		fprintf(s.log, "arg %zu pointer %s unknown\n", i, r.dtype);
		return;
	}
	// an allocation two arguments share is captured once, at the first
	for (size_t k = 0; k < i; k++)
		if (all[k].pointer && all[k].base == r.base) {
			fprintf(s.log, "arg %zu pointer %s same %zu %zu\n", i, r.dtype, k, r.offset);
			return;
		}
	unsigned char *copy = NULL;
	bool keep = r.bytes <= s.max_bytes;
	uint64_t h = device_hash(r.base, r.bytes, keep ? &copy : NULL);
	char file[64] = "-";
	if (copy) {
		char path[4096];
		snprintf(file, sizeof(file), "%llu.%zu.bin", seq, i);
		snprintf(path, sizeof(path), "%s/%s", s.dir, file);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(copy, 1, r.bytes, f) != r.bytes)
			snprintf(file, sizeof(file), "-");
		if (f)
			fclose(f);
		free(copy);
	}
	fprintf(s.log, "arg %zu pointer %s %zu %zu %016llx %016llx %s", i, r.dtype, r.offset, r.bytes,
		(unsigned long long)r.before, (unsigned long long)h, file);
	if (r.field)
		fprintf(s.log, " in %zu+%zu", r.owner, r.at);
	fputc('\n', s.log);
}

// One launch, recorded: go() launches it; P... are the parameter types
// (the kernel's, or the arguments' own when the kernel's template arguments
// are deduced at the launch).
// What a launch prints: device printf reaches stdout at the synchronize
// after it, so stdout goes to a file from the launch to that synchronize;
// the text is shown as the program would, and kept as SEQ.printf, the
// output of a kernel that writes nothing else (a tutorial's hello, a list
// walked and printed).
struct printed {
	int fd = -1, saved = -1;

	void start()
	{
		char path[] = "/tmp/hipport-record-printf.XXXXXX";

		fflush(stdout);
		if ((fd = mkstemp(path)) < 0)
			return;
		unlink(path);
		if ((saved = dup(1)) < 0 || dup2(fd, 1) < 0) {
			if (saved >= 0)
				close(saved);
			close(fd);
			fd = saved = -1;
		}
	}
	void finish(state &s, unsigned long long seq)
	{
		if (fd < 0)
			return;
		fflush(stdout);
		dup2(saved, 1);
		close(saved);
		off_t end = lseek(fd, 0, SEEK_END);
		char *text = end > 0 ? (char *)malloc((size_t)end) : NULL;
		if (text && pread(fd, text, (size_t)end, 0) == (ssize_t)end) {
			fwrite(text, 1, (size_t)end, stdout);
			fflush(stdout);
			char file[64], path[4096];
			snprintf(file, sizeof(file), "%llu.printf", seq);
			snprintf(path, sizeof(path), "%s/%s", s.dir, file);
			FILE *f = fopen(path, "wb");
			bool kept = f && fwrite(text, 1, (size_t)end, f) == (size_t)end;
			if (f)
				fclose(f);
			fprintf(s.log, "printed %zu %016llx %s\n", (size_t)end,
				(unsigned long long)hash((const unsigned char *)text, (size_t)end), kept ? file : "-");
		}
		free(text);
		close(fd);
	}
};

// " time US": what the launch took on its stream, by two events around it
// (the launch runs once, as the program made it: a recorded launch is not
// repeated), or "" where the events failed or HIPPORT_TIME=0.
static void launch_time(char *out, size_t size, state &s, bool recorded)
{
	float ms = 0;

	out[0] = '\0';
	if (!recorded)
		return;
	if (HPR_API(EventElapsedTime)(&ms, s.start, s.stop) != 0)
		(void)HPR_API(GetLastError)(); // the events' error, not the program's: the launch went
	else if (ms >= 0) // a stop before its start: the events did not time this launch
		snprintf(out, size, " time %.3f", ms * 1000.0);
}

template <typename... P, typename Go, typename... A>
static void record(const char *name, const char *site, dim3 grid, dim3 block, size_t shared, hpr_stream stream,
		   const Go &go, A &&...args)
{
	state &s = the();
	if (s.off || sizeof...(A) != sizeof...(P)) {
		go();
		return;
	}
	// the arguments, then the pointers their structs hold
	arg_record recs[sizeof...(P) + max_fields + 1];
	size_t i = 0, nfields = 0;
	bool capture = capture_this(s, name);
	(void)HPR_API(DeviceSynchronize)();
	if (capture)
		(void)std::initializer_list<int>{ (before<P>(recs[i], i, recs + sizeof...(P), nfields, args), i++, 0)... };
	// an error the program (or the capture) left is not this launch's status
	(void)HPR_API(GetLastError)();
	printed out;
	if (capture)
		out.start();
	int device = 0;
	(void)HPR_API(GetDevice)(&device);
	// a program on several GPUs (NVIDIA's cuda-vmm samples) launches on each:
	// the events are made again on the device that launches
	if (s.timed && s.timed_device != device) {
		(void)HPR_API(EventDestroy)(s.start);
		(void)HPR_API(EventDestroy)(s.stop);
		s.timed = false;
	}
	if (!s.timed && !(getenv("HIPPORT_TIME") && !strcmp(getenv("HIPPORT_TIME"), "0"))) {
		s.timed = HPR_API(EventCreate)(&s.start) == 0 && HPR_API(EventCreate)(&s.stop) == 0;
		s.timed_device = device;
	}
	bool recorded = s.timed && HPR_API(EventRecord)(s.start, stream) == 0;
	if (s.timed && !recorded)
		(void)HPR_API(GetLastError)(); // not the launch's status
	go();
	// peeked, not taken: the program's own check after the launch still sees it
	int launch = (int)HPR_API(PeekAtLastError)();
	if (recorded && !launch && HPR_API(EventRecord)(s.stop, stream) != 0) {
		recorded = false;
		(void)HPR_API(GetLastError)();
	}
	int sync = (int)HPR_API(DeviceSynchronize)();
	unsigned long long seq = s.seq++;
	char took[48];
	launch_time(took, sizeof(took), s, recorded && !launch && !sync);
	fprintf(s.log, "launch %llu %s %s grid %u %u %u block %u %u %u shared %zu status %d %d%s%s\n", seq, name,
		site, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared, launch, sync, capture ? "" : " uncaptured",
		took);
	for (i = 0; capture && i < sizeof...(P) + nfields; i++)
		after(s, seq, i, recs[i], recs);
	out.finish(s, seq);
	// a launch that went: what is left is the capture's (a copy from memory
	// the launch's own argument copy freed, as Lock's), not the program's
	if (!launch)
		(void)HPR_API(GetLastError)();
	fflush(s.log);
}

// An argument as the launch converts it to its parameter; a NULL forwarded
// through the launcher arrives as a long, which only a literal 0 converts to
// a pointer, so an integer for a pointer parameter is taken as that address
template <class P, class A>
static typename std::enable_if<!(std::is_pointer<P>::value && std::is_integral<A>::value) &&
				       !std::is_reference<P>::value,
			       P>::type
as_param(const A &a)
{
	return static_cast<P>(a);
}
// a reference parameter (Kernel(DataElement &elem)) binds to the program's
// own object, as the launch it replaces did
template <class P, class A>
static typename std::enable_if<std::is_reference<P>::value, P>::type as_param(const A &a)
{
	return const_cast<A &>(a);
}
template <class P, class A>
static typename std::enable_if<std::is_pointer<P>::value && std::is_integral<A>::value, P>::type as_param(const A &a)
{
	return reinterpret_cast<P>(static_cast<intptr_t>(a));
}

template <typename... P> struct launcher {
	void (*kernel)(P...);
	const char *name, *site;
	dim3 grid, block;
	size_t shared;
	hpr_stream stream;

	template <typename... A> void operator()(A &&...args) const
	{
		auto go = [&] { kernel<<<grid, block, shared, stream>>>(
			as_param<P, typename std::decay<A>::type>(args)...); };
		record<P...>(name, site, grid, block, shared, stream, go, args...);
	}
};

template <typename... P>
static launcher<P...> launch(const char *name, const char *site, void (*kernel)(P...), dim3 grid, dim3 block,
			     size_t shared = 0, hpr_stream stream = 0)
{
	return launcher<P...>{ kernel, name, site, grid, block, shared, stream };
}

// A launch through the runtime's call with the arguments as an array
// (cudaLaunchCooperativeKernel((void *)k<T>, grid, block, args, shared,
// stream)): call makes it as written, and its status is the call's.
template <size_t...> struct index_list {};
template <size_t N, size_t... I> struct make_index_list : make_index_list<N - 1, N - 1, I...> {};
template <size_t... I> struct make_index_list<0, I...> {
	typedef index_list<I...> type;
};

template <typename... P, size_t... I, typename Call>
static auto launch_call_of(const char *name, const char *site, dim3 grid, dim3 block, void **args, size_t shared,
			   Call call, index_list<I...>) -> decltype(call())
{
	decltype(call()) status = decltype(call())();
	auto go = [&] { status = call(); };
	// the call names its stream itself: the events go on the default one,
	// which waits for it unless the stream is a non-blocking one
	record<P...>(name, site, grid, block, shared, (hpr_stream)0, go,
		     *(typename std::remove_reference<P>::type *)args[I]...);
	return status;
}

template <typename... P, typename Call>
static auto launch_call(const char *name, const char *site, void (*)(P...), dim3 grid, dim3 block, void **args,
			size_t shared, Call call) -> decltype(call())
{
	return launch_call_of<P...>(name, site, grid, block, args, shared, call,
				    typename make_index_list<sizeof...(P)>::type());
}

// The name of the kernel a function pointer holds, as a launch by name
// writes it: the runtime's symbol, demangled, without its scope, template
// arguments and parameters ("void ns::k<float>(float*)" is k).
static const char *kernel_name(const void *kernel)
{
	static struct {
		const void *kernel;
		char *name;
	} seen[64];
	static size_t n;
	const char *symbol = NULL, *text, *end;
	char *demangled;
	size_t i;
	int status, depth = 0;

	for (i = 0; i < n; i++)
		if (seen[i].kernel == kernel)
			return seen[i].name;
#if defined(__HIP__) || defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
	symbol = hipKernelNameRefByPtr(kernel, 0);
#else
	if (cudaFuncGetName(&symbol, kernel) != cudaSuccess)
		symbol = NULL;
#endif
	if (!symbol)
		return "(unknown)";
	demangled = abi::__cxa_demangle(symbol, NULL, NULL, &status);
	text = demangled ? demangled : symbol;
	// the parameters' "(" outside template arguments, then back over those
	for (end = text; *end && !(*end == '(' && depth == 0); end++)
		depth += *end == '<' ? 1 : *end == '>' ? -1 : 0;
	if (end > text && end[-1] == '>')
		for (depth = 0; end > text; end--) {
			depth += end[-1] == '>' ? 1 : end[-1] == '<' ? -1 : 0;
			if (depth == 0) {
				end--;
				break;
			}
		}
	const char *start = end;
	while (start > text && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
		start--;
	char *name = start < end ? strndup(start, (size_t)(end - start)) : NULL;
	free(demangled);
	if (!name)
		return "(unknown)";
	if (n < sizeof(seen) / sizeof(seen[0]))
		seen[n].kernel = kernel, seen[n++].name = name;
	return name;
}

// A launch through a function pointer: the kernel it points to, named.
template <typename... P>
static launcher<P...> launch_pointer(const char *site, void (*kernel)(P...), dim3 grid, dim3 block,
				     size_t shared = 0, hpr_stream stream = 0)
{
	return launcher<P...>{ kernel, kernel_name((const void *)kernel), site, grid, block, shared, stream };
}

// A template kernel launched without template arguments: go, a generic
// lambda holding the launch as written, lets the compiler deduce them from
// the arguments as it did in the program.
template <typename Go> struct deduced_launcher {
	Go go;
	const char *name, *site;
	dim3 grid, block;
	size_t shared;

	hpr_stream stream;

	template <typename... A> void operator()(A &&...args) const
	{
		auto launch = [&] { go(args...); };
		record<typename std::decay<A>::type...>(name, site, grid, block, shared, stream, launch, args...);
	}
};

template <typename Go>
static deduced_launcher<Go> launch_deduced(const char *name, const char *site, Go go, dim3 grid, dim3 block,
					   size_t shared = 0, hpr_stream stream = 0)
{
	return deduced_launcher<Go>{ go, name, site, grid, block, shared, stream };
}

} // namespace hipport_record

#define HIPPORT_RECORD_LAUNCH(name, site, kernel, ...) hipport_record::launch(name, site, kernel, __VA_ARGS__)
#define HIPPORT_RECORD_LAUNCH_DEDUCED(name, site, go, ...) hipport_record::launch_deduced(name, site, go, __VA_ARGS__)
#define HIPPORT_RECORD_LAUNCH_POINTER(site, kernel, ...) hipport_record::launch_pointer(site, kernel, __VA_ARGS__)
#define HIPPORT_RECORD_LAUNCH_CALL(name, site, ...) hipport_record::launch_call(name, site, __VA_ARGS__)

#endif
