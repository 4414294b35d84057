/* libFuzzer target for an_analyze: the analyzer on one source file (raw
 * tokens, the libclang AST through the prelude, every finding family, fix
 * templates), then every fix applied.
 *
 * The first byte of the input picks the target HIP: 5.2 (bit 0 clear) or
 * 6.2 (set); the whole input is analyzed.
 *
 * Invariants checked:
 *   - success: every hit lies inside the input with a line and column, a
 *     catalog id and a message, and its edits inside the input; applying all
 *     fixes succeeds and yields a NUL-terminated buffer;
 *   - failure: util_error_last() is not empty.
 *
 * Build and run as fuzz_translate (see there):
 *   build-fuzz/tests/fuzz/fuzz_analyze -max_total_time=600 -max_len=16384 -timeout=20 corpus/ */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/finding.h"
#include "port/lex.h"
#include "util/buf.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static port_lexer *lexer;
static an_analyzer *analyzers[2];

static void die(const char *what)
{
	fprintf(stderr, "fuzz_analyze: %s\n", what);
	abort();
}

static void setup(void)
{
	if (lexer)
		return;
	port_lexer_global_init();
	if (port_lexer_new(&lexer) < 0 || an_analyzer_new(&analyzers[0], NULL, PORT_VERSION(5, 2, 0)) < 0 ||
	    an_analyzer_new(&analyzers[1], NULL, PORT_VERSION(6, 2, 0)) < 0)
		die(util_error_last());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	an_analysis a;
	util_buf fixed = UTIL_BUF_INIT;
	an_applied *spans = NULL;
	size_t i, k, applied, nspans;
	const char *src = (const char *)data;
	int error;

	setup();
	if (size == 0)
		return 0;
	/* the first byte picks the target HIP, and CUDA or Python (Triton) */
	error = an_analyze(&a, analyzers[data[0] & 1], lexer, data[0] & 2 ? "fuzz.py" : "fuzz.cu", src, size);
	if (error < 0) {
		if (!util_error_last()[0])
			die("failure without a message");
		return 0;
	}
	for (i = 0; i < a.count; i++) {
		const an_hit *h = &a.hits[i];

		if (!an_catalog_find(h->id) || !h->message || h->offset + h->length > size || !h->line || !h->col)
			die("hit outside the input, or without an id or message");
		for (k = 0; k < h->nedits; k++)
			if (h->edits[k].offset + h->edits[k].length > size || !h->edits[k].text)
				die("fix edit outside the input");
	}
	if (an_fixes_apply(&fixed, src, size, &a, "all", &applied, &spans, &nspans) < 0)
		die(util_error_last());
	if (fixed.len && fixed.ptr[fixed.len] != '\0')
		die("fixed source not terminated");
	free(spans);
	util_buf_dispose(&fixed);
	an_analysis_dispose(&a);
	return 0;
}
