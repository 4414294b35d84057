/* Kernel check specs: one per kernel, in .hipport/checks/NAME.check, in
 * git-config syntax (read with libgit2's config API). docs/checks.md
 * describes the format. */
#ifndef HIPPORT_CHECK_SPEC_H
#define HIPPORT_CHECK_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "check/kernel/compare.h"
#include "util/buf.h"

typedef enum chk_role {
	CHK_ROLE_IN,     /* read by the kernel: filled, not compared */
	CHK_ROLE_OUT,    /* written: zeroed, compared */
	CHK_ROLE_INOUT,  /* read and written: filled, compared */
	CHK_ROLE_SCALAR  /* passed by value */
} chk_role;

typedef enum chk_init {
	CHK_INIT_UNIFORM,  /* uniform in [a, b) from the seed */
	CHK_INIT_CONSTANT, /* a */
	CHK_INIT_IOTA,     /* a, a + b, a + 2b, ... */
	CHK_INIT_FILE      /* the bytes of a file (a recorded input), embedded in the harness */
} chk_init;

typedef struct chk_arg {
	char *name;
	chk_role role;
	char *type;        /* the element type (pointers) or the scalar's type, as C spells it */
	chk_dtype dtype;   /* of one lane of an element */
	unsigned lanes;    /* lanes per element: 2 for __half2, 4 for float4 */
	char *count;       /* pointers: elements, a C expression over the scalars */
	chk_init init;
	double init_a, init_b;
	char *value;       /* scalars: a C expression */
	chk_tolerance tol; /* outputs */
	char *offset;      /* pointers: elements past the buffer's start the kernel gets, or NULL */
	char *accessor;    /* a tensor accessor passed by value (PackedTensorAccessor32<float, 4, RestrictPtrTraits>):
			    * its type, made over the buffer, or NULL for a pointer */
	char *sizes;       /* the accessor's sizes, C expressions separated by commas; contiguous strides */
	char *init_file;   /* CHK_INIT_FILE: the file as the spec names it, relative to its directory */
	char *init_path;   /* ... and as read: the path to open (set by chk_spec_read) */
	char *init_from;   /* drafting: the recorded file to copy to init_file when the spec is written */
	size_t bytes;      /* drafting: sizeof the scalar's type, 0 when unknown */
	bool dtype_auto;   /* dtype = auto: the compiler's type says it (a typedef from the program) */
	unsigned typed_by; /* drafting: 1 + the template type parameter its type is (T, const T *), 0 for none */
} chk_arg;

typedef struct chk_var {  /* a host variable the expressions may use */
	char *name, *type, *value;
} chk_var;

/* A value the drafter could not take from the program and replaced:
 * written as a comment after the key, `count = 4096  # guessed: WHY`
 * (git-config drops it when the spec is read). */
typedef struct chk_mark {
	char *section; /* "check", "arg", "var" */
	char *sub;     /* the arg's or var's name; NULL in [check] */
	char *key;     /* as written: "grid", "sharedBytes", "value", "count" */
	char *why;
} chk_mark;

typedef struct chk_spec {
	char *name;       /* file stem and kernel: "scaled_add.scaled_add_kernel" */
	char *source;     /* path of the CUDA file, relative to the work tree */
	char *kernel;     /* the kernel as the harness names it: "fastops::k" */
	char *templ;      /* template arguments ("256"), or NULL */
	char *grid, *block, *shared; /* launch geometry: C expressions (dim3 or integers) */
	char *setup;      /* a C++ statement run before the launch, or NULL */
	uint64_t seed;
	unsigned timeout; /* seconds for one run */
	chk_arg *args;    /* in the kernel's parameter order */
	size_t nargs;
	chk_var *vars;
	size_t nvars;
	chk_arg *globals; /* __device__ variables the kernel uses: role, type, count, init, tolerance */
	size_t nglobals;
	char *launch;     /* the launch it was drafted from, "src/main.cu:45", or NULL */
	char *guessed;    /* names whose values were drafted, not read from the program, or NULL */
	char *comment;    /* lines written at the top ("# " added), or NULL */
	chk_mark *marks;  /* drafted values' marks, written after their keys */
	size_t nmarks;
	char *undraftable; /* why no spec can be drafted for the kernel, or NULL (a draft only) */
} chk_spec;

const char *chk_role_name(chk_role role);

/* Reads a spec file; UTIL_EINPUT naming path and, where it can, the line. */
int chk_spec_read(chk_spec *out, const char *path);

/* Makes name a check's name in place: a word of the shell and a file name,
 * every character but letters, digits and . _ + - made a '-' (a directory
 * with a space in its name: "demo/stencil code"). */
void chk_check_name_clean(char *name);
/* The spec as git-config text. */
int chk_spec_format(util_buf *out, const chk_spec *spec);
/* Writes the spec atomically (parents created). */
int chk_spec_write(const chk_spec *spec, const char *path);
void chk_spec_dispose(chk_spec *spec);

/* s as a double-quoted string with ", \\ and newlines escaped: git-config
 * and C read it alike. */
void chk_put_quoted(util_buf *b, const char *s);

/* The dtype and lanes of a C element type (__half2: f16, 2); -1 when unknown. */
int chk_type_dtype(const char *type, unsigned *lanes);

/* Appends an argument or a variable to the spec (strings copied); -1 when out of memory. */
chk_arg *chk_spec_add_arg(chk_spec *spec, const char *name);
chk_var *chk_spec_add_var(chk_spec *spec, const char *name, const char *type, const char *value);
chk_arg *chk_spec_add_global(chk_spec *spec, const char *name);

/* Marks key of [section "sub"] (sub NULL in [check]) as guessed, why
 * (one line) written after it; a mark of that key is replaced. -1 when
 * out of memory. */
int chk_spec_mark(chk_spec *spec, const char *section, const char *sub, const char *key, const char *why);
/* Removes the mark of that key, if any. */
void chk_spec_unmark(chk_spec *spec, const char *section, const char *sub, const char *key);
/* The mark of that key, or NULL. */
const chk_mark *chk_spec_mark_of(const chk_spec *spec, const char *section, const char *sub, const char *key);

#endif
