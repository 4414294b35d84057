/* The analyzer: what a rename cannot get right, found in the libclang AST of
 * each file (parsed without a CUDA SDK through share/prelude/cuda.h) and in
 * its tokens. Each hit has a stable id, a severity, a place, a message, and
 * the edits of its fix when one exists (patches/). */
#ifndef HIPPORT_ANALYZE_ANALYSIS_H
#define HIPPORT_ANALYZE_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "port/lex.h"
#include "port/version.h"

typedef enum an_severity {
	AN_NOTE,    /* performance or precision hint */
	AN_WARNING, /* likely wrong results or a crash */
	AN_ERROR    /* will not build */
} an_severity;

/* One edit of a fix, on the original source. A helper edit inserts a
 * function that several fixes share: it is applied once per file. */
typedef struct an_edit {
	uint32_t offset, length;
	char *text;
	char *helper; /* the helper's name, or NULL for a replacement */
} an_edit;

typedef struct an_hit {
	const char *id; /* "WARP-001": static */
	an_severity severity;
	uint32_t offset, length; /* the range in the source */
	unsigned line, col, end_col; /* 1-based; end_col on the range's first line, exclusive */
	char *message;
	an_edit *edits; /* the fix; none when nedits is 0 */
	size_t nedits;
} an_hit;

typedef struct an_analysis {
	an_hit *hits; /* in source order */
	size_t count;
} an_analysis;

typedef struct an_analyzer an_analyzer;

/* One analyzer per thread: it owns a libclang index. compile_db is a
 * directory holding compile_commands.json (the flags of each file are taken
 * from it when it lists the file), or NULL; target_hip the HIP version of the
 * port (what HIP has decides some findings). */
int an_analyzer_new(an_analyzer **out, const char *compile_db, port_version target_hip);
void an_analyzer_free(an_analyzer *analyzer);

/* Analyzes one file: fs_path is where it lies (for its own #includes and
 * the compile database), src/len its text. Parse errors are not failures:
 * what cannot be resolved is skipped. */
int an_analyze(an_analysis *out, an_analyzer *analyzer, port_lexer *lexer, const char *fs_path,
	       const char *src, size_t len);

void an_analysis_dispose(an_analysis *analysis);

/* One edit as applied: [offset, offset + length) of the source became
 * new_length bytes; for mapping places in the fixed source back. */
typedef struct an_applied {
	uint32_t offset, length, new_length;
} an_applied;

/* Whether a file is Python (Triton kernels): analyzed on Python tokens, and
 * translated as it is (Triton needs no renames). */
bool an_is_python(const char *path);

/* Applies the fixes of the hits whose id is listed (or all with "all") to
 * src: out receives the fixed source, *spans (malloc'd, may be NULL) what
 * changed, in order. A fix overlapping one applied before it is left out;
 * *applied counts the fixes taken. */
struct util_buf;
int an_fixes_apply(struct util_buf *out, const char *src, size_t len, const an_analysis *analysis,
		   const char *ids, size_t *applied, an_applied **spans, size_t *nspans);

/* Where offset of a source fixed by spans was in the original. */
uint32_t an_applied_origin(const an_applied *spans, size_t nspans, uint32_t offset);

/* What a tuning run (hipport check tune) measured of a Triton kernel, for
 * TRITON-009: one launch option's value in the launch's config and in the
 * fastest correct one. */
typedef struct an_tuned_option {
	char *name;
	long program, best;
	int given; /* the launch names it (else Triton's default stood for it) */
} an_tuned_option;

typedef struct an_tuned_kernel {
	char *source; /* the file of its def, relative to the repository */
	char *kernel;
	unsigned line;
	char *backend; /* "cuda" or "hip": where it was measured */
	char *device;
	double program_ms, best_ms; /* medians; 0 when not timed */
	double program_q1, best_q3; /* the quartiles that tell a difference from noise */
	an_tuned_option *options;   /* the swept options of the best config */
	size_t noptions;
	size_t nconfigs, nok, ndiffer, nfailed;
	char *skipped;   /* why nothing was swept, or NULL */
	char *autotuned; /* the constexprs of the config an autotuner chose, as a Python dict
			  * ({"BLOCK_M": 128}), or NULL when the launch was no autotuner's */
} an_tuned_kernel;

typedef struct an_tuned_set {
	an_tuned_kernel *kernels;
	size_t n;
} an_tuned_set;

void an_tuned_set_dispose(an_tuned_set *set);

/* Whether the best config is worth a fix: it differs from the launch's, its
 * median is at least 5% below the launch's and its upper quartile below
 * the launch's lower one (faster beyond the spread of the repeats). */
bool an_tuned_improves(const an_tuned_kernel *k);

/* Where the analyzer finds the tuned kernels of the file at fs_path (the
 * review session keeps them, a layer above): set once, before any
 * analysis; without it TRITON-009 finds nothing. 0 with out filled (empty
 * when none), < 0 on failure. */
typedef int (*an_tuned_loader)(an_tuned_set *out, const char *fs_path);
void an_tuned_set_loader(an_tuned_loader load);

/* Why the compiled-in fix templates could not all be loaded, or NULL. */
const char *an_fix_error(void);

/* The title of the fix of an id ("CAS loop on the aligned 32-bit word"), or NULL. */
const char *an_fix_title(const char *id);

#endif
