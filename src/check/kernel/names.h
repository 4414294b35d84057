/* The names a harness can see: it includes the kernel's file and then
 * declares the spec's vars and scalars in its main, so a drafted
 * expression may use literals, the file's own file-scope names (functions,
 * variables, types, enumerators, macros, names of the headers it includes)
 * and the spec's own names, nothing else. libclang tells them apart from
 * the locals of the program's functions and from __device__ variables,
 * which host code cannot read (docs/checks.md, "A drafted spec compiles"). */
#ifndef HIPPORT_CHECK_NAMES_H
#define HIPPORT_CHECK_NAMES_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum chk_name_kind {
	CHK_NAME_FILE,    /* visible at file scope */
	CHK_NAME_MEMBER,  /* declared in a named namespace only: visible as qual + name */
	CHK_NAME_DEVICE,  /* a __device__ or __constant__ variable */
	CHK_NAME_LOCAL    /* a local or parameter of a function of the file */
} chk_name_kind;

typedef struct chk_name {
	char *name;
	chk_name_kind kind;
	char *qual; /* MEMBER: "ns::inner::"; LOCAL: the function's name */
	unsigned line; /* LOCAL, DEVICE: where it is declared */
	int ambiguous; /* MEMBER: declared in several namespaces */
} chk_name;

typedef struct chk_scope {
	chk_name *names; /* sorted by name, then kind */
	size_t n;
} chk_scope;

/* The names of tu (a file parsed as analyze/parse.c parses it). */
/* Whether c is an extern "C" block or declaration, whose declarations are
 * the enclosing scope's (libclang 15 reports most as UnexposedDecl, as it
 * does an empty declaration or a file-scope asm). */
bool chk_names_linkage_block(CXCursor c);

int chk_scope_collect(chk_scope *out, CXTranslationUnit tu);
void chk_scope_dispose(chk_scope *scope);

/* Checks the names of expr (a drafted C++ expression or type) against
 * scope and own (the spec's names that the harness declares before expr).
 * *out is expr with the names of a namespace qualified (kBlock becomes
 * fastops::kBlock). Returns 0 when nothing in it is known not to compile;
 * 1 when something is, *why saying what ("nx is a local of main (line
 * 40)"); negative on failure. Names scope does not know (the CUDA
 * runtime's, the system headers') are left to the compile probe. */
int chk_names_check(char **out, char **why, const char *expr, const chk_scope *scope, char *const *own,
		    size_t nown);

/* The entries of the name of len bytes at name (adjacent, *count of them), or NULL. */
const chk_name *chk_scope_lookup(const chk_scope *scope, const char *name, size_t len, size_t *count);

/* Whether name is a word of expr (not after . or ->). */
int chk_names_uses(const char *expr, const char *name);

#endif
