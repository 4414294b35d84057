/* Error reporting between layers: a library function returns a negative code
 * and leaves its message here; only the command layer prints it. */
#ifndef HIPPORT_UTIL_ERROR_H
#define HIPPORT_UTIL_ERROR_H

enum util_error_code {
	UTIL_OK = 0,
	UTIL_ERROR = -1,     /* generic failure */
	UTIL_EINPUT = -2,    /* bad input: the user's file or argument */
	UTIL_ENOTFOUND = -3, /* a missing file or name */
	UTIL_ENOMEM = -4,
	UTIL_ETOOLCHAIN = -5 /* a compiler or tool is missing */
};

#if defined(__GNUC__)
#define UTIL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define UTIL_PRINTF(a, b)
#endif

/* Sets the thread's last error message and returns code, so that
 * `return util_error_set(UTIL_EINPUT, "...")` reads naturally. */
int util_error_set(int code, const char *fmt, ...) UTIL_PRINTF(2, 3);

/* The thread's last error message ("" when none). */
const char *util_error_last(void);

void util_error_clear(void);

#endif
