/* libFuzzer target for what hipport reads of checks: a compiler's output
 * (tc_compile_parse), a bundle's results.json (chk_results_read) and a
 * kernel check spec (chk_spec_read). The first byte picks the reader; the
 * rest is its input.
 *
 * Invariants checked: the parser never crashes or leaks; a diagnostic has a
 * file, a severity and a message; results and specs either load or fail
 * with a message that names the file. Build and run as fuzz_translate:
 *   build-fuzz/tests/fuzz/fuzz_check -max_total_time=300 corpus-check/ */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/toolchain/compile.h"
#include "check/kernel/results.h"
#include "check/kernel/spec.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what)
{
	fprintf(stderr, "fuzz_check: %s\n", what);
	abort();
}

/* The input as a file the readers open. */
static const char *as_file(const uint8_t *data, size_t size)
{
	static char path[256];
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "%s/hipport-fuzz-check-%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
			 (int)getpid());
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		die("cannot write the input file");
	return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0: {
		char *text = malloc(size);
		tc_diagnostic *d = NULL;
		size_t n = 0, i;

		if (!text)
			return 0;
		memcpy(text, data + 1, size - 1);
		text[size - 1] = '\0';
		if (tc_compile_parse(&d, &n, text, "src/k.cu") == 0)
			for (i = 0; i < n; i++)
				if (!d[i].file || !d[i].severity || !d[i].message)
					die("a diagnostic without its parts");
		for (i = 0; i < n; i++) {
			free(d[i].file);
			free(d[i].severity);
			free(d[i].message);
		}
		free(d);
		free(text);
		break;
	}
	case 1: {
		const char *path = as_file(data + 1, size - 1);
		chk_results r;

		memset(&r, 0, sizeof(r));
		if (chk_results_read(&r, path) < 0 && !strstr(util_error_last(), path))
			die("results refused without naming the file");
		chk_results_dispose(&r);
		break;
	}
	default: {
		const char *path = as_file(data + 1, size - 1);
		chk_spec s;

		memset(&s, 0, sizeof(s));
		if (chk_spec_read(&s, path) < 0 && !strstr(util_error_last(), path))
			die("spec refused without naming the file");
		chk_spec_dispose(&s);
		break;
	}
	}
	return 0;
}
