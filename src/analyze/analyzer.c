/* The analyzer's lifetime and one file's analysis: parse with the prelude,
 * gather facts per function, let each family look at every cursor, sort. */
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"
#include "analyze/compile_db.h"
#include "analyze/parse.h"
#include "analyze/pylex.h"
#include "util/error.h"

struct an_analyzer {
	an_parser *parser;
	an_compile_db *db;
	port_version target_hip;
};

int an_analyzer_new(an_analyzer **out, const char *compile_db, port_version target_hip)
{
	an_analyzer *a = calloc(1, sizeof(*a));
	int err;

	*out = NULL;
	if (!a)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (compile_db && (err = an_compile_db_load(&a->db, compile_db))) {
		free(a);
		return err;
	}
	a->target_hip = target_hip;
	if ((err = an_parser_new(&a->parser)) < 0) {
		an_compile_db_free(a->db);
		free(a);
		return err;
	}
	*out = a;
	return 0;
}

void an_analyzer_free(an_analyzer *a)
{
	if (!a)
		return;
	an_parser_free(a->parser);
	an_compile_db_free(a->db);
	free(a);
}

static void hit_dispose(an_hit *h)
{
	size_t k;

	for (k = 0; k < h->nedits; k++) {
		free(h->edits[k].text);
		free(h->edits[k].helper);
	}
	free(h->edits);
	free(h->message);
}

void an_analysis_dispose(an_analysis *analysis)
{
	size_t i;

	for (i = 0; i < analysis->count; i++)
		hit_dispose(&analysis->hits[i]);
	free(analysis->hits);
	memset(analysis, 0, sizeof(*analysis));
}

/* --- facts about a function, gathered in source order before the checks --- */

static void learn_value(an_ctx *ctx, CXCursor var, CXCursor value)
{
	an_function *fn = &ctx->fn;
	CXCursor lhs, rhs, v = an_strip(value);
	char op[4], name[64];
	long long k;

	if (clang_getCursorKind(v) == CXCursor_CallExpr) {
		an_callee(v, name, sizeof(name));
		if (an_is_ballot(name))
			an_vars_add(ctx, &fn->ballot, var);
		if (strcmp(name, "__lane_id") == 0)
			an_vars_add(ctx, &fn->lane, var);
	}
	if (an_binop(ctx, v, op, &lhs, &rhs) && an_is_thread_expr(ctx, lhs)) {
		if (an_eval_int(rhs, &k) && ((strcmp(op, "/") == 0 && k == 32) || (strcmp(op, ">>") == 0 && k == 5)))
			an_vars_add(ctx, &fn->warp_id, var);
		/* a lane id: threadIdx.x & 31, % 32, % warpSize, & (warpSize - 1) ... */
		if (strcmp(op, "&") == 0 || strcmp(op, "%") == 0)
			an_vars_add(ctx, &fn->lane, var);
	}
	if (an_is_thread_expr(ctx, value)) {
		an_vars_add(ctx, &fn->thread, var);
		if (strcasestr(an_spelling(var, name, sizeof(name)), "lane"))
			an_vars_add(ctx, &fn->lane, var);
	}
}

/* Whether a call goes to a function of the file found to be warp-level, by
 * name (a call that depends on template parameters has no declaration). */
static bool calls_warp_function(const an_ctx *ctx, const char *name)
{
	char needle[66];
	size_t n = strlen(name);

	if (!ctx->warp_functions.len || n >= 64)
		return false;
	needle[0] = '\0';
	memcpy(needle + 1, name, n);
	needle[n + 1] = '\0';
	return memmem(ctx->warp_functions.ptr, ctx->warp_functions.len, needle, n + 2) != NULL;
}

/* Adds function c to the warp-level ones: its name, between NULs. */
static void add_warp_function(an_ctx *ctx, CXCursor c)
{
	char name[64];

	if (!ctx->warp_functions.len)
		util_buf_putc(&ctx->warp_functions, '\0');
	util_buf_puts(&ctx->warp_functions, an_spelling(c, name, sizeof(name)));
	util_buf_putc(&ctx->warp_functions, '\0');
	if (util_buf_oom(&ctx->warp_functions))
		ctx->error = UTIL_ENOMEM;
}

static enum CXChildVisitResult learn(CXCursor c, CXCursor parent, CXClientData data)
{
	an_ctx *ctx = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor kids[4], lhs, rhs, var;
	char name[64], op[4];
	size_t n;

	(void)parent;
	if (k == CXCursor_CallExpr && (an_is_warp_intrinsic(an_callee_of(ctx, c, name, sizeof(name))) ||
				       calls_warp_function(ctx, name)))
		ctx->fn.warp_level = true;
	if (k == CXCursor_VarDecl) {
		n = an_children(c, kids, 4);
		if (n && clang_isExpression(clang_getCursorKind(kids[n - 1])))
			learn_value(ctx, c, kids[n - 1]);
	}
	if (k == CXCursor_BinaryOperator && an_binop(ctx, c, op, &lhs, &rhs) && strcmp(op, "=") == 0 &&
	    an_var_of(lhs, &var))
		learn_value(ctx, var, rhs);
	return CXChildVisit_Recurse;
}

static void function_reset(an_ctx *ctx)
{
	an_vars_dispose(&ctx->fn.thread);
	an_vars_dispose(&ctx->fn.warp_id);
	an_vars_dispose(&ctx->fn.lane);
	an_vars_dispose(&ctx->fn.ballot);
	ctx->fn.warp_level = false;
	ctx->fn.shared_bytes = 0;
	ctx->fn.named_end = 0;
}

/* --- the walk --- */

static enum CXChildVisitResult check(CXCursor c, CXCursor parent, CXClientData data)
{
	an_ctx *ctx = data;
	char callee[64] = "";
	an_node n = { c, parent, clang_getCursorKind(c), callee };

	if (ctx->error)
		return CXChildVisit_Break;
	if (n.kind == CXCursor_CallExpr)
		an_callee_of(ctx, c, callee, sizeof(callee));
	an_atomics_visit(ctx, &n);
	an_precision_visit(ctx, &n);
	an_warp_visit(ctx, &n);
	an_asm_visit(ctx, &n);
	an_arch_visit(ctx, &n);
	return CXChildVisit_Recurse;
}

static bool is_function(enum CXCursorKind k)
{
	return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod ||
	       k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

/* Top-level and namespace-level declarations: functions are walked with
 * their facts; variables and types are looked at as declarations. */
static enum CXChildVisitResult declaration(CXCursor c, CXCursor parent, CXClientData data)
{
	an_ctx *ctx = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	uint32_t start, end;

	(void)parent;
	if (ctx->error)
		return CXChildVisit_Break;
	if (!an_extent(ctx, c, &start, &end) || !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (clang_getCursorKind(parent) == CXCursor_TranslationUnit)
		ctx->decl_start = start;
	an_warp_decl(ctx, c);
	if (is_function(k)) {
		function_reset(ctx);
		ctx->fn.host_only = !an_has_attr(c, CXCursor_CUDAGlobalAttr) && !an_has_attr(c, CXCursor_CUDADeviceAttr);
		ctx->in_function = true;
		clang_visitChildren(c, learn, ctx);
		if (ctx->fn.warp_level) /* its callers are warp-level code too */
			add_warp_function(ctx, c);
		clang_visitChildren(c, check, ctx);
		ctx->in_function = false;
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_Namespace || k == CXCursor_UnexposedDecl || k == CXCursor_LinkageSpec ||
	    k == CXCursor_ClassDecl || k == CXCursor_StructDecl || k == CXCursor_ClassTemplate)
		return CXChildVisit_Recurse;
	if (k == CXCursor_VarDecl)
		clang_visitChildren(c, check, ctx);
	return CXChildVisit_Continue;
}

static int hit_order(const void *a, const void *b)
{
	const an_hit *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return strcmp(x->id, y->id);
}

bool an_is_python(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && strcmp(path + n - 3, ".py") == 0;
}

int an_analyze(an_analysis *out, an_analyzer *a, port_lexer *lexer, const char *fs_path, const char *src,
	       size_t len)
{
	an_expr_memo memo = { NULL, 0, 0 };
	an_ctx ctx;
	int err;
	size_t i, n;

	memset(out, 0, sizeof(*out));
	memset(&ctx, 0, sizeof(ctx));
	ctx.memo = &memo;
	ctx.src = src;
	ctx.len = len;
	ctx.target_hip = a->target_hip;
	if (an_is_python(fs_path)) { /* Triton kernels: Python tokens, no C++ checks */
		if ((err = an_python_tokenize(src, len, (port_token **)&ctx.tokens, &ctx.ntokens)))
			return err;
		an_py_rocm rocm = { UTIL_BUF_INIT };

		an_py_rocm_collect(&ctx, &rocm);
		an_triton_tokens(&ctx, &rocm);
		an_setup_py_tokens(&ctx, &rocm);
		an_triton_tuned(&ctx, &rocm, fs_path);
		an_py_rocm_dispose(&rocm);
		goto done;
	}
	if ((err = port_lexer_tokenize(lexer, fs_path, src, len, (port_token **)&ctx.tokens, &ctx.ntokens)))
		return err;
	if (an_needs_ast(&ctx)) {
		/* HIPPORT_PARSE_WHOLE=1 parses files as written: the tests compare
		 * the findings of the reduced text with it */
		char *reduced = getenv("HIPPORT_PARSE_WHOLE") ? NULL : an_reduced_text(&ctx);

		err = an_parse(a->parser, a->db, fs_path, reduced ? reduced : src, len, &ctx.tu, &ctx.file);
		free(reduced);
		if (err < 0) {
			free((void *)ctx.tokens);
			return err;
		}
		an_macro_uses_collect(&ctx);
		an_memory_collect(&ctx, clang_getTranslationUnitCursor(ctx.tu));
		clang_visitChildren(clang_getTranslationUnitCursor(ctx.tu), declaration, &ctx);
	}
	an_atomics_tokens(&ctx);
	an_precision_tokens(&ctx);
	an_warp_tokens(&ctx);
	an_warp_given_tokens(&ctx);
	an_coop_groups_tokens(&ctx);
	an_device_launch_tokens(&ctx);
	an_arch_tokens(&ctx);
	an_bounds_tokens(&ctx);
	an_memory_tokens(&ctx);
done:
	function_reset(&ctx);
	an_expr_memo_clear(&memo);
	an_vars_dispose(&ctx.fine_grained);
	util_buf_dispose(&ctx.warp_functions);
	free(ctx.macro_uses);
	free((void *)ctx.tokens);
	out->hits = ctx.hits;
	out->count = ctx.count;
	if (ctx.error) {
		an_analysis_dispose(out);
		return util_error_set(ctx.error, "out of memory");
	}
	/* one hit per id and place, in source order */
	if (out->count)
		qsort(out->hits, out->count, sizeof(*out->hits), hit_order);
	for (i = n = 0; i < out->count; i++) {
		if (n && out->hits[n - 1].offset == out->hits[i].offset &&
		    strcmp(out->hits[n - 1].id, out->hits[i].id) == 0) {
			hit_dispose(&out->hits[i]);
			continue;
		}
		out->hits[n++] = out->hits[i];
	}
	out->count = n;
	return 0;
}
