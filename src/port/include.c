/* #include directives: CUDA headers mapped to HIP ones (or dropped), duplicate
 * HIP includes removed, and hip/hip_runtime.h inserted where a file uses
 * CUDA but includes no runtime header. */
#include <stdlib.h>
#include <string.h>

#include "port/xlate.h"
#include "util/buf.h"

static const char runtime_header[] = "hip/hip_runtime.h";

typedef enum header_action {
	HEADER_KEEP,   /* not a CUDA header, or left as is */
	HEADER_RENAME,
	HEADER_DROP
} header_action;

typedef struct header_plan {
	header_action action;
	const char *name; /* the header the output includes (RENAME, or KEEP of a non-CUDA header) */
	size_t name_len;
	const port_rule *rule;
	port_ref_status status;
} header_plan;

/* Appends s[0, n) with `cuda` written `hip` and `CUDA` `HIP`, as PyTorch's
 * hipify names the files of its ATen/cuda folders on ROCm. */
static void put_hip_spelling(util_buf *out, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (n - i >= 4 && (memcmp(s + i, "cuda", 4) == 0 || memcmp(s + i, "CUDA", 4) == 0)) {
			util_buf_puts(out, s[i] == 'c' ? "hip" : "HIP");
			i += 4;
		} else {
			util_buf_put(out, s + i, 1);
			i++;
		}
	}
}

void xlate_plan_torch_headers(xlate *x)
{
	size_t i;

	for (i = 0; x->torch && i < x->nincludes; i++) {
		xlate_include *inc = &x->includes[i];
		const char *name = x->src + inc->name_start;
		size_t len = inc->name_end - inc->name_start, folder;
		const port_rule *rule;
		util_buf path = UTIL_BUF_INIT;

		if (port_rules_find_header(x->torch, name, len) ||
		    !(rule = port_rules_find_header_folder(x->torch, name, len)) || !rule->hip)
			continue;
		folder = strlen(rule->cuda) - 1; /* the folder and its slash */
		util_buf_put(&path, rule->hip, strlen(rule->hip) - 1);
		if (len >= folder + 3 && memcmp(name + len - 3, ".cu", 3) == 0) {
			put_hip_spelling(&path, name + folder, len - folder - 3);
			util_buf_puts(&path, ".hip");
		} else {
			put_hip_spelling(&path, name + folder, len - folder);
		}
		if (util_buf_oom(&path)) {
			x->oom = true;
			util_buf_dispose(&path);
			return;
		}
		inc->torch_path = path.ptr; /* owned by the include now */
		inc->torch_rule = rule;
	}
}

/* What a torch file's include becomes under the PyTorch rules, if they say. */
static bool plan_torch_header(const xlate *x, const xlate_include *inc, header_plan *plan)
{
	const port_rule *rule;

	if (!x->torch)
		return false;
	if (inc->torch_path) {
		plan->action = HEADER_RENAME;
		plan->name = inc->torch_path;
		plan->name_len = strlen(inc->torch_path);
		plan->rule = inc->torch_rule;
		return true;
	}
	rule = port_rules_find_header(x->torch, plan->name, plan->name_len);
	if (!rule || !rule->hip)
		return false;
	plan->action = HEADER_RENAME;
	plan->name = rule->hip;
	plan->name_len = strlen(rule->hip);
	plan->rule = rule;
	return true;
}

static header_plan plan_header(const xlate *x, const xlate_include *inc)
{
	const char *name = x->src + inc->name_start;
	size_t len = inc->name_end - inc->name_start;
	const port_rule *rule = port_rules_find_header(x->rules, name, len);
	header_plan plan = { HEADER_KEEP, name, len, rule, PORT_REF_CONVERTED };
	const char *to;

	if (x->mark[inc->hash] & XLATE_PROTECT)
		return plan;
	if (plan_torch_header(x, inc, &plan) || !rule)
		return plan;
	if (rule->experimental && !x->opts->experimental) {
		plan.status = PORT_REF_EXPERIMENTAL;
		return plan;
	}
	if (rule->unsupported) {
		plan.status = PORT_REF_UNSUPPORTED;
		return plan;
	}
	to = (x->opts->roc && rule->roc) ? rule->roc : rule->hip;
	if (!to) {
		plan.action = HEADER_DROP;
		plan.name = NULL;
		plan.name_len = 0;
		return plan;
	}
	if (rule->hip_added && x->opts->target_hip < rule->hip_added) {
		if (!rule->fallback) {
			plan.status = PORT_REF_TOO_NEW;
			return plan;
		}
		if (to == rule->roc) {
			/* before the per-library folders, ROC headers sat at the top level */
			const char *slash = strrchr(to, '/');

			to = slash ? slash + 1 : to;
		} else {
			to = rule->fallback;
		}
		plan.status = PORT_REF_FALLBACK;
	}
	plan.action = HEADER_RENAME;
	plan.name = to;
	plan.name_len = strlen(to);
	return plan;
}

static bool is_runtime(const header_plan *plan)
{
	return plan->name && plan->name_len == sizeof(runtime_header) - 1 &&
	       memcmp(plan->name, runtime_header, plan->name_len) == 0;
}

/* The end of the directive line that starts at token i (its newline
 * included), or len. */
static size_t line_end(const xlate *x, size_t i)
{
	size_t end = x->tok[i].end;

	while (end < x->len && x->src[end] != '\n')
		end++;
	return end < x->len ? end + 1 : x->len;
}

/* The token after the directive line that starts at token i. */
static size_t next_line(const xlate *x, size_t i)
{
	for (i++; i < x->ntok && !(x->tok[i].flags & PORT_TOKEN_LINE_START); i++)
		;
	return i;
}

/* Whether tokens i on are a `#pragma once` line. */
static bool is_pragma_once(const xlate *x, size_t i)
{
	return i + 2 < x->ntok && xlate_tok_is(x, i, "#") && xlate_tok_is(x, i + 1, "pragma") &&
	       xlate_tok_is(x, i + 2, "once");
}

/* The line after a #pragma once or the #ifndef of an include guard that
 * opens the file (after leading comments), whichever comes first, or
 * SIZE_MAX: where hipify-clang puts the header (the earlier of its pragma
 * once and controlling macro locations). A guard is `#ifndef X` followed by
 * `#define X`, a `#pragma once` between them allowed. */
static size_t after_guard(const xlate *x)
{
	size_t i = 0, k;

	while (i < x->ntok && x->tok[i].kind == PORT_TOKEN_COMMENT)
		i++;
	if (i >= x->ntok || (x->mark[i] & XLATE_PROTECT) || !xlate_tok_is(x, i, "#"))
		return SIZE_MAX;
	if (is_pragma_once(x, i))
		return line_end(x, i + 2);
	if (i + 2 >= x->ntok || !xlate_tok_is(x, i + 1, "ifndef"))
		return SIZE_MAX;
	k = next_line(x, i);
	while (k < x->ntok && (x->tok[k].kind == PORT_TOKEN_COMMENT || is_pragma_once(x, k)))
		k = x->tok[k].kind == PORT_TOKEN_COMMENT ? k + 1 : next_line(x, k);
	if (k + 2 < x->ntok && xlate_tok_is(x, k, "#") && xlate_tok_is(x, k + 1, "define") &&
	    xlate_tok_len(x, i + 2) == xlate_tok_len(x, k + 2) &&
	    memcmp(xlate_tok_text(x, i + 2), xlate_tok_text(x, k + 2), xlate_tok_len(x, i + 2)) == 0)
		return line_end(x, i + 2);
	return SIZE_MAX;
}

/* A CUDA source file: nvcc includes the runtime header in it implicitly. */
/* Where hip/hip_runtime.h would go: the decision to write it waits for the
 * end of the translation (xlate_finish_runtime_header), when the file's
 * CUDA references are known. Like hipify-clang: after a #pragma once or
 * include guard, else before the first include, else at the top. */
void xlate_plan_runtime_header(xlate *x)
{
	size_t i, first_top = SIZE_MAX;

	x->insert_at = SIZE_MAX;
	x->insert_out = SIZE_MAX;
	if (x->torch && !x->res->kernels && !x->nlaunches)
		return; /* PyTorch's hipify adds it for device code only */
	for (i = 0; i < x->nincludes; i++) {
		header_plan plan = plan_header(x, &x->includes[i]);

		if (is_runtime(&plan))
			return;
		/* an include inside an #if branch is not compiled in every build */
		if (first_top == SIZE_MAX && x->includes[i].path.depth == 0 &&
		    !(x->mark[x->includes[i].hash] & XLATE_PROTECT))
			first_top = i;
	}
	x->insert_at = after_guard(x);
	if (x->insert_at == SIZE_MAX && first_top != SIZE_MAX) {
		size_t at = x->tok[x->includes[first_top].hash].start;

		while (at > 0 && x->src[at - 1] != '\n')
			at--;
		x->insert_at = at;
	} else if (x->insert_at == SIZE_MAX) {
		x->insert_at = 0;
	}
	if (x->insert_at < 3 && x->len >= 3 && memcmp(x->src, "\xef\xbb\xbf", 3) == 0)
		x->insert_at = 3; /* after a byte order mark */
}

/* Whether the file needs the runtime header hipify-clang gives every file
 * it ports: a CUDA source file always (nvcc included it), another file when
 * it uses CUDA (a kernel, a launch, a CUDA name or header); a file without
 * CUDA is left as it is. A PyTorch file follows PyTorch's hipify: device code. */
static bool needs_runtime_header(const xlate *x)
{
	if (x->res->kernels || x->nlaunches)
		return true;
	if (x->torch)
		return false;
	return port_is_cuda_file(x->name) || x->res->nrefs > 0;
}

void xlate_finish_runtime_header(xlate *x)
{
	util_buf *out = &x->res->output, tail = UTIL_BUF_INIT;

	if (x->insert_out == SIZE_MAX || x->insert_out > out->len || util_buf_oom(out) ||
	    !needs_runtime_header(x))
		return;
	util_buf_put(&tail, out->ptr + x->insert_out, out->len - x->insert_out);
	out->len = x->insert_out;
	/* only at the end of a file without a final newline is it needed */
	if (x->insert_at == x->len && x->len && x->src[x->len - 1] != '\n')
		util_buf_puts(out, x->eol);
	/* hipify-clang writes the header it inserts in angle brackets; PyTorch's
	 * hipify in quotes */
	util_buf_puts(out, x->torch ? "#include \"" : "#include <");
	util_buf_puts(out, runtime_header);
	util_buf_puts(out, x->torch ? "\"" : ">");
	util_buf_puts(out, x->eol);
	util_buf_put(out, tail.ptr, tail.len);
	if (util_buf_oom(&tail))
		x->oom = true;
	util_buf_dispose(&tail);
	x->res->header_inserted = true;
}

/* Whether a header included under earlier_path is also included wherever
 * path is: the earlier #if branches enclose the current line. */
static bool path_covers(const xlate_cond_path *earlier, const xlate_cond_path *path)
{
	return earlier->depth <= path->depth &&
	       memcmp(earlier->items, path->items, earlier->depth * sizeof(uint32_t)) == 0;
}

static bool already_included(const xlate *x, const header_plan *plan, const xlate_cond_path *path)
{
	size_t i;

	for (i = 0; i < x->nheaders; i++)
		if (strlen(x->headers[i].name) == plan->name_len &&
		    memcmp(x->headers[i].name, plan->name, plan->name_len) == 0 &&
		    path_covers(&x->headers[i].path, path))
			return true;
	return false;
}

static void remember(xlate *x, const header_plan *plan, const xlate_cond_path *path)
{
	xlate_header *grown = realloc(x->headers, (x->nheaders + 1) * sizeof(*grown));
	xlate_header *h;

	if (!grown) {
		x->oom = true;
		return;
	}
	x->headers = grown;
	h = &x->headers[x->nheaders];
	h->name = strndup(plan->name, plan->name_len);
	h->path.depth = path->depth;
	h->path.items = malloc((path->depth ? path->depth : 1) * sizeof(uint32_t));
	if (!h->name || !h->path.items) {
		free(h->name);
		free(h->path.items);
		x->oom = true;
		return;
	}
	memcpy(h->path.items, path->items, path->depth * sizeof(uint32_t));
	x->nheaders++;
}

size_t xlate_emit_include(xlate *x, size_t hash, util_buf *out)
{
	size_t lo = 0, hi = x->nincludes;
	const xlate_include *inc = NULL;
	header_plan plan;
	uint32_t start, stop;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (x->includes[mid].hash < hash)
			lo = mid + 1;
		else
			hi = mid;
	}
	inc = &x->includes[lo];
	plan = plan_header(x, inc);
	start = x->tok[inc->hash].start;
	stop = x->tok[inc->end - 1].end;
	if (plan.rule)
		xlate_add_ref(x, inc->name_start, inc->name_end - inc->name_start, plan.rule, plan.status);
	if (plan.action == HEADER_RENAME && already_included(x, &plan, &inc->path))
		plan.action = HEADER_DROP; /* a second include of the same HIP header */
	switch (plan.action) {
	case HEADER_KEEP:
		util_buf_put(out, x->src + start, stop - start);
		break;
	case HEADER_RENAME:
		util_buf_put(out, x->src + start, inc->name_start - start);
		util_buf_put(out, plan.name, plan.name_len);
		util_buf_put(out, x->src + inc->name_end, stop - inc->name_end);
		break;
	case HEADER_DROP:
		break;
	}
	if (plan.action != HEADER_DROP && plan.name) {
		remember(x, &plan, &inc->path);
		if (is_runtime(&plan))
			x->has_runtime_header = true;
	}
	return inc->end;
}
