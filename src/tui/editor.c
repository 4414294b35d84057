#include "tui/editor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/error.h"
#include "util/file.h"

static int run(const char *const *paths, size_t n)
{
	const char *editor = getenv("VISUAL") && *getenv("VISUAL") ? getenv("VISUAL")
			     : getenv("EDITOR") && *getenv("EDITOR") ? getenv("EDITOR")
								     : "vi";
	char *copy = strdup(editor), *argv[64], *save, *word;
	int argc = 0, status = -1;
	size_t i;
	pid_t pid;

	if (!copy)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (word = strtok_r(copy, " \t", &save); word && argc < 30; word = strtok_r(NULL, " \t", &save))
		argv[argc++] = word;
	for (i = 0; i < n && argc < 62; i++)
		argv[argc++] = (char *)paths[i];
	argv[argc] = NULL;
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	free(copy);
	if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	return util_error_set(UTIL_ERROR, "the editor failed");
}

int tui_editor_run(tui_screen *s, const char *const *paths, size_t n)
{
	int error;

	tui_terminal_suspend(s);
	error = run(paths, n);
	tui_terminal_resume(s);
	return error;
}

int tui_editor_edit(tui_screen *s, const char *suffix, const char *text, util_buf *out)
{
	char path[4096];
	const char *paths[1] = { path };
	int fd, error;

	snprintf(path, sizeof(path), "%s/hipport-edit-XXXXXX%s",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", suffix);
	if ((fd = mkstemps(path, (int)strlen(suffix))) < 0)
		return util_error_set(UTIL_EINPUT, "cannot write a file for the editor: %.180s", path);
	if (close(fd) < 0 || util_file_write_fast(path, text, strlen(text)) < 0) {
		unlink(path);
		return util_error_set(UTIL_EINPUT, "cannot write a file for the editor: %.180s", path);
	}
	error = tui_editor_run(s, paths, 1);
	util_buf_clear(out);
	if (error == 0 && util_file_read(out, path, 0) < 0)
		error = util_error_set(UTIL_ERROR, "the editor failed");
	unlink(path);
	return error;
}
