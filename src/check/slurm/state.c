/* What Slurm says of the array tasks (sacct, else scontrol where accounting
 * storage is off, squeue for the queue), turned into a task's state and a
 * result's message, and slurm/jobs, the job ids of a bundle's submissions. */
#include "check/slurm/slurm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/file.h"

static int add_state(slurm_states *out, const char *job, size_t jlen, size_t task, const char *state,
		     size_t slen, const char *reason, size_t rlen)
{
	slurm_task_state *m = realloc(out->items, (out->n + 1) * sizeof(*m));

	if (!m)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	out->items = m;
	m = &m[out->n];
	m->job = strndup(job, jlen);
	m->state = strndup(state, slen);
	m->reason = strndup(reason, rlen);
	m->task = task;
	if (!m->job || !m->state || !m->reason) {
		free(m->job);
		free(m->state);
		free(m->reason);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	out->n++;
	return 0;
}

/* Each task of an array list ("3", "1-4", "[1-4%2]") with the same state. */
static int add_tasks(slurm_states *out, const char *job, size_t jlen, const char *tasks, size_t tlen,
		     const char *state, size_t slen, const char *reason, size_t rlen)
{
	char *list;
	size_t *ids = NULL, n = 0, i;
	int error;

	if (tlen && tasks[0] == '[') {
		tasks++;
		tlen -= tlen > 1 && tasks[tlen - 2] == ']' ? 2 : 1;
	}
	if (!(list = strndup(tasks, tlen)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = slurm_array_parse(&ids, &n, list)) < 0) {
		free(list);
		util_error_clear();
		return 0; /* not an array task: not ours */
	}
	for (i = 0; i < n && !error; i++)
		error = add_state(out, job, jlen, ids[i], state, slen, reason, rlen);
	free(ids);
	free(list);
	return error;
}

/* The fields of a line split at '|': up to max, their starts and lengths. */
static size_t split_bars(const char *line, size_t len, const char **f, size_t *flen, size_t max)
{
	size_t n = 0;
	const char *p = line, *end = line + len;

	while (n < max) {
		const char *bar = memchr(p, '|', (size_t)(end - p));

		f[n] = p;
		flen[n] = bar ? (size_t)(bar - p) : (size_t)(end - p);
		n++;
		if (!bar)
			break;
		p = bar + 1;
	}
	return n;
}

int slurm_states_parse_sacct(slurm_states *out, const char *text)
{
	const char *p = text;
	int error = 0;

	memset(out, 0, sizeof(*out));
	while (*p && !error) {
		size_t len = strcspn(p, "\n"), flen[3];
		const char *f[3], *us;

		if (split_bars(p, len, f, flen, 3) == 3 && (us = memchr(f[0], '_', flen[0])) != NULL &&
		    !memchr(f[0], '.', flen[0]))
			error = add_tasks(out, f[0], (size_t)(us - f[0]), us + 1, flen[0] - (size_t)(us - f[0]) - 1, f[1],
					  strcspn(f[1], " |"), f[2], flen[2]);
		p += len;
		if (*p)
			p++;
	}
	if (error)
		slurm_states_dispose(out);
	return error;
}

int slurm_states_parse_squeue(slurm_states *out, const char *text)
{
	const char *p = text;
	int error = 0;

	memset(out, 0, sizeof(*out));
	while (*p && !error) {
		size_t len = strcspn(p, "\n"), flen[4];
		const char *f[4];

		if (split_bars(p, len, f, flen, 4) == 4 && flen[1] && strncmp(f[1], "N/A", 3) != 0)
			error = add_tasks(out, f[0], flen[0], f[1], flen[1], f[2], flen[2], f[3], flen[3]);
		p += len;
		if (*p)
			p++;
	}
	if (error)
		slurm_states_dispose(out);
	return error;
}

/* The value of KEY= in an scontrol line (up to a space), or NULL. */
static const char *value_of(const char *line, size_t len, const char *key, size_t *vlen)
{
	size_t klen = strlen(key);
	const char *p = line, *end = line + len;

	while (p < end) {
		if ((p == line || p[-1] == ' ') && (size_t)(end - p) > klen && strncmp(p, key, klen) == 0 &&
		    p[klen] == '=') {
			p += klen + 1;
			*vlen = strcspn(p, " \n");
			if (p + *vlen > end)
				*vlen = (size_t)(end - p);
			return p;
		}
		p++;
	}
	return NULL;
}

int slurm_states_parse_scontrol(slurm_states *out, const char *text)
{
	const char *p = text;
	int error = 0;

	memset(out, 0, sizeof(*out));
	while (*p && !error) {
		size_t len = strcspn(p, "\n"), jl, tl, sl, rl = 0, el = 0;
		const char *job = value_of(p, len, "ArrayJobId", &jl), *task = value_of(p, len, "ArrayTaskId", &tl);
		const char *state = value_of(p, len, "JobState", &sl), *reason = value_of(p, len, "Reason", &rl);
		const char *exit = value_of(p, len, "ExitCode", &el);

		if (job && task && state) {
			char why[256];

			/* the reason, or the exit code where the scheduler gives none */
			if (reason && !(rl == 4 && strncmp(reason, "None", 4) == 0))
				snprintf(why, sizeof(why), "%.*s", (int)rl, reason);
			else if (exit)
				snprintf(why, sizeof(why), "%.*s", (int)el, exit);
			else
				why[0] = '\0';
			error = add_tasks(out, job, jl, task, tl, state, sl, why, strlen(why));
		}
		p += len;
		if (*p)
			p++;
	}
	if (error)
		slurm_states_dispose(out);
	return error;
}

const slurm_task_state *slurm_states_find(const slurm_states *s, const char *job, size_t task)
{
	size_t i;

	for (i = s->n; i-- > 0;) /* the last word on a task wins */
		if (s->items[i].task == task && strcmp(s->items[i].job, job) == 0)
			return &s->items[i];
	return NULL;
}

void slurm_states_dispose(slurm_states *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->items[i].job);
		free(s->items[i].state);
		free(s->items[i].reason);
	}
	free(s->items);
	memset(s, 0, sizeof(*s));
}

static const struct {
	const char *state, *what;
} failures[] = {
	{ "CANCELLED", "cancelled" },
	{ "TIMEOUT", "timed out (the array's time limit)" },
	{ "NODE_FAIL", "its node failed" },
	{ "FAILED", "failed" },
	{ "OUT_OF_MEMORY", "ran out of memory" },
	{ "PREEMPTED", "preempted" },
	{ "BOOT_FAIL", "its node did not boot" },
	{ "DEADLINE", "missed its deadline" },
	{ "REVOKED", "revoked" },
};

static const char *const active[] = { "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED",
				      "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING", "SIGNALING", "STAGE_OUT",
				      "STOPPED", "RESV_DEL_HOLD", "SPECIAL_EXIT", NULL };

slurm_phase_state slurm_state_judge(const slurm_task_state *st, char **message)
{
	size_t i;
	util_buf m = UTIL_BUF_INIT;

	*message = NULL;
	if (!st)
		return SLURM_UNKNOWN;
	if (strcmp(st->state, "COMPLETED") == 0)
		return SLURM_DONE;
	for (i = 0; active[i]; i++)
		if (strcmp(st->state, active[i]) == 0)
			return SLURM_ACTIVE;
	for (i = 0; i < sizeof(failures) / sizeof(failures[0]); i++)
		if (strcmp(st->state, failures[i].state) == 0)
			break;
	util_buf_printf(&m, "slurm: array task %s_%zu %s (%s%s%s)", st->job, st->task,
			i < sizeof(failures) / sizeof(failures[0]) ? failures[i].what : "ended", st->state,
			*st->reason ? ", " : "", st->reason);
	*message = util_buf_detach(&m);
	return SLURM_FAILED;
}

int slurm_jobs_parse(slurm_jobs *out, const char *text, const char *path)
{
	const char *p = text;
	size_t lineno = 0;
	int error = 0;

	memset(out, 0, sizeof(*out));
	while (*p && !error) {
		size_t len = strcspn(p, "\n");
		char *line = strndup(p, len), *phase, *job, *tasks, *rest, *save = NULL;
		slurm_job *m;

		lineno++;
		p += len;
		if (*p)
			p++;
		if (!line) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			break;
		}
		phase = strtok_r(line, " \t", &save);
		job = phase ? strtok_r(NULL, " \t", &save) : NULL;
		tasks = job ? strtok_r(NULL, " \t", &save) : NULL;
		rest = tasks ? strtok_r(NULL, " \t", &save) : NULL;
		if (!phase) {
			free(line);
			continue;
		}
		if (!tasks || rest || strspn(job, "0123456789") != strlen(job)) {
			error = util_error_set(UTIL_EINPUT, "%s:%zu: expected PHASE JOBID TASKS", path, lineno);
		} else if (!(m = realloc(out->items, (out->n + 1) * sizeof(*m)))) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
		} else {
			out->items = m;
			m = &m[out->n];
			memset(m, 0, sizeof(*m));
			if ((error = slurm_array_parse(&m->tasks, &m->ntasks, tasks)) < 0)
				error = util_error_set(UTIL_EINPUT, "%s:%zu: %s", path, lineno, util_error_last());
			else if (!(m->phase = strdup(phase)) || !(m->job = strdup(job))) {
				free(m->phase);
				free(m->tasks);
				error = util_error_set(UTIL_ENOMEM, "out of memory");
			} else {
				out->n++;
			}
		}
		free(line);
	}
	if (error)
		slurm_jobs_dispose(out);
	return error;
}

int slurm_jobs_read(slurm_jobs *out, const char *path)
{
	util_buf text = UTIL_BUF_INIT;
	int error;

	memset(out, 0, sizeof(*out));
	if (util_file_read(&text, path, 16u << 20) < 0) {
		util_error_clear();
		return 0; /* nothing submitted yet */
	}
	error = slurm_jobs_parse(out, text.ptr ? text.ptr : "", path);
	util_buf_dispose(&text);
	return error;
}

const char *slurm_jobs_latest(const slurm_jobs *jobs, const char *phase, size_t task)
{
	size_t i, k;

	for (i = jobs->n; i-- > 0;)
		if (strcmp(jobs->items[i].phase, phase) == 0)
			for (k = 0; k < jobs->items[i].ntasks; k++)
				if (jobs->items[i].tasks[k] == task)
					return jobs->items[i].job;
	return NULL;
}

int slurm_jobs_append(const char *path, const char *phase, const char *job, const char *tasks)
{
	util_buf text = UTIL_BUF_INIT;
	int error;

	if (util_file_read(&text, path, 16u << 20) < 0)
		util_error_clear();
	util_buf_printf(&text, "%s %s %s\n", phase, job, tasks);
	error = util_buf_oom(&text) ? util_error_set(UTIL_ENOMEM, "out of memory")
				    : util_file_write_atomic(path, text.ptr, text.len);
	util_buf_dispose(&text);
	return error;
}

void slurm_jobs_dispose(slurm_jobs *jobs)
{
	size_t i;

	for (i = 0; i < jobs->n; i++) {
		free(jobs->items[i].phase);
		free(jobs->items[i].job);
		free(jobs->items[i].tasks);
	}
	free(jobs->items);
	memset(jobs, 0, sizeof(*jobs));
}
