/* The review's files: listed at once from the walk (each file only read),
 * their proposals and findings made in the background by worker threads
 * (tui/loader.h), the file under the cursor first, and joined with the
 * session and the model on the UI thread. Only the UI thread touches the
 * session and the model; a worker writes only its file's slots. */
#ifndef HIPPORT_CMD_REVIEW_FILES_H
#define HIPPORT_CMD_REVIEW_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "cmd/propose.h"
#include "review/cache.h"
#include "review/session.h"
#include "tui/loader.h"
#include "tui/model.h"

typedef struct cmd_review_files {
	cmd_context *ctx;
	cmd_context snapshot;     /* what the workers read of ctx, copied: the UI thread may change ctx */
	cmd_proposals set;        /* the walk, each file as read; not changed while workers run */
	rv_session session;
	rv_cache *cache;          /* NULL: none */
	port_lexer *lexer;        /* the UI thread's (colour of a fix's new proposal); from the start */
	an_analyzer *analyzer;
	size_t n;                 /* the files listed (the walk's CUDA files) */
	size_t *index_of;         /* per listed file: its index in set */
	size_t rebased;           /* changed outside hipport: proposed again from what they hold */
	size_t adopted;           /* committed ports changed by hand since: the changes taken as edits */
	bool *adopt;              /* per listed file: one of those, its edits taken when it is ready */
	rv_proposal **reviewed;   /* per listed file: what the model shows (as read until ready) */
	/* per listed file, a worker's until it is done, then the UI thread's */
	char **originals;         /* the original the session keeps, or NULL; and its fixes */
	char **fixes;
	rv_proposal *proposals;   /* owned */
	tui_prepared *prepared;
	size_t (*findings)[3];
	unsigned char **marks;
	char **failed;            /* why no proposal could be made, or NULL */
	tui_loader *loader;
	size_t installed;
	struct timespec start;
	double seconds;           /* from the start until every proposal was ready */
} cmd_review_files;

/* Walks and reads the files and opens the session: enough to list them.
 * Returns 0 or an exit code after printing why. */
int cmd_review_files_open(cmd_context *ctx, cmd_review_files *rf);
/* Loads the rules (and probes the toolchains they need) and starts the
 * workers; held: they take no file until cmd_review_files_load lets them
 * (scripts). Returns 0 or an exit code after printing why. */
int cmd_review_files_start(cmd_review_files *rf, bool held);
/* Joins what the workers finished with the model (m->selected is asked for
 * first); with wait, waits for one unless none will come. 1 when the last
 * proposal came now, 0 otherwise, < 0 on an error (the message set). */
int cmd_review_files_poll(cmd_review_files *rf, tui_model *m, bool wait);
/* Lets a held loader take n more files (SIZE_MAX: all) and waits until they
 * are joined with the model. */
int cmd_review_files_load(cmd_review_files *rf, tui_model *m, size_t n);
/* Whether proposals are still to come. */
bool cmd_review_files_loading(const cmd_review_files *rf);
/* Stops the workers (each finishes its file), saves the cache, frees all. */
void cmd_review_files_dispose(cmd_review_files *rf);

#endif
