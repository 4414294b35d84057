#include "util/process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"

typedef struct child_start {
	const char *const *argv; /* a program to execute, or */
	int (*fn)(void *payload); /* a function to call */
	void *payload;
	void (*watch)(const char *data, size_t len, void *payload); /* told of the output, or NULL */
	void *watch_payload;
} child_start;

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* In the child: its own process group, stdin from /dev/null, the pipes as
 * stdout and stderr; never returns. */
static void run_child(const child_start *start, int out_fd, int err_fd)
{
	int null_fd = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	if (null_fd >= 0)
		dup2(null_fd, STDIN_FILENO);
	dup2(out_fd, STDOUT_FILENO);
	dup2(err_fd, STDERR_FILENO);
	if (start->argv) {
		execvp(start->argv[0], (char *const *)start->argv);
		_exit(127);
	}
	{
		int status = start->fn(start->payload);

		fflush(stdout);
		fflush(stderr);
		_exit(status);
	}
}

/* Appends what is readable on fd to buf (up to the limit; the rest is
 * read and dropped); returns false at the end of the stream. */
static bool drain(int fd, util_buf *buf, const child_start *start)
{
	char chunk[4096];
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return false;
	if (start->watch)
		start->watch(chunk, (size_t)n, start->watch_payload);
	if (buf->len < UTIL_PROCESS_MAX_OUTPUT) {
		size_t keep = (size_t)n;

		if (keep > UTIL_PROCESS_MAX_OUTPUT - buf->len)
			keep = UTIL_PROCESS_MAX_OUTPUT - buf->len;
		util_buf_put(buf, chunk, keep);
	}
	return true;
}

static int start_and_wait(util_process_result *out, const child_start *start, int timeout_ms)
{
	int out_pipe[2] = { -1, -1 }, err_pipe[2] = { -1, -1 }, status = 0;
	struct pollfd fds[2];
	bool reaped = false;
	long long deadline = now_ms() + timeout_ms;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	out->status = -1;
	if (pipe(out_pipe) < 0 || pipe(err_pipe) < 0) {
		if (out_pipe[0] >= 0) {
			close(out_pipe[0]);
			close(out_pipe[1]);
		}
		return util_error_set(UTIL_ERROR, "cannot create a pipe: %s", strerror(errno));
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		close(out_pipe[0]);
		close(err_pipe[0]);
		run_child(start, out_pipe[1], err_pipe[1]);
	}
	close(out_pipe[1]);
	close(err_pipe[1]);
	if (pid < 0) {
		close(out_pipe[0]);
		close(err_pipe[0]);
		return util_error_set(UTIL_ERROR, "cannot start a process: %s", strerror(errno));
	}
	setpgid(pid, pid); /* also here: no race with the kill below */
	fds[0].fd = out_pipe[0];
	fds[1].fd = err_pipe[0];
	fds[0].events = fds[1].events = POLLIN;
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		long long left = deadline - now_ms();
		int i, n;

		if (left <= 0) {
			out->timed_out = true;
			break;
		}
		n = poll(fds, 2, (int)left);
		if (n < 0 && errno != EINTR)
			break;
		for (i = 0; n > 0 && i < 2; i++) {
			if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    !drain(fds[i].fd, i ? &out->err : &out->out, start)) {
				close(fds[i].fd);
				fds[i].fd = -1;
			}
		}
	}
	/* the output is closed, but a child may live on without it */
	while (!out->timed_out && !reaped) {
		struct timespec pause = { 0, 5 * 1000 * 1000 };
		pid_t done = waitpid(pid, &status, WNOHANG);

		if (done == pid)
			reaped = true;
		else if (done < 0 && errno != EINTR)
			break; /* reaped elsewhere: the status is unknown */
		else if (now_ms() >= deadline)
			out->timed_out = true;
		else
			nanosleep(&pause, NULL);
	}
	if (out->timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		reaped = true;
	}
	if (fds[0].fd >= 0)
		close(fds[0].fd);
	if (fds[1].fd >= 0)
		close(fds[1].fd);
	if (reaped && WIFEXITED(status)) {
		out->status = WEXITSTATUS(status);
		out->not_found = start->argv && out->status == 127;
	} else if (reaped && WIFSIGNALED(status)) {
		out->signal = WTERMSIG(status);
	}
	if (util_buf_oom(&out->out) || util_buf_oom(&out->err)) {
		util_process_result_dispose(out);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	/* never NULL, so that callers can parse without checks */
	util_buf_put(&out->out, "", 0);
	util_buf_put(&out->err, "", 0);
	return 0;
}

int util_process_run(util_process_result *out, const char *const *argv, int timeout_ms)
{
	child_start start = { .argv = argv };

	return start_and_wait(out, &start, timeout_ms);
}

int util_process_run_watched(util_process_result *out, const char *const *argv, int timeout_ms,
			     void (*watch)(const char *data, size_t len, void *payload), void *payload)
{
	child_start start = { .argv = argv, .watch = watch, .watch_payload = payload };

	return start_and_wait(out, &start, timeout_ms);
}

int util_process_call(util_process_result *out, int (*fn)(void *payload), void *payload, int timeout_ms)
{
	child_start start = { .fn = fn, .payload = payload };

	return start_and_wait(out, &start, timeout_ms);
}

void util_process_result_dispose(util_process_result *result)
{
	util_buf_dispose(&result->out);
	util_buf_dispose(&result->err);
}

void util_process_shell_quote(util_buf *out, const char *word)
{
	util_buf_putc(out, '\'');
	for (; *word; word++) {
		if (*word == '\'')
			util_buf_puts(out, "'\\''");
		else
			util_buf_putc(out, *word);
	}
	util_buf_putc(out, '\'');
}
