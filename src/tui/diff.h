/* The side-by-side diff of the selected file, the right pane: the original
 * on the left, the proposal on the right, each hunk marked with its
 * decision. */
#ifndef HIPPORT_TUI_DIFF_H
#define HIPPORT_TUI_DIFF_H

#include "tui/view.h"

extern const tui_view_ops tui_diff_view;

#endif
