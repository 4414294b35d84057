/* The compile step of hipport check: each reviewed file, as the working tree
 * holds it, built by hipcc for the offload arch; results recorded in the
 * session against the file's content. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "analyze/analysis.h"
#include "analyze/compile_db.h"
#include "build/build.h"
#include "cmd/check_resources.h"
#include "check/toolchain/compile.h"
#include "check/toolchain/toolchain.h"
#include "cmd/check_compile.h"
#include "review/single_source.h"
#include "review/validate.h"
#include "util/error.h"
#include "util/file.h"

/* One digest of every source of the walk as it is on disk now: a header's
 * change changes every result. */
static void sources_digest(char out[41], const cmd_proposals *set)
{
	util_buf b = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	git_oid oid;
	size_t i;

	for (i = 0; i < set->n; i++) {
		char id[41];

		util_buf_clear(&text);
		if (util_file_read(&text, set->items[i].fs_path, 0) < 0) {
			util_error_clear();
			continue;
		}
		rv_blob_id(id, text.ptr ? text.ptr : "", text.len);
		util_buf_printf(&b, "%s %s\n", id, set->items[i].path);
	}
	util_buf_dispose(&text);
	git_odb_hash(&oid, b.ptr ? b.ptr : "", b.len, GIT_OBJECT_BLOB);
	git_oid_tostr(out, 41, &oid);
	util_buf_dispose(&b);
}

/* -I ROOT/DIR for each include directory (space separated), then
 * check.flags, then the compile database's flags of the file. */
static char **flags_for(const an_compile_db *db, const char *root, const char *includes, const char *more,
			const char *fs_path, size_t *n)
{
	const char *const *extra = NULL;
	size_t nextra = 0, cap, i;
	char **flags, *dirs = strdup(includes ? includes : ""), *words = strdup(more ? more : ""), *save = NULL, *w;

	if (db)
		extra = an_compile_db_flags(db, fs_path, &nextra);
	cap = nextra + (dirs ? strlen(dirs) : 0) + (words ? strlen(words) : 0) + 2;
	if (!dirs || !words || !(flags = calloc(cap, sizeof(*flags)))) {
		free(dirs);
		free(words);
		return NULL;
	}
	*n = 0;
	for (w = strtok_r(dirs, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		util_buf b = UTIL_BUF_INIT;

		util_buf_printf(&b, "-I%s%s", w[0] == '/' ? "" : root, w);
		flags[(*n)++] = util_buf_detach(&b);
	}
	for (w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		flags[(*n)++] = strdup(w);
	for (i = 0; i < nextra; i++)
		flags[(*n)++] = strdup(extra[i]);
	free(dirs);
	free(words);
	return flags;
}

static void print_diagnostics(const tc_compile_result *r)
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

int cmd_compile_env_open(cmd_compile_env *env, cmd_context *ctx, const cmd_proposals *set, const char *arch)
{
	vcs_config cfg;
	int error;

	memset(env, 0, sizeof(*env));
	env->set = set;
	env->ctx = ctx;
	if ((error = vcs_config_read(&cfg, set->walk.root)) < 0)
		return error;
	if (ctx->port.single_source && (error = port_lexer_new(&env->lexer)) < 0)
		return error;
	env->includes = cmd_check_includes(set->walk.root, &cfg);
	env->flags = cfg.check_flags ? strdup(cfg.check_flags) : NULL;
	vcs_config_dispose(&cfg);
	if (!env->includes)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = tc_toolchain_detect(&env->tc)) < 0) {
		cmd_compile_env_close(env);
		return error;
	}
	if (ctx->compile_db && (error = an_compile_db_load(&env->db, ctx->compile_db)) < 0) {
		cmd_compile_env_close(env);
		return error;
	}
	sources_digest(env->digest, set);
	util_buf_printf(&env->cache, "%s/hipport/compile", set->walk.git_dir);
	env->o.hipcc = env->tc.hipcc;
	env->o.compiler_version = env->tc.clang_version ? env->tc.clang_version : env->tc.hip_version;
	env->o.arch = arch;
	env->o.arch_known = arch && tc_toolchain_knows_arch(&env->tc, arch);
	env->o.sources_digest = env->digest;
	env->o.cache_dir = util_buf_oom(&env->cache) ? NULL : env->cache.ptr;
	env->o.timeout_ms = (int)(ctx->check_timeout ? ctx->check_timeout : 300) * 1000;
	env->o.resources = ctx->resources;
	return 0;
}

void cmd_compile_env_close(cmd_compile_env *env)
{
	port_lexer_free(env->lexer);
	free(env->includes);
	free(env->flags);
	util_buf_dispose(&env->cache);
	an_compile_db_free(env->db);
	tc_toolchain_dispose(&env->tc);
	memset(env, 0, sizeof(*env));
}

bool cmd_compile_applies(const char *path)
{
	return !an_is_python(path) && bld_kind_of(path) == BLD_NONE;
}

bool cmd_compile_wanted(const rv_session *session, const rv_proposal *p)
{
	if (!cmd_compile_applies(p->path))
		return false;
	const rv_session_file *rec = p->state == RV_PROPOSAL_OK ? rv_session_find(session, p->path) : NULL;

	return rec && rec->written[0] && !rv_session_stale(rec, p->source.ptr, p->source.len);
}

/* s without the work tree's path where it starts with it (in place): what is
 * shown and recorded does not depend on where the repository lies. */
static void strip_root(char *s, const char *root)
{
	size_t n = root ? strlen(root) : 0;
	char *at;

	while (s && n && (at = strstr(s, root)))
		memmove(at, at + n, strlen(at + n) + 1);
}

/* text compiled as p's file would be, from a temporary copy that finds p's
 * quoted includes next to p (-iquote); the diagnostics name p. env->o.flags
 * are set. */
static int compile_copy(cmd_compile_env *env, const rv_proposal *p, const char *text, size_t len,
			tc_compile_result *out)
{
	const char *dot = strrchr(p->fs_path, '.'), *slash = strrchr(p->fs_path, '/');
	const char *ext = dot && (!slash || dot > slash) ? dot : ".cu";
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	util_buf path = UTIL_BUF_INIT, dir = UTIL_BUF_INIT;
	const char **flags = NULL, *const *saved = env->o.flags;
	size_t saved_n = env->o.nflags, k;
	char blob[41];
	int fd = -1, error;

	util_buf_printf(&path, "%s/hipport-copy-XXXXXX%s", tmp, ext);
	util_buf_printf(&dir, "-iquote%.*s", slash ? (int)(slash - p->fs_path) : 1, slash ? p->fs_path : ".");
	if (util_buf_oom(&path) || util_buf_oom(&dir) || !(flags = calloc(saved_n + 1, sizeof(*flags)))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	if ((fd = mkstemps(path.ptr, (int)strlen(ext))) < 0 || write(fd, text, len) != (ssize_t)len) {
		error = util_error_set(UTIL_ERROR, "cannot write a temporary file in %s", tmp);
		goto done;
	}
	for (k = 0; k < saved_n; k++)
		flags[k] = saved[k];
	flags[saved_n] = dir.ptr;
	env->o.flags = flags;
	env->o.nflags = saved_n + 1;
	rv_blob_id(blob, text, len);
	error = tc_compile_file(out, &env->o, path.ptr, blob);
	env->o.flags = saved;
	env->o.nflags = saved_n;
	for (k = 0; error >= 0 && k < out->ndiags; k++)
		if (out->diags[k].file && strcmp(out->diags[k].file, path.ptr) == 0) {
			free(out->diags[k].file);
			out->diags[k].file = strdup(p->fs_path);
		}
done:
	if (fd >= 0) {
		close(fd);
		unlink(path.ptr);
	}
	free(flags);
	util_buf_dispose(&path);
	util_buf_dispose(&dir);
	return error;
}

/* --single-source: the working tree keeps CUDA names and guarded fixes, so
 * hipcc builds the file as the build's hipify makes it. */
static int compile_single_source(cmd_compile_env *env, const rv_proposal *p, tc_compile_result *out)
{
	util_buf text = UTIL_BUF_INIT;
	int error;

	if ((error = rv_single_source_port(&text, env->lexer, env->ctx->rules, &env->ctx->port, p->path,
					   p->source.ptr, p->source.len)) >= 0)
		error = compile_copy(env, p, text.ptr ? text.ptr : "", text.len, out);
	util_buf_dispose(&text);
	return error;
}

void cmd_compile_env_refresh(cmd_compile_env *env)
{
	sources_digest(env->digest, env->set);
}

/* Compiles p's file with its flags, recording nothing: as the working tree
 * holds it, or text in its place (text not NULL). */
static int compile_as(cmd_compile_env *env, const rv_proposal *p, const util_buf *text, tc_compile_result *out,
		      char blob[41])
{
	char **flags;
	size_t nflags = 0, k;
	int error;

	if (!(flags = flags_for(env->db, env->set->walk.root, env->includes, env->flags, p->fs_path, &nflags)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	env->o.flags = (const char *const *)flags;
	env->o.nflags = nflags;
	rv_blob_id(blob, p->source.ptr, p->source.len);
	if (text)
		error = compile_copy(env, p, text->ptr ? text->ptr : "", text->len, out);
	else if (env->lexer && rv_proposal_looks_like_cuda(p->source.ptr, p->source.len))
		error = compile_single_source(env, p, out);
	else
		error = tc_compile_file(out, &env->o, p->fs_path, blob);
	for (k = 0; k < nflags; k++)
		free(flags[k]);
	free(flags);
	env->o.flags = NULL;
	env->o.nflags = 0;
	if (error < 0)
		return error;
	for (k = 0; k < out->ndiags; k++)
		strip_root(out->diags[k].file, env->set->walk.root);
	strip_root(out->summary, env->set->walk.root);
	return 0;
}

int cmd_compile_text(cmd_compile_env *env, const rv_proposal *p, const util_buf *text, tc_compile_result *out)
{
	char blob[41];

	return compile_as(env, p, text, out, blob);
}

int cmd_compile_one(cmd_compile_env *env, const rv_proposal *p, rv_session *session, tc_compile_result *out)
{
	rv_session_check c;
	char blob[41];
	int error;

	if ((error = compile_as(env, p, NULL, out, blob)) < 0)
		return error;
	memset(&c, 0, sizeof(c));
	c.path = (char *)p->path;
	c.name = (char *)RV_COMPILE_CHECK;
	memcpy(c.port, blob, sizeof(c.port));
	c.status = (char *)out->status;
	c.platform = (char *)"amd";
	c.arch = (char *)(env->o.arch ? env->o.arch : "");
	c.message = out->summary;
	if ((error = rv_session_record_checks(session, &c, 1)) < 0)
		tc_compile_result_dispose(out);
	return error;
}

static bool named(const vcs_walk *only, const char *path)
{
	size_t i;

	for (i = 0; only && i < only->nfiles; i++)
		if (strcmp(only->files[i].path, path) == 0)
			return true;
	return !only;
}

int cmd_check_compile(cmd_context *ctx, const cmd_proposals *set, const vcs_walk *only, rv_session *session,
		      const char *arch, size_t *failed)
{
	cmd_compile_env env;
	size_t i, compiled = 0, unreviewed = 0;
	int error;

	*failed = 0;
	if ((error = cmd_compile_env_open(&env, ctx, set, arch)) < 0)
		return error;
	for (i = 0; i < set->n && error == 0; i++) {
		const rv_proposal *p = &set->items[i];
		tc_compile_result r;

		if (!named(only, p->path))
			continue;
		if (!cmd_compile_wanted(session, p)) {
			unreviewed += p->state == RV_PROPOSAL_OK && rv_proposal_changed(p) && !rv_session_find(session, p->path);
			continue;
		}
		if ((error = cmd_compile_one(&env, p, session, &r)) < 0)
			break;
		compiled++;
		printf("compile  %-40s %s  %s%s%s%s\n", p->path, arch ? arch : "-", r.status, r.cached ? " (cached)" : "",
		       strcmp(r.status, "pass") ? ": " : "", strcmp(r.status, "pass") ? r.summary : "");
		if (strcmp(r.status, "fail") == 0)
			print_diagnostics(&r);
		if (ctx->resources && r.output && (error = cmd_resources_print(&env, p, session, r.output, stdout)) < 0) {
			tc_compile_result_dispose(&r);
			break;
		}
		*failed += strcmp(r.status, "pass") != 0;
		tc_compile_result_dispose(&r);
	}
	if (!error && unreviewed && ctx->verbosity >= 0)
		fprintf(stderr, "hipport: %zu file%s with a proposal not reviewed yet: not compiled (hipport review or "
				"hipport apply first)\n",
			unreviewed, unreviewed == 1 ? "" : "s");
	if (!error && !compiled && ctx->verbosity >= 0)
		fprintf(stderr, "hipport: no reviewed file to compile here\n");
	cmd_compile_env_close(&env);
	return error;
}

char *cmd_check_includes(const char *root, const vcs_config *cfg)
{
	util_buf b = UTIL_BUF_INIT;
	struct stat st;

	if (cfg->check_includes)
		return strdup(cfg->check_includes);
	util_buf_printf(&b, "%sinclude", root);
	if (!util_buf_oom(&b) && stat(b.ptr, &st) == 0 && S_ISDIR(st.st_mode)) {
		util_buf_dispose(&b);
		return strdup("include");
	}
	util_buf_dispose(&b);
	return strdup("");
}
