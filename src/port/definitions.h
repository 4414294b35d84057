/* Function definitions in C/CUDA source text found by their keyword
 * (__global__, __device__), without a parse: what one kernel's code is made
 * of, for the checks that blame a side and those that go stale; and the
 * preprocessor lines among them (directives, includes). */
#ifndef HIPPORT_PORT_DEFINITIONS_H
#define HIPPORT_PORT_DEFINITIONS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct port_definition {
	const char *start;  /* the keyword */
	const char *name;   /* the declarator's last name (ns::k is k) */
	size_t name_len;
	const char *body;   /* the body's opening brace */
	const char *end;    /* past its closing brace */
} port_definition;

/* The end of a comment, string or character literal starting at p, or p. */
const char *port_skip_literal(const char *p, const char *end);

/* Whether c may be part of an identifier. */
bool port_ident_char(char c);

/* The next definition after keyword in [*at, end) of src: true with *out
 * filled and *at past it, false when there is none. Declarations without a
 * body are passed over. */
bool port_definition_next(port_definition *out, const char *src, const char *end, const char **at,
			  const char *keyword);

/* Whether the definition is named name (its last name: ns::k<T> is k). */
bool port_definition_named(const port_definition *d, const char *name);

/* Whether [p, end) holds identifier word (len bytes), outside literals. */
bool port_has_word(const char *p, const char *end, const char *word, size_t len);

/* Whether [p, end) holds a preprocessor line (a '#' first on a line): a
 * body that #defines or #undefs changes the text after it. */
bool port_has_directive(const char *p, const char *end);

/* The name a line [line, end) includes (#include "name" or <name>), and
 * whether it was quoted; false when the line is no include. */
bool port_include_name(const char *line, const char *end, const char **name, size_t *len, bool *quoted);

/* Calls fn for each host function defined at namespace scope of
 * [text, end) (namespace and extern "C" blocks looked into, a class's body
 * kept whole): head, the text from the declaration before it (or a
 * directive line) to the body; body, its opening brace; end, past its
 * closing one. A host function: its head ends with its parameter list (and
 * const, noexcept, override, final), holds no initializer and none of
 * __device__, __global__, constexpr, consteval, class, struct, union, enum,
 * namespace, extern. */
typedef void (*port_host_fn)(void *payload, const char *head, const char *body, const char *end);
void port_host_functions(const char *text, const char *end, port_host_fn fn, void *payload);

#endif
