/* The compile step of hipport check: each reviewed file, as the working tree
 * holds it, built by hipcc for the offload arch; results recorded in the
 * session against the file's content. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "analyze/compile_db.h"
#include "check/compile.h"
#include "check/toolchain.h"
#include "cmd/check_compile.h"
#include "review/validate.h"
#include "util/error.h"

/* One digest of every source of the walk: a header's change changes every result. */
static void sources_digest(char out[41], const cmd_proposals *set)
{
	util_buf b = UTIL_BUF_INIT;
	git_oid oid;
	size_t i;

	for (i = 0; i < set->n; i++) {
		char id[41];

		if (!set->items[i].source.ptr)
			continue;
		rv_blob_id(id, set->items[i].source.ptr, set->items[i].source.len);
		util_buf_printf(&b, "%s %s\n", id, set->items[i].path);
	}
	git_odb_hash(&oid, b.ptr ? b.ptr : "", b.len, GIT_OBJECT_BLOB);
	git_oid_tostr(out, 41, &oid);
	util_buf_dispose(&b);
}

/* -I ROOT/DIR for each include directory (space separated), then the
 * compile database's flags of the file. */
static char **flags_for(const an_compile_db *db, const char *root, const char *includes,
			const char *fs_path, size_t *n)
{
	const char *const *extra = NULL;
	size_t nextra = 0, cap, i;
	char **flags, *copy = strdup(includes ? includes : ""), *save = NULL, *dir;

	if (db)
		extra = an_compile_db_flags(db, fs_path, &nextra);
	cap = nextra + (copy ? strlen(copy) : 0) + 2;
	if (!copy || !(flags = calloc(cap, sizeof(*flags)))) {
		free(copy);
		return NULL;
	}
	*n = 0;
	for (dir = strtok_r(copy, " \t", &save); dir; dir = strtok_r(NULL, " \t", &save)) {
		util_buf b = UTIL_BUF_INIT;

		util_buf_printf(&b, "-I%s%s", dir[0] == '/' ? "" : root, dir);
		flags[(*n)++] = util_buf_detach(&b);
	}
	for (i = 0; i < nextra; i++)
		flags[(*n)++] = strdup(extra[i]);
	free(copy);
	return flags;
}

static void print_diagnostics(const chk_compile_result *r)
{
	size_t i, shown = 0;

	for (i = 0; i < r->ndiags && shown < 20; i++) {
		if (!strstr(r->diags[i].severity, "error"))
			continue;
		printf("    %s:%u:%u: %s: %s\n", r->diags[i].file, r->diags[i].line, r->diags[i].col, r->diags[i].severity,
		       r->diags[i].message);
		shown++;
	}
}

int cmd_check_compile(cmd_context *ctx, const cmd_proposals *set, rv_session *session, const char *arch,
		      const char *includes, size_t *failed)
{
	chk_toolchain tc;
	chk_compile_options o;
	an_compile_db *db = NULL;
	util_buf cache = UTIL_BUF_INIT;
	char digest[41];
	size_t i, compiled = 0, unreviewed = 0;
	int error;

	*failed = 0;
	if ((error = chk_toolchain_detect(&tc)) < 0)
		return error;
	if (ctx->compile_db && (error = an_compile_db_load(&db, ctx->compile_db)) < 0) {
		chk_toolchain_dispose(&tc);
		return error;
	}
	sources_digest(digest, set);
	util_buf_printf(&cache, "%s/hipport/compile", set->walk.git_dir);
	memset(&o, 0, sizeof(o));
	o.hipcc = tc.hipcc;
	o.compiler_version = tc.clang_version ? tc.clang_version : tc.hip_version;
	o.arch = arch;
	o.arch_known = arch && chk_toolchain_knows_arch(&tc, arch);
	o.sources_digest = digest;
	o.cache_dir = util_buf_oom(&cache) ? NULL : cache.ptr;
	o.timeout_ms = (int)(ctx->check_timeout ? ctx->check_timeout : 300) * 1000;
	for (i = 0; i < set->n && error == 0; i++) {
		const rv_proposal *p = &set->items[i];
		const rv_session_file *rec = p->state == RV_PROPOSAL_OK ? rv_session_find(session, p->path) : NULL;
		chk_compile_result r;
		rv_session_check c;
		char blob[41];
		char **flags;
		size_t nflags = 0, k;

		if (!rec || !rec->written[0] || rv_session_stale(rec, p->source.ptr, p->source.len)) {
			unreviewed += p->state == RV_PROPOSAL_OK && rv_proposal_changed(p);
			continue;
		}
		if (!(flags = flags_for(db, set->walk.root, includes, p->fs_path, &nflags))) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			break;
		}
		o.flags = (const char *const *)flags;
		o.nflags = nflags;
		rv_blob_id(blob, p->source.ptr, p->source.len);
		error = chk_compile_file(&r, &o, p->fs_path, blob);
		for (k = 0; k < nflags; k++)
			free(flags[k]);
		free(flags);
		if (error < 0)
			break;
		compiled++;
		printf("compile  %-40s %s  %s%s%s%s\n", p->path, arch ? arch : "-", r.status, r.cached ? " (cached)" : "",
		       strcmp(r.status, "pass") ? ": " : "", strcmp(r.status, "pass") ? r.summary : "");
		if (strcmp(r.status, "fail") == 0)
			print_diagnostics(&r);
		*failed += strcmp(r.status, "pass") != 0;
		memset(&c, 0, sizeof(c));
		c.path = (char *)p->path;
		c.name = (char *)RV_COMPILE_CHECK;
		memcpy(c.port, blob, sizeof(c.port));
		c.status = (char *)r.status;
		c.platform = (char *)"amd";
		c.arch = (char *)(arch ? arch : "");
		c.message = r.summary;
		error = rv_session_record_checks(session, &c, 1);
		chk_compile_result_dispose(&r);
	}
	if (!error && unreviewed && ctx->verbosity >= 0)
		fprintf(stderr, "hipport: %zu file%s with a proposal not reviewed yet: not compiled (hipport review or "
				"hipport apply first)\n",
			unreviewed, unreviewed == 1 ? "" : "s");
	if (!error && !compiled && ctx->verbosity >= 0)
		fprintf(stderr, "hipport: no reviewed file to compile here\n");
	util_buf_dispose(&cache);
	an_compile_db_free(db);
	chk_toolchain_dispose(&tc);
	return error;
}
