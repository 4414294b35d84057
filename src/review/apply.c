#include "review/apply.h"

#include <dirent.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/file.h"

/* Backups hold the original as <path> and the blob id of what apply wrote as
 * <path>.applied, so undo can tell whether the file was edited since. */
static const char applied_suffix[] = ".applied";

char *rv_backup_dir(const char *git_dir)
{
	util_buf b = UTIL_BUF_INIT;

	if (git_dir)
		util_buf_printf(&b, "%s/hipport/backup", git_dir);
	else
		util_buf_puts(&b, ".hipport-backup");
	return util_buf_oom(&b) ? NULL : util_buf_detach(&b);
}

int rv_apply(const rv_proposal *p, const char *backup_dir)
{
	util_buf now = UTIL_BUF_INIT, backup = UTIL_BUF_INIT, mark = UTIL_BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	int error;

	if ((error = util_file_read(&now, p->fs_path, 0)) < 0)
		goto done;
	if (now.len != p->source.len || memcmp(now.ptr, p->source.ptr, now.len) != 0) {
		error = util_error_set(UTIL_EINPUT, "%s: changed since it was read; not overwritten", p->path);
		goto done;
	}
	util_buf_printf(&backup, "%s/%s", backup_dir, p->path);
	util_buf_printf(&mark, "%s%s", backup.ptr, applied_suffix);
	rv_blob_id(hex, p->port.output.ptr, p->port.output.len);
	if (util_buf_oom(&backup) || util_buf_oom(&mark)) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	/* the original first, durably: then the working tree may change */
	if ((error = util_file_make_parents(backup.ptr)) < 0 ||
	    (error = util_file_write_atomic(backup.ptr, p->source.ptr, p->source.len)) < 0 ||
	    (error = util_file_write_atomic(mark.ptr, hex, strlen(hex))) < 0 ||
	    (error = util_file_write_atomic(p->fs_path, p->port.output.ptr, p->port.output.len)) < 0)
		goto done;
done:
	util_buf_dispose(&now);
	util_buf_dispose(&backup);
	util_buf_dispose(&mark);
	return error;
}

int rv_undo(const char *backup_dir, const char *path, const char *fs_path)
{
	util_buf backup = UTIL_BUF_INIT, mark = UTIL_BUF_INIT, original = UTIL_BUF_INIT, applied = UTIL_BUF_INIT,
		 now = UTIL_BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	int error;

	util_buf_printf(&backup, "%s/%s", backup_dir, path);
	util_buf_printf(&mark, "%s%s", backup.ptr, applied_suffix);
	if (util_buf_oom(&backup) || util_buf_oom(&mark)) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	if (util_file_read(&original, backup.ptr, 0) < 0 || util_file_read(&applied, mark.ptr, 0) < 0) {
		error = util_error_set(UTIL_ENOTFOUND, "%s: no backup to restore", path);
		goto done;
	}
	if (util_file_read(&now, fs_path, 0) == 0) {
		if (now.len == original.len && memcmp(now.ptr, original.ptr, now.len) == 0)
			goto drop; /* already back to the original */
		rv_blob_id(hex, now.ptr, now.len);
		if (applied.len != strlen(hex) || memcmp(applied.ptr, hex, applied.len) != 0) {
			error = util_error_set(UTIL_EINPUT,
					       "%s: changed since hipport applied it; not restored (the original is in %s)",
					       path, backup.ptr);
			goto done;
		}
	}
	if ((error = util_file_write_atomic(fs_path, original.ptr, original.len)) < 0)
		goto done;
drop:
	unlink(mark.ptr);
	unlink(backup.ptr);
	error = 0;
done:
	util_buf_dispose(&backup);
	util_buf_dispose(&mark);
	util_buf_dispose(&original);
	util_buf_dispose(&applied);
	util_buf_dispose(&now);
	return error;
}

static int list_dir(char ***out, size_t *count, const char *base, const char *rel)
{
	util_buf dir = UTIL_BUF_INIT, child = UTIL_BUF_INIT;
	struct dirent *de;
	DIR *d;
	int error = 0;

	util_buf_printf(&dir, "%s%s%s", base, *rel ? "/" : "", rel);
	d = opendir(dir.ptr);
	util_buf_dispose(&dir);
	if (!d)
		return 0;
	while (!error && (de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		struct stat st;
		util_buf full = UTIL_BUF_INIT;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		util_buf_clear(&child);
		util_buf_printf(&child, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		util_buf_printf(&full, "%s/%s", base, child.ptr);
		if (stat(full.ptr, &st) == 0 && S_ISDIR(st.st_mode)) {
			error = list_dir(out, count, base, child.ptr);
		} else if (!(n > sizeof(applied_suffix) - 1 &&
			     strcmp(de->d_name + n - (sizeof(applied_suffix) - 1), applied_suffix) == 0)) {
			char **grown = realloc(*out, (*count + 1) * sizeof(char *));

			if (!grown)
				error = util_error_set(UTIL_ENOMEM, "out of memory");
			else if (!(grown[*count] = strdup(child.ptr)))
				error = util_error_set(UTIL_ENOMEM, "out of memory"), *out = grown;
			else
				*out = grown, (*count)++;
		}
		util_buf_dispose(&full);
	}
	closedir(d);
	util_buf_dispose(&child);
	return error;
}

int rv_backup_list(char ***out, size_t *count, const char *backup_dir)
{
	*out = NULL;
	*count = 0;
	return list_dir(out, count, backup_dir, "");
}
