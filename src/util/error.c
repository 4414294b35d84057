#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_message[4096];

int util_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_message, sizeof(last_message), fmt, ap);
	va_end(ap);
	return code;
}

const char *util_error_last(void)
{
	return last_message;
}

void util_error_clear(void)
{
	last_message[0] = '\0';
}
