/* The merge of one file a sync makes: each case as the review then has it
 * (decisions, regions) and the file that gives. The proposals are made by a
 * stand-in translation ("cuda" becomes "hip") so that each case shows only
 * the merge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "review/hunks.h"
#include "review/session.h"
#include "sync/merge.h"
#include "util/buf.h"

static const char old_cuda[] = "#include <cuda_runtime.h>\n"
			       "int n = 256;\n"
			       "void f(float **p) { cudaMalloc(p, n); }\n"
			       "int x;\n"
			       "void g(float *p) { cudaFree(p); }\n"
			       "int y;\n"
			       "void h() { cudaDeviceSynchronize(); }\n"
			       "int tail;\n";

/* The stand-in proposal: every "cuda" as "hip". */
static char *propose(const char *cuda)
{
	util_buf out = UTIL_BUF_INIT;
	const char *at = cuda, *hit;

	while ((hit = strstr(at, "cuda"))) {
		util_buf_put(&out, at, (size_t)(hit - at));
		util_buf_puts(&out, "hip");
		at = hit + 4;
	}
	util_buf_puts(&out, at);
	return util_buf_detach(&out);
}

/* s with the first `from` replaced by `to`. */
static char *edit(const char *s, const char *from, const char *to)
{
	const char *hit = strstr(s, from);
	util_buf out = UTIL_BUF_INIT;

	assert_non_null(hit);
	util_buf_put(&out, s, (size_t)(hit - s));
	util_buf_puts(&out, to);
	util_buf_puts(&out, hit + strlen(from));
	return util_buf_detach(&out);
}

typedef struct result {
	sy_merge m;
	char *theirs, *base;
	char *tree;     /* what the working tree holds: pending hunks as upstream's lines */
	char *proposed; /* with every pending hunk accepted */
} result;

static char *compose(const sy_merge *m, const char *source, const char *theirs, bool accept_pending)
{
	rv_session_file f;
	rv_hunks whole, all;
	rv_decision *d;
	const char **texts;
	util_buf out = UTIL_BUF_INIT;
	size_t i;

	memset(&f, 0, sizeof(f));
	f.regions = m->regions;
	f.nregions = m->nregions;
	f.hunks = m->hunks;
	f.nhunks = m->nhunks;
	assert_int_equal(rv_hunks_make(&whole, source, strlen(source), theirs, strlen(theirs)), 0);
	assert_int_equal(rv_session_hunks(&f, &whole, &all), 0);
	d = calloc(all.count + 1, sizeof(*d));
	texts = calloc(all.count + 1, sizeof(*texts));
	rv_session_decisions(&f, &all, d, texts);
	for (i = 0; accept_pending && i < all.count; i++)
		if (d[i] == RV_PENDING)
			d[i] = RV_ACCEPTED;
	assert_int_equal(rv_hunks_compose(&out, source, strlen(source), theirs, strlen(theirs), &all, d, texts), 0);
	free(d);
	free(texts);
	rv_hunks_dispose(&whole);
	rv_hunks_dispose(&all);
	util_buf_puts(&out, "");
	return util_buf_detach(&out);
}

static void merge(result *r, const char *ours, const char *new_cuda)
{
	sy_inputs in;

	memset(r, 0, sizeof(*r));
	r->base = propose(old_cuda);
	r->theirs = propose(new_cuda);
	in = (sy_inputs){ r->base, strlen(r->base), ours, strlen(ours), new_cuda, strlen(new_cuda), r->theirs,
			  strlen(r->theirs) };
	assert_int_equal(sy_merge_file(&r->m, &in), 0);
	r->tree = compose(&r->m, new_cuda, r->theirs, false);
	r->proposed = compose(&r->m, new_cuda, r->theirs, true);
}

static void dispose(result *r)
{
	sy_merge_dispose(&r->m);
	free(r->theirs);
	free(r->base);
	free(r->tree);
	free(r->proposed);
}

static const rv_session_hunk *decided(const sy_merge *m, rv_decision d, size_t nth)
{
	size_t i;

	for (i = 0; i < m->nhunks; i++)
		if (m->hunks[i].decision == d && nth-- == 0)
			return &m->hunks[i];
	return NULL;
}

/* Upstream adds code; the port took every hunk: the new code is proposed,
 * the rest stays accepted. */
static void test_clean(void **state)
{
	char *ours = propose(old_cuda);
	char *new_cuda = edit(old_cuda, "int y;\n", "int y;\nvoid k(float *p) { cudaMemset(p, 0, n); }\nint z;\n");
	char *want_proposed = propose(new_cuda);
	result r;

	(void)state;
	merge(&r, ours, new_cuda);
	assert_int_equal(r.m.proposed, 1);
	assert_int_equal(r.m.carried, 4);
	assert_int_equal(r.m.conflicts, 0);
	assert_int_equal(r.m.nregions, 0);
	assert_string_equal(r.proposed, want_proposed);
	/* the new line waits for a decision as upstream wrote it */
	assert_non_null(strstr(r.tree, "void k(float *p) { cudaMemset(p, 0, n); }\n"));
	assert_non_null(strstr(r.tree, "hipFree(p)"));
	dispose(&r);
	free(ours);
	free(new_cuda);
	free(want_proposed);
}

/* Rejected and edited hunks upstream left alone keep their decisions, the
 * edit byte for byte; upstream's change to a plain line comes in. (A change
 * on the line next to the port's own is a conflict, as in git.) */
static void test_decisions_carried(void **state)
{
	char *accepted = propose(old_cuda);
	char *rejected = edit(accepted, "void g(float *p) { hipFree(p); }", "void g(float *p) { cudaFree(p); }");
	char *ours = edit(rejected, "void h() { hipDeviceSynchronize(); }",
			  "void h() { (void)hipDeviceSynchronize(); /* wave64 */ }");
	char *new_cuda = edit(old_cuda, "int n = 256;", "int n = 128;");
	char *want = edit(ours, "int n = 256;", "int n = 128;");
	result r;

	(void)state;
	merge(&r, ours, new_cuda);
	assert_int_equal(r.m.proposed, 0);
	assert_int_equal(r.m.conflicts, 0);
	assert_int_equal(r.m.carried, 4);
	assert_int_equal(r.m.nregions, 0);
	assert_non_null(decided(&r.m, RV_REJECTED, 0));
	assert_string_equal(decided(&r.m, RV_EDITED, 0)->text,
			    "void h() { (void)hipDeviceSynchronize(); /* wave64 */ }\n");
	assert_string_equal(r.tree, want);
	dispose(&r);
	free(accepted);
	free(rejected);
	free(ours);
	free(new_cuda);
	free(want);
}

/* Upstream and the port changed the same line: a conflict, which holds the
 * port's line until resolved, with the base beside it. */
static void test_conflict(void **state)
{
	char *accepted = propose(old_cuda);
	char *ours = edit(accepted, "hipMalloc(p, n);", "hipMallocManaged(p, n);");
	char *new_cuda = edit(old_cuda, "cudaMalloc(p, n);", "cudaMalloc(p, 2 * n);");
	const rv_session_hunk *c;
	result r;

	(void)state;
	merge(&r, ours, new_cuda);
	assert_int_equal(r.m.conflicts, 1);
	assert_int_equal(r.m.carried, 3);
	c = decided(&r.m, RV_CONFLICT, 0);
	assert_non_null(c);
	assert_string_equal(c->text, "void f(float **p) { hipMallocManaged(p, n); }\n");
	assert_string_equal(c->base, "void f(float **p) { hipMalloc(p, n); }\n");
	assert_string_equal(r.tree, ours);
	dispose(&r);
	free(accepted);
	free(ours);
	free(new_cuda);
}

/* A hand edit where the proposal changes nothing is kept, as a region; so is
 * a conflict there. */
static void test_edit_outside_hunks(void **state)
{
	char *accepted = propose(old_cuda);
	char *ours = edit(accepted, "int n = 256;", "int n = 512;");
	char *new_cuda = edit(old_cuda, "int tail;\n", "int tail;\nint more;\n");
	char *want = edit(ours, "int tail;\n", "int tail;\nint more;\n");
	char *clash = edit(old_cuda, "int n = 256;", "int n = 1024;");
	result r;

	(void)state;
	merge(&r, ours, new_cuda);
	assert_int_equal(r.m.nregions, 1);
	assert_int_equal(r.m.regions[0].start, 1);
	assert_int_equal(r.m.regions[0].lines, 1);
	assert_int_equal(r.m.conflicts, 0);
	assert_int_equal(r.m.edits_kept, 1);
	assert_string_equal(r.tree, want);
	dispose(&r);

	merge(&r, ours, clash);
	assert_int_equal(r.m.nregions, 1);
	assert_int_equal(r.m.conflicts, 1);
	assert_string_equal(decided(&r.m, RV_CONFLICT, 0)->text, "int n = 512;\n");
	assert_string_equal(decided(&r.m, RV_CONFLICT, 0)->base, "int n = 256;\n");
	assert_non_null(strstr(r.tree, "int n = 512;\n"));
	dispose(&r);
	free(accepted);
	free(ours);
	free(new_cuda);
	free(want);
	free(clash);
}

/* Lines the port added beside a hunk go with it: the hunk is edited. */
static void test_insert_beside_hunk(void **state)
{
	char *accepted = propose(old_cuda);
	char *ours = edit(accepted, "void g(float *p) { hipFree(p); }\n",
			  "void g(float *p) { hipFree(p); }\nvoid g2(float *p) { (void)hipFree(p); }\n");
	char *new_cuda = edit(old_cuda, "#include <cuda_runtime.h>\n", "#include <cuda_runtime.h>\n#include <vector>\n");
	char *want = edit(ours, "#include <hip_runtime.h>\n", "#include <hip_runtime.h>\n#include <vector>\n");
	result r;

	(void)state;
	merge(&r, ours, new_cuda);
	assert_int_equal(r.m.nregions, 0);
	assert_int_equal(r.m.conflicts, 0);
	assert_string_equal(decided(&r.m, RV_EDITED, 0)->text,
			    "void g(float *p) { hipFree(p); }\nvoid g2(float *p) { (void)hipFree(p); }\n");
	assert_string_equal(r.tree, want);
	dispose(&r);
	free(accepted);
	free(ours);
	free(new_cuda);
	free(want);
}

/* Upstream removes a line the port took: gone. It removes a line the port
 * rejected: a conflict (changed here, removed there), which keeps the line. */
static void test_removed_lines(void **state)
{
	char *accepted = propose(old_cuda);
	char *ours = edit(accepted, "void g(float *p) { hipFree(p); }", "void g(float *p) { cudaFree(p); }");
	char *step = edit(old_cuda, "void h() { cudaDeviceSynchronize(); }\n", "");
	char *new_cuda = edit(step, "void g(float *p) { cudaFree(p); }\n", "");
	result r;

	(void)state;
	merge(&r, ours, step);
	assert_int_equal(r.m.conflicts, 0);
	assert_null(strstr(r.tree, "Synchronize"));
	assert_non_null(strstr(r.tree, "cudaFree(p)"));
	assert_non_null(strstr(r.tree, "hipMalloc"));
	dispose(&r);
	merge(&r, ours, new_cuda);
	assert_int_equal(r.m.conflicts, 1);
	assert_string_equal(decided(&r.m, RV_CONFLICT, 0)->text, "void g(float *p) { cudaFree(p); }\n");
	assert_non_null(strstr(r.tree, "cudaFree(p)"));
	dispose(&r);
	free(accepted);
	free(ours);
	free(step);
	free(new_cuda);
}

/* The port's edit and upstream's change inside one hunk, on lines apart:
 * git merges them clean; the hunk waits as a conflict marked clean, holding
 * the merge, so that upstream's change gets in by a decision only. */
static void test_merged_clean(void **state)
{
	static const char old[] = "int a;\ncudaA();\ncudaB();\ncudaC();\nint z;\n";
	static const char now[] = "int a;\ncudaA();\ncudaB();\ncudaC(1);\nint z;\n";
	char *base = propose(old), *theirs = propose(now);
	char *ours = edit(base, "hipA();", "hipA(); // mine");
	sy_inputs in = { base, strlen(base), ours, strlen(ours), now, strlen(now), theirs, strlen(theirs) };
	const rv_session_hunk *c;
	sy_merge m;

	(void)state;
	assert_int_equal(sy_merge_file(&m, &in), 0);
	assert_int_equal(m.merged, 1);
	assert_int_equal(m.conflicts, 0);
	c = decided(&m, RV_CONFLICT, 0);
	assert_non_null(c);
	assert_true(c->clean);
	assert_string_equal(c->text, "hipA(); // mine\nhipB();\nhipC(1);\n");
	assert_string_equal(c->base, "hipA();\nhipB();\nhipC();\n");
	sy_merge_dispose(&m);
	free(base);
	free(theirs);
	free(ours);
}

/* A file without a last newline, and a line that looks like a marker. */
static void test_edges(void **state)
{
	static const char cuda[] = "int a;\nvoid f() { cudaFree(0); }";
	char *ours = propose(cuda), *theirs = propose(cuda);
	char marker[64];
	sy_inputs in = { ours, strlen(ours), ours, strlen(ours), cuda, strlen(cuda), theirs, strlen(theirs) };
	sy_merge m;

	(void)state;
	assert_int_equal(sy_merge_file(&m, &in), 0);
	assert_int_equal(m.carried, 1);
	sy_merge_dispose(&m);
	memset(marker, '<', 40);
	strcpy(marker + 40, "\n");
	in.ours = marker;
	in.ours_len = strlen(marker);
	assert_int_equal(sy_merge_file(&m, &in), -2);
	free(ours);
	free(theirs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_decisions_carried),
		cmocka_unit_test(test_conflict),
		cmocka_unit_test(test_edit_outside_hunks),
		cmocka_unit_test(test_insert_beside_hunk),
		cmocka_unit_test(test_removed_lines),
		cmocka_unit_test(test_merged_clean),
		cmocka_unit_test(test_edges),
	};
	int rc;

	git_libgit2_init();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	git_libgit2_shutdown();
	return rc;
}
