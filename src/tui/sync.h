/* S: the sync with upstream from the review: the sync under way resumed, or
 * a prompt on the status bar for the upstream commit to sync to. */
#ifndef HIPPORT_TUI_SYNC_H
#define HIPPORT_TUI_SYNC_H

#include "tui/view.h"

extern const tui_view_ops tui_sync_view;

#endif
