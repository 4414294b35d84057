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

#include "review/apply.h"
#include "util/error.h"
#include "util/file.h"

static char dir[4096], file[4200], backups[4200];
static port_rules *rules;
static port_lexer *lexer;

static int setup(void **state)
{
	const char *base = getenv("HIPPORT_TEST_TMP");
	char cmd[8400];

	(void)state;
	git_libgit2_init();
	snprintf(dir, sizeof(dir), "%s/apply-test-%d", base ? base : "/tmp", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	if (system(cmd) != 0)
		return -1;
	snprintf(file, sizeof(file), "%s/k.cu", dir);
	snprintf(backups, sizeof(backups), "%s/backups", dir);
	return port_rules_load_builtin(&rules) || port_lexer_new(&lexer);
}

static int teardown(void **state)
{
	char cmd[8400];

	(void)state;
	port_rules_free(rules);
	port_lexer_free(lexer);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_text(const char *text)
{
	assert_int_equal(util_file_write_atomic(file, text, strlen(text)), 0);
}

static void read_text(util_buf *out)
{
	assert_int_equal(util_file_read(out, file, 0), 0);
}

static void make(rv_proposal *p)
{
	port_options o;

	memset(&o, 0, sizeof(o));
	o.target_hip = PORT_VERSION(6, 2, 0);
	assert_int_equal(rv_proposal_make(p, lexer, rules, &o, "k.cu", file, true, 0), 0);
	assert_int_equal(p->state, RV_PROPOSAL_OK);
}

static void test_apply_and_undo(void **state)
{
	rv_proposal p;
	util_buf now = UTIL_BUF_INIT;

	(void)state;
	write_text("void f() { cudaFree(0); }\n");
	make(&p);
	assert_int_equal(p.additions, 2); /* the runtime header and the renamed line */
	assert_int_equal(p.deletions, 1);
	assert_int_equal(rv_apply(&p, backups), 0);
	read_text(&now);
	assert_string_equal(now.ptr, "#include <hip/hip_runtime.h>\nvoid f() { hipFree(0); }\n");
	assert_int_equal(rv_undo(backups, "k.cu", file), 0);
	read_text(&now);
	assert_string_equal(now.ptr, "void f() { cudaFree(0); }\n");
	assert_int_equal(rv_undo(backups, "k.cu", file), UTIL_ENOTFOUND);
	rv_proposal_dispose(&p);
	util_buf_dispose(&now);
}

static void test_changed_underneath(void **state)
{
	rv_proposal p;
	util_buf now = UTIL_BUF_INIT;

	(void)state;
	write_text("void f() { cudaFree(0); }\n");
	make(&p);
	write_text("void f() { cudaFree(0); } // edited meanwhile\n");
	assert_int_equal(rv_apply(&p, backups), UTIL_EINPUT);
	assert_string_equal(util_error_last(), "k.cu: changed since it was read; not overwritten");
	read_text(&now);
	assert_string_equal(now.ptr, "void f() { cudaFree(0); } // edited meanwhile\n");
	rv_proposal_dispose(&p);
	util_buf_dispose(&now);
}

static void test_undo_keeps_later_edits(void **state)
{
	rv_proposal p;
	util_buf now = UTIL_BUF_INIT;

	(void)state;
	write_text("void f() { cudaFree(0); }\n");
	make(&p);
	assert_int_equal(rv_apply(&p, backups), 0);
	write_text("void f() { hipFree(0); } // mine\n");
	assert_int_equal(rv_undo(backups, "k.cu", file), UTIL_EINPUT);
	read_text(&now);
	assert_string_equal(now.ptr, "void f() { hipFree(0); } // mine\n");
	rv_proposal_dispose(&p);
	util_buf_dispose(&now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_apply_and_undo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_changed_underneath, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undo_keeps_later_edits, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
