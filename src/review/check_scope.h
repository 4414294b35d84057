/* What of its file a kernel check depends on, so that a change to another
 * kernel of the file (a sync's, an edit's) leaves the check standing
 * (docs/sync.md, "Checks"). */
#ifndef HIPPORT_REVIEW_CHECK_SCOPE_H
#define HIPPORT_REVIEW_CHECK_SCOPE_H

#include <stdbool.h>
#include <stddef.h>

#include "review/session.h"

/* The id of kernel's scope in a file's port and its original: each text
 * without the bodies of its other __global__ functions (kept where the
 * kernel's code names them, a launch from the device, or where they hold a
 * preprocessor line). "" when the port defines no kernel of that name. */
void rv_check_scope(char out[41], const char *orig, size_t orig_len, const char *port, size_t port_len,
		    const char *kernel);

/* A file's content as its checks are held against it. */
typedef struct rv_check_content {
	char blob[41];   /* git's blob id of the port */
	const char *orig, *port; /* borrowed: the original it is made from, the port */
	size_t orig_len, port_len;
} rv_check_content;

/* Fills out for port (NULL: no file, so no check holds), made from orig. */
void rv_check_content_init(rv_check_content *out, const char *orig, size_t orig_len, const char *port,
			   size_t port_len);

/* Whether check c holds for the content now: its kernel's scope is the
 * same, or, for a check without one, the port is the one it ran on. */
bool rv_check_current(const rv_session_check *c, const rv_check_content *now);

#endif
