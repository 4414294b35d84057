/* The CMake reader of rec_commands_guess(): a top CMakeLists.txt (one
 * with project()) that enables testing, and a CMakeLists.txt on the way to
 * the program, or one it adds with add_subdirectory(), that adds a test:
 * configure, build and ctest in build-hipport. */
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "check/record/commands_readers.h"
#include "util/error.h"

/* CMake refuses a HIP compiler named hipcc: record.sh may name the port's
 * wrapper otherwise in HIPPORT_HIP_CXX. */
#define CMAKE_BUILD                                                                                                    \
	"cmake -S . -B build-hipport -DCMAKE_CUDA_COMPILER=\"$HIPPORT_CXX\" "                                          \
	"-DCMAKE_HIP_COMPILER=\"${HIPPORT_HIP_CXX:-$HIPPORT_CXX}\" && cmake --build build-hipport -j"
#define CMAKE_RUN "ctest --test-dir build-hipport --output-on-failure"
#define MAX_SUBDIRS 16 /* add_subdirectory() of the top CMakeLists.txt read for add_test */

int rec_cmake_calls(bool *calls, rec_names *args, const char *text, const char *command, const char *arg)
{
	const char *p;
	size_t n = strlen(command);
	int error = 0;

	*calls = false;
	for (p = text; p && *p && !error; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *a;
		size_t al;

		p += strspn(p, " \t");
		if (strncasecmp(p, command, n) != 0)
			continue;
		a = p + n + strspn(p + n, " \t");
		if (*a != '(')
			continue;
		a += 1 + strspn(a + 1, " \t\r\n");
		al = strcspn(a, " \t\r\n)");
		if (arg && (al != strlen(arg) || strncmp(a, arg, al) != 0))
			continue;
		*calls = true;
		if (args && al && !memchr(a, '$', al) && !memchr(a, '"', al) && args->n < MAX_SUBDIRS)
			error = rec_names_add(args, a, al);
	}
	return error;
}

/* The top CMakeLists.txt (lv, with project()) enables testing, and it, one
 * below it (chain: the CMakeLists.txt of the directories the program is
 * in, or those it adds with add_subdirectory()) adds a test. */
static int cmake_tests(bool *tests, const rec_level *lv, const util_buf *chain)
{
	util_buf path = UTIL_BUF_INIT, sub = UTIL_BUF_INIT;
	rec_names subdirs = { NULL, 0 };
	bool enable, ctest, add, found;
	size_t i;
	int error;

	*tests = false;
	if ((error = rec_cmake_calls(&enable, NULL, rec_str(&lv->cmake), "enable_testing", NULL)) < 0 ||
	    (error = rec_cmake_calls(&ctest, NULL, rec_str(&lv->cmake), "include", "CTest")) < 0)
		return error;
	if (!enable && !ctest)
		return 0;
	if ((error = rec_cmake_calls(&add, NULL, rec_str(&lv->cmake), "add_test", NULL)) < 0 ||
	    (!add && (error = rec_cmake_calls(&add, NULL, rec_str(chain), "add_test", NULL)) < 0) ||
	    (!add && (error = rec_cmake_calls(&found, &subdirs, rec_str(&lv->cmake), "add_subdirectory", NULL)) < 0))
		goto done;
	for (i = 0; i < subdirs.n && !add && !error; i++) {
		util_buf_clear(&path);
		if (strcmp(lv->dir, ".") != 0)
			util_buf_printf(&path, "%s/", lv->dir);
		util_buf_puts(&path, subdirs.v[i]);
		if (util_buf_oom(&path))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
		else if (!strstr(path.ptr, "..") &&
			 !(error = rec_level_read(&sub, &found, lv, path.ptr, "CMakeLists.txt")) && found)
			error = rec_cmake_calls(&add, NULL, rec_str(&sub), "add_test", NULL);
	}
done:
	*tests = !error && add;
	rec_names_dispose(&subdirs);
	util_buf_dispose(&path);
	util_buf_dispose(&sub);
	return error;
}

int rec_cmake_guess(rec_commands *out, const rec_level *lv, const util_buf *chain)
{
	util_buf origin = UTIL_BUF_INIT;
	bool tests;
	int error;

	if ((error = cmake_tests(&tests, lv, chain)) < 0)
		return error;
	if (!tests)
		return UTIL_ENOTFOUND;
	util_buf_puts(&origin, "CMakeLists.txt with CTest (add_test)");
	error = rec_level_result(out, lv, CMAKE_BUILD, CMAKE_RUN, &origin);
	util_buf_dispose(&origin);
	return error;
}
