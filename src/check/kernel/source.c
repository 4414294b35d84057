#include "check/kernel/source.h"

#include <string.h>

#include "port/definitions.h"

/* Appends to out every definition after keyword (__global__, __device__)
 * named kernel (its last name), or every one when kernel is NULL. */
static void definitions(util_buf *out, const char *src, size_t len, const char *keyword, const char *kernel)
{
	const char *at = src;
	port_definition d;

	while (port_definition_next(&d, src, src + len, &at, keyword))
		if (!kernel || port_definition_named(&d, kernel)) {
			util_buf_put(out, d.start, (size_t)(d.end - d.start));
			util_buf_putc(out, '\n');
		}
}

void chk_kernel_definitions(util_buf *out, const char *src, size_t len, const char *kernel)
{
	definitions(out, src, len, "__global__", kernel);
}

bool chk_kernel_unchanged(const char *orig, size_t orig_len, const char *port, size_t port_len, const char *kernel)
{
	util_buf a = UTIL_BUF_INIT, b = UTIL_BUF_INIT;
	bool same;

	chk_kernel_definitions(&a, orig, orig_len, kernel);
	chk_kernel_definitions(&b, port, port_len, kernel);
	same = !util_buf_oom(&a) && !util_buf_oom(&b) && a.len > 0 && a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
	/* and the device functions it may call: a wrong port is often there */
	util_buf_clear(&a);
	util_buf_clear(&b);
	definitions(&a, orig, orig_len, "__device__", NULL);
	definitions(&b, port, port_len, "__device__", NULL);
	same = same && !util_buf_oom(&a) && !util_buf_oom(&b) && a.len == b.len && (!a.len || memcmp(a.ptr, b.ptr, a.len) == 0);
	util_buf_dispose(&a);
	util_buf_dispose(&b);
	return same;
}
