/* libFuzzer target for rv_session_parse: the session file (.git/hipport/
 * session.json) as a kill or a user may leave it.
 *
 * Invariants checked: success leaves every file with a path and a 40-digit
 * base and every hunk with a 16-digit key and a decision other than pending
 * (edited ones with text); failure says why (util_error_last() names the
 * file). Build and run as fuzz_translate (see there):
 *   build-fuzz/tests/fuzz/fuzz_session -max_total_time=300 corpus-session/ */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/session.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what)
{
	fprintf(stderr, "fuzz_session: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rv_session s;
	size_t i, k;

	memset(&s, 0, sizeof(s));
	if (rv_session_parse(&s, (const char *)data, size, "session.json") < 0) {
		if (!strstr(util_error_last(), "session.json: damaged session file"))
			die("failure without its message");
		rv_session_dispose(&s);
		return 0;
	}
	for (i = 0; i < s.nfiles; i++) {
		const rv_session_file *f = &s.files[i];

		if (!f->path || strlen(f->base) != 40)
			die("file without a path or a base");
		for (k = 0; k < f->nhunks; k++)
			if (strlen(f->hunks[k].key) != 16 || f->hunks[k].decision == RV_PENDING ||
			    (f->hunks[k].decision == RV_EDITED && !f->hunks[k].text))
				die("hunk without a key or a decision");
	}
	rv_session_dispose(&s);
	return 0;
}
