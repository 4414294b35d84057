/* BUILD findings of a PyTorch extension's setup.py: what PyTorch's own ROCm
 * build does for CUDAExtension (it hipifies the sources and compiles them
 * with hipcc) and what it does not (nvcc flags passed through to hipcc,
 * architectures written into the file). Found on Python tokens. */
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"


/* nvcc flags that hipcc refuses or ignores, by prefix. */
static const char *const nvcc_only[] = { "--use_fast_math", "-use_fast_math", "--expt-", "--extended-lambda",
					 "-lineinfo", "--generate-line-info", "-Xptxas", "--ptxas-options", "-Xcompiler",
					 "--compiler-options", "-Xnvlink", "--nvlink-options", "-Xfatbin", "-Xcudafe",
					 "-rdc", "--relocatable-device-code", "-maxrregcount", "--maxrregcount",
					 "-res-usage", "--resource-usage", "-ftz=", "--ftz", "-prec-div", "--prec-div",
					 "-prec-sqrt", "--prec-sqrt", "-fmad=", "--fmad", "--default-stream", "-ccbin",
					 "--compiler-bindir", "--threads", "-keep", NULL };

/* The text of a string literal token without its quotes and prefix. */
static void string_body(const an_ctx *ctx, size_t i, const char **s, size_t *n)
{
	const char *p = ctx->src + ctx->tokens[i].start, *end = ctx->src + ctx->tokens[i].end;

	while (p < end && *p != '"' && *p != '\'')
		p++;
	if (p + 1 < end && (*p == '"' || *p == '\'')) {
		size_t q = end - p >= 6 && p[1] == p[0] && p[2] == p[0] ? 3 : 1;

		*s = p + q;
		*n = (size_t)(end - p) >= 2 * q ? (size_t)(end - p) - 2 * q : 0;
		return;
	}
	*s = p;
	*n = 0;
}

static bool has(const char *s, size_t n, const char *what)
{
	return memmem(s, n, what, strlen(what)) != NULL;
}

/* Whether a string or name of the file spells PYTORCH_ROCM_ARCH: then the
 * file sets the ROCm targets too, and its TORCH_CUDA_ARCH_LIST is NVIDIA's. */
static bool sets_rocm_arch(const an_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->ntokens; i++)
		if (ctx->tokens[i].kind != PORT_TOKEN_COMMENT &&
		    has(ctx->src + ctx->tokens[i].start, ctx->tokens[i].end - ctx->tokens[i].start, "PYTORCH_ROCM_ARCH"))
			return true;
	return false;
}

static void flags(an_ctx *ctx, const an_py_rocm *rocm);

void an_setup_py_tokens(an_ctx *ctx, const an_py_rocm *rocm)
{
	size_t i;
	bool extension = false;

	/* called, or chosen (extension = CUDAExtension if use_cuda else CppExtension) */
	for (i = 0; i < ctx->ntokens; i++)
		if (AN_TOKEN_AT(ctx, i, "CUDAExtension") && ctx->tokens[i].kind == PORT_TOKEN_IDENT &&
		    !AN_TOKEN_AT(ctx, an_py_stmt_start(ctx, i), "from") && !AN_TOKEN_AT(ctx, an_py_stmt_start(ctx, i), "import")) {
			an_add(ctx, "BUILD-008", AN_NOTE, ctx->tokens[i].start, ctx->tokens[i].end,
			       "CUDAExtension: a ROCm build of PyTorch hipifies its sources and compiles them with hipcc "
			       "itself; what it passes on unchanged is below");
			extension = true;
		}
	if (extension)
		flags(ctx, rocm);
	an_setup_gates_tokens(ctx, rocm);
}

/* BUILD-009 and BUILD-010: the strings of the file outside ROCm branches. */
static void flags(an_ctx *ctx, const an_py_rocm *rocm)
{
	bool rocm_arch = sets_rocm_arch(ctx);
	size_t i, k;

	for (i = 0; i < ctx->ntokens; i++) {
		const char *s;
		size_t n;

		if (ctx->tokens[i].kind != PORT_TOKEN_LITERAL || (ctx->src[ctx->tokens[i].start] != '"' &&
								 ctx->src[ctx->tokens[i].start] != '\'' &&
								 !strchr("rRbBuUfF", ctx->src[ctx->tokens[i].start])))
			continue;
		string_body(ctx, i, &s, &n);
		if (n == 0 || an_py_rocm_branch(ctx, rocm, i))
			continue;
		for (k = 0; nvcc_only[k]; k++)
			if (n >= strlen(nvcc_only[k]) && memcmp(s, nvcc_only[k], strlen(nvcc_only[k])) == 0)
				break;
		if (nvcc_only[k]) {
			an_add(ctx, "BUILD-009", AN_WARNING, ctx->tokens[i].start, ctx->tokens[i].end,
			       "%.*s: an nvcc flag in the extension's arguments; on ROCm they go to hipcc, which refuses or "
			       "ignores it",
			       (int)(n < 60 ? n : 60), s);
			continue;
		}
		if ((n > 5 && memcmp(s, "-arch", 5) == 0) || has(s, n, "-gencode") || has(s, n, "arch=compute_") ||
		    has(s, n, "code=sm_") || (n >= 3 && memcmp(s, "sm_", 3) == 0))
			an_add(ctx, "BUILD-010", AN_WARNING, ctx->tokens[i].start, ctx->tokens[i].end,
			       "%.*s: an NVIDIA architecture written into setup.py; the ROCm build takes its targets "
			       "from PYTORCH_ROCM_ARCH (gfx90a, gfx942)",
			       (int)(n < 60 ? n : 60), s);
		else if (n == strlen("TORCH_CUDA_ARCH_LIST") && memcmp(s, "TORCH_CUDA_ARCH_LIST", n) == 0 && !rocm_arch)
			an_add(ctx, "BUILD-010", AN_WARNING, ctx->tokens[i].start, ctx->tokens[i].end,
			       "TORCH_CUDA_ARCH_LIST set in setup.py: the ROCm build reads PYTORCH_ROCM_ARCH instead");
	}
}
