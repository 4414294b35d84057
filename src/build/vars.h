/* The variables that carry a CUDA arch into an arch flag (ARCH = sm_60 and
 * -arch=$(ARCH)). A first pass of each translator records where each is set
 * and used; bld_vars_decide() says what the port makes of each; the second
 * pass rewrites the flags and the definitions by that. A variable the user
 * can override stays one: its definitions get the offload arch and the flag
 * names the variable. */
#ifndef HIPPORT_BUILD_VARS_H
#define HIPPORT_BUILD_VARS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

typedef struct bld_span {
	size_t at, len;
} bld_span;

/* How a reference uses the variable's value. */
typedef enum bld_use {
	BLD_USE_ARCH,    /* an arch flag's value, CUDA_ARCHITECTURES */
	BLD_USE_LIST,    /* the list of a foreach (owner: the loop) */
	BLD_USE_DEF,     /* inside the value of a definition (owner: the definition) */
	BLD_USE_NEUTRAL, /* a message, a test for emptiness */
	BLD_USE_OTHER    /* anything else: the value is taken as it is */
} bld_use;

typedef enum bld_def_kind {
	BLD_DEF_ARCHS,   /* CUDA architectures only: sm_60, 70 80, "70;80" */
	BLD_DEF_EMPTY,   /* nothing: set from elsewhere */
	BLD_DEF_DERIVED, /* references only, perhaps sorted or stripped */
	BLD_DEF_PARAM,   /* a function's parameter: set where it is called */
	BLD_DEF_OTHER
} bld_def_kind;

typedef struct bld_var_def {
	bld_span name, value; /* value: the first to the last value */
	bld_def_kind kind;
	bool named; /* a value is written sm_NN or compute_NN: a CUDA arch beyond doubt */
	size_t ent;
} bld_var_def;

typedef struct bld_var_ref {
	bld_span name;
	bld_use use;
	size_t owner;
	size_t ent;
} bld_var_ref;

/* A foreach: its variable is bound in [body, body_end). */
typedef struct bld_var_loop {
	bld_span name;
	size_t body, body_end;
	bld_def_kind list_kind; /* of the values written out in its list */
	bld_span list;          /* those values, first to last */
	bool list_refs;         /* the list names variables too */
	size_t ent;
} bld_var_loop;

typedef enum bld_fate {
	BLD_FATE_NONE,    /* no arch flag takes it */
	BLD_FATE_ARCH,    /* set here to architectures, used as the arch: set to the offload arch */
	BLD_FATE_LOOP,    /* a foreach variable over such a list */
	BLD_FATE_OUTSIDE, /* not set here, nothing included: the command line or environment sets it */
	BLD_FATE_KEEP     /* the port cannot follow it: flags stay as written, with a finding */
} bld_fate;

typedef enum bld_why {
	BLD_WHY_NONE,
	BLD_WHY_INCLUDED, /* not set here; an included file may set it */
	BLD_WHY_SET,      /* set to a value not made of architectures */
	BLD_WHY_USED,     /* used for more than the arch */
	BLD_WHY_PARAM,    /* a parameter: $(1), ${ARGV0} */
	BLD_WHY_FROM,     /* set from, or going over, a variable the port cannot follow */
	BLD_WHY_LIST      /* a loop over values that are not architectures */
} bld_why;

/* One variable: a name of the file, or the variable of one loop. */
typedef struct bld_var_ent {
	bld_span name;
	size_t loop; /* SIZE_MAX for a variable of the file */
	bool cand, ok;
	bld_fate fate;
	bld_why why;
	size_t why_at;  /* where (SET, USED) */
	size_t why_ent; /* whom (FROM) */
} bld_var_ent;

typedef struct bld_vars {
	const char *src;
	size_t len;
	bool cmake;    /* names are written ${X}; CMAKE_CUDA_ARCHITECTURES is one */
	bool includes; /* the file includes others, which may set its variables */
	bool oom;
	bld_var_def *defs;
	size_t ndefs, dcap;
	bld_var_ref *refs;
	size_t nrefs, rcap;
	bld_var_loop *loops;
	size_t nloops, lcap;
	bld_var_ent *ents;
	size_t nents, ecap;
} bld_vars;

void bld_vars_init(bld_vars *v, const char *src, size_t len, bool cmake);
void bld_vars_dispose(bld_vars *v);

/* Records a definition (its index, SIZE_MAX when out of memory). */
size_t bld_vars_def(bld_vars *v, bld_span name, bld_span value, bld_def_kind kind, bool named);
void bld_vars_ref(bld_vars *v, bld_span name, bld_use use, size_t owner);
/* Records a loop (its index); the caller fills in the list and, for CMake,
 * body_end when it reaches endforeach(). */
size_t bld_vars_loop(bld_vars *v, bld_span name, size_t body, size_t body_end);

/* What each value of a definition is: the kind of a run of value words. */
bool bld_vars_arch_word(const char *w, size_t n, bool *named);

/* Decides every variable's fate. */
void bld_vars_decide(bld_vars *v);
/* The fate of the variable named at name (a reference the first pass saw, or
 * the name resolved where it stands); why receives the reason of KEEP and
 * OUTSIDE, a sentence part ("ARCH is set at line 4 to ..."). */
bld_fate bld_vars_fate(const bld_vars *v, bld_span name, util_buf *why);
/* The fate of a definition's variable. */
bld_fate bld_vars_def_fate(const bld_vars *v, size_t def, util_buf *why);
bld_fate bld_vars_loop_fate(const bld_vars *v, size_t loop);

struct bld_rewriter;
/* Writes the offload arch over a span of CUDA architectures. */
typedef void (*bld_vars_replace_fn)(struct bld_rewriter *rw, bld_span values);
/* The second pass's last step, after the edits of the flags: the
 * definitions and loop lists that now hold the offload arch, each with a
 * BUILD-004 note, and a BUILD-004 warning for each definition of named
 * architectures (sm_NN) that keeps them. replace writes the offload arch
 * over the values (NULL: the span is replaced whole); override, when given,
 * is the command that sets a definition's variable ("make"), named in its
 * note. */
void bld_vars_rewrite(struct bld_rewriter *rw, const bld_vars *v, bld_vars_replace_fn replace, const char *override);

#endif
