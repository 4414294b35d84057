/* A drafted spec always compiles in its harness (docs/checks.md, "A
 * drafted spec compiles"): each drafted expression (template arguments,
 * grid, block, shared memory, scalar values, counts, vars) is checked by
 * name against what the harness sees (check/kernel/names.h), then the
 * spec's declarations and launch are compiled by libclang after the
 * file's text, as the harness has them. What does not compile is replaced
 * by the signature draft's value or a literal, marked `# guessed: WHY`;
 * a var nothing uses, or one whose type does not compile, is dropped. */
#ifndef HIPPORT_CHECK_SETTLE_H
#define HIPPORT_CHECK_SETTLE_H

#include <stddef.h>

#include "analyze/compile_db.h"
#include "analyze/parse.h"
#include "check/kernel/names.h"
#include "check/kernel/spec.h"

/* Settles the n specs drafted from one file (src, as fs_path). fallbacks[i]
 * is spec i's draft from the kernel's signature alone (its values name only
 * the spec's own scalars), or NULL. The parser's unit for the file is
 * parsed again: cursors of an earlier parse are invalid afterwards. */
int chk_settle(chk_spec *specs, size_t n, chk_spec *const *fallbacks, const chk_scope *scope, an_parser *parser,
	       const an_compile_db *db, const char *fs_path, const char *src, size_t len);

#endif
