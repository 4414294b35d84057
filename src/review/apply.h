/* Writing proposals into the working tree, with backups so that --undo can
 * restore the files, and never over a file that changed underneath. */
#ifndef HIPPORT_REVIEW_APPLY_H
#define HIPPORT_REVIEW_APPLY_H

#include "review/proposal.h"

/* Where backups live: <git_dir>/hipport/backup, or .hipport-backup outside a repository. */
char *rv_backup_dir(const char *git_dir);

/* Writes the proposal over p->fs_path (atomically), keeping the original in
 * backup_dir/<p->path>. UTIL_EINPUT when the file no longer holds the source
 * the proposal was made from (nothing is written then). */
int rv_apply(const rv_proposal *p, const char *backup_dir);

/* Restores one file from its backup if its content is still what apply
 * wrote (UTIL_EINPUT otherwise, nothing written), then drops the backup.
 * path is relative to the backups (the proposal path). */
int rv_undo(const char *backup_dir, const char *path, const char *fs_path);

/* Lists the paths that have backups (caller frees each and the array). */
int rv_backup_list(char ***out, size_t *count, const char *backup_dir);

#endif
