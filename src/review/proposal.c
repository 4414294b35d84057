#include "review/proposal.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "review/single_source.h"
#include "util/error.h"
#include "util/file.h"
#include "util/text.h"

static bool contains(const char *src, size_t len, const char *what)
{
	return memmem(src, len, what, strlen(what)) != NULL;
}

bool rv_proposal_looks_like_cuda(const char *src, size_t len)
{
	static const char *const markers[] = {
		"__global__", "__device__", "__shared__", "__constant__", "<<<", "cuda", "CUDA",
		"cublas", "curand", "cufft", "cusparse", "cusolver", "cudnn", "nvrtc", "cub::",
		"__shfl", "__syncthreads", "threadIdx", "blockIdx", "CUresult", "CUdevice", NULL
	};
	size_t i;

	for (i = 0; markers[i]; i++)
		if (contains(src, len, markers[i]))
			return true;
	return false;
}

static size_t count_lines(const char *src, size_t len)
{
	size_t n = 0, i;

	for (i = 0; i < len; i++)
		n += src[i] == '\n';
	return n + (len && src[len - 1] != '\n');
}

/* Marks p as bad input with the last error, naming the file by the user's
 * path (messages name it as opened). */
static int set_bad_input(rv_proposal *p)
{
	const char *msg = util_error_last();
	size_t n = strlen(p->fs_path);

	if (strncmp(msg, p->fs_path, n) == 0 && strcmp(p->fs_path, p->path) != 0) {
		util_buf b = UTIL_BUF_INIT;

		util_buf_printf(&b, "%s%s", p->path, msg + n);
		p->message = util_buf_detach(&b);
	} else {
		p->message = strdup(msg);
	}
	p->state = RV_PROPOSAL_BAD_INPUT;
	return p->message ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
}

int rv_proposal_from_text(rv_proposal *p, const char *path, const char *fs_path, const char *text, size_t len)
{
	memset(p, 0, sizeof(*p));
	p->path = path;
	p->fs_path = fs_path;
	util_buf_put(&p->source, text, len);
	if (util_buf_oom(&p->source))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (!p->source.ptr)
		util_buf_puts(&p->source, "");
	return 0;
}

int rv_proposal_read(rv_proposal *p, const char *path, const char *fs_path, bool named, size_t max_size)
{
	int error;

	memset(p, 0, sizeof(*p));
	p->path = path;
	p->fs_path = fs_path;
	error = util_file_read(&p->source, fs_path, max_size);
	if (error == UTIL_ENOMEM)
		return error;
	if (error < 0)
		return set_bad_input(p);
	if (!named && !port_is_cuda_file(path) &&
	    !(an_is_python(path)		? contains(p->source.ptr, p->source.len, "triton") ||
							  contains(p->source.ptr, p->source.len, "CUDAExtension") ||
							  contains(p->source.ptr, p->source.len, "cpp_extension")
			: bld_kind_of(path) != BLD_NONE ? bld_looks_like_cuda(p->source.ptr, p->source.len)
							: rv_proposal_looks_like_cuda(p->source.ptr, p->source.len)))
		p->state = RV_PROPOSAL_NOT_CUDA;
	return 0;
}

int rv_proposal_analyze(rv_proposal *p, an_analyzer *analyzer, port_lexer *lexer)
{
	int error;

	/* a build file's findings come with its translation; libclang is not for it */
	if (p->state != RV_PROPOSAL_OK || p->analyzed || bld_kind_of(p->path) != BLD_NONE)
		return 0;
	/* what the translation rejects (empty, binary) is not analyzed either */
	if (port_source_check(p->path, p->source.ptr, p->source.len) < 0) {
		util_error_clear();
		return 0;
	}
	error = an_analyze(&p->analysis, analyzer, lexer, p->fs_path, p->source.ptr, p->source.len);
	if (error < 0)
		return error;
	p->analyzed = true;
	return 0;
}

/* Puts the references of a port of the fixed source back where they were
 * in the original. */
static void map_refs(rv_proposal *p, const an_applied *spans, size_t nspans)
{
	size_t i;

	for (i = 0; i < p->port.nrefs; i++) {
		port_ref *r = &p->port.refs[i];
		uint32_t off = an_applied_origin(spans, nspans, r->offset);
		unsigned line, col;

		util_text_position(p->source.ptr, off < p->source.len ? off : p->source.len, &line, &col);
		r->offset = off;
		r->line = line;
		r->col = col;
	}
}

/* A build file: the build translator gives the port and the findings. */
static int translate_build(rv_proposal *p, const port_options *opts)
{
	int error;

	if (port_source_check(p->path, p->source.ptr, p->source.len) < 0)
		return set_bad_input(p);
	port_result_dispose(&p->port);
	an_analysis_dispose(&p->analysis);
	error = bld_translate(&p->port.output, &p->analysis, bld_kind_of(p->path), p->source.ptr, p->source.len,
			      opts->offload_arch);
	if (error < 0)
		return error;
	p->analyzed = true;
	p->lines = count_lines(p->source.ptr, p->source.len);
	return rv_proposal_count_lines(p);
}

int rv_proposal_translate_fixed(rv_proposal *p, port_lexer *lexer, const port_rules *rules,
				const port_options *opts, const char *fixes)
{
	util_buf fixed = UTIL_BUF_INIT;
	an_applied *spans = NULL;
	size_t nspans = 0;
	int error;

	if (p->state != RV_PROPOSAL_OK)
		return 0;
	if (bld_kind_of(p->path) != BLD_NONE)
		return translate_build(p, opts);
	if (fixes && p->analyzed) {
		error = an_fixes_apply(&fixed, p->source.ptr, p->source.len, &p->analysis, fixes, &p->fixes_applied,
				       &spans, &nspans);
		if (error < 0) {
			util_buf_dispose(&fixed);
			return error;
		}
	}
	if (an_is_python(p->path)) { /* Triton: no names to rename, only fixes */
		const util_buf *text = p->fixes_applied ? &fixed : &p->source;

		util_buf_clear(&p->port.output);
		util_buf_put(&p->port.output, text->ptr ? text->ptr : "", text->len);
		error = util_buf_oom(&p->port.output) ? UTIL_ENOMEM : 0;
	} else if (opts->single_source) {
		/* the names stay for the build's hipify; the fixes go in guarded branches */
		error = port_translate(&p->port, lexer, rules, opts, p->path, p->source.ptr, p->source.len);
		if (!error) {
			util_buf_clear(&p->port.output);
			if (p->fixes_applied)
				rv_single_source(&p->port.output, p->source.ptr, p->source.len, fixed.ptr, fixed.len, spans,
						 nspans, rv_single_source_macro(opts->single_source, p->source.ptr,
										p->source.len));
			else
				util_buf_put(&p->port.output, p->source.ptr, p->source.len);
			p->port.header_inserted = false;
			error = util_buf_oom(&p->port.output) ? UTIL_ENOMEM : 0;
		}
		nspans = 0; /* the refs are the source's already */
	} else if (p->fixes_applied) {
		error = port_translate(&p->port, lexer, rules, opts, p->path, fixed.ptr, fixed.len);
	} else {
		error = port_translate(&p->port, lexer, rules, opts, p->path, p->source.ptr, p->source.len);
	}
	if (!error && p->fixes_applied && nspans)
		map_refs(p, spans, nspans);
	free(spans);
	util_buf_dispose(&fixed);
	if (error == UTIL_ENOMEM)
		return error;
	if (error < 0)
		return set_bad_input(p);
	p->lines = count_lines(p->source.ptr, p->source.len);
	return rv_proposal_count_lines(p);
}

int rv_proposal_translate(rv_proposal *p, port_lexer *lexer, const port_rules *rules, const port_options *opts)
{
	return rv_proposal_translate_fixed(p, lexer, rules, opts, NULL);
}

int rv_proposal_make(rv_proposal *p, port_lexer *lexer, const port_rules *rules,
		     const port_options *opts, const char *path, const char *fs_path, bool named,
		     size_t max_size)
{
	int error = rv_proposal_read(p, path, fs_path, named, max_size);

	return error < 0 ? error : rv_proposal_translate(p, lexer, rules, opts);
}

int rv_proposal_findings(an_finding **out, size_t *count, const rv_proposal *p, const port_options *opts)
{
	*out = NULL;
	*count = 0;
	if (p->state != RV_PROPOSAL_OK)
		return 0;
	return an_findings_of(out, count, p->source.ptr, p->source.len, &p->port, &p->analysis, opts);
}

void rv_blob_id(char out[41], const char *data, size_t len)
{
	git_oid oid;

	git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB);
	git_oid_tostr(out, 41, &oid);
}

bool rv_proposal_changed(const rv_proposal *p)
{
	return p->state == RV_PROPOSAL_OK &&
	       (p->port.output.len != p->source.len ||
		memcmp(p->port.output.ptr, p->source.ptr, p->source.len) != 0);
}

static int make_patch(git_patch **patch, const rv_proposal *p)
{
	git_diff_options opts;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 3;
	if (git_patch_from_buffers(patch, p->source.ptr, p->source.len, p->path, p->port.output.ptr,
				   p->port.output.len, p->path, &opts) < 0)
		return util_error_set(UTIL_ERROR, "%s: diff failed: %s", p->path,
				      git_error_last() ? git_error_last()->message : "?");
	return 0;
}

int rv_proposal_count_lines(rv_proposal *p)
{
	git_patch *patch = NULL;
	size_t context;
	int error;

	p->additions = p->deletions = 0;
	if (!rv_proposal_changed(p))
		return 0;
	if ((error = make_patch(&patch, p)) < 0)
		return error;
	git_patch_line_stats(&context, &p->additions, &p->deletions, patch);
	git_patch_free(patch);
	return 0;
}

static void put_colored(util_buf *out, const char *line, size_t len)
{
	const char *color = NULL;

	if (len >= 4 && (strncmp(line, "diff", 4) == 0 || strncmp(line, "--- ", 4) == 0 ||
			 strncmp(line, "+++ ", 4) == 0 || strncmp(line, "inde", 4) == 0))
		color = "\033[1m";
	else if (len && line[0] == '@')
		color = "\033[36m";
	else if (len && line[0] == '+')
		color = "\033[32m";
	else if (len && line[0] == '-')
		color = "\033[31m";
	if (color)
		util_buf_puts(out, color);
	util_buf_put(out, line, len);
	if (color)
		util_buf_puts(out, "\033[m");
}

int rv_proposal_diff(const rv_proposal *p, util_buf *out, bool color)
{
	git_patch *patch = NULL;
	git_buf text = { 0 };
	int error;

	if (!rv_proposal_changed(p))
		return 0;
	if ((error = make_patch(&patch, p)) < 0)
		return error;
	if (git_patch_to_buf(&text, patch) < 0) {
		git_patch_free(patch);
		return util_error_set(UTIL_ERROR, "%s: diff failed", p->path);
	}
	if (!color) {
		util_buf_put(out, text.ptr, text.size);
	} else {
		const char *s = text.ptr, *end = text.ptr + text.size;

		while (s < end) {
			const char *nl = memchr(s, '\n', (size_t)(end - s));
			size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

			put_colored(out, s, n);
			if (nl)
				util_buf_putc(out, '\n');
			s += n + (nl ? 1 : 0);
		}
	}
	git_buf_dispose(&text);
	git_patch_free(patch);
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}

void rv_proposal_dispose(rv_proposal *p)
{
	free(p->message);
	util_buf_dispose(&p->source);
	port_result_dispose(&p->port);
	an_analysis_dispose(&p->analysis);
	memset(p, 0, sizeof(*p));
}
