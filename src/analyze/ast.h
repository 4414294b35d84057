/* What the analyzer's families share: the parsed file, the hits found so
 * far, and small questions about cursors (operators, constants, thread
 * indices). Internal to src/analyze/. */
#ifndef HIPPORT_ANALYZE_AST_H
#define HIPPORT_ANALYZE_AST_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/analysis.h"
#include "port/lex.h"
#include "util/buf.h"
#include "util/text.h"

/* A set of variables (their declaration cursors). */
typedef struct an_vars {
	CXCursor *v;
	size_t n, cap;
} an_vars;

/* Facts about the function being walked, gathered before its checks run. */
typedef struct an_function {
	bool warp_level;   /* uses shuffles, ballots, votes or __syncwarp */
	bool host_only;    /* neither __global__ nor __device__: warpSize is no name there */
	an_vars thread;    /* values derived from threadIdx / the lane id */
	an_vars warp_id;   /* thread-derived / 32 or >> 5 */
	an_vars lane;      /* thread-derived & 31 or % 32, __lane_id() */
	an_vars ballot;    /* hold a ballot or __activemask result */
	long long shared_bytes; /* static __shared__ so far */
	uint32_t named_end; /* the end of the declaration of a variable named lane / warp */
	uint32_t wide_start, wide_end; /* an expression converted to 64 bits */
} an_function;

/* What an_binop and an_callee_of answered for the file: the walk of its
 * allocations, the facts of a function and its checks ask about the same
 * expressions, and each answer costs several libclang calls. */
typedef struct an_expr_entry {
	const void *expr; /* the cursor's expression; NULL: a free slot */
	bool binop_known, binop;
	char op[4];
	CXCursor lhs, rhs;
	bool callee_known;
	char callee[64];
} an_expr_entry;
typedef struct an_expr_memo {
	an_expr_entry *v;
	size_t cap, n;
} an_expr_memo;
void an_expr_memo_clear(an_expr_memo *m);

typedef struct an_span {
	uint32_t start, end;
} an_span;

typedef struct an_ctx {
	port_version target_hip;
	CXTranslationUnit tu;
	CXFile file;
	const char *src;
	size_t len;
	const port_token *tokens; /* raw tokens of the file, every #if branch */
	size_t ntokens;
	an_hit *hits;
	size_t count, cap;
	int error;           /* the first failure (out of memory) */
	an_function fn;      /* the function being walked */
	uint32_t prec_end;   /* the end of the last half expression reported */
	bool in_function;
	uint32_t decl_start; /* where the current top-level declaration starts (helpers go there) */
	an_vars fine_grained; /* pointers allocated as managed or host memory in this file */
	util_buf warp_functions; /* names of the file's functions walked so far that use warp
				  * intrinsics, each between NULs */
	bool fine_grained_known;
	util_text_cursor where; /* the line of the last hit, for the next one's */
	an_expr_memo *memo;     /* behind a pointer: filled by an_binop and an_callee_of, which read the rest */
	an_span *macro_uses;    /* the file's macro uses, sorted, disjoint */
	size_t nmacro_uses;
} an_ctx;

/* --- hits (walk.c) --- */
/* Adds a hit on [start, end) of the source; NULL when out of memory. */
an_hit *an_add(an_ctx *ctx, const char *id, an_severity severity, uint32_t start, uint32_t end,
	       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Adds a hit on a cursor's extent; NULL when it is not in the file. */
an_hit *an_add_at(an_ctx *ctx, const char *id, an_severity severity, CXCursor c, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* --- places --- */
/* The offset of a location in the analyzed file (macro uses count where
 * they are written); false when it lies elsewhere. */
bool an_offset(const an_ctx *ctx, CXSourceLocation loc, uint32_t *offset);
/* The extent of a cursor in the file; false outside it. */
bool an_extent(const an_ctx *ctx, CXCursor c, uint32_t *start, uint32_t *end);
/* Collects the file's macro uses from the preprocessing record (once,
 * after the parse): an_written asks them. */
void an_macro_uses_collect(an_ctx *ctx);
/* Whether the cursor's text is written out in the file (not produced by a
 * macro): only then can a fix rewrite it. */
bool an_written(const an_ctx *ctx, CXCursor c);
/* The cursor's source text (malloc'd), NULL when not written in the file. */
char *an_text(const an_ctx *ctx, CXCursor c);

/* --- cursors --- */
size_t an_children(CXCursor c, CXCursor *out, size_t max);
/* c without implicit conversions and parentheses around it. */
CXCursor an_strip(CXCursor c);
/* The spelling of a cursor into buf ("" when none). */
const char *an_spelling(CXCursor c, char *buf, size_t size);
/* The name of the function a call calls, into buf. */
const char *an_callee(CXCursor call, char *buf, size_t size);
/* an_callee, remembered for the file (the memo may move: the name is
 * copied into buf). */
const char *an_callee_of(const an_ctx *ctx, CXCursor call, char *buf, size_t size);
/* The operator of a binary or compound assignment operator ("&", ">>=");
 * false when it cannot be read from the source (macros). */
bool an_binop(const an_ctx *ctx, CXCursor c, char op[4], CXCursor *lhs, CXCursor *rhs);
/* The value of an integer constant expression. */
bool an_eval_int(CXCursor c, long long *value);
/* Whether e is an integer literal as written (not a macro or a name). */
bool an_is_literal(const an_ctx *ctx, CXCursor e);
/* The variable e names (a DeclRefExpr to a variable or parameter). */
bool an_var_of(CXCursor e, CXCursor *var);
/* The canonical spelling of a type without qualifiers, into buf. */
const char *an_type_name(CXType t, char *buf, size_t size);
/* Whether t (or what it points to, with pointee) is one of the 16-bit float types; *pair for __half2 / bf162. */
bool an_is_half_type(CXType t, bool *pair, bool *bf16);
/* Whether a type is an integer of 32 bits or fewer. */
bool an_is_narrow_int(CXType t);

/* --- variables --- */
bool an_vars_has(const an_vars *s, CXCursor var);
void an_vars_add(an_ctx *ctx, an_vars *s, CXCursor var);
void an_vars_dispose(an_vars *s);
/* Whether the expression uses threadIdx, the lane id or a thread-derived variable. */
bool an_is_thread_expr(const an_ctx *ctx, CXCursor e);
/* The first variable or parameter an expression names (the base of &p[i]). */
bool an_base_var(CXCursor e, CXCursor *var);
/* Whether a declaration carries an attribute (CXCursor_CUDASharedAttr, ...). */
bool an_has_attr(CXCursor decl, enum CXCursorKind attr);
/* The text of token i of the file. */
#define AN_TOKEN_IS(ctx, i, lit) \
	((ctx)->tokens[i].end - (ctx)->tokens[i].start == sizeof(lit) - 1 && \
	 memcmp((ctx)->src + (ctx)->tokens[i].start, lit, sizeof(lit) - 1) == 0)
/* AN_TOKEN_IS where i may lie past the last token (false then). */
#define AN_TOKEN_AT(ctx, i, lit) ((i) < (ctx)->ntokens && AN_TOKEN_IS(ctx, i, lit))
/* Whether the expression uses a variable of the set. */
bool an_uses_var(CXCursor e, const an_vars *s);
/* Whether the expression calls a function whose name is in names (NULL-ended). */
bool an_calls(CXCursor e, const char *const *names);
/* Whether name is a warp intrinsic (shuffle, vote, ballot, __syncwarp, match). */
bool an_is_warp_intrinsic(const char *name);
bool an_is_ballot(const char *name);
/* Whether a name says it holds the warp size: WARP_SIZE, kWarpSize, ... */
bool an_is_warp_size_name(const char *name);

/* Whether tokens a and b are spelled the same. */
bool an_tokens_same(const an_ctx *ctx, size_t a, size_t b);
/* The first token at or after i that is not a comment (ntokens when none). */
size_t an_code_after(const an_ctx *ctx, size_t i);
/* The last token before i that is not a comment (ntokens when none). */
size_t an_code_before(const an_ctx *ctx, size_t i);

/* --- preprocessor lines (tokens) --- */
/* The end (exclusive) of the directive whose "#" is token i. */
size_t an_directive_end(const an_ctx *ctx, size_t i);
/* Whether token i is an integer literal (suffixes u and l allowed, a
 * floating one is not), and its value. */
bool an_token_integer(const an_ctx *ctx, size_t i, unsigned long long *value);
/* Whether tokens [from, to) are an integer constant of literals, sizeof of
 * builtin types, + - * / << and parentheses, and its value (capped at 2^40). */
bool an_tokens_fold(const an_ctx *ctx, size_t from, size_t to, unsigned long long *value);
/* The first token starting at or after offset (ntokens when none). */
size_t an_token_index(const an_ctx *ctx, uint32_t offset);
/* Whether token i is part of a #pragma line (which does not change what
 * the code around it is). */
bool an_in_pragma(const an_ctx *ctx, size_t i);
/* Whether tokens [i, end) name a HIP or ROCm macro (USE_ROCM, __HIP_PLATFORM_AMD__ ...). */
bool an_mentions_hip(const an_ctx *ctx, size_t i, size_t end);
/* Whether offset lies in a branch of an #if that asks about HIP or ROCm:
 * code written for both already. */
bool an_hip_guarded(const an_ctx *ctx, uint32_t offset);

/* --- what the parse needs to see (reduce.c) --- */
/* Whether the file holds anything the AST checks look at (atomics, 16-bit
 * floats, warp intrinsics, inline asm, fast-math calls, a literal 31 / 32 /
 * 5 or a warp-size name after a lane operator, __shared__, a launch whose
 * dynamic shared memory may pass 64 KiB). */
bool an_needs_ast(const an_ctx *ctx);
/* A copy of the file for libclang with the bodies of functions that hold
 * none of that blanked (same length, lines kept), or NULL to parse it as it is. */
char *an_reduced_text(const an_ctx *ctx);

/* --- fixes (fix.c) --- */
typedef struct an_capture {
	const char *name;
	const char *text;
} an_capture;
typedef struct an_range {
	const char *name; /* "match" unless a template names another */
	uint32_t start, end;
} an_range;
/* Gives hit the fix of its id in the named variant: each @replace of the
 * template rewrites its range with the captures filled in, and each helper
 * is inserted at ctx->decl_start. Nothing when the template lacks the variant. */
void an_fix(an_ctx *ctx, an_hit *hit, const char *variant, const an_range *ranges, size_t nranges,
	    const an_capture *captures, size_t ncaptures);
/* The variant's @leaf template applied to one operand (malloc'd), or NULL. */
char *an_fix_leaf(const char *id, const char *variant, const char *leaf);

/* --- the families: each looks at every cursor of a function body, and
 * some at the file's tokens --- */
typedef struct an_node {
	CXCursor c, parent;
	enum CXCursorKind kind;
	const char *callee; /* the called function's name for a call, else "" */
} an_node;
void an_atomics_visit(an_ctx *ctx, const an_node *n);
void an_atomics_tokens(an_ctx *ctx);
void an_precision_visit(an_ctx *ctx, const an_node *n);
/* The fast-math intrinsics PREC-002 reports (NULL-ended). */
extern const char *const an_fast_math[];
void an_precision_tokens(an_ctx *ctx);
void an_warp_visit(an_ctx *ctx, const an_node *n);
void an_warp_decl(an_ctx *ctx, CXCursor c);
void an_warp_tokens(an_ctx *ctx);
void an_asm_visit(an_ctx *ctx, const an_node *n);
/* ARCH-006: kernels launched here with a known block size and no launch bounds (bounds.c). */
void an_bounds_tokens(an_ctx *ctx);
/* WARP-010: 32 given to or compared with a warp-size name (warp_given.c). */
void an_warp_given_tokens(an_ctx *ctx);
/* WARP-011: cooperative groups' reduce and scans before HIP 7.13 (coop_groups.c). */
void an_coop_groups_tokens(an_ctx *ctx);

/* LAUNCH-001: a kernel launched from device code (device_launch.c). */
void an_device_launch_tokens(an_ctx *ctx);
void an_arch_visit(an_ctx *ctx, const an_node *n);
void an_arch_tokens(an_ctx *ctx);
void an_memory_tokens(an_ctx *ctx);
/* The Python families (a .py file has no C++ checks) are below, after the
 * ROCm branches they take (an_py_rocm, collected once a file). */

/* --- Python statements and their ROCm branches (pystmt.c) --- */
typedef struct an_py_rocm {
	util_buf aliases; /* names assigned from a test of ROCm (IS_ROCM = torch.version.hip is not None), each NUL-ended */
} an_py_rocm;
/* The TRITON family, on Python tokens. */
void an_triton_tokens(an_ctx *ctx, const an_py_rocm *rocm);
/* Its launch and autotune options: TRITON-003, -006, -008 (triton_options.c). */
void an_triton_options(an_ctx *ctx, const an_py_rocm *rocm);
/* Its NVIDIA-only features: TRITON-007 (triton_features.c). */
void an_triton_features(an_ctx *ctx, const an_py_rocm *rocm);
/* TRITON-009: the launches of kernels the session holds a tuning run of
 * (triton_tuned.c); fs_path finds the repository. */
void an_triton_tuned(an_ctx *ctx, const an_py_rocm *rocm, const char *fs_path);
/* BUILD findings of a setup.py with CUDAExtension, on Python tokens. */
void an_setup_py_tokens(an_ctx *ctx, const an_py_rocm *rocm);
/* The first token of the logical line holding token i, and one past its last. */
size_t an_py_stmt_start(const an_ctx *ctx, size_t i);
size_t an_py_stmt_end(const an_ctx *ctx, size_t i);
/* The header statement of the block holding token i's statement (if, def,
 * for, except ...), or ntokens at the top level. */
size_t an_py_enclosing(const an_ctx *ctx, size_t i);
/* Collects the file's ROCm aliases (an_py_rocm_dispose frees them). */
void an_py_rocm_collect(an_ctx *ctx, an_py_rocm *r);
void an_py_rocm_dispose(an_py_rocm *r);
/* Whether tokens [from, to) name ROCm: a name with a word rocm or hip
 * (torch.version.hip, ROCM_HOME, IS_HIP_EXTENSION, USE_ROCM), a string
 * holding such a name, or an alias. */
bool an_py_mentions_rocm(const an_ctx *ctx, const an_py_rocm *r, size_t from, size_t to);
/* Whether token i's statement, a header of its if/elif/else chain, or of a
 * block around it (with that block's chain) names ROCm, or an earlier if of
 * one of these blocks names ROCm and leaves it (return, raise). */
bool an_py_rocm_branch(const an_ctx *ctx, const an_py_rocm *r, size_t i);
/* The token closing the bracket opened at i, before to (ntokens when unclosed). */
size_t an_py_closing(const an_ctx *ctx, size_t i, size_t to);
/* The end of the call argument starting at token i: the next top-level
 * comma, else close (the call's closing bracket). */
size_t an_py_argument_end(const an_ctx *ctx, size_t i, size_t close);
/* Whether token i's text is text[0..n). */
bool an_py_token_is(const an_ctx *ctx, size_t i, const char *text, size_t n);
/* The keyword argument NAME= at depth one of the call opened at open, or 0. */
size_t an_py_keyword_arg(const an_ctx *ctx, size_t open, size_t close, const char *name);
/* Whether token i is a name holding word, in any case (num_warps, NUM_WARPS). */
bool an_py_name_has(const an_ctx *ctx, size_t i, const char *word);
/* The def statement of the function holding token i, or ntokens at the top level. */
size_t an_py_enclosing_def(const an_ctx *ctx, size_t i);
/* The first token of the top-level statement holding token i, above its
 * decorators: where a helper (import torch) goes in before it. */
size_t an_py_top_statement(const an_ctx *ctx, size_t i);
/* Whether the file imports torch at its top level (torch.version.hip can be used). */
bool an_py_imports_torch(const an_ctx *ctx);
/* Whether tokens i.. spell tl.NAME( (a call of triton.language). */
bool an_triton_call(const an_ctx *ctx, size_t i, const char *name);
/* The first token of the dotted name ending at token i (torch.cuda.NAME). */
size_t an_py_dotted_start(const an_ctx *ctx, size_t i);
/* BUILD-011..014: CUDA_HOME gates, nvcc -V, torch.version.cuda and
 * capability tests (setup_gates.c), outside ROCm branches. */
void an_setup_gates_tokens(an_ctx *ctx, const an_py_rocm *rocm);
/* Before a file's walk: pointers the file allocates as managed or host memory. */
void an_memory_collect(an_ctx *ctx, CXCursor c);

#endif
