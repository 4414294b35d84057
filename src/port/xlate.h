/* Internal to src/port: the state of one translation, shared by the passes
 * in translate.c, directive.c, include.c, launch.c, call.c and mask.c. */
#ifndef HIPPORT_PORT_XLATE_H
#define HIPPORT_PORT_XLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "port/translate.h"

enum xlate_mark {
	XLATE_PROTECT = 1, /* inside "hipport off"/"keep": copied verbatim */
	XLATE_WIDEN = 2,   /* a 32-bit lane-mask literal to widen to 64 bits */
	XLATE_LAUNCH = 4,  /* first token of a kernel launch */
	XLATE_INCLUDE = 8, /* the '#' of an #include directive */
	XLATE_MASK = 16    /* first token of an xlate_mask_edit */
};

/* A lane mask widened through its name (mask.c): the tokens [begin, end)
 * become text (a 32-bit type becomes a 64-bit one), or, text NULL, the name
 * at begin is widened at its use (in parentheses when paren). */
typedef struct xlate_mask_edit {
	size_t begin, end;
	const char *text;
	bool paren;
} xlate_mask_edit;

typedef struct xlate_range {
	size_t begin, end; /* tokens [begin, end) */
} xlate_range;

typedef struct xlate_launch {
	size_t kernel;        /* first token of the kernel name; SIZE_MAX: left as written */
	size_t name_begin, name_end; /* the kernel name written: [kernel, open), or a macro's */
	size_t open, close;   /* the <<< and >>> tokens */
	xlate_range config[4];
	int nconfig;
	size_t lparen, rparen; /* the argument list's parentheses */
	bool templated;
} xlate_launch;

/* Where a line sits among #if branches: a stack of (conditional, branch). */
typedef struct xlate_cond_path {
	uint32_t *items;
	size_t depth;
} xlate_cond_path;

typedef struct xlate_include {
	size_t hash, end;      /* tokens of the directive: [hash, end) */
	uint32_t name_start;   /* the header name, between its delimiters */
	uint32_t name_end;
	xlate_cond_path path;
	char *torch_path;      /* the header a torch folder rule rewrites it to, or NULL */
	const port_rule *torch_rule;
} xlate_include;

typedef struct xlate_header {
	char *name;           /* a header the output includes */
	xlate_cond_path path; /* where */
} xlate_header;

typedef struct xlate {
	const char *name;
	const char *src;
	size_t len;
	port_token *tok;
	size_t ntok;
	const port_rules *rules;
	const port_rules *torch; /* PyTorch rules, for a file that includes its headers; or NULL */
	const port_options *opts;
	port_result *res;
	uint8_t *mark;
	xlate_launch *launches;
	size_t nlaunches;
	xlate_include *includes;
	size_t nincludes;
	xlate_header *headers;
	size_t nheaders;
	bool has_runtime_header; /* the output includes hip/hip_runtime.h */
	size_t insert_at;        /* where to insert it if needed, or SIZE_MAX */
	size_t insert_out;       /* the output offset of insert_at once written, or SIZE_MAX */
	size_t launch_name;      /* kernel token whose name is being emitted, or SIZE_MAX */
	const char *eol;
	xlate_range *user_names; /* declarations of names spelled like CUDA names (tokens) */
	size_t nuser_names;
	xlate_mask_edit *mask_edits;
	size_t nmask_edits;
	size_t string_renames;   /* CUDA names renamed inside string literals */
	bool cublas_v1;          /* includes cublas.h, not cublas_v2.h: BLAS calls take no handle */
	bool no_string_renames;  /* a file without CUDA: its strings stay too */
	bool oom;
} xlate;

/* token helpers (translate.c) */
bool xlate_tok_is(const xlate *x, size_t i, const char *text);
size_t xlate_tok_len(const xlate *x, size_t i);
const char *xlate_tok_text(const xlate *x, size_t i);
/* Next / previous token that is not a comment, or ntok / SIZE_MAX. */
size_t xlate_next(const xlate *x, size_t i);
size_t xlate_prev(const xlate *x, size_t i);
void xlate_add_ref(xlate *x, uint32_t offset, uint32_t length, const port_rule *rule,
		   port_ref_status status);
int xlate_error_at(const xlate *x, uint32_t offset, const char *fmt, ...) UTIL_PRINTF(3, 4);

/* The token after the 32-bit all-ones expression (uint32_t(-1), ~0u) that
 * starts at i, or SIZE_MAX. */
size_t xlate_full_mask_end(const xlate *x, size_t i);

/* Finds the names the file declares itself that the rules would rename. */
void xlate_find_user_names(xlate *x);

/* Emits the translation of tokens [begin, end) into out (translate.c). */
void xlate_emit_range(xlate *x, size_t begin, size_t end, util_buf *out);

/* directive.c: #if structure, includes, protected regions, lexical checks. */
int xlate_scan_directives(xlate *x);
void xlate_cond_path_dispose(xlate_cond_path *path);
/* Marks the tokens of "hipport off"/"on" regions and "hipport keep" lines. */
void xlate_mark_protected(xlate *x);

/* include.c */
/* Works out the headers the PyTorch folder rules rename (x->torch set). */
void xlate_plan_torch_headers(xlate *x);
void xlate_plan_runtime_header(xlate *x);
size_t xlate_emit_include(xlate *x, size_t hash, util_buf *out);
/* Inserts hip/hip_runtime.h at insert_out if the file needs it. */
void xlate_finish_runtime_header(xlate *x);

/* launch.c */
int xlate_find_launches(xlate *x);
size_t xlate_emit_launch(xlate *x, size_t kernel, util_buf *out);

/* mask.c: lane masks that reach a _sync call through a name; lexer reads
 * the headers the file includes by quotes (NULL: none are read). */
void xlate_plan_masks(xlate *x, port_lexer *lexer);
/* Emits the mask edit at token i; returns the token after it. */
size_t xlate_emit_mask(xlate *x, size_t i, util_buf *out);

/* strings.c: a string literal, CUDA names in it renamed as hipify-clang
 * renames them; returns the token after it. */
size_t xlate_emit_string(xlate *x, size_t i, util_buf *out);

/* call.c: argument lists and call templates. */
/* Finds the ')' matching the '(' at lparen and the top-level commas between;
 * fills args (up to max) and returns the count, or -1 when unbalanced. */
int xlate_split_args(const xlate *x, size_t lparen, size_t *rparen, xlate_range *args, int max,
		     const char *closer);
/* The white space of the call a template replaces, kept around the
 * template's own parentheses: between the name and '(', after '(' and
 * before ')'. Gaps that hold anything but white space are left empty. */
enum { XLATE_GAP_NAME, XLATE_GAP_OPEN, XLATE_GAP_CLOSE };
typedef struct xlate_gaps {
	const char *text[3];
	size_t len[3];
} xlate_gaps;
/* Expands a call template ("$1", "$2-", "$*") with the translated arguments;
 * false (nothing written) when it names an argument the call lacks. The
 * alternatives that call the ROC name roc are for --roc (for_roc) only, the
 * others for HIP only. gaps may be NULL. */
bool xlate_expand_template(xlate *x, const char *tmpl, const char *roc, bool for_roc, const xlate_range *args,
			   int nargs, const xlate_gaps *gaps, util_buf *out);

#endif
