/* What a kernel check depends on, so that a change to another kernel of
 * its file (a sync's, an edit's) leaves the check standing while a change
 * to anything the kernel can see does not (docs/sync.md, "Checks"). */
#ifndef HIPPORT_REVIEW_CHECK_SCOPE_H
#define HIPPORT_REVIEW_CHECK_SCOPE_H

#include <stdbool.h>
#include <stddef.h>

#include "review/session.h"
#include "util/buf.h"

/* Reads a file the checked file includes (path relative to the work tree),
 * as the port has it (port) or as the original does, into out; a nonzero
 * return: no such file. */
typedef int (*rv_scope_reader)(void *payload, const char *path, bool port, util_buf *out);

/* A file's content as its checks are held against it. */
typedef struct rv_check_content {
	char blob[41];           /* git's blob id of the port */
	const char *path;        /* the file, relative to the work tree */
	const char *orig, *port; /* borrowed: the original it is made from, the port */
	size_t orig_len, port_len;
	rv_scope_reader read;    /* the files it includes ("..."), or NULL */
	void *payload;
} rv_check_content;

/* Fills out for the file at path whose port is port (NULL: no file, so no
 * check holds), made from orig; includes read through read. */
void rv_check_content_init(rv_check_content *out, const char *path, const char *orig, size_t orig_len,
			   const char *port, size_t port_len, rv_scope_reader read, void *payload);

/* The id of kernel's scope in content: on each side, the file without the
 * bodies of its other __global__ functions (kept where the kernel's code
 * names them, a launch from the device, or where they hold a preprocessor
 * line) and of its host functions, and the files it includes with quotes,
 * whole. "" when the port defines no kernel of that name. */
void rv_check_scope(char out[41], const rv_check_content *content, const char *kernel);

/* Whether check c holds for the content now: its kernel's scope is the
 * same, or, for a check without one, the port is the one it ran on. */
bool rv_check_current(const rv_session_check *c, const rv_check_content *now);

/* A reader of the work tree at root (the port) and of the originals the
 * session keeps (a file under review), else the work tree's file. */
typedef struct rv_tree_reader {
	const char *root;
	const rv_session *session;
} rv_tree_reader;

int rv_tree_read(void *payload, const char *path, bool port, util_buf *out);

/* rv_check_content_init for the file at path whose port is port, its
 * original read through tree into orig (kept by the caller): the original
 * the session keeps, not what a file changed outside hipport is proposed
 * again from. */
void rv_check_content_of(rv_check_content *out, util_buf *orig, rv_tree_reader *tree, const char *path,
			 const char *port, size_t port_len);

#endif
