/* What the CMake and Makefile translators share: a list of edits on the
 * source, the hits, and the nvcc flag and library mappings. */
#ifndef HIPPORT_BUILD_REWRITE_H
#define HIPPORT_BUILD_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/analysis.h"
#include "build/vars.h"
#include "util/buf.h"

typedef struct bld_edit {
	uint32_t offset, length;
	char *text;
	size_t seq; /* order made: ties at one offset keep it */
} bld_edit;

/* The state of a multi-word nvcc flag inside one statement. */
typedef enum bld_flag_state {
	BLD_FLAG_NONE,
	BLD_FLAG_KEEP_NEXT, /* after -Xcompiler: the next word is the host flag */
	BLD_FLAG_DROP_NEXT, /* after -ccbin: the next word goes too */
	BLD_FLAG_ARCH_NEXT  /* after -arch, -gencode: the next word is the architectures */
} bld_flag_state;

/* nvcc flags that name architectures. */
typedef enum bld_arch_flag_kind {
	BLD_ARCH_FLAG_NONE,
	BLD_ARCH_FLAG_LIST,   /* -arch, --gpu-architecture, -code, --gpu-code, --cuda-gpu-arch: sm_80,compute_80 */
	BLD_ARCH_FLAG_GENCODE /* -gencode, --generate-code: arch=compute_80,code=sm_80 */
} bld_arch_flag_kind;

/* What an arch flag's value is. */
typedef struct bld_arch_value {
	enum { BLD_ARCH_LITERAL, BLD_ARCH_VAR, BLD_ARCH_COMPLEX } kind;
	bld_span var;     /* BLD_ARCH_VAR: the variable that becomes the offload arch */
	bld_span ref;     /* its reference: $(X), ${X} */
	bld_span vars[4]; /* every variable it names */
	size_t nvars;
	bool native;      /* -arch=native */
} bld_arch_value;

typedef struct bld_rewriter {
	const char *src;
	size_t len;
	const char *arch;
	bld_edit *edits;
	size_t nedits, cap;
	an_hit *hits;
	size_t nhits, hcap;
	bool oom;
	size_t edited_to; /* the end of the last edit made */
	/* per statement (a CMake command, a logical Makefile line) */
	bld_flag_state flag_state;
	bool arch_done;          /* the offload arch was written in this statement */
	bld_span arch_var;       /* the variable it names, if one */
	bld_span pending;        /* an arch flag whose value is the next word */
	bool pending_gencode;
	const bld_vars *vars;    /* the variables' fates (NULL: none followed) */
} bld_rewriter;

void bld_rewriter_init(bld_rewriter *rw, const char *src, size_t len, const char *arch);
void bld_rewriter_dispose(bld_rewriter *rw);
/* Starts a statement: multi-word flags and the arch end with it. */
void bld_statement(bld_rewriter *rw);

/* Replaces [offset, offset + length) with text ("" deletes, length 0 inserts). */
void bld_replace(bld_rewriter *rw, size_t offset, size_t length, const char *text);
/* Deletes the word at [offset, offset + length) with the blanks or ';' before
 * it (after it when it starts a line). */
void bld_delete_word(bld_rewriter *rw, size_t offset, size_t length);
void bld_hit(bld_rewriter *rw, const char *id, an_severity severity, size_t offset, size_t length,
	     const char *fmt, ...) UTIL_PRINTF(6, 7);

/* Whether two spans of src hold the same bytes. */
bool bld_span_same(const char *src, bld_span a, bld_span b);
/* Whether the n bytes at w are what. */
bool bld_word_is(const char *w, size_t n, const char *what);

/* Whether a word is a CUDA architecture value: 80, 90a, 86-real, native, all. */
bool bld_is_arch_value(const char *w, size_t n);

/* Whether w is an arch flag; *value_at: where its value starts in w (n
 * when the value is the next word). */
bld_arch_flag_kind bld_arch_flag(const char *w, size_t n, size_t *value_at);
/* Reads the value of an arch flag at [at, at + n) of src. */
void bld_arch_value_parse(const char *src, size_t at, size_t n, bool gencode, bld_arch_value *v);
/* Whether the next word is a flag's argument: the translator hands it over
 * whole ($(CXX), arch=compute_${X},code=sm_${X}), not in pieces. */
bool bld_flag_wants_word(const bld_rewriter *rw);

/* Maps one word that may be an nvcc flag or a library flag (-lcublas);
 * true when it was one (edited or deliberately kept). An arch flag comes
 * whole, with its variable references. */
bool bld_flag_word(bld_rewriter *rw, size_t offset, size_t length);

/* The HIP library of a -l name ("cublas" -> "hipblas"), or NULL. */
const char *bld_hip_library(const char *name, size_t n);

/* The translators of each build system (build.c dispatches). */
int bld_cmake_translate(util_buf *out, an_analysis *hits, const char *src, size_t len, const char *arch);
int bld_make_translate(util_buf *out, an_analysis *hits, const char *src, size_t len, const char *arch);

/* Applies the edits to the source into out and hands the hits over. */
int bld_rewriter_finish(bld_rewriter *rw, util_buf *out, an_analysis *hits);

#endif
