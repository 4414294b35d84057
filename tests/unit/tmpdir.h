/* The temporary directory of a unit test (tmp, made by the test's setup)
 * and the files written in it. Included after cmocka.h. */
#ifndef HIPPORT_TEST_TMPDIR_H
#define HIPPORT_TEST_TMPDIR_H

#include <stdio.h>
#include <string.h>

#include "util/file.h"

static char tmp[4096];

/* tmp/name; four at a time stay valid, for calls that take two paths */
__attribute__((unused)) static const char *tmp_path(const char *name)
{
	static char path[4][4200];
	static int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", tmp, name);
	return path[k];
}

__attribute__((unused)) static void write_bytes(const char *name, const void *data, size_t len)
{
	assert_int_equal(util_file_make_parents(tmp_path(name)), 0);
	assert_int_equal(util_file_write_fast(tmp_path(name), data, len), 0);
}

__attribute__((unused)) static void write_text(const char *name, const char *text)
{
	write_bytes(name, text, strlen(text));
}

#endif
