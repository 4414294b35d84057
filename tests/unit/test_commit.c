/* Commits of exactly some files through libgit2: the tree, the index left
 * as the user had it otherwise, the reflog, a new branch, and the refusals
 * (unborn branch, detached HEAD, conflicts, locked index, no identity). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "util/error.h"
#include "vcs/commit.h"

static char dir[4096], root[4200], global[4200];

static int sh(const char *fmt, ...)
{
	char cmd[16384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* git's answer, first line, into out */
static void git_says(char *out, size_t size, const char *args)
{
	char cmd[8400];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "git -C '%s' %s 2>/dev/null", root, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	out[0] = '\0';
	if (!fgets(out, (int)size, p))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	pclose(p);
}

/* A repository with a.cu and b.cu committed, then both changed. */
static int setup(void **state)
{
	const char *base = getenv("HIPPORT_TEST_TMP");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/commit-test-%d", base ? base : "/tmp", (int)getpid());
	snprintf(root, sizeof(root), "%s/repo/", dir);
	snprintf(global, sizeof(global), "%s/global", dir);
	if (sh("rm -rf '%s' && mkdir -p '%s' '%s' && cd '%s' && git init -q -b main . && "
	       "git config user.name Tester && git config user.email tester@example.com && "
	       "printf 'int a;\\n' >a.cu && printf 'int b;\\n' >b.cu && git add -A && git commit -q -m first && "
	       "printf 'int a_ported;\\n' >a.cu && printf 'int b_changed;\\n' >b.cu",
	       dir, root, global, root) != 0)
		return -1;
	git_libgit2_init();
	/* no global configuration of the machine running the tests */
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL, global);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_XDG, global);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM, global);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	git_libgit2_shutdown();
	return sh("rm -rf '%s'", dir) == 0 ? 0 : -1;
}

static const char *const only_a[] = { "a.cu" };

static vcs_commit_request request(const char *branch)
{
	vcs_commit_request r = { root, only_a, 1, "Port 1 file to HIP\n\nPorted-by: hipport test\n", branch, NULL, 0,
				 NULL };

	return r;
}

static void test_commits_exactly_the_files(void **state)
{
	vcs_commit_request req = request(NULL);
	char id[41], branch[256], line[512];

	(void)state;
	assert_int_equal(sh("cd '%s' && printf 'int c;\\n' >c.cu && git add c.cu", root), 0); /* the user's own staging */
	assert_int_equal(vcs_commit_files(&req, id, branch), 0);
	assert_string_equal(branch, "main");
	git_says(line, sizeof(line), "rev-parse HEAD");
	assert_string_equal(line, id);
	git_says(line, sizeof(line), "show HEAD:a.cu");
	assert_string_equal(line, "int a_ported;");
	git_says(line, sizeof(line), "show HEAD:b.cu");
	assert_string_equal(line, "int b;"); /* not named: unchanged in the commit */
	git_says(line, sizeof(line), "diff --name-only HEAD~1 HEAD");
	assert_string_equal(line, "a.cu");
	git_says(line, sizeof(line), "status --porcelain a.cu");
	assert_string_equal(line, ""); /* index and tree agree with the commit */
	git_says(line, sizeof(line), "status --porcelain b.cu");
	assert_string_equal(line, " M b.cu"); /* still unstaged */
	git_says(line, sizeof(line), "status --porcelain c.cu");
	assert_string_equal(line, "A  c.cu"); /* still staged, not committed */
	git_says(line, sizeof(line), "reflog -1 --format=%gs");
	assert_string_equal(line, "commit: Port 1 file to HIP");
	git_says(line, sizeof(line), "log -1 --format=%an");
	assert_string_equal(line, "Tester");
}

static void test_new_branch(void **state)
{
	vcs_commit_request req = request("port/hip");
	char id[41], branch[256], line[512];

	(void)state;
	assert_int_equal(vcs_commit_files(&req, id, branch), 0);
	assert_string_equal(branch, "port/hip");
	git_says(line, sizeof(line), "rev-parse --abbrev-ref HEAD");
	assert_string_equal(line, "port/hip");
	git_says(line, sizeof(line), "rev-parse main");
	assert_string_not_equal(line, id); /* main stays where it was */
	req.branch = "port/hip";
	assert_int_equal(vcs_commit_check(&req), UTIL_EINPUT); /* exists now */
	req.branch = "bad..name";
	assert_int_equal(vcs_commit_check(&req), UTIL_EINPUT);
}

static void expect_refusal(const char *setup_cmd, const char *message_part, const char *branch)
{
	vcs_commit_request req = request(branch);
	char id[41], branch_out[256], before[512], after[512];

	if (setup_cmd)
		assert_int_equal(sh("cd '%s' && %s", root, setup_cmd), 0);
	git_says(before, sizeof(before), "rev-parse HEAD");
	assert_int_equal(vcs_commit_files(&req, id, branch_out), UTIL_EINPUT);
	if (!strstr(util_error_last(), message_part))
		fail_msg("'%s' does not say '%s'", util_error_last(), message_part);
	git_says(after, sizeof(after), "rev-parse HEAD");
	assert_string_equal(before, after);
}

static void test_refuses_detached_head(void **state)
{
	(void)state;
	expect_refusal("git checkout -q --detach", "HEAD is detached", NULL);
}

static void test_detached_head_with_branch(void **state)
{
	vcs_commit_request req = request("from-detached");
	char id[41], branch[256];

	(void)state;
	assert_int_equal(sh("cd '%s' && git checkout -q --detach", root), 0);
	assert_int_equal(vcs_commit_files(&req, id, branch), 0);
	assert_string_equal(branch, "from-detached");
}

static void test_refuses_unborn_branch(void **state)
{
	(void)state;
	expect_refusal("git checkout -q --orphan fresh", "no commit yet", NULL);
}

static void test_refuses_locked_index(void **state)
{
	(void)state;
	expect_refusal("touch .git/index.lock", "index.lock exists", NULL);
}

static void test_refuses_conflicts(void **state)
{
	(void)state;
	expect_refusal("git stash -q && git checkout -q -b other && printf 'int a_other;\\n' >a.cu && "
		       "git commit -qam other && git checkout -q main && printf 'int a_main;\\n' >a.cu && "
		       "git commit -qam main && (git merge -q other >/dev/null 2>&1 || true)",
		       "in progress", NULL);
}

static void test_refuses_without_identity(void **state)
{
	(void)state;
	expect_refusal("git config --unset user.name && git config --unset user.email", "user.name", NULL);
}

static void test_refuses_missing_file(void **state)
{
	static const char *const missing[] = { "gone.cu" };
	vcs_commit_request req = request(NULL);
	char id[41], branch[256];

	(void)state;
	req.paths = missing;
	assert_int_equal(vcs_commit_files(&req, id, branch), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "gone.cu"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_commits_exactly_the_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_branch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_detached_head, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detached_head_with_branch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_unborn_branch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_locked_index, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_conflicts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_without_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_missing_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
