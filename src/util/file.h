/* Whole-file reads with limits, and atomic writes (lock file, fsync, rename). */
#ifndef HIPPORT_UTIL_FILE_H
#define HIPPORT_UTIL_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* The default size limit for source files: 10 MB. */
#define UTIL_FILE_DEFAULT_MAX_SIZE ((size_t)10 * 1000 * 1000)

/* Reads all of path into out (replacing its contents). Refuses directories,
 * non-regular files and files of max_size bytes or more (0: no limit). */
int util_file_read(util_buf *out, const char *path, size_t max_size);

/* Writes data to path atomically: path.lock is created exclusively, written,
 * fsynced and renamed over path; the directory is fsynced. On failure path is
 * untouched and the lock file removed. An existing file keeps its mode. */
int util_file_write_atomic(const char *path, const char *data, size_t len);

/* Creates the directories leading to path (not path itself). */
int util_file_make_parents(const char *path);

/* Whether rel names a regular file under dir, symbolic links resolved (a
 * path from outside input, held to the tree it claims to be in). */
bool util_file_inside(const char *dir, const char *rel);

/* Like util_file_write_atomic, without the fsyncs: for caches, where a lost
 * write costs only time. */
int util_file_write_fast(const char *path, const char *data, size_t len);

#endif
