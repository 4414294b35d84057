/* Child processes without a shell: argv arrays, captured output, a time
 * limit, so that a tool that hangs or floods cannot take hipport with it. */
#ifndef HIPPORT_UTIL_PROCESS_H
#define HIPPORT_UTIL_PROCESS_H

#include <stdbool.h>

#include "util/buf.h"

typedef struct util_process_result {
	util_buf out;        /* standard output (at most max_output bytes kept) */
	util_buf err;        /* standard error, likewise */
	int status;          /* the exit status, or -1 when killed by a signal or not run */
	int signal;          /* the signal that ended it, or 0 */
	bool timed_out;      /* killed at the time limit */
	bool not_found;      /* the program could not be executed (exit 127 from the child) */
} util_process_result;

#define UTIL_PROCESS_MAX_OUTPUT ((size_t)1 << 20)

/* Runs argv[0] (a path, or a name looked up in PATH) with argv, standard
 * input from /dev/null, in its own process group; waits at most timeout_ms
 * (then kills the group). Returns 0 when it ran (whatever its exit status),
 * or a negative code when no process could be started. Dispose out. */
int util_process_run(util_process_result *out, const char *const *argv, int timeout_ms);

/* Runs fn(payload) in a forked child whose standard output is captured, as
 * util_process_run does for a program: for work that may crash or hang (a
 * GPU runtime), kept out of hipport's own process. fn's return value is the
 * child's exit status. Call it only while hipport runs one thread. */
int util_process_call(util_process_result *out, int (*fn)(void *payload), void *payload, int timeout_ms);

/* util_process_run, with watch(data, len, payload) told of every piece of
 * output as it arrives (standard output and error alike), to stream it. */
int util_process_run_watched(util_process_result *out, const char *const *argv, int timeout_ms,
			     void (*watch)(const char *data, size_t len, void *payload), void *payload);

void util_process_result_dispose(util_process_result *result);

/* word in single quotes for a POSIX shell ('\'' for a quote), appended to
 * out: for command lines a shell reads (a script, ssh's remote command). */
void util_process_shell_quote(util_buf *out, const char *word);

#endif
