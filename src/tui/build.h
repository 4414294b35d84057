/* b: the compile check of the selected file in a pane under the diff; Enter
 * on an error shows its line in the diff. */
#ifndef HIPPORT_TUI_BUILD_H
#define HIPPORT_TUI_BUILD_H

#include "tui/view.h"

extern const tui_view_ops tui_build_view;

#endif
