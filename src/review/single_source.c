/* Single-source ports (--single-source): the CUDA text is kept, and each
 * fix taken goes in a guarded branch with the original lines in the other,
 *
 *     #ifdef USE_ROCM
 *     <the fixed lines>
 *     #else
 *     <the original lines>
 *     #endif
 *
 * as dual-platform projects write their ROCm changes; the renames are left
 * to the build's own hipify (PyTorch's, on ROCm). */
#include "review/single_source.h"

#include <string.h>

#include "util/error.h"

/* The start of the line that holds offset. */
static size_t line_start(const char *s, size_t offset)
{
	while (offset > 0 && s[offset - 1] != '\n')
		offset--;
	return offset;
}

/* The end of the line that holds offset, after its newline. */
static size_t line_end(const char *s, size_t len, size_t offset)
{
	while (offset < len && s[offset] != '\n')
		offset++;
	return offset < len ? offset + 1 : len;
}

/* Appends text, and a newline if it does not end in one. */
static void put_lines(util_buf *out, const char *text, size_t n, const char *eol)
{
	util_buf_put(out, text, n);
	if (n && text[n - 1] != '\n')
		util_buf_puts(out, eol);
}

/* A whole-line insertion (a helper put before a line): no original lines. */
static bool inserts_lines(const char *src, const char *fixed, size_t fixed_at, const an_applied *a)
{
	return a->length == 0 && a->new_length > 0 && line_start(src, a->offset) == a->offset &&
	       fixed[fixed_at + a->new_length - 1] == '\n';
}

bool rv_includes_torch(const char *src, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t end = line_end(src, len, i), p = i, close;

		while (p < end && (src[p] == ' ' || src[p] == '\t'))
			p++;
		if (p < end && src[p] == '#') {
			for (p++; p < end && (src[p] == ' ' || src[p] == '\t'); p++)
				;
			if (end - p > 8 && memcmp(src + p, "include", 7) == 0) {
				for (p += 7; p < end && (src[p] == ' ' || src[p] == '\t'); p++)
					;
				for (close = p + 1; close < end && src[close] != '>' && src[close] != '"'; close++)
					;
				if (p < end && (src[p] == '<' || src[p] == '"') && close < end &&
				    port_is_torch_header(src + p + 1, close - p - 1))
					return true;
			}
		}
		i = end;
	}
	return false;
}

const char *rv_single_source_macro(const char *requested, const char *src, size_t len)
{
	if (requested && *requested)
		return requested;
	return rv_includes_torch(src, len) ? "USE_ROCM" : "__HIP_PLATFORM_AMD__";
}

void rv_single_source(util_buf *out, const char *src, size_t len, const char *fixed, size_t fixed_len,
		      const an_applied *spans, size_t nspans, const char *macro)
{
	const char *eol = memmem(src, len, "\r\n", 2) ? "\r\n" : "\n";
	size_t i = 0, copied = 0;
	long long delta = 0; /* fixed offset - source offset, before the block */

	while (i < nspans) {
		size_t first = i, block_start, block_end, fixed_start, fixed_end;
		long long inside = 0;
		bool insertion = false;

		if (inserts_lines(src, fixed, (size_t)((long long)spans[i].offset + delta), &spans[i])) {
			block_start = block_end = spans[i].offset;
			insertion = true;
			inside = spans[i].new_length;
			i++;
		} else {
			block_start = line_start(src, spans[i].offset);
			block_end = line_end(src, len, spans[i].offset + (spans[i].length ? spans[i].length - 1 : 0));
			/* spans on the same lines, or the next ones, make one block */
			while (i < nspans && spans[i].offset <= block_end &&
			       !(i > first && inserts_lines(src, fixed, (size_t)((long long)spans[i].offset + delta + inside),
							    &spans[i]))) {
				size_t end = line_end(src, len, spans[i].offset + (spans[i].length ? spans[i].length - 1 : 0));

				if (end > block_end)
					block_end = end;
				inside += (long long)spans[i].new_length - spans[i].length;
				i++;
			}
		}
		fixed_start = (size_t)((long long)block_start + delta);
		fixed_end = (size_t)((long long)block_end + delta + inside);
		if (fixed_end > fixed_len)
			fixed_end = fixed_len;
		util_buf_put(out, src + copied, block_start - copied);
		if (block_start > 0 && src[block_start - 1] != '\n')
			util_buf_puts(out, eol);
		util_buf_printf(out, "#ifdef %s%s", macro, eol);
		put_lines(out, fixed + fixed_start, fixed_end - fixed_start, eol);
		if (!insertion) {
			util_buf_printf(out, "#else%s", eol);
			put_lines(out, src + block_start, block_end - block_start, eol);
		}
		util_buf_printf(out, "#endif%s", eol);
		copied = block_end;
		delta += inside;
	}
	util_buf_put(out, src + copied, len - copied);
}

int rv_single_source_port(util_buf *out, port_lexer *lexer, const port_rules *rules, const port_options *opts,
			  const char *path, const char *text, size_t len)
{
	const char *macro = rv_single_source_macro(opts->single_source, text, len);
	port_options hipify = *opts;
	port_result r;
	int error;

	hipify.single_source = NULL;
	if ((error = port_translate(&r, lexer, rules, &hipify, path, text, len)) < 0)
		return error;
	util_buf_printf(out, "#ifndef %s\n#define %s 1\n#endif\n#line 1\n", macro, macro);
	util_buf_put(out, r.output.ptr ? r.output.ptr : "", r.output.len);
	port_result_dispose(&r);
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}
