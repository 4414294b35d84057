/* libFuzzer target for port_translate: the whole translation of one source
 * file (source checks, libclang raw tokens, directives, launches, renames,
 * call templates, emission).
 *
 * The first byte of the input picks the options (the whole input, first byte
 * included, is translated):
 *   bit 0  target HIP 5.2 (0) or 6.2 (1)
 *   bit 1  --kernel-launch=keep (0) or hip (1)
 *   bit 2  --roc
 *   bit 3  --experimental
 *
 * Invariants checked:
 *   - success: the output is non-NULL and NUL-terminated, every reference lies
 *     inside the input with a line and column, and, when the input holds no
 *     identifier (so no #include either) and no "<<<", the output is the input
 *     byte for byte;
 *   - failure: the code is UTIL_EINPUT or UTIL_ENOMEM and util_error_last() is
 *     not empty.
 *
 * Build and run (clang-15):
 *   cmake -S . -B build-fuzz -DHIPPORT_FUZZ=ON -DCMAKE_C_COMPILER=clang-15
 *   cmake --build build-fuzz -j2 --target fuzz_translate fuzz_rules
 *   tests/fuzz/make-corpus corpus
 *   build-fuzz/tests/fuzz/fuzz_translate -max_total_time=600 -max_len=65536 -timeout=10 corpus/
 * A crash is replayed with build-fuzz/tests/fuzz/fuzz_translate CRASH_FILE and
 * shrunk with -minimize_crash=1 -runs=10000 CRASH_FILE; keep the small ones in
 * tests/fuzz/regressions/. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port/lex.h"
#include "port/rules.h"
#include "port/translate.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static port_rules *rules;
static port_lexer *lexer;

static void die(const char *what)
{
	fprintf(stderr, "fuzz_translate: %s\n", what);
	abort();
}

static void setup(void)
{
	if (rules)
		return;
	if (port_rules_load_builtin(&rules) < 0)
		die(util_error_last());
	if (port_lexer_new(&lexer) < 0)
		die(util_error_last());
}

/* Whether an identifier could be in the text at all: an ASCII letter, '_',
 * '$' or a non-ASCII byte (clang takes Unicode identifiers). */
static bool has_identifier_bytes(const char *src, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)src[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80)
			return true;
	}
	return false;
}

/* Whether libclang's raw tokens of src hold an identifier. Keywords are not
 * identifiers. A lexer failure counts as "maybe" (no check then). */
static bool has_identifier_token(const char *src, size_t len)
{
	port_token *tokens = NULL;
	size_t count = 0, i;
	bool found = false;

	if (port_lexer_tokenize(lexer, "fuzz-input.cu", src, len, &tokens, &count) < 0)
		return true;
	for (i = 0; i < count && !found; i++)
		found = tokens[i].kind == PORT_TOKEN_IDENT;
	free(tokens);
	return found;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	port_options opts;
	port_result result;
	char *src;
	int error;
	size_t i;

	setup();
	if (size == 0)
		return 0;
	opts.target_hip = (data[0] & 1) ? PORT_VERSION(6, 2, 0) : PORT_VERSION(5, 2, 0);
	opts.launch = (data[0] & 2) ? PORT_LAUNCH_HIP : PORT_LAUNCH_KEEP;
	opts.roc = (data[0] & 4) != 0;
	opts.experimental = (data[0] & 8) != 0;

	/* an exact-size copy, not NUL-terminated, so that reads past the end are seen */
	src = malloc(size);
	if (!src)
		return 0;
	memcpy(src, data, size);
	util_error_clear();
	error = port_translate(&result, lexer, rules, &opts, "fuzz-input.cu", src, size);
	if (error == 0) {
		if (!result.output.ptr)
			die("success with a NULL output");
		if (result.output.ptr[result.output.len] != '\0')
			die("output is not NUL-terminated");
		for (i = 0; i < result.nrefs; i++) {
			const port_ref *ref = &result.refs[i];

			if (!ref->rule || ref->length == 0 || ref->offset > size ||
			    ref->length > size - ref->offset || ref->line == 0 || ref->col == 0)
				die("reference outside the input");
		}
		if (!memmem(src, size, "<<<", 3) &&
		    (!has_identifier_bytes(src, size) || !has_identifier_token(src, size)) &&
		    (result.output.len != size || memcmp(result.output.ptr, src, size) != 0))
			die("input without identifiers or launches was changed");
		port_result_dispose(&result);
	} else {
		const char *message = util_error_last();

		if (error != UTIL_EINPUT && error != UTIL_ENOMEM) {
			fprintf(stderr, "fuzz_translate: error code %d: %s\n", error, message);
			abort();
		}
		if (!message || !*message)
			die("error without a message");
	}
	free(src);
	return 0;
}
