/* The review's background work: a queue of items with one that may jump
 * it, worker threads, and the list of items done for the UI thread. */
#include "tui/loader.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

#include "util/error.h"

#define MAX_JOBS 64

struct tui_loader {
	tui_loader_ops ops;
	size_t count;
	pthread_mutex_t lock;
	pthread_cond_t work; /* an item may be taken, or stop */
	pthread_cond_t done_cond; /* an item is done, or none will be */
	bool *taken;         /* by a worker */
	size_t next;         /* no item before it is waiting */
	size_t want;         /* goes first when not taken; count: none */
	size_t allowed;      /* items the workers may take in all */
	size_t claimed;      /* items taken by workers */
	size_t in_hand;      /* taken, not done */
	size_t *done;        /* the items done, in order */
	size_t ndone;
	size_t reported;     /* done[0..reported) went to tui_loader_take */
	bool stop;
	pthread_t threads[MAX_JOBS];
	void *states[MAX_JOBS];
	unsigned nthreads, nstates;
};

/* The item to take next, or count; called with the lock held. */
static size_t pick(tui_loader *l)
{
	if (l->claimed >= l->allowed)
		return l->count;
	if (l->want < l->count && !l->taken[l->want])
		return l->want;
	while (l->next < l->count && l->taken[l->next])
		l->next++;
	return l->next;
}

typedef struct worker_arg {
	tui_loader *l;
	void *state;
} worker_arg;

static void *worker(void *arg)
{
	tui_loader *l = ((worker_arg *)arg)->l;
	void *state = ((worker_arg *)arg)->state;

	free(arg);
#ifdef __linux__
	/* below the UI thread, so that on a busy machine its keys come first
	 * (Linux gives each thread a nice value); refused, the work goes on */
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
#endif
	pthread_mutex_lock(&l->lock);
	while (!l->stop) {
		size_t i = pick(l);

		if (i == l->count) {
			pthread_cond_wait(&l->work, &l->lock);
			continue;
		}
		l->taken[i] = true;
		l->claimed++;
		l->in_hand++;
		pthread_mutex_unlock(&l->lock);
		l->ops.compute(l->ops.payload, state, i);
		pthread_mutex_lock(&l->lock);
		l->in_hand--;
		l->done[l->ndone++] = i;
		pthread_cond_broadcast(&l->done_cond);
	}
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

static void stop_all(tui_loader *l)
{
	unsigned i;

	pthread_mutex_lock(&l->lock);
	l->stop = true;
	pthread_cond_broadcast(&l->work);
	pthread_mutex_unlock(&l->lock);
	for (i = 0; i < l->nthreads; i++)
		pthread_join(l->threads[i], NULL);
	l->nthreads = 0;
	for (i = 0; i < l->nstates; i++)
		if (l->ops.finish)
			l->ops.finish(l->ops.payload, l->states[i]);
	l->nstates = 0;
}

void tui_loader_free(tui_loader *l)
{
	if (!l)
		return;
	stop_all(l);
	pthread_cond_destroy(&l->work);
	pthread_cond_destroy(&l->done_cond);
	pthread_mutex_destroy(&l->lock);
	free(l->taken);
	free(l->done);
	free(l);
}

int tui_loader_new(tui_loader **out, const tui_loader_ops *ops, size_t count, unsigned jobs, size_t allowed)
{
	tui_loader *l = calloc(1, sizeof(*l));
	unsigned i;
	int error;

	*out = NULL;
	if (!l || !(l->taken = calloc(count + 1, sizeof(*l->taken))) ||
	    !(l->done = calloc(count + 1, sizeof(*l->done)))) {
		if (l)
			free(l->taken);
		free(l);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	l->ops = *ops;
	l->count = count;
	l->want = count;
	l->allowed = allowed;
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->work, NULL);
	pthread_cond_init(&l->done_cond, NULL);
	if (!jobs) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cores > 0 ? (unsigned)cores : 1;
	}
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	if (jobs > count)
		jobs = count ? (unsigned)count : 0;
	/* every worker's state first: a refusal leaves no thread behind */
	for (i = 0; i < jobs; i++) {
		if (ops->start && (error = ops->start(ops->payload, i, &l->states[i])) < 0) {
			tui_loader_free(l);
			return error;
		}
		l->nstates++;
	}
	for (i = 0; i < jobs; i++) {
		worker_arg *arg = malloc(sizeof(*arg));

		if (!arg) {
			tui_loader_free(l);
			return util_error_set(UTIL_ENOMEM, "out of memory");
		}
		arg->l = l;
		arg->state = l->states[i];
		if (pthread_create(&l->threads[l->nthreads], NULL, worker, arg) != 0) {
			free(arg);
			tui_loader_free(l);
			return util_error_set(UTIL_ERROR, "cannot start a thread for the background work");
		}
		l->nthreads++;
	}
	*out = l;
	return 0;
}

void tui_loader_want(tui_loader *l, size_t index)
{
	pthread_mutex_lock(&l->lock);
	if (index < l->count && index != l->want) {
		l->want = index;
		pthread_cond_signal(&l->work);
	}
	pthread_mutex_unlock(&l->lock);
}

void tui_loader_allow(tui_loader *l, size_t more)
{
	pthread_mutex_lock(&l->lock);
	l->allowed = more > SIZE_MAX - l->allowed ? SIZE_MAX : l->allowed + more;
	pthread_cond_broadcast(&l->work);
	pthread_mutex_unlock(&l->lock);
}

size_t tui_loader_take(tui_loader *l, size_t *out, size_t max, bool wait)
{
	size_t n = 0;

	pthread_mutex_lock(&l->lock);
	/* none will come: all done, or none allowed and none in hand */
	while (wait && l->reported == l->ndone && l->ndone < l->count &&
	       (l->in_hand > 0 || (l->claimed < l->allowed && l->nthreads > 0)))
		pthread_cond_wait(&l->done_cond, &l->lock);
	while (n < max && l->reported < l->ndone)
		out[n++] = l->done[l->reported++];
	pthread_mutex_unlock(&l->lock);
	return n;
}

size_t tui_loader_done(tui_loader *l)
{
	size_t n;

	pthread_mutex_lock(&l->lock);
	n = l->ndone;
	pthread_mutex_unlock(&l->lock);
	return n;
}

size_t tui_loader_count(const tui_loader *l)
{
	return l->count;
}
