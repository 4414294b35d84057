/* c: the commit dialog: the files a commit takes and the generated message. */
#ifndef HIPPORT_TUI_COMMIT_H
#define HIPPORT_TUI_COMMIT_H

#include "tui/view.h"

extern const tui_view_ops tui_commit_view;

#endif
