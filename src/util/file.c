#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int util_file_read(util_buf *out, const char *path, size_t max_size)
{
	struct stat st;
	int fd, error = UTIL_ERROR;

	util_buf_clear(out);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return util_error_set(UTIL_ENOTFOUND, "%s: no such file", path);
		return util_error_set(UTIL_EINPUT, "%s: cannot open: %s", path, strerror(errno));
	}
	if (fstat(fd, &st) < 0) {
		error = util_error_set(UTIL_EINPUT, "%s: cannot stat: %s", path, strerror(errno));
		goto done;
	}
	if (S_ISDIR(st.st_mode)) {
		error = util_error_set(UTIL_EINPUT, "%s: is a directory, not a file", path);
		goto done;
	}
	if (!S_ISREG(st.st_mode)) {
		error = util_error_set(UTIL_EINPUT, "%s: not a regular file", path);
		goto done;
	}
	if (max_size && (size_t)st.st_size >= max_size) {
		error = util_error_set(UTIL_EINPUT, "%s: file too large (%lld bytes; the limit is %zu bytes)",
				       path, (long long)st.st_size, max_size);
		goto done;
	}
	if (!util_buf_grow(out, (size_t)st.st_size)) {
		error = util_error_set(UTIL_ENOMEM, "%s: out of memory", path);
		goto done;
	}
	for (;;) {
		ssize_t n;

		/* st_size bytes were reserved: grow only for a file that grew since */
		if (out->len + 1 >= out->cap && !util_buf_grow(out, 65536)) {
			error = util_error_set(UTIL_ENOMEM, "%s: out of memory", path);
			goto done;
		}
		n = read(fd, out->ptr + out->len, out->cap - out->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error = util_error_set(UTIL_EINPUT, "%s: read error: %s", path, strerror(errno));
			goto done;
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
		if (max_size && out->len >= max_size) {
			error = util_error_set(UTIL_EINPUT, "%s: file too large (the limit is %zu bytes)",
					       path, max_size);
			goto done;
		}
	}
	out->ptr[out->len] = '\0';
	error = UTIL_OK;
done:
	close(fd);
	return error;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_device(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), error = 0;

	if (fd < 0)
		return util_error_set(UTIL_ERROR, "%s: cannot open: %s", path, strerror(errno));
	if (write_all(fd, data, len) < 0)
		error = util_error_set(UTIL_ERROR, "%s: write failed: %s", path, strerror(errno));
	close(fd);
	return error;
}

static void fsync_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!dir)
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/* Whether fd is still the file named path (not one renamed away meanwhile). */
static bool still_named(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int write_replacing(const char *path, const char *data, size_t len, bool durable)
{
	util_buf lock = UTIL_BUF_INIT;
	struct stat st;
	mode_t mode = 0666;
	int fd = -1, error = UTIL_ERROR;

	if (stat(path, &st) == 0) {
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
			return write_device(path, data, len); /* /dev/null, a pipe: nothing to replace */
		if (!S_ISREG(st.st_mode))
			return util_error_set(UTIL_EINPUT, "%s: not a regular file", path);
		mode = st.st_mode & 07777;
	}
	util_buf_printf(&lock, "%s.lock", path);
	if (util_buf_oom(&lock))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	/* The lock is held with flock while the file is written, and released
	 * by the kernel when the process ends: a lock file a killed hipport left
	 * behind is taken over, one a running hipport holds is not. */
	fd = open(lock.ptr, O_WRONLY | O_CREAT | O_CLOEXEC, mode);
	if (fd < 0) {
		error = util_error_set(UTIL_ERROR, "%s: cannot create %s: %s", path, lock.ptr, strerror(errno));
		goto done;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0 || !still_named(fd, lock.ptr)) {
		close(fd);
		fd = -1;
		error = util_error_set(UTIL_ERROR, "%s: locked (%s is held; another hipport running?)", path,
				       lock.ptr);
		goto done;
	}
	if (fchmod(fd, mode) < 0 || ftruncate(fd, 0) < 0 || write_all(fd, data, len) < 0 ||
	    (durable && fsync(fd) < 0)) {
		error = util_error_set(UTIL_ERROR, "%s: write failed: %s", path, strerror(errno));
		goto fail;
	}
	if (rename(lock.ptr, path) < 0) {
		error = util_error_set(UTIL_ERROR, "%s: cannot replace: %s", path, strerror(errno));
		goto fail;
	}
	close(fd); /* after the rename: the lock is held until the file is in place */
	fd = -1;
	if (durable)
		fsync_parent(path);
	error = UTIL_OK;
	goto done;
fail:
	if (fd >= 0)
		close(fd);
	fd = -1;
	unlink(lock.ptr);
done:
	util_buf_dispose(&lock);
	return error;
}

int util_file_write_atomic(const char *path, const char *data, size_t len)
{
	return write_replacing(path, data, len, true);
}

int util_file_write_fast(const char *path, const char *data, size_t len)
{
	return write_replacing(path, data, len, false);
}

int util_file_make_parents(const char *path)
{
	char *copy = strdup(path), *p;

	if (!copy)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0777) < 0 && errno != EEXIST) {
			int error = util_error_set(UTIL_ERROR, "%s: cannot create: %s", copy, strerror(errno));

			free(copy);
			return error;
		}
		*p = '/';
	}
	free(copy);
	return 0;
}

bool util_file_inside(const char *dir, const char *rel)
{
	util_buf path = UTIL_BUF_INIT;
	char top[PATH_MAX], real[PATH_MAX];
	struct stat st;
	bool inside = false;

	util_buf_printf(&path, "%s/%s", dir, rel);
	if (*rel != '/' && !util_buf_oom(&path) && realpath(dir, top) && realpath(path.ptr, real) &&
	    strncmp(real, top, strlen(top)) == 0 && real[strlen(top)] == '/' && stat(real, &st) == 0 &&
	    S_ISREG(st.st_mode))
		inside = true;
	util_buf_dispose(&path);
	return inside;
}
