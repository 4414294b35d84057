/* Data files compiled into the binary by tools/embed.c (rules, the finding
 * catalog): read by the same loaders as files on disk. */
#ifndef HIPPORT_UTIL_EMBEDDED_H
#define HIPPORT_UTIL_EMBEDDED_H

#include <stddef.h>

typedef struct util_embedded_file {
	const char *name; /* file name, e.g. "runtime.tsv"; NULL ends a list */
	const char *data; /* NUL-terminated */
	size_t len;
} util_embedded_file;

#endif
