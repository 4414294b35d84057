/* libFuzzer target for the rule-table loader: the input is written as
 * runtime.tsv into a temporary directory, loaded with port_rules_load_dir and
 * looked up by a few fixed names and by the names the input itself defines.
 *
 * Invariants checked:
 *   - success: a rule found for a name has that CUDA name and comes from
 *     runtime.tsv;
 *   - failure: the code is UTIL_EINPUT and the message names the file and
 *     line ("…/runtime.tsv:").
 *
 * Build and run (clang-15):
 *   cmake -S . -B build-fuzz -DHIPPORT_FUZZ=ON -DCMAKE_C_COMPILER=clang-15
 *   cmake --build build-fuzz -j2 --target fuzz_translate fuzz_rules
 *   tests/fuzz/make-corpus corpus corpus-rules
 *   build-fuzz/tests/fuzz/fuzz_rules -max_total_time=180 -max_len=65536 -timeout=10 corpus-rules/
 * (make-corpus puts the rule files, in pieces, into corpus-rules/.) */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "port/rules.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/hipport-fuzz-rules.XXXXXX";
static char path[sizeof(dir) + 16];
static bool ready;

static void cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

static void die(const char *what)
{
	fprintf(stderr, "fuzz_rules: %s\n", what);
	abort();
}

static void setup(void)
{
	if (ready)
		return;
	if (!mkdtemp(dir))
		die("cannot create a temporary directory");
	snprintf(path, sizeof(path), "%s/runtime.tsv", dir);
	atexit(cleanup);
	ready = true;
}

static void check_found(const port_rule *rule, const char *name, size_t len)
{
	if (!rule)
		return;
	if (!rule->cuda || strlen(rule->cuda) != len || memcmp(rule->cuda, name, len) != 0)
		die("lookup returned a rule with another name");
	if (!rule->file || !strstr(rule->file, "runtime.tsv"))
		die("rule without its file");
}

static void lookup(const port_rules *rules, const char *name, size_t len)
{
	check_found(port_rules_find(rules, name, len), name, len);
	check_found(port_rules_find_header(rules, name, len), name, len);
	check_found(port_rules_find_namespace(rules, name, len), name, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "cudaMalloc", "cudaStream_t", "cuda_runtime.h", "cub",
					     "__shfl_down_sync", "" };
	port_rules *rules = NULL;
	FILE *f;
	int error;
	size_t i;

	setup();
	f = fopen(path, "wb");
	if (!f)
		die("cannot write runtime.tsv");
	if (size && fwrite(data, 1, size, f) != size)
		die("cannot write runtime.tsv");
	if (fclose(f) != 0)
		die("cannot write runtime.tsv");

	util_error_clear();
	error = port_rules_load_dir(&rules, dir);
	if (error < 0) {
		const char *message = util_error_last();

		if (rules)
			die("failure with a table");
		if (error != UTIL_EINPUT || !message || !strstr(message, "runtime.tsv:")) {
			fprintf(stderr, "fuzz_rules: error code %d: %s\n", error, message ? message : "(null)");
			abort();
		}
		return 0;
	}
	if (!rules)
		die("success without a table");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		lookup(rules, names[i], strlen(names[i]));
	/* the first field of the first lines: the names the input defines */
	{
		const char *p = (const char *)data, *end = p + size;
		int lines;

		for (lines = 0; p < end && lines < 16; lines++) {
			const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end;
			const char *tab = memchr(p, '\t', (size_t)(eol - p));
			const char *stop = tab ? tab : eol;

			lookup(rules, p, (size_t)(stop - p));
			p = nl ? nl + 1 : end;
		}
	}
	(void)port_rules_find_by_target(rules, "hipMalloc");
	(void)port_rules_count(rules);
	(void)port_rules_newest_hip(rules);
	port_rules_free(rules);
	return 0;
}
