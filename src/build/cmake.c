/* CMake: the CUDA language, CMAKE_CUDA_* variables, CUDA_* properties,
 * CUDA:: imported targets, .cu sources and nvcc flags. Commands are matched
 * without regard to case; comments and bracket arguments are kept; quoted
 * arguments are values of the build and are rewritten like unquoted ones.
 *
 * Architectures may come in variables (set(ARCHS 70 80) and
 * CMAKE_CUDA_ARCHITECTURES ${ARCHS}, -arch=${CUDA_ARCH},
 * foreach(arch ${ARCHS}) ... -gencode arch=compute_${arch},code=sm_${arch}):
 * a first pass records where variables are set and used (bld_vars), and a
 * variable the port can follow gets the offload arch where it is set. */
#include <ctype.h>
#include <stdint.h>
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
	bld_span arch_name;  /* CUDA_ARCHITECTURES, where its note goes */
	size_t sources[32];  /* .cu sources named (offsets; lengths in source_lens) */
	size_t source_lens[32];
	size_t nsources;
} command;

typedef struct cmake {
	bld_rewriter rw;
	bld_vars vars;
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

/* Whether the word at offset is the name of a reference: ${X}. */
static bool is_ref(const cmake *c, size_t offset, size_t n)
{
	return offset >= 2 && c->rw.src[offset - 2] == '$' && c->rw.src[offset - 1] == '{' && offset + n < c->rw.len &&
	       c->rw.src[offset + n] == '}';
}

/* A value of CUDA_ARCHITECTURES written out: the first becomes the offload
 * arch, the others go; the note goes on the property's name. */
static void arch_literal(cmake *c, size_t offset, size_t n)
{
	command *cmd = &c->cmd;
	const char *w = c->rw.src + offset;

	if (cmd->arch_values++ != 0) {
		bld_delete_word(&c->rw, offset, n);
		return;
	}
	bld_replace(&c->rw, offset, n, c->rw.arch);
	if (bld_word_is(w, n, "native"))
		bld_hit(&c->rw, "BUILD-004", AN_NOTE, cmd->arch_name.at, cmd->arch_name.len,
			"CUDA architectures (native) replaced by the offload arch %s: HIP_ARCHITECTURES has no native, "
			"and ROCm's CMake builds for the GPUs of the machine when CMAKE_HIP_ARCHITECTURES is not set",
			c->rw.arch);
	else if (bld_word_is(w, n, "all") || bld_word_is(w, n, "all-major"))
		bld_hit(&c->rw, "BUILD-004", AN_NOTE, cmd->arch_name.at, cmd->arch_name.len,
			"CUDA architectures (%.*s) replaced by the offload arch %s: HIP_ARCHITECTURES has no %.*s, list "
			"the gfx archs to build for",
			(int)n, w, c->rw.arch, (int)n, w);
	else
		bld_hit(&c->rw, "BUILD-004", AN_NOTE, cmd->arch_name.at, cmd->arch_name.len,
			"CUDA architectures replaced by the offload arch %s", c->rw.arch);
}

/* CUDA_ARCHITECTURES ${X}: X gets the offload arch where it is set, or a
 * finding says why not. */
static void arch_ref(cmake *c, size_t offset, size_t n)
{
	util_buf why = UTIL_BUF_INIT;
	bld_fate fate = bld_vars_fate(&c->vars, (bld_span){ offset, n }, &why);
	const command *cmd = &c->cmd;

	if (fate == BLD_FATE_OUTSIDE)
		bld_hit(&c->rw, "BUILD-004", AN_WARNING, offset, n,
			"%.*s takes ${%.*s}, but %s: its value must be HIP architectures such as %s",
			(int)cmd->arch_name.len, c->rw.src + cmd->arch_name.at, (int)n, c->rw.src + offset,
			why.ptr ? why.ptr : "", c->rw.arch);
	else if (fate == BLD_FATE_KEEP || fate == BLD_FATE_NONE)
		bld_hit(&c->rw, "BUILD-004", AN_WARNING, offset, n,
			"%.*s takes ${%.*s}, which stays: %s; set HIP architectures such as %s",
			(int)cmd->arch_name.len, c->rw.src + cmd->arch_name.at, (int)n, c->rw.src + offset,
			why.ptr ? why.ptr : "its value is not followed", c->rw.arch);
	util_buf_dispose(&why);
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
			arch_literal(c, offset, n);
			return;
		}
		if (!is_ref(c, offset, n))
			cmd->arch = 0;
		else
			arch_ref(c, offset, n);
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
			cmd->arch_name = (bld_span){ offset, n };
		}
		return;
	}
	if (bld_word_is(w, n, "CUDA_ARCHITECTURES")) {
		bld_replace(&c->rw, offset, n, "HIP_ARCHITECTURES");
		cmd->arch = 1;
		cmd->arch_name = (bld_span){ offset, n };
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

/* ---- the first pass: where variables are set and used ---- */

typedef struct cm_arg {
	size_t at, len; /* inside the quotes of a quoted argument */
	bool quoted, bracket;
} cm_arg;

typedef struct analysis {
	cmake *c;
	const char *src;
	size_t len;
	cm_arg *args;
	size_t nargs, cap;
	size_t *open; /* the loops whose endforeach() is to come */
	size_t nopen, ocap;
	bool pending, gencode; /* an arch flag whose value is the next word */
} analysis;

static bool ref_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_./+-", c) != NULL;
}

/* The offset after the reference whose '{' is at at. */
static size_t ref_end(const char *src, size_t at, size_t end)
{
	size_t depth = 0, i;

	for (i = at; i < end; i++) {
		if (src[i] == '{')
			depth++;
		else if (src[i] == '}' && --depth == 0)
			return i + 1;
	}
	return end;
}

/* The end of the word at i: up to a blank, ';', a quote, a parenthesis or
 * the '>' of a generator expression; ${...} is part of it. */
static size_t word_end(const char *src, size_t i, size_t end)
{
	while (i < end) {
		if (src[i] == '$' && i + 1 < end && src[i + 1] == '{')
			i = ref_end(src, i + 1, end);
		else if (isspace((unsigned char)src[i]) || strchr(";\"()>", src[i]))
			break;
		else
			i += src[i] == '\\' ? 2 : 1;
	}
	return i < end ? i : end;
}

static void scan_refs(analysis *an, size_t from, size_t to, bld_use use, size_t owner)
{
	const char *src = an->src;
	size_t i = from, e, k;

	while (i < to) {
		if (src[i] != '$' || i + 1 >= to || src[i + 1] != '{') {
			i++;
			continue;
		}
		e = ref_end(src, i + 1, to);
		for (k = i + 2; k < e - 1 && ref_char(src[k]); k++)
			;
		if (k == e - 1 && src[k] == '}')
			bld_vars_ref(&an->c->vars, (bld_span){ i + 2, k - i - 2 }, use, owner);
		else /* ${A_${B}}: a name made of others */
			scan_refs(an, i + 2, e, BLD_USE_OTHER, 0);
		i = e;
	}
}

/* Whether [at, at + n) is one reference, ${X}, and nothing else. */
static bool plain_ref(const char *src, size_t at, size_t n)
{
	size_t k;

	if (n < 4 || src[at] != '$' || src[at + 1] != '{' || src[at + n - 1] != '}')
		return false;
	for (k = at + 2; k < at + n - 1; k++)
		if (!ref_char(src[k]))
			return false;
	return true;
}

static void arch_value(analysis *an, size_t at, size_t n, bool gencode)
{
	bld_arch_value v;
	size_t i;

	bld_arch_value_parse(an->src, at, n, gencode, &v);
	if (v.kind == BLD_ARCH_COMPLEX)
		scan_refs(an, at, at + n, BLD_USE_OTHER, 0);
	else
		for (i = 0; i < v.nvars; i++)
			bld_vars_ref(&an->c->vars, v.vars[i], BLD_USE_ARCH, 0);
}

/* The words of an argument: arch flags (their value may be the next
 * argument), the references of the others. */
static void scan_arg(analysis *an, const cm_arg *a, bld_use use, size_t owner)
{
	const char *src = an->src;
	size_t i = a->at, to = a->at + a->len, e, value_at;
	bld_arch_flag_kind kind;

	if (a->bracket)
		return;
	while (i < to) {
		if (isspace((unsigned char)src[i]) || strchr(";>:", src[i])) {
			i++;
			continue;
		}
		e = word_end(src, i, to);
		if (e == i) {
			i++;
			continue;
		}
		if (an->pending) {
			arch_value(an, i, e - i, an->gencode);
			an->pending = false;
		} else if ((kind = bld_arch_flag(src + i, e - i, &value_at)) != BLD_ARCH_FLAG_NONE) {
			an->gencode = kind == BLD_ARCH_FLAG_GENCODE;
			if (value_at == e - i)
				an->pending = true;
			else
				arch_value(an, i + value_at, e - i - value_at, an->gencode);
		} else {
			scan_refs(an, i, e, use, owner);
		}
		i = e;
	}
}

static bool arg_is(const analysis *an, size_t k, const char *what)
{
	return k < an->nargs && !an->args[k].quoted && !an->args[k].bracket &&
	       bld_word_is(an->src + an->args[k].at, an->args[k].len, what);
}

/* The kind of the values args[first, last), and where they are. */
static bld_def_kind values_kind(const analysis *an, size_t first, size_t last, bool *named, bld_span *span)
{
	const char *src = an->src;
	bool any = false, archs = true, refs = true;
	size_t k, i, e;

	*named = false;
	span->at = span->len = 0;
	for (k = first; k < last; k++) {
		const cm_arg *a = &an->args[k];

		if (a->bracket) {
			archs = refs = false;
			continue;
		}
		for (i = a->at; i < a->at + a->len; i = e) {
			if (isspace((unsigned char)src[i]) || src[i] == ';') {
				e = i + 1;
				continue;
			}
			e = word_end(src, i, a->at + a->len);
			if (e == i)
				e = i + 1;
			if (!bld_vars_arch_word(src + i, e - i, named))
				archs = false;
			if (!plain_ref(src, i, e - i))
				refs = false;
			if (!any)
				span->at = i;
			span->len = e - span->at;
			any = true;
		}
	}
	if (!any)
		return BLD_DEF_EMPTY;
	if (archs)
		return BLD_DEF_ARCHS;
	*named = false;
	return refs ? BLD_DEF_DERIVED : BLD_DEF_OTHER;
}

static void define(analysis *an, size_t name, size_t first, size_t last)
{
	const cm_arg *a = &an->args[name];
	bld_def_kind kind;
	bld_span span;
	bool named;
	size_t d, k;

	if (a->bracket || memchr(an->src + a->at, '$', a->len)) {
		for (k = 0; k < an->nargs; k++)
			scan_arg(an, &an->args[k], BLD_USE_OTHER, 0);
		return;
	}
	kind = values_kind(an, first, last, &named, &span);
	d = bld_vars_def(&an->c->vars, (bld_span){ a->at, a->len }, span, kind, named);
	for (k = first; k < last; k++)
		scan_arg(an, &an->args[k], d == SIZE_MAX ? BLD_USE_OTHER : BLD_USE_DEF, d == SIZE_MAX ? 0 : d);
}

/* foreach(VAR a b ${L}), foreach(VAR IN LISTS L ITEMS a b): the loop's body
 * starts after the command. */
static void loop(analysis *an, size_t body)
{
	const char *src = an->src;
	size_t k = 1, l, i, e;
	bool lists = false, named;
	bld_var_loop *lp;

	if (!an->nargs || an->args[0].quoted || an->args[0].bracket)
		return;
	l = bld_vars_loop(&an->c->vars, (bld_span){ an->args[0].at, an->args[0].len }, body, an->len);
	if (l == SIZE_MAX)
		return;
	if (an->nopen == an->ocap) {
		size_t cap = an->ocap ? an->ocap * 2 : 8, *grown = realloc(an->open, cap * sizeof(*grown));

		if (!grown) {
			an->c->vars.oom = true;
			return;
		}
		an->open = grown;
		an->ocap = cap;
	}
	an->open[an->nopen++] = l;
	lp = &an->c->vars.loops[l];
	if (arg_is(an, 1, "RANGE")) {
		lp->list_kind = BLD_DEF_OTHER;
		return;
	}
	if (arg_is(an, 1, "IN"))
		k = 2;
	for (; k < an->nargs; k++) {
		const cm_arg *a = &an->args[k];

		if (arg_is(an, k, "LISTS") || arg_is(an, k, "ITEMS") || arg_is(an, k, "ZIP_LISTS")) {
			lists = !arg_is(an, k, "ITEMS");
			if (arg_is(an, k, "ZIP_LISTS"))
				lp->list_kind = BLD_DEF_OTHER;
			continue;
		}
		if (a->bracket)
			continue;
		if (lists) {
			bld_vars_ref(&an->c->vars, (bld_span){ a->at, a->len }, BLD_USE_LIST, l);
			lp->list_refs = true;
			continue;
		}
		for (i = a->at; i < a->at + a->len; i = e) {
			if (isspace((unsigned char)src[i]) || src[i] == ';') {
				e = i + 1;
				continue;
			}
			e = word_end(src, i, a->at + a->len);
			if (e == i)
				e = i + 1;
			if (plain_ref(src, i, e - i)) {
				bld_vars_ref(&an->c->vars, (bld_span){ i + 2, e - i - 3 }, BLD_USE_LIST, l);
				lp->list_refs = true;
			} else if (bld_vars_arch_word(src + i, e - i, &named)) {
				if (lp->list_kind == BLD_DEF_EMPTY)
					lp->list_kind = BLD_DEF_ARCHS;
				if (!lp->list.len)
					lp->list.at = i;
				lp->list.len = e - lp->list.at;
			} else {
				lp->list_kind = BLD_DEF_OTHER;
				scan_refs(an, i, e, BLD_USE_OTHER, 0);
			}
		}
	}
}

/* One command of the first pass, its arguments in an->args. */
static void analyze_command(analysis *an, size_t name_at, size_t name_len, size_t end)
{
	const char *src = an->src;
	char name[32];
	size_t i, k, last, arch_args = 0;
	bool arch = false;

	for (i = 0; i < name_len && i < sizeof(name) - 1; i++)
		name[i] = (char)tolower((unsigned char)src[name_at + i]);
	name[i] = '\0';
	an->pending = false;
	if (strcmp(name, "foreach") == 0) {
		loop(an, end);
		return;
	}
	if (strcmp(name, "endforeach") == 0) {
		if (an->nopen)
			an->c->vars.loops[an->open[--an->nopen]].body_end = name_at;
		return;
	}
	if (strcmp(name, "set") == 0 && an->nargs) {
		for (last = 1; last < an->nargs && !arg_is(an, last, "CACHE") && !arg_is(an, last, "PARENT_SCOPE"); last++)
			;
		if (!an->args[0].quoted &&
		    (arg_is(an, 0, "CMAKE_CUDA_ARCHITECTURES") || arg_is(an, 0, "CMAKE_HIP_ARCHITECTURES"))) {
			for (k = 1; k < last; k++)
				scan_arg(an, &an->args[k], BLD_USE_ARCH, 0);
		} else {
			define(an, 0, 1, last);
		}
		for (k = last; k < an->nargs; k++)
			scan_arg(an, &an->args[k], BLD_USE_NEUTRAL, 0);
		return;
	}
	if (strcmp(name, "list") == 0 && an->nargs >= 2) {
		if (arg_is(an, 0, "APPEND") || arg_is(an, 0, "PREPEND")) {
			define(an, 1, 2, an->nargs);
			return;
		}
		bld_vars_ref(&an->c->vars, (bld_span){ an->args[1].at, an->args[1].len },
			     arg_is(an, 0, "REMOVE_DUPLICATES") || arg_is(an, 0, "SORT") ? BLD_USE_NEUTRAL : BLD_USE_OTHER, 0);
		for (k = 2; k < an->nargs; k++)
			scan_arg(an, &an->args[k], BLD_USE_OTHER, 0);
		return;
	}
	if (strcmp(name, "string") == 0 && an->nargs >= 2 && (arg_is(an, 0, "APPEND") || arg_is(an, 0, "PREPEND")))
		bld_vars_def(&an->c->vars, (bld_span){ an->args[1].at, an->args[1].len }, (bld_span){ 0, 0 }, BLD_DEF_OTHER,
			     false);
	if ((strcmp(name, "function") == 0 || strcmp(name, "macro") == 0)) {
		for (k = 1; k < an->nargs; k++)
			bld_vars_def(&an->c->vars, (bld_span){ an->args[k].at, an->args[k].len }, (bld_span){ 0, 0 },
				     BLD_DEF_PARAM, false);
		return;
	}
	if (strcmp(name, "include") == 0 && an->nargs) {
		const cm_arg *a = &an->args[0];

		if (memchr(src + a->at, '/', a->len) || memchr(src + a->at, '$', a->len) ||
		    (a->len > 6 && memcmp(src + a->at + a->len - 6, ".cmake", 6) == 0))
			an->c->vars.includes = true;
	}
	if (strcmp(name, "message") == 0) {
		for (k = 0; k < an->nargs; k++)
			scan_arg(an, &an->args[k], BLD_USE_NEUTRAL, 0);
		return;
	}
	if (strcmp(name, "if") == 0 || strcmp(name, "elseif") == 0 || strcmp(name, "while") == 0) {
		bld_use use;
		bool named;

		/* a comparison with an architecture uses the value; a test of it does not */
		for (k = 0; k < an->nargs; k++)
			arch |= !an->args[k].bracket && bld_vars_arch_word(src + an->args[k].at, an->args[k].len, &named);
		use = arch ? BLD_USE_OTHER : BLD_USE_NEUTRAL;
		for (k = 0; k < an->nargs; k++) {
			const cm_arg *a = &an->args[k];

			if (!a->quoted && !a->bracket && a->len && !memchr(src + a->at, '$', a->len))
				bld_vars_ref(&an->c->vars, (bld_span){ a->at, a->len }, use, 0);
			scan_arg(an, a, use, 0);
		}
		return;
	}
	/* CUDA_ARCHITECTURES V: set_target_properties takes one value, set_property all */
	for (k = 0; k < an->nargs; k++) {
		if (arg_is(an, k, "CUDA_ARCHITECTURES") || arg_is(an, k, "HIP_ARCHITECTURES")) {
			arch_args = strcmp(name, "set_property") == 0 ? an->nargs : 1;
			continue;
		}
		scan_arg(an, &an->args[k], arch_args ? BLD_USE_ARCH : BLD_USE_OTHER, 0);
		if (arch_args)
			arch_args--;
		/* execute_process(... OUTPUT_VARIABLE V), math(EXPR V ...), option(V):
		 * a name given bare may be set by the command */
		else if (!an->args[k].quoted && !an->args[k].bracket && an->args[k].len &&
			 !memchr(src + an->args[k].at, '$', an->args[k].len) &&
			 (isalpha((unsigned char)src[an->args[k].at]) || src[an->args[k].at] == '_'))
			bld_vars_def(&an->c->vars, (bld_span){ an->args[k].at, an->args[k].len }, (bld_span){ 0, 0 },
				     BLD_DEF_OTHER, false);
	}
}

static bool push_arg(analysis *an, size_t at, size_t len, bool quoted, bool bracket)
{
	if (an->nargs == an->cap) {
		size_t cap = an->cap ? an->cap * 2 : 16;
		cm_arg *grown = realloc(an->args, cap * sizeof(*grown));

		if (!grown) {
			an->c->vars.oom = true;
			return false;
		}
		an->args = grown;
		an->cap = cap;
	}
	an->args[an->nargs++] = (cm_arg){ at, len, quoted, bracket };
	return true;
}

/* The arguments after the '(' at i; the offset after the ')'. */
static size_t arguments(analysis *an, size_t i)
{
	const char *src = an->src;
	size_t len = an->len, depth = 1, eqs, open, s;

	an->nargs = 0;
	while (i < len) {
		char ch = src[i];

		if (ch == '#') {
			if ((open = bracket_open(src + i + 1, src + len, &eqs)) != 0)
				i = bracket_close(src, len, i + 1 + open, eqs);
			else
				while (i < len && src[i] != '\n')
					i++;
		} else if (ch == '[' && (open = bracket_open(src + i, src + len, &eqs)) != 0) {
			s = i;
			i = bracket_close(src, len, i + open, eqs);
			push_arg(an, s, i - s, false, true);
		} else if (ch == '"') {
			s = ++i;
			while (i < len && src[i] != '"')
				i += src[i] == '\\' ? 2 : 1;
			if (i > len)
				i = len;
			push_arg(an, s, i - s, true, false);
			i += i < len;
		} else if (ch == '(') {
			depth++;
			i++;
		} else if (ch == ')') {
			i++;
			if (--depth == 0)
				return i;
		} else if (isspace((unsigned char)ch)) {
			i++;
		} else {
			s = i;
			while (i < len && !isspace((unsigned char)src[i]) && !strchr("()\"#", src[i])) {
				if (src[i] == '$' && i + 1 < len && src[i + 1] == '{')
					i = ref_end(src, i + 1, len);
				else
					i += src[i] == '\\' ? 2 : 1;
			}
			if (i > len)
				i = len;
			push_arg(an, s, i - s, false, false);
		}
	}
	return len;
}

static void analyze(cmake *c)
{
	analysis an;
	const char *src = c->rw.src;
	size_t len = c->rw.len, i = 0, eqs, open, s, e;

	memset(&an, 0, sizeof(an));
	an.c = c;
	an.src = src;
	an.len = len;
	while (i < len) {
		if (src[i] == '#') {
			if ((open = bracket_open(src + i + 1, src + len, &eqs)) != 0)
				i = bracket_close(src, len, i + 1 + open, eqs);
			else
				while (i < len && src[i] != '\n')
					i++;
			continue;
		}
		if (!isalpha((unsigned char)src[i]) && src[i] != '_') {
			i++;
			continue;
		}
		for (s = i; i < len && (isalnum((unsigned char)src[i]) || src[i] == '_'); i++)
			;
		e = i;
		while (i < len && (src[i] == ' ' || src[i] == '\t'))
			i++;
		if (i < len && src[i] == '(') {
			i = arguments(&an, i + 1);
			analyze_command(&an, s, e - s, i);
		}
	}
	free(an.args);
	free(an.open);
}

/* A word the flag mapping takes whole at i, in [i, to): an arch flag with
 * its references (-arch=${CUDA_ARCH}, after the ':' of a generator
 * expression too), or a flag's argument (-ccbin ${CMAKE_CXX_COMPILER}). */
static size_t whole_word(cmake *c, size_t i, size_t to, size_t *start)
{
	const char *src = c->rw.src;
	char prev = i ? src[i - 1] : ' ';
	bool wanted = bld_flag_wants_word(&c->rw);
	size_t s = i, e, value_at;

	if (!isspace((unsigned char)prev) && !strchr("(\";>", prev))
		return 0;
	while (!wanted && s < to && src[s] == ':')
		s++;
	e = word_end(src, s, to);
	if (e == s || (!wanted && (src[s] != '-' || bld_arch_flag(src + s, e - s, &value_at) == BLD_ARCH_FLAG_NONE)))
		return 0;
	*start = s;
	return e;
}

/* The offload arch over the values of a definition or loop list
 * (bld_vars_rewrite, after the edits of the words): the first replaced,
 * the others dropped; comments among them are kept. */
static void replace_values(bld_rewriter *rw, bld_span span)
{
	const char *src = rw->src;
	size_t i = span.at, end = span.at + span.len, e;
	bool first = true, quoted = false;

	while (i < end) {
		if (src[i] == '"') {
			quoted = !quoted;
			i++;
			continue;
		}
		if (src[i] == '#' && !quoted) {
			while (i < end && src[i] != '\n')
				i++;
			continue;
		}
		if (isspace((unsigned char)src[i]) || src[i] == ';') {
			i++;
			continue;
		}
		for (e = i; e < end && !isspace((unsigned char)src[e]) && !strchr(";\"", src[e]); e++)
			;
		if (first)
			bld_replace(rw, i, e - i, rw->arch);
		else if (i > 0 && src[i - 1] == '"' && e < rw->len && src[e] == '"')
			bld_delete_word(rw, i - 1, e - i + 2); /* "80": no empty argument left */
		else
			bld_delete_word(rw, i, e - i);
		first = false;
		i = e;
	}
}

static void quoted_words(cmake *c, size_t from, size_t to)
{
	size_t i = from;

	while (i < to) {
		size_t s, e;

		if (c->rw.src[i] == '\\') {
			i += 2;
			continue;
		}
		if (!isspace((unsigned char)c->rw.src[i]) && (e = whole_word(c, i, to, &s)) != 0) {
			bld_flag_word(&c->rw, s, e - s);
			i = e;
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
	size_t i = 0, depth = 0, eqs, open, e, ws;
	int error;

	memset(&c, 0, sizeof(c));
	bld_rewriter_init(&c.rw, src, len, arch);
	bld_vars_init(&c.vars, src, len, true);
	analyze(&c);
	bld_vars_decide(&c.vars);
	c.rw.vars = &c.vars;
	c.rw.oom |= c.vars.oom;
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
		} else if (depth && !isspace((unsigned char)ch) && (e = whole_word(&c, i, len, &ws)) != 0) {
			bld_flag_word(&c.rw, ws, e - ws);
			i = e;
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
	bld_statement(&c.rw);
	add_packages(&c);
	bld_vars_rewrite(&c.rw, &c.vars, replace_values, NULL);
	error = bld_rewriter_finish(&c.rw, out, hits);
	bld_rewriter_dispose(&c.rw);
	bld_vars_dispose(&c.vars);
	util_buf_dispose(&c.package_indent);
	return error;
}
