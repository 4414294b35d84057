/* Hunks of a proposal and the review session: composition by decisions,
 * persistence, stale files, resuming an interrupted decision, carry-over. */
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

#include "review/hunks.h"
#include "review/proposal.h"
#include "review/session.h"
#include "util/error.h"
#include "util/file.h"

static char dir[4096], git_dir[4200], file[4200];

static const char source[] = "#include <cuda_runtime.h>\n"
			     "int a;\n"
			     "void f() { cudaMalloc(0, 1); }\n"
			     "int b;\n"
			     "int c;\n"
			     "void g() { cudaFree(0); }";
static const char port[] = "#include <hip/hip_runtime.h>\n"
			   "int a;\n"
			   "void f() { hipMalloc(0, 1); }\n"
			   "int b;\n"
			   "void g() { hipFree(0); }";

static int setup(void **state)
{
	const char *base = getenv("HIPPORT_TEST_TMP");
	char cmd[8400];
	git_repository *repo = NULL;

	(void)state;
	git_libgit2_init();
	snprintf(dir, sizeof(dir), "%s/session-test-%d", base ? base : "/tmp", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	if (system(cmd) != 0 || git_repository_init(&repo, dir, 0) < 0)
		return -1;
	git_repository_free(repo);
	snprintf(git_dir, sizeof(git_dir), "%s/.git", dir);
	snprintf(file, sizeof(file), "%s/k.cu", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[8400];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	git_libgit2_shutdown();
	return system(cmd) == 0 ? 0 : -1;
}

static void write_text(const char *text)
{
	assert_int_equal(util_file_write_atomic(file, text, strlen(text)), 0);
}

static char *read_text(void)
{
	util_buf b = UTIL_BUF_INIT;

	assert_int_equal(util_file_read(&b, file, 0), 0);
	return util_buf_detach(&b);
}

static void test_hunks(void **state)
{
	rv_hunks h;
	rv_decision d[8];
	util_buf out = UTIL_BUF_INIT;
	const char *texts[8] = { 0 };

	(void)state;
	assert_int_equal(rv_hunks_make(&h, source, strlen(source), port, strlen(port)), 0);
	/* the include, the call, and "int c;" deleted next to the last line (no newline at the end) */
	assert_int_equal(h.count, 3);
	assert_int_equal(h.items[0].old_start, 0);
	assert_int_equal(h.items[2].old_start, 4);
	assert_int_equal(h.items[2].old_lines, 2);
	assert_int_equal(h.items[2].new_lines, 1);
	for (size_t i = 0; i < h.count; i++)
		d[i] = RV_ACCEPTED;
	assert_int_equal(rv_hunks_compose(&out, source, strlen(source), port, strlen(port), &h, d, NULL), 0);
	assert_string_equal(out.ptr, port);
	for (size_t i = 0; i < h.count; i++)
		d[i] = RV_REJECTED;
	util_buf_clear(&out);
	assert_int_equal(rv_hunks_compose(&out, source, strlen(source), port, strlen(port), &h, d, NULL), 0);
	assert_string_equal(out.ptr, source);
	d[0] = RV_ACCEPTED;
	d[1] = RV_EDITED;
	texts[1] = "void f() { hipMalloc(0, 2); }\n";
	d[2] = RV_PENDING;
	util_buf_clear(&out);
	assert_int_equal(rv_hunks_compose(&out, source, strlen(source), port, strlen(port), &h, d, texts), 0);
	assert_string_equal(out.ptr, "#include <hip/hip_runtime.h>\nint a;\nvoid f() { hipMalloc(0, 2); }\n"
				     "int b;\nint c;\nvoid g() { cudaFree(0); }");
	util_buf_dispose(&out);
	rv_hunks_dispose(&h);
}

static void test_decide_and_reload(void **state)
{
	rv_session s;
	rv_hunks h;
	rv_session_file *f;
	char *now;

	(void)state;
	write_text(source);
	assert_int_equal(rv_hunks_make(&h, source, strlen(source), port, strlen(port)), 0);
	assert_int_equal(rv_session_open(&s, git_dir), 0);
	assert_int_equal(s.nfiles, 0);
	assert_int_equal(rv_session_decide(&s, "k.cu", file, source, strlen(source), port, strlen(port), &h, 1,
					   RV_ACCEPTED, NULL),
			 0);
	now = read_text();
	assert_string_equal(now, "#include <cuda_runtime.h>\nint a;\nvoid f() { hipMalloc(0, 1); }\nint b;\n"
				 "int c;\nvoid g() { cudaFree(0); }");
	rv_session_dispose(&s);
	/* persisted: a new process sees the decision and the original */
	assert_int_equal(rv_session_open(&s, git_dir), 0);
	assert_non_null(f = rv_session_find(&s, "k.cu"));
	assert_int_equal(rv_session_state(f, &h, now, strlen(now)), RV_STATE_PARTIAL);
	{
		util_buf orig = UTIL_BUF_INIT;

		assert_int_equal(rv_session_original(&s, f, &orig), 0);
		assert_string_equal(orig.ptr, source);
		util_buf_dispose(&orig);
	}
	for (size_t i = 0; i < h.count; i++)
		assert_int_equal(rv_session_decide(&s, "k.cu", file, source, strlen(source), port, strlen(port), &h,
						   i, RV_ACCEPTED, NULL),
				 0);
	free(now);
	now = read_text();
	assert_string_equal(now, port);
	assert_int_equal(rv_session_state(rv_session_find(&s, "k.cu"), &h, now, strlen(now)), RV_STATE_ACCEPTED);
	/* back to pending: the source's line again */
	assert_int_equal(rv_session_decide(&s, "k.cu", file, source, strlen(source), port, strlen(port), &h, 0,
					   RV_PENDING, NULL),
			 0);
	free(now);
	now = read_text();
	assert_non_null(strstr(now, "#include <cuda_runtime.h>"));
	free(now);
	rv_session_dispose(&s);
	rv_hunks_dispose(&h);
}

static void test_stale_and_resume(void **state)
{
	rv_session s;
	rv_hunks h;
	char *before, *now;

	(void)state;
	assert_int_equal(rv_hunks_make(&h, source, strlen(source), port, strlen(port)), 0);
	assert_int_equal(rv_session_open(&s, git_dir), 0);
	before = read_text();
	assert_int_equal(rv_session_decide(&s, "k.cu", file, source, strlen(source), port, strlen(port), &h, 0,
					   RV_ACCEPTED, NULL),
			 0);
	/* a kill after the session was saved, before the file was written */
	write_text(before);
	assert_int_not_equal(rv_session_state(rv_session_find(&s, "k.cu"), &h, before, strlen(before)),
			     RV_STATE_STALE);
	assert_int_equal(rv_session_resume(&s, "k.cu", file, source, strlen(source), port, strlen(port), &h), 1);
	now = read_text();
	assert_non_null(strstr(now, "#include <hip/hip_runtime.h>"));
	free(now);
	/* changed outside hipport: stale, and no decision is taken over it */
	write_text("int changed;\n");
	assert_int_equal(rv_session_state(rv_session_find(&s, "k.cu"), &h, "int changed;\n", 13), RV_STATE_STALE);
	assert_int_equal(rv_session_decide(&s, "k.cu", file, source, strlen(source), port, strlen(port), &h, 1,
					   RV_ACCEPTED, NULL),
			 UTIL_EINPUT);
	now = read_text();
	assert_string_equal(now, "int changed;\n");
	free(now);
	free(before);
	rv_session_dispose(&s);
	rv_hunks_dispose(&h);
}

static void test_carry_over_and_damage(void **state)
{
	static const char port2[] = "#include <hip/hip_runtime.h>\n"
				    "int a;\n"
				    "void f() { hipMalloc(0, 1); }\n"
				    "int b;\n"
				    "void g() { hipFree(nullptr); }";
	rv_session s;
	rv_hunks h;
	rv_decision d[8];
	char session_file[4300];

	(void)state;
	/* hunks that did not change keep their decisions in a new proposal */
	assert_int_equal(rv_session_open(&s, git_dir), 0);
	assert_int_equal(rv_hunks_make(&h, source, strlen(source), port2, strlen(port2)), 0);
	rv_session_decisions(rv_session_find(&s, "k.cu"), &h, d, NULL);
	assert_int_equal(h.count, 3);
	assert_int_equal(d[0], RV_ACCEPTED);
	assert_int_equal(d[1], RV_ACCEPTED);
	assert_int_equal(d[2], RV_PENDING); /* its port changed */
	rv_session_dispose(&s);
	rv_hunks_dispose(&h);
	/* a damaged session file is an error that names it, not an empty session */
	snprintf(session_file, sizeof(session_file), "%s/hipport/session.json", git_dir);
	assert_int_equal(util_file_write_atomic(session_file, "{\"version\": 1, \"files\": [", 25), 0);
	assert_int_equal(rv_session_open(&s, git_dir), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "session.json: damaged session file"));
}

/* Kernel check results: recorded, replaced by (file, check), saved with
 * the decisions; sessions from before checks load as they are. */
static void test_checks(void **state)
{
	static const char old[] = "{\"version\": 1, \"files\": {}}";
	rv_session_check c = { .path = (char *)"k.cu", .name = (char *)"k.kern",
			       .port = "0123456789abcdef0123456789abcdef01234567", .status = (char *)"no-device",
			       .platform = (char *)"amd", .arch = (char *)"", .message = (char *)"no GPU" };
	char line[256];
	rv_session s, back;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(rv_session_parse(&s, old, strlen(old), "old.json"), 0);
	assert_int_equal(s.nchecks, 0);
	rv_session_dispose(&s);
	assert_int_equal(rv_session_open(&s, git_dir), 0);
	assert_int_equal(rv_session_record_checks(&s, &c, 1), 0);
	c.status = (char *)"pass";
	c.arch = (char *)"gfx90a";
	assert_int_equal(rv_session_record_checks(&s, &c, 1), 0);
	c.name = (char *)"k.other";
	c.time = (rv_check_time){ .timed = true, .ref_us = 12.5, .port_us = 20, .ratio = 0.625, .low = 0.6,
				  .high = 0.65, .gbps = 800, .peak_share = 0.1667, .budget = 0.8, .slow = true,
				  .ref_device = "NVIDIA H200", .port_device = "AMD Instinct MI300X" };
	assert_int_equal(rv_session_record_checks(&s, &c, 1), 0);
	assert_int_equal(rv_session_open(&back, git_dir), 0);
	assert_int_equal(back.nchecks, 2);
	assert_string_equal(back.checks[0].status, "pass");
	assert_string_equal(back.checks[0].arch, "gfx90a");
	assert_string_equal(back.checks[0].port, c.port);
	assert_string_equal(back.checks[1].name, "k.other");
	/* the times come back as they went, the untimed check without any */
	assert_false(back.checks[0].time.timed);
	assert_true(back.checks[1].time.timed && back.checks[1].time.slow);
	assert_true(back.checks[1].time.port_us == 20 && back.checks[1].time.high == 0.65);
	assert_string_equal(back.checks[1].time.port_device, "AMD Instinct MI300X");
	rv_check_time_format(line, sizeof(line), &back.checks[1].time);
	assert_string_equal(line, "0.62x (0.60-0.65) of the reference: 20.00 us vs 12.50 us, 800 GB/s (17% of peak), "
				  "AMD Instinct MI300X vs NVIDIA H200; slow: below the budget 0.80x beyond the spread");
	assert_int_equal(back.nfiles, s.nfiles);
	rv_session_dispose(&back);
	rv_session_dispose(&s);
}

/* A time that is not the session's own (a hand edit, another version) is
 * none, never half-read figures. */
static void test_check_time_malformed(void **state)
{
	rv_check_time t;
	char line[32];
	json_t *bad = json_pack("{s:f, s:s}", "ref_us", 1.0, "port_us", "fast");

	(void)state;
	assert_true(rv_check_time_from_json(&t, NULL));
	assert_false(t.timed);
	assert_false(rv_check_time_from_json(&t, bad));
	assert_false(t.timed || t.slow);
	rv_check_time_format(line, sizeof(line), &t);
	assert_string_equal(line, "not timed");
	json_decref(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_check_time_malformed),
		cmocka_unit_test(test_hunks),
		cmocka_unit_test(test_decide_and_reload),
		cmocka_unit_test(test_stale_and_resume),
		cmocka_unit_test(test_carry_over_and_damage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
