/* Function definitions in C/CUDA source text found by their keyword
 * (__global__, __device__), without a parse: what one kernel's code is made
 * of, for the checks that blame a side and those that go stale. */
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

#endif
