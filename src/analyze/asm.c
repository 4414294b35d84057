/* ASM: inline PTX has no meaning on AMD GPUs. A few well-known one-liners
 * have HIP equivalents (patches/ASM-*.fix); the rest is manual work. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/ast.h"
#include "util/buf.h"

/* The asm statement's template: its string literals joined, unquoted, with
 * runs of blanks made one space and no trailing ';'. */
static void asm_template(const an_ctx *ctx, uint32_t start, uint32_t end, util_buf *out)
{
	size_t i;
	bool space = false;

	for (i = 0; i < ctx->ntokens; i++) {
		const port_token *t = &ctx->tokens[i];
		uint32_t k;

		if (t->start < start || t->kind == PORT_TOKEN_COMMENT)
			continue;
		if (t->start >= end || AN_TOKEN_IS(ctx, i, ":"))
			break;
		if (t->kind != PORT_TOKEN_LITERAL || ctx->src[t->start] != '"')
			continue;
		for (k = t->start + 1; k + 1 < t->end; k++) {
			char c = ctx->src[k];

			if (c == '\\' && k + 2 < t->end) {
				k++;
				c = ctx->src[k] == 'n' || ctx->src[k] == 't' ? ' ' : ctx->src[k];
			}
			if (isspace((unsigned char)c)) {
				space = out->len > 0;
				continue;
			}
			if (space)
				util_buf_putc(out, ' ');
			space = false;
			util_buf_putc(out, c);
		}
	}
	while (out->len && (out->ptr[out->len - 1] == ';' || out->ptr[out->len - 1] == ' '))
		out->ptr[--out->len] = '\0';
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A replacement for an instruction with no operands: bar.sync 0, membar.gl, ... */
static const char *barrier_variant(const char *t)
{
	if (strcmp(t, "bar.sync 0") == 0 || strcmp(t, "barrier.sync 0") == 0 || strcmp(t, "bar.sync 0, 0") == 0)
		return "syncthreads";
	if (strcmp(t, "membar.gl") == 0 || strcmp(t, "fence.sc.gpu") == 0 || strcmp(t, "fence.acq_rel.gpu") == 0)
		return "threadfence";
	if (strcmp(t, "membar.cta") == 0 || strcmp(t, "fence.sc.cta") == 0 || strcmp(t, "fence.acq_rel.cta") == 0)
		return "threadfence_block";
	if (strcmp(t, "membar.sys") == 0 || strcmp(t, "fence.sc.sys") == 0 || strcmp(t, "fence.acq_rel.sys") == 0)
		return "threadfence_system";
	return NULL;
}

void an_asm_visit(an_ctx *ctx, const an_node *n)
{
	CXCursor c = n->c;
	util_buf tmpl = UTIL_BUF_INIT;
	CXCursor ops[4];
	size_t nops;
	uint32_t start, end;
	an_range r;
	const char *variant;
	an_hit *h;

	if (n->kind != CXCursor_AsmStmt || !an_extent(ctx, c, &start, &end))
		return;
	asm_template(ctx, start, end, &tmpl);
	if (util_buf_oom(&tmpl))
		return;
	nops = an_children(c, ops, 4);
	r.name = "match";
	r.start = start;
	r.end = end;
	if (!tmpl.ptr)
		util_buf_puts(&tmpl, "");
	if (nops == 1 && (strcmp(tmpl.ptr, "mov.u32 %0, %%laneid") == 0 || strcmp(tmpl.ptr, "mov.u32 %0, %laneid") == 0 ||
			  strcmp(tmpl.ptr, "mov.s32 %0, %%laneid") == 0)) {
		char *out = an_text(ctx, ops[0]);
		an_capture cap = { "out", out };

		h = an_add(ctx, "ASM-002", AN_ERROR, start, end, "inline PTX reads %%laneid: HIP has __lane_id()");
		if (h && out && an_written(ctx, c))
			an_fix(ctx, h, "lane", &r, 1, &cap, 1);
		free(out);
	} else if (nops == 2 && starts(tmpl.ptr, "ld.global.nc.") && strstr(tmpl.ptr, " %0, [%1]") &&
		   !strstr(tmpl.ptr, ".v2") && !strstr(tmpl.ptr, ".v4")) {
		char *out = an_text(ctx, ops[0]), *ptr = an_text(ctx, ops[1]), type[64], pointee[64];
		an_capture caps[3] = { { "out", out }, { "ptr", ptr }, { "type", type } };
		CXType pt = clang_getCanonicalType(clang_getCursorType(ops[1]));

		an_type_name(clang_getCursorType(ops[0]), type, sizeof(type));
		an_type_name(clang_getPointeeType(pt), pointee, sizeof(pointee));
		h = an_add(ctx, "ASM-003", AN_ERROR, start, end, "inline PTX non-coherent load: HIP has __ldg()");
		if (h && out && ptr && an_written(ctx, c))
			an_fix(ctx, h, pt.kind == CXType_Pointer && strcmp(type, pointee) == 0 ? "typed" : "cast", &r, 1,
			       caps, 3);
		free(out);
		free(ptr);
	} else if (nops == 0 && (variant = barrier_variant(tmpl.ptr))) {
		h = an_add(ctx, "ASM-004", AN_ERROR, start, end, "inline PTX '%s': HIP has __%s()", tmpl.ptr, variant);
		if (h && an_written(ctx, c))
			an_fix(ctx, h, variant, &r, 1, NULL, 0);
	} else {
		size_t word = strcspn(tmpl.ptr, " ;{");

		an_add(ctx, "ASM-001", AN_ERROR, start, end, "inline PTX ('%.*s%s') does not build for AMD GPUs",
		       (int)(word > 40 ? 40 : word), tmpl.ptr, word < tmpl.len ? " ..." : "");
	}
	util_buf_dispose(&tmpl);
}
