/* The file list, the left pane: each file's state, path, hunks left and
 * findings. */
#ifndef HIPPORT_TUI_FILES_H
#define HIPPORT_TUI_FILES_H

#include "tui/view.h"

extern const tui_view_ops tui_files_view;

#endif
