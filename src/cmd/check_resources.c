/* The resources table: each kernel's row as the compile reported it, and
 * under it what would change them: a launch bound where the kernel spills,
 * and each fix of the file taken the other way (docs/checks.md,
 * "Resources"). A fix's row comes from the file's proposal made again from
 * its original with that fix added to, or removed from, the fixes the
 * session took, and compiled beside the file. */
#include "cmd/check_resources.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/finding.h"
#include "check/perf/resources.h"
#include "cmd/propose.h"
#include "port/lex.h"
#include "util/buf.h"
#include "util/error.h"

/* The bound the probe gives kernels without __launch_bounds__: the block
 * most programs launch with (HIP-Clang's default is 1024). */
#define PROBE_BOUND 256
/* Fixes compiled the other way, at most, per file: each is a compile. */
#define MAX_FIXES 8

typedef struct variant {
	char label[64];     /* "with WARP-003", "without WARP-003", "with __launch_bounds__(256)" */
	perf_resources *k;  /* its kernels, NULL when it did not compile */
	size_t n;
} variant;

static const perf_resources *kernel_named(const perf_resources *k, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(k[i].name, name) == 0)
			return &k[i];
	return NULL;
}

/* The kernels of p's file compiled as text (NULL: as the tree holds it),
 * what (a line, "with WARP-003") said to env's watcher instead of the
 * compiler's output, which would read as the file's; none when it did not
 * compile. */
static int kernels_of(cmd_compile_env *env, const rv_proposal *p, const util_buf *text, const char *what,
		      perf_resources **k, size_t *n)
{
	void (*watch)(const char *data, size_t len, void *payload) = env->o.watch;
	util_buf line = UTIL_BUF_INIT;
	tc_compile_result r;
	int error;

	*k = NULL;
	*n = 0;
	if (watch) {
		util_buf_printf(&line, "\nresources: compiling %s %s\n", p->path, what);
		if (!util_buf_oom(&line))
			watch(line.ptr, line.len, env->o.payload);
		util_buf_dispose(&line);
	}
	env->o.watch = NULL;
	error = cmd_compile_text(env, p, text, &r);
	env->o.watch = watch;
	if (error < 0)
		return error;
	if (strcmp(r.status, "pass") == 0 && r.output && perf_resources_parse(k, n, r.output) < 0)
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	tc_compile_result_dispose(&r);
	return error;
}

static bool is_taken(const char *taken, const char *id)
{
	return taken && (strcmp(taken, "all") == 0 || an_id_listed(taken, strlen(taken), id));
}

/* The fixes of ids[] that taken takes, with flip the other way, comma separated. */
static int flipped(util_buf *out, const char *taken, const char *const *ids, size_t nids, const char *flip)
{
	size_t i;

	util_buf_clear(out);
	for (i = 0; i < nids; i++)
		if (is_taken(taken, ids[i]) != (strcmp(ids[i], flip) == 0))
			util_buf_printf(out, "%s%s", out->len ? "," : "", ids[i]);
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}

/* The proposal of p's original with fixes (comma separated, "" for none). */
static int propose(cmd_compile_env *env, const rv_proposal *p, const util_buf *original, const char *fixes,
		   port_lexer *lexer, an_analyzer *analyzer, rv_proposal *out)
{
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = cmd_proposal_fixed(env->ctx, p, original, *fixes ? fixes : NULL, out, lexer, analyzer)) < 0)
		rv_proposal_dispose(out);
	return error;
}

/* The distinct ids of the findings of b that have a fix, at most MAX_FIXES
 * (static strings). */
static int fix_ids(cmd_compile_env *env, const rv_proposal *b, const char **ids, size_t *nids)
{
	an_finding *f = NULL;
	size_t n = 0, i, j;
	int error = rv_proposal_findings(&f, &n, b, &env->ctx->port);

	*nids = 0;
	for (i = 0; error >= 0 && i < n && *nids < MAX_FIXES; i++) {
		for (j = 0; j < *nids && strcmp(ids[j], f[i].id); j++)
			;
		if (f[i].nedits && j == *nids)
			ids[(*nids)++] = f[i].id;
	}
	an_findings_free(f, n);
	return error;
}

/* Each fix of the file compiled the other way, into v[] (*nv of them), and
 * the kernels of the proposal with the fixes the session took (*base: NULL
 * when it is the tree's file, whose kernels the caller has; else the tree
 * holds hand edits, or a port made for another HIP, and the fixes' rows
 * are measured against the proposal). */
static int fix_variants(cmd_compile_env *env, const rv_proposal *p, const rv_session *session, variant *v,
			size_t *nv, perf_resources **base, size_t *nbase)
{
	const rv_session_file *rec = rv_session_find(session, p->path);
	util_buf original = UTIL_BUF_INIT, fixes = UTIL_BUF_INIT;
	const char *ids[MAX_FIXES];
	port_lexer *lexer = NULL;
	an_analyzer *analyzer = NULL;
	rv_proposal b;
	size_t nids = 0, i;
	int error;

	*nv = 0;
	*base = NULL;
	*nbase = 0;
	if (!rec || !cmd_compile_applies(p->path))
		return 0;
	if ((error = rv_session_original(session, rec, &original)) < 0 || (error = port_lexer_new(&lexer)) < 0 ||
	    (error = an_analyzer_new(&analyzer, env->ctx->compile_db, env->ctx->port.target_hip)) < 0 ||
	    (error = propose(env, p, &original, rec->fixes ? rec->fixes : "", lexer, analyzer, &b)) < 0)
		goto done;
	if ((error = fix_ids(env, &b, ids, &nids)) >= 0 && nids &&
	    (b.port.output.len != p->source.len || memcmp(b.port.output.ptr, p->source.ptr, p->source.len)))
		/* hand edits, or a proposal for another HIP: the fixes' own baseline */
		error = kernels_of(env, p, &b.port.output, "as proposed now", base, nbase);
	rv_proposal_dispose(&b);
	for (i = 0; error >= 0 && i < nids; i++) {
		rv_proposal other;

		if ((error = flipped(&fixes, rec->fixes, ids, nids, ids[i])) < 0 ||
		    (error = propose(env, p, &original, fixes.ptr ? fixes.ptr : "", lexer, analyzer, &other)) < 0)
			break;
		snprintf(v[*nv].label, sizeof(v[*nv].label), "%s %s", is_taken(rec->fixes, ids[i]) ? "without" : "with",
			 ids[i]);
		error = kernels_of(env, p, &other.port.output, v[*nv].label, &v[*nv].k, &v[*nv].n);
		rv_proposal_dispose(&other);
		(*nv)++;
	}
done:
	an_analyzer_free(analyzer);
	port_lexer_free(lexer);
	util_buf_dispose(&fixes);
	util_buf_dispose(&original);
	return error;
}

int cmd_resources_print(cmd_compile_env *env, const rv_proposal *p, const rv_session *session, const char *output,
			FILE *f)
{
	variant v[MAX_FIXES + 1];
	perf_resources *k = NULL, *base = NULL;
	size_t n = 0, nv = 0, nbase = 0, i, j;
	bool spills = false;
	int error;

	memset(v, 0, sizeof(v));
	if (perf_resources_parse(&k, &n, output) < 0)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		spills |= perf_resources_notable(&k[i]);
	if (spills) {
		env->o.max_threads = PROBE_BOUND;
		snprintf(v[0].label, sizeof(v[0].label), "with __launch_bounds__(%d)", PROBE_BOUND);
		error = kernels_of(env, p, NULL, v[0].label, &v[0].k, &v[0].n);
		env->o.max_threads = 0;
		if (error < 0)
			goto done;
		nv = 1;
	}
	if ((error = fix_variants(env, p, session, v + nv, &i, &base, &nbase)) < 0)
		goto done;
	nv += i;
	perf_resources_print_header(f);
	for (i = 0; i < n; i++) {
		const perf_resources *from = base ? kernel_named(base, nbase, k[i].name) : &k[i];

		perf_resources_print(f, &k[i]);
		if (base && from)
			perf_resources_print_variant(f, &k[i], from, "as proposed now");
		for (j = 0; j < nv; j++) {
			const perf_resources *other = kernel_named(v[j].k, v[j].n, k[i].name);

			if (!other)
				continue;
			if (spills && j == 0) {
				if (perf_resources_notable(&k[i]))
					perf_resources_print_bounded(f, &k[i], other, PROBE_BOUND);
			} else if (from) {
				perf_resources_print_variant(f, from, other, v[j].label);
			}
		}
	}
done:
	for (j = 0; j < nv; j++)
		free(v[j].k);
	free(base);
	free(k);
	return error;
}
