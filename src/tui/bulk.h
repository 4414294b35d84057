/* B: accepting every pending rename-only hunk of every file, asked first. */
#ifndef HIPPORT_TUI_BULK_H
#define HIPPORT_TUI_BULK_H

#include "tui/view.h"

extern const tui_view_ops tui_bulk_view;

#endif
