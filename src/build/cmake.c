/* CMake: the CUDA language, CMAKE_CUDA_* variables, CUDA_* properties,
 * CUDA:: imported targets, .cu sources and nvcc flags. Commands are matched
 * without regard to case; comments and bracket arguments are kept; quoted
 * arguments are values of the build and are rewritten like unquoted ones. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "build/build.h"
#include "build/rewrite.h"

/* CUDA:: imported targets: the HIP target and the package that defines it. */
static const struct {
	const char *cuda, *hip, *package;
} targets[] = {
	{ "cudart", "hip::host", "hip" },
	{ "cudart_static", "hip::host", "hip" },
	{ "cuda_driver", "hip::host", "hip" },
	{ "cublas", "roc::hipblas", "hipblas" },
	{ "cublas_static", "roc::hipblas", "hipblas" },
	{ "cublasLt", "roc::hipblaslt", "hipblaslt" },
	{ "cublasLt_static", "roc::hipblaslt", "hipblaslt" },
	{ "cufft", "hip::hipfft", "hipfft" },
	{ "cufft_static", "hip::hipfft", "hipfft" },
	{ "curand", "hip::hiprand", "hiprand" },
	{ "curand_static", "hip::hiprand", "hiprand" },
	{ "cusparse", "roc::hipsparse", "hipsparse" },
	{ "cusparse_static", "roc::hipsparse", "hipsparse" },
	{ "cusolver", "roc::hipsolver", "hipsolver" },
	{ "cusolver_static", "roc::hipsolver", "hipsolver" },
	{ "nvrtc", "hiprtc::hiprtc", "hiprtc" },
};
#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

/* Target properties and variables renamed by their name alone. */
static const struct {
	const char *cuda, *hip;
} properties[] = {
	{ "CUDA_STANDARD", "HIP_STANDARD" },
	{ "CUDA_STANDARD_REQUIRED", "HIP_STANDARD_REQUIRED" },
	{ "CUDA_EXTENSIONS", "HIP_EXTENSIONS" },
	{ "CUDAToolkit_FOUND", "hip_FOUND" },
	{ "CUDA_FOUND", "hip_FOUND" },
};

typedef struct command {
	char name[64];       /* lower case */
	size_t start;        /* of the name */
	size_t nwords;       /* words seen in the arguments */
	size_t open;         /* the offset after '(' */
	bool cuda_package;   /* find_package(CUDAToolkit|CUDA) */
	bool required;       /* REQUIRED among its arguments */
	int arch;            /* 0: no, 1: next arch values are CUDA architectures */
	size_t arch_values;  /* values replaced */
	size_t sources[32];  /* .cu sources named (offsets; lengths in source_lens) */
	size_t source_lens[32];
	size_t nsources;
} command;

typedef struct cmake {
	bld_rewriter rw;
	command cmd;
	bool packages[NTARGETS]; /* the packages of the CUDA:: targets the file links */
	size_t package_at;       /* after find_package(CUDAToolkit): where the others go, or 0 */
	bool package_required;
	util_buf package_indent;
} cmake;

static bool is_delim(char c)
{
	return isspace((unsigned char)c) || strchr("()\";<>${}\\", c) != NULL;
}

/* The length of a bracket opening "[==[" at s, or 0. */
static size_t bracket_open(const char *s, const char *end, size_t *eqs)
{
	const char *p = s + 1;

	if (s >= end || *s != '[')
		return 0;
	while (p < end && *p == '=')
		p++;
	if (p >= end || *p != '[')
		return 0;
	*eqs = (size_t)(p - s - 1);
	return (size_t)(p + 1 - s);
}

/* The offset after the bracket closing "]==]" from i, or len. */
static size_t bracket_close(const char *src, size_t len, size_t i, size_t eqs)
{
	for (; i < len; i++) {
		size_t k = 0;

		if (src[i] != ']')
			continue;
		while (i + 1 + k < len && src[i + 1 + k] == '=')
			k++;
		if (k == eqs && i + 1 + k < len && src[i + 1 + k] == ']')
			return i + k + 2;
	}
	return len;
}

static const char *target_package(const char *name, size_t n, const char **hip)
{
	size_t i;

	for (i = 0; i < NTARGETS; i++)
		if (bld_word_is(name, n, targets[i].cuda)) {
			*hip = targets[i].hip;
			return targets[i].package;
		}
	return NULL;
}

/* The language word CUDA inside a generator expression: COMPILE_LANGUAGE:CUDA,
 * COMPILE_LANGUAGE:CXX,CUDA, COMPILE_LANG_AND_ID:CUDA,NVIDIA. */
static bool language_condition(cmake *c, const char *w, size_t n, size_t offset)
{
	static const char *const heads[] = { "COMPILE_LANGUAGE:", "LINK_LANGUAGE:", "COMPILE_LANG_AND_ID:",
					     "LINK_LANG_AND_ID:", NULL };
	size_t i, k;

	for (i = 0; heads[i]; i++) {
		size_t h = strlen(heads[i]);

		if (n < h || memcmp(w, heads[i], h) != 0)
			continue;
		for (k = h; k < n;) {
			size_t e = k;

			while (e < n && w[e] != ',' && w[e] != ':')
				e++;
			if (e - k == 4 && memcmp(w + k, "CUDA", 4) == 0)
				bld_replace(&c->rw, offset + k, 4, "HIP");
			if (i >= 2 && e - k == 6 && memcmp(w + k, "NVIDIA", 6) == 0)
				bld_replace(&c->rw, offset + k, 6, "Clang");
			k = e + 1;
		}
		return true;
	}
	return false;
}

static bool in_command(const cmake *c, const char *const *names)
{
	size_t i;

	for (i = 0; names[i]; i++)
		if (strcmp(c->cmd.name, names[i]) == 0)
			return true;
	return false;
}

static void word(cmake *c, size_t offset, size_t n)
{
	/* where CUDA is a language: its own commands, and the LANGUAGE property */
	static const char *const language_commands[] = { "project", "enable_language", "check_language",
							 "set_source_files_properties", "set_property", NULL };
	static const char *const findcuda_variables[] = { "CUDA_NVCC_FLAGS", "CUDA_INCLUDE_DIRS", "CUDA_LIBRARIES",
							  "CUDAToolkit_INCLUDE_DIRS", "CUDA_CUBLAS_LIBRARIES", NULL };
	static const char *const source_commands[] = { "add_executable", "add_library", "target_sources", NULL };
	command *cmd = &c->cmd;
	const char *w = c->rw.src + offset;
	const char *hip;
	size_t i;

	/* ":--use_fast_math" after a generator condition */
	while (n && *w == ':') {
		w++;
		offset++;
		n--;
	}
	if (!n)
		return;
	cmd->nwords++;
	if (cmd->arch == 1) {
		if (bld_is_arch_value(w, n)) {
			if (cmd->arch_values++ == 0)
				bld_replace(&c->rw, offset, n, c->rw.arch);
			else
				bld_delete_word(&c->rw, offset, n);
			return;
		}
		cmd->arch = 0;
	}
	if (bld_flag_word(&c->rw, offset, n) || language_condition(c, w, n, offset))
		return;
	if (bld_word_is(w, n, "REQUIRED"))
		cmd->required = true;
	if (bld_word_is(w, n, "CUDA") && in_command(c, language_commands)) {
		bld_replace(&c->rw, offset, n, "HIP");
		return;
	}
	if (cmd->nwords == 1 && strcmp(cmd->name, "find_package") == 0 &&
	    (bld_word_is(w, n, "CUDAToolkit") || bld_word_is(w, n, "CUDA"))) {
		bld_replace(&c->rw, offset, n, "hip");
		cmd->cuda_package = true;
		return;
	}
	/* find_package(CUDAToolkit 11.0): a CUDA version means nothing to hip */
	if (cmd->cuda_package && cmd->nwords == 2 && n && isdigit((unsigned char)*w)) {
		bld_delete_word(&c->rw, offset, n);
		return;
	}
	if (n > 6 && memcmp(w, "CUDA::", 6) == 0) {
		if (target_package(w + 6, n - 6, &hip)) {
			bld_replace(&c->rw, offset, n, hip);
			for (i = 0; i < NTARGETS; i++)
				c->packages[i] |= bld_word_is(w + 6, n - 6, targets[i].cuda);
		}
		else
			bld_hit(&c->rw, "BUILD-001", AN_ERROR, offset, n, "imported target %.*s has no HIP counterpart",
				(int)n, w);
		return;
	}
	if (n > 11 && memcmp(w, "CMAKE_CUDA_", 11) == 0) {
		util_buf name = UTIL_BUF_INIT;

		util_buf_printf(&name, "CMAKE_HIP_%.*s", (int)(n - 11), w + 11);
		if (util_buf_oom(&name)) {
			c->rw.oom = true;
			return;
		}
		bld_replace(&c->rw, offset, n, name.ptr);
		util_buf_dispose(&name);
		if (bld_word_is(w, n, "CMAKE_CUDA_ARCHITECTURES") && cmd->nwords == 1 && strcmp(cmd->name, "set") == 0) {
			cmd->arch = 1;
			bld_hit(&c->rw, "BUILD-004", AN_NOTE, offset, n,
				"CUDA architectures replaced by the offload arch %s", c->rw.arch);
		}
		return;
	}
	if (bld_word_is(w, n, "CUDA_ARCHITECTURES")) {
		bld_replace(&c->rw, offset, n, "HIP_ARCHITECTURES");
		cmd->arch = 1;
		bld_hit(&c->rw, "BUILD-004", AN_NOTE, offset, n, "CUDA architectures replaced by the offload arch %s",
			c->rw.arch);
		return;
	}
	for (i = 0; i < sizeof(properties) / sizeof(properties[0]); i++)
		if (bld_word_is(w, n, properties[i].cuda)) {
			bld_replace(&c->rw, offset, n, properties[i].hip);
			return;
		}
	if (bld_word_is(w, n, "CUDA_SEPARABLE_COMPILATION") || bld_word_is(w, n, "CUDA_RESOLVE_DEVICE_SYMBOLS")) {
		bld_hit(&c->rw, "BUILD-005", AN_WARNING, offset, n,
			"%.*s has no HIP property: compile and link with -fgpu-rdc instead", (int)n, w);
		return;
	}
	for (i = 0; findcuda_variables[i]; i++)
		if (bld_word_is(w, n, findcuda_variables[i]))
			break;
	if (findcuda_variables[i]) {
		bld_hit(&c->rw, "BUILD-001", AN_ERROR, offset, n, "%.*s (FindCUDA) has no HIP counterpart", (int)n, w);
		return;
	}
	if (in_command(c, source_commands) && n > 3 && memcmp(w + n - 3, ".cu", 3) == 0 &&
	    cmd->nsources < sizeof(cmd->sources) / sizeof(cmd->sources[0])) {
		cmd->sources[cmd->nsources] = offset;
		cmd->source_lens[cmd->nsources++] = n;
	}
}

/* The blanks before the command's name on its line. */
static void put_indent(cmake *c, util_buf *text)
{
	size_t s = c->cmd.start;

	while (s > 0 && (c->rw.src[s - 1] == ' ' || c->rw.src[s - 1] == '\t'))
		s--;
	util_buf_put(text, c->rw.src + s, c->cmd.start - s);
}

/* After the last command: the find_package() of each HIP library the
 * file links, after its find_package(CUDAToolkit). */
static void add_packages(cmake *c)
{
	util_buf text = UTIL_BUF_INIT;
	size_t i, k;

	if (!c->package_at)
		return;
	for (i = 0; i < NTARGETS; i++) {
		bool seen = false;

		if (!c->packages[i] || strcmp(targets[i].package, "hip") == 0)
			continue;
		for (k = 0; k < i; k++)
			seen |= c->packages[k] && strcmp(targets[k].package, targets[i].package) == 0;
		if (seen)
			continue;
		util_buf_putc(&text, '\n');
		util_buf_put(&text, c->package_indent.ptr, c->package_indent.len);
		util_buf_printf(&text, "find_package(%s%s)", targets[i].package, c->package_required ? " REQUIRED" : "");
	}
	if (util_buf_oom(&text))
		c->rw.oom = true;
	else if (text.len)
		bld_replace(&c->rw, c->package_at, 0, text.ptr);
	util_buf_dispose(&text);
}

/* Whether what comes after offset, past blank lines, is text: a port
 * translated again keeps the lines it added once. */
static bool follows(const cmake *c, size_t offset, const char *text)
{
	size_t n = strlen(text);

	while (offset < c->rw.len && isspace((unsigned char)c->rw.src[offset]))
		offset++;
	return c->rw.len - offset >= n && memcmp(c->rw.src + offset, text, n) == 0;
}

/* After a command's ')': the LANGUAGE HIP of .cu sources, unless there already. */
static void end_command(cmake *c, size_t after)
{
	util_buf text = UTIL_BUF_INIT;
	size_t i;

	if (c->cmd.cuda_package && !c->package_at) {
		c->package_at = after;
		c->package_required = c->cmd.required;
		put_indent(c, &c->package_indent);
	}
	if (c->cmd.nsources) {
		util_buf_puts(&text, "set_source_files_properties(");
		for (i = 0; i < c->cmd.nsources; i++)
			util_buf_printf(&text, "%s%.*s", i ? " " : "", (int)c->cmd.source_lens[i],
					c->rw.src + c->cmd.sources[i]);
		util_buf_puts(&text, " PROPERTIES LANGUAGE HIP)");
	}
	if (util_buf_oom(&text)) {
		c->rw.oom = true;
	} else if (text.len && !follows(c, after, text.ptr)) {
		util_buf line = UTIL_BUF_INIT;

		util_buf_putc(&line, '\n');
		put_indent(c, &line);
		util_buf_puts(&line, text.ptr);
		if (util_buf_oom(&line))
			c->rw.oom = true;
		else
			bld_replace(&c->rw, after, 0, line.ptr);
		util_buf_dispose(&line);
	}
	util_buf_dispose(&text);
}

/* A command name: FindCUDA's cuda_add_executable() and friends have no HIP
 * counterpart here. */
static void start_command(cmake *c, size_t offset, size_t n)
{
	size_t i;

	memset(&c->cmd, 0, sizeof(c->cmd));
	c->cmd.start = offset;
	for (i = 0; i < n && i < sizeof(c->cmd.name) - 1; i++)
		c->cmd.name[i] = (char)tolower((unsigned char)c->rw.src[offset + i]);
	bld_statement(&c->rw);
	if (n > 5 && strncasecmp(c->rw.src + offset, "cuda_", 5) == 0)
		bld_hit(&c->rw, "BUILD-001", AN_ERROR, offset, n,
			"%.*s() is FindCUDA's: use the HIP language (add_executable, add_library) instead", (int)n,
			c->rw.src + offset);
}

static void quoted_words(cmake *c, size_t from, size_t to)
{
	size_t i = from;

	while (i < to) {
		size_t s;

		if (c->rw.src[i] == '\\') {
			i += 2;
			continue;
		}
		if (is_delim(c->rw.src[i]) || c->rw.src[i] == ';') {
			i++;
			continue;
		}
		s = i;
		while (i < to && !is_delim(c->rw.src[i]) && c->rw.src[i] != ';')
			i++;
		word(c, s, i - s);
	}
}

int bld_cmake_translate(util_buf *out, an_analysis *hits, const char *src, size_t len, const char *arch)
{
	cmake c;
	size_t i = 0, depth = 0, eqs, open;
	int error;

	memset(&c, 0, sizeof(c));
	bld_rewriter_init(&c.rw, src, len, arch);
	while (i < len) {
		char ch = src[i];

		if (ch == '#') {
			if ((open = bracket_open(src + i + 1, src + len, &eqs)) != 0)
				i = bracket_close(src, len, i + 1 + open, eqs);
			else
				while (i < len && src[i] != '\n')
					i++;
		} else if (ch == '[' && depth && (open = bracket_open(src + i, src + len, &eqs)) != 0) {
			i = bracket_close(src, len, i + open, eqs);
			c.cmd.nwords++;
			c.cmd.arch = 0;
		} else if (ch == '"') {
			size_t s = ++i;

			while (i < len && src[i] != '"')
				i += src[i] == '\\' ? 2 : 1;
			if (i > len)
				i = len;
			if (depth)
				quoted_words(&c, s, i);
			i += i < len;
		} else if (ch == '(') {
			depth++;
			i++;
		} else if (ch == ')') {
			i++;
			if (depth && --depth == 0)
				end_command(&c, i);
		} else if (ch == '\\') {
			i += 2;
		} else if (is_delim(ch) || ch == ';') {
			i++;
		} else {
			size_t s = i;

			while (i < len && !is_delim(src[i]) && src[i] != ';' && src[i] != '#')
				i++;
			if (depth)
				word(&c, s, i - s);
			else
				start_command(&c, s, i - s);
		}
	}
	add_packages(&c);
	error = bld_rewriter_finish(&c.rw, out, hits);
	bld_rewriter_dispose(&c.rw);
	util_buf_dispose(&c.package_indent);
	return error;
}
