/* CUDA names inside string literals, renamed as hipify-clang renames them
 * (HipifyAction::RewriteString): a message such as "cudaMemcpyHostToDevice
 * time" names the call the port now makes. Only what hipify-clang touches is
 * touched, so messages and data keep their bytes otherwise:
 * - ordinary literals ("..."); wide, UTF-8, raw literals and characters are
 *   data hipify-clang leaves alone;
 * - a word between spaces (or a quote) that is exactly a CUDA name starting
 *   with "cu": "cudaMalloc failed" changes, "cudaMalloc: %s", "cudaFree()"
 *   and "__syncthreads" do not;
 * - a plain rename only: the name the identifier would get at the target, no
 *   call template, no finding for a name left (a message is no API use). */
#include <string.h>

#include "port/xlate.h"

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The name a rule renames an identifier to at the target, or NULL when the
 * identifier would be left (experimental, unsupported, removed, too new
 * without a plain fallback). Mirrors the order of emit_identifier. */
static const char *plain_rename(const xlate *x, const port_rule *rule)
{
	port_version target = x->opts->target_hip;
	const char *s;

	if (rule->kind == PORT_RULE_QUALIFIED || (rule->experimental && !x->opts->experimental))
		return NULL;
	if (x->opts->roc && rule->roc)
		return rule->roc;
	if (!rule->hip || (rule->hip_removed && target >= rule->hip_removed))
		return NULL;
	if (rule->hip_added && target < rule->hip_added) {
		if (!rule->fallback)
			return NULL;
		for (s = rule->fallback; *s; s++) /* a template is no name */
			if (!is_ident_char(*s))
				return NULL;
		return rule->fallback;
	}
	return rule->hip;
}

size_t xlate_emit_string(xlate *x, size_t i, util_buf *out)
{
	const char *t = xlate_tok_text(x, i);
	size_t n = xlate_tok_len(x, i), at = 1, copied = 0;

	if (n < 2 || t[0] != '"' || t[n - 1] != '"' || x->no_string_renames) {
		util_buf_put(out, t, n);
		return i + 1;
	}
	while (at < n - 1) {
		size_t end = at, k;
		const port_rule *rule;
		const char *to;
		bool ident = true;

		while (end < n - 1 && t[end] != ' ')
			end++;
		for (k = at; k < end; k++)
			ident &= is_ident_char(t[k]);
		if (ident && end - at > 2 && t[at] == 'c' && t[at + 1] == 'u' &&
		    (rule = port_rules_find(x->rules, t + at, end - at)) != NULL &&
		    (to = plain_rename(x, rule)) != NULL) {
			util_buf_put(out, t + copied, at - copied);
			util_buf_puts(out, to);
			copied = end;
			x->string_renames++;
		}
		at = end + 1;
	}
	util_buf_put(out, t + copied, n - copied);
	return i + 1;
}
