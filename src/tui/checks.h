/* K: the kernel checks the session holds for the selected file, in a pane
 * under the diff: each one's result and where it ran, and, where both
 * sides were timed, the port's time against the reference's, the ratio
 * with its spread, the bandwidth and its share of the GPU's peak; a port
 * below the performance budget is marked slow. Enter shows a check's whole
 * line in the status bar. */
#ifndef HIPPORT_TUI_CHECKS_H
#define HIPPORT_TUI_CHECKS_H

#include "tui/view.h"

extern const tui_view_ops tui_checks_view;

#endif
