/* The launch sites of a file's kernels, read from its host code with
 * libclang: kernel<T...><<<grid, block, shared, stream>>>(args). Each
 * expression is resolved to what it says at the launch: a local variable is
 * replaced by its initialiser or its last assignment before the launch, so
 * the expression holds only literals and names of the file's scope (which a
 * harness that includes the file sees). A pointer argument is sized by the
 * allocation that made it (cudaMalloc, cudaMallocManaged, new T[n], ...).
 * What cannot be resolved (a value read from argv, a loop counter) is
 * listed with where it comes from, never guessed silently. */
#ifndef HIPPORT_CHECK_LAUNCH_H
#define HIPPORT_CHECK_LAUNCH_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct chk_launch_arg {
	char *expr;      /* resolved; for a pointer, the expression as written */
	bool pointer;    /* a local pointer of the host code */
	char *elem_type; /* pointers: the allocation's element type (typedefs resolved), or NULL */
	char *count;     /* pointers: elements, resolved from the allocation, or NULL */
	char *alloc;     /* pointers: "cudaMalloc at line 42", or NULL */
	bool offset;     /* pointers: passed with an offset (p + k, &p[k]) */
} chk_launch_arg;

/* A name left in the expressions because its value is not known here. */
typedef struct chk_unresolved {
	char *name, *type;
	char *why; /* "const int n = atoi(argv[1]) (line 40)" */
	bool counter; /* changed by ++, --, or in a loop: 0 is its first value */
	bool template_param; /* of the launching function: replaced by a value */
	bool from_call;      /* that value is the argument of a call in the file, not a guess */
	char *value;  /* that value */
	char *initial; /* the number its declaration gives (int dimx = 32) before the program sets it
			* again at run time (from argv): the program's default, or NULL */
} chk_unresolved;

typedef struct chk_launch {
	char *kernel;  /* the name the launch calls, unqualified */
	unsigned line;
	char *templ;   /* explicit template arguments, resolved, or NULL (deduced) */
	char *grid, *block, *shared;
	chk_launch_arg *args;
	size_t nargs;
	chk_unresolved *unresolved;
	size_t nunresolved;
} chk_launch;

/* Every launch in the host functions of tu's main file, in source order;
 * *out is freed with chk_launches_dispose. */
int chk_launches_find(chk_launch **out, size_t *n, CXTranslationUnit tu);
void chk_launches_dispose(chk_launch *l, size_t n);

/* Whether c is a __global__ function (the prelude spells it
 * __attribute__((global))). */
bool chk_is_kernel(CXCursor c);

/* The type of declaration c (named name) as written, when the parse could
 * not make it (cudaTextureObject_t or a struct of a header it did not find:
 * clang says int); NULL for a valid declaration, a pointer or an array. */
char *chk_spelled_type(CXCursor c, const char *name);
/* ... and the element type of a pointer parameter so declared (floatX of
 * floatX *out, where floatX comes from a header the parse did not read). */
char *chk_spelled_pointee(CXCursor c, const char *name);

/* A type as C spells it, without qualifiers or the prelude's namespace. */
char *chk_type_spelling(CXType t);
/* The same, a typedef resolved to its real type where that is one whose
 * dtype hipport knows (typedef int ctype: int). */
char *chk_type_known_spelling(CXType t);

/* The type a template type parameter nothing gives is drafted as: int for
 * one whose name says it counts or indexes (IdxT, IndexType, index_t,
 * OffsetT, SizeT: subscripts and shifts need an integer), float otherwise. */
const char *chk_type_param_guess(const char *name);

#endif
