/* $VISUAL or $EDITOR (else vi) on files, the terminal given to it meanwhile:
 * a hunk's lines, a commit message, kernel check specs. */
#ifndef HIPPORT_TUI_EDITOR_H
#define HIPPORT_TUI_EDITOR_H

#include <stddef.h>

#include "tui/screen.h"
#include "util/buf.h"

/* Opens the editor on paths, without a shell: the command is split at
 * blanks. UTIL_ERROR when it could not run or did not exit 0. */
int tui_editor_run(tui_screen *s, const char *const *paths, size_t n);

/* The editor on a temporary file (name ending in suffix) holding text; what
 * is saved goes into out. UTIL_EINPUT when the file could not be written,
 * UTIL_ERROR when the editor failed. */
int tui_editor_edit(tui_screen *s, const char *suffix, const char *text, util_buf *out);

#endif
