/* Work on the review's files in the background: worker threads take the
 * items (files) one at a time, the one the UI asks for first (the file under
 * the cursor), then the others in order; the UI thread takes the items done
 * and installs them. A worker writes only what is its item's own (the
 * payload's slot of that index) and never the session or the model: what an
 * item computed is the UI thread's once tui_loader_take returned its index
 * (the loader's lock orders the two). */
#ifndef HIPPORT_TUI_LOADER_H
#define HIPPORT_TUI_LOADER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct tui_loader tui_loader;

typedef struct tui_loader_ops {
	void *payload;
	/* The state of worker `worker` (a lexer, an analyzer: what must not be
	 * shared between threads), made on the calling thread by
	 * tui_loader_new; < 0 with the message set refuses the loader. */
	int (*start)(void *payload, unsigned worker, void **state);
	void (*finish)(void *payload, void *state);
	/* Computes item `index` on a worker thread, with that worker's state. */
	void (*compute)(void *payload, void *state, size_t index);
} tui_loader_ops;

/* Starts `jobs` workers (0: the number of cores) over items 0..count-1.
 * Workers take no more than `allowed` items (SIZE_MAX: all) until
 * tui_loader_allow lets them take more: a held loader, for scripts that
 * show the review while its work waits. */
int tui_loader_new(tui_loader **out, const tui_loader_ops *ops, size_t count, unsigned jobs, size_t allowed);
/* Stops the workers (each finishes the item in hand) and joins them; the
 * items not done are left undone. */
void tui_loader_free(tui_loader *l);

/* Item index goes next, before the others still waiting (it jumps the
 * queue); nothing when it is taken already. */
void tui_loader_want(tui_loader *l, size_t index);
/* Lets the workers take `more` items than they were allowed so far. */
void tui_loader_allow(tui_loader *l, size_t more);
/* The indices of up to max items done since the last call, in the order
 * they were done. With wait, blocks until one is done, unless none will be
 * (every item done, or a held loader with none allowed or in hand). */
size_t tui_loader_take(tui_loader *l, size_t *out, size_t max, bool wait);
/* Items done (taken or not), and all of them. */
size_t tui_loader_done(tui_loader *l);
size_t tui_loader_count(const tui_loader *l);

#endif
