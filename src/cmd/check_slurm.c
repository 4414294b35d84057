/* hipport check --bundle DIR --slurm and --submit DIR (docs/checks.md,
 * "Slurm"). Slurm does the scheduling: this file runs sbatch, sacct,
 * scontrol (and ssh to check.slurmHost), reads what they say, shows the
 * progress and merges the tasks' fragments; the job ids stay in
 * DIR/slurm/jobs, so an interrupted --submit picks them up again and a
 * second one submits only what did not finish. */
#include "cmd/check_slurm.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check/slurm/slurm.h"
#include "cmd/check.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"
#include "util/process.h"
#include "vcs/walk.h"

#define COMMAND_TIMEOUT_MS 120000

int cmd_check_slurm_precheck(const char *root)
{
	slurm_config cfg;
	util_buf path = UTIL_BUF_INIT;
	int error;

	util_buf_printf(&path, "%s.hipport/config", root);
	error = util_buf_oom(&path) ? util_error_set(UTIL_ENOMEM, "out of memory") : slurm_config_read(&cfg, path.ptr);
	util_buf_dispose(&path);
	if (error < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	slurm_config_dispose(&cfg);
	return CMD_EXIT_OK;
}

int cmd_check_slurm_write(const char *dir, const char *root, const char *default_target)
{
	slurm_config cfg;
	slurm_plan plan;
	util_buf path = UTIL_BUF_INIT;
	int error, code = CMD_EXIT_OK;

	memset(&plan, 0, sizeof(plan));
	util_buf_printf(&path, "%s.hipport/config", root);
	if (util_buf_oom(&path))
		return cmd_fail(CMD_EXIT_USAGE, "out of memory");
	if ((error = slurm_config_read(&cfg, path.ptr)) < 0) {
		util_buf_dispose(&path);
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	}
	if ((error = slurm_plan_make(&plan, dir, &cfg, default_target)) < 0 ||
	    (error = slurm_write(dir, &cfg, &plan)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	} else {
		printf("%s/slurm: %zu array task%s each for the reference and %zu target%s (%s%s); submit with: "
		       "hipport check --submit %s\n",
		       dir, plan.ntasks, plan.ntasks == 1 ? "" : "s", plan.ntargets, plan.ntargets == 1 ? "" : "s",
		       plan.targets[0], plan.ntargets > 1 ? ", ..." : "", dir);
	}
	slurm_plan_dispose(&plan);
	slurm_config_dispose(&cfg);
	util_buf_dispose(&path);
	return code;
}

/* --- running Slurm's commands ------------------------------------------- */

typedef struct submitter {
	const char *host;     /* check.slurmHost, or NULL: here */
	const char *dir;      /* the bundle, absolute */
	slurm_plan plan;
	slurm_jobs jobs;
	slurm_states states;
	util_buf jobs_path;
} submitter;

/* Runs argv here or, with a login host, through ssh; its output in *out.
 * UTIL_ETOOLCHAIN when the program is not there. */
static int slurm_run(util_process_result *out, const submitter *s, const char *const *argv)
{
	util_buf line = UTIL_BUF_INIT;
	const char *remote[6];
	size_t i;
	int error;

	memset(out, 0, sizeof(*out));
	if (!s->host) {
		error = util_process_run(out, argv, COMMAND_TIMEOUT_MS);
	} else {
		for (i = 0; argv[i]; i++) {
			if (i)
				util_buf_putc(&line, ' ');
			util_process_shell_quote(&line, argv[i]);
		}
		if (util_buf_oom(&line))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		remote[0] = "ssh";
		remote[1] = "-o";
		remote[2] = "BatchMode=yes";
		remote[3] = s->host;
		remote[4] = line.ptr;
		remote[5] = NULL;
		error = util_process_run(out, remote, COMMAND_TIMEOUT_MS);
	}
	util_buf_dispose(&line);
	if (error < 0)
		return error;
	if (out->not_found)
		return util_error_set(UTIL_ETOOLCHAIN, "%s not found%s%s%s", s->host ? "ssh" : argv[0],
				      s->host ? "" : " (Slurm's commands are needed on this machine, or set check.slurmHost "
						     "to a login host that has them)",
				      s->host ? " (for check.slurmHost " : "", s->host ? s->host : "");
	return 0;
}

/* The job ids of the submissions, each once, as "12,13". */
static void job_list(util_buf *out, const slurm_jobs *jobs)
{
	size_t i, k;

	for (i = 0; i < jobs->n; i++) {
		for (k = 0; k < i && strcmp(jobs->items[k].job, jobs->items[i].job) != 0; k++)
			;
		if (k == i)
			util_buf_printf(out, "%s%s", out->len ? "," : "", jobs->items[i].job);
	}
}

/* Moves more's states into all. */
static int states_add(slurm_states *all, slurm_states *more)
{
	slurm_task_state *m = realloc(all->items, (all->n + more->n + 1) * sizeof(*m));

	if (!m) {
		slurm_states_dispose(more);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	all->items = m;
	memcpy(m + all->n, more->items, more->n * sizeof(*m));
	all->n += more->n;
	free(more->items);
	return 0;
}

/* Whether a task of submission i has no state yet. */
static int job_missing_tasks(const submitter *s, size_t i)
{
	size_t k;

	for (k = 0; k < s->jobs.items[i].ntasks; k++)
		if (!slurm_states_find(&s->states, s->jobs.items[i].job, s->jobs.items[i].tasks[k]))
			return 1;
	return 0;
}

/* Whether any submitted task has no state yet. */
static int missing_tasks(const submitter *s)
{
	size_t i;

	for (i = 0; i < s->jobs.n; i++)
		if (job_missing_tasks(s, i))
			return 1;
	return 0;
}

/* What the scheduler says of every submitted task: sacct where accounting
 * storage keeps jobs, else squeue for the queue and scontrol for tasks that
 * ended (it knows them until MinJobAge after their end). */
static int query_states(submitter *s)
{
	util_buf ids = UTIL_BUF_INIT;
	util_process_result r;
	size_t i;
	int error = 0;

	slurm_states_dispose(&s->states);
	job_list(&ids, &s->jobs);
	if (!ids.len)
		goto done;
	{
		const char *sacct[] = { "sacct", "-n", "-P", "-X", "-j", ids.ptr, "-o", "JobID,State,ExitCode", NULL };

		/* no sacct (or no accounting): the others say it */
		if ((error = slurm_run(&r, s, sacct)) < 0 && error != UTIL_ETOOLCHAIN) {
			util_process_result_dispose(&r);
			goto done;
		}
		util_error_clear();
		if (error == 0 && r.status == 0 && r.out.len)
			error = slurm_states_parse_sacct(&s->states, r.out.ptr);
		else
			error = 0;
		util_process_result_dispose(&r);
	}
	/* jobs sacct does not know (yet, or at all): squeue for what is queued
	 * or running, then scontrol for the tasks that ended */
	if (!error && missing_tasks(s)) {
		const char *squeue[] = { "squeue", "-h", "-r", "-j", ids.ptr, "-o", "%A|%K|%T|%r", NULL };
		slurm_states more;

		if ((error = slurm_run(&r, s, squeue)) == 0 && r.status == 0 && r.out.len &&
		    (error = slurm_states_parse_squeue(&more, r.out.ptr)) == 0)
			error = states_add(&s->states, &more);
		util_process_result_dispose(&r);
		if (error == UTIL_ETOOLCHAIN) {
			util_error_clear();
			error = 0;
		}
	}
	for (i = 0; i < s->jobs.n && !error; i++) {
		const char *scontrol[] = { "scontrol", "-o", "show", "job", s->jobs.items[i].job, NULL };
		slurm_states more;

		if (!job_missing_tasks(s, i))
			continue;
		if ((error = slurm_run(&r, s, scontrol)) < 0) {
			util_process_result_dispose(&r);
			break;
		}
		if (r.status == 0 && r.out.len && (error = slurm_states_parse_scontrol(&more, r.out.ptr)) == 0)
			error = states_add(&s->states, &more);
		util_process_result_dispose(&r);
	}
done:
	util_buf_dispose(&ids);
	return error;
}

/* --- the tasks' states ---------------------------------------------------- */

typedef enum { TASK_DONE, TASK_ACTIVE, TASK_PENDING, TASK_ENDED } task_state;

static int fragment_exists(const submitter *s, const char *phase, size_t task)
{
	util_buf path = UTIL_BUF_INIT;
	int exists;

	slurm_fragment_path(&path, s->dir, phase, task);
	exists = !util_buf_oom(&path) && access(path.ptr, F_OK) == 0;
	util_buf_dispose(&path);
	return exists;
}

/* A task of phase: done (its fragment is there), active (queued or running),
 * or ended without a fragment (*why, allocated, says how, when Slurm says). */
static task_state state_of(const submitter *s, const char *phase, size_t task, char **why)
{
	const char *job = slurm_jobs_latest(&s->jobs, phase, task);
	const slurm_task_state *st;
	slurm_phase_state judged;

	*why = NULL;
	if (fragment_exists(s, phase, task))
		return TASK_DONE;
	if (!job)
		return TASK_ENDED;
	st = slurm_states_find(&s->states, job, task);
	judged = slurm_state_judge(st, why);
	if (judged == SLURM_ACTIVE)
		return strcmp(st->state, "PENDING") == 0 ? TASK_PENDING : TASK_ACTIVE;
	if (judged == SLURM_DONE) /* completed, yet no fragment: run.sh could not write it */
		return fragment_exists(s, phase, task) ? TASK_DONE : TASK_ENDED;
	if (judged == SLURM_UNKNOWN && !*why) {
		util_buf m = UTIL_BUF_INIT;
		size_t i;

		/* a pending task cancelled before its array was split leaves no
		 * record: the array is listed without it */
		for (i = 0; i < s->states.n && strcmp(s->states.items[i].job, job) != 0; i++)
			;
		if (i < s->states.n)
			util_buf_printf(&m, "slurm: array task %s_%zu cancelled before it started (its array is listed "
					    "without it)", job, task);
		else
			util_buf_printf(&m, "slurm: array task %s_%zu ended without results (the scheduler no longer "
					    "knows it)", job, task);
		*why = util_buf_detach(&m);
	}
	return TASK_ENDED;
}

static const char *phase_name(const submitter *s, size_t p)
{
	return p ? s->plan.targets[p - 1] : "ref";
}

/* --- submitting ------------------------------------------------------------ */

static int sbatch(submitter *s, const char *phase, const size_t *tasks, size_t n, const char *after, char **job)
{
	util_buf array = UTIL_BUF_INIT, chdir_opt = UTIL_BUF_INIT, array_opt = UTIL_BUF_INIT, dep_opt = UTIL_BUF_INIT;
	util_buf script = UTIL_BUF_INIT;
	util_process_result r;
	const char *argv[9];
	size_t a = 0, len;
	int error;

	*job = NULL;
	slurm_array_range(&array, tasks, n);
	util_buf_printf(&chdir_opt, "--chdir=%s", s->dir);
	util_buf_printf(&array_opt, "--array=%s", array.ptr ? array.ptr : "");
	util_buf_printf(&dep_opt, "--dependency=aftercorr:%s", after ? after : "");
	util_buf_printf(&script, "%s/slurm/", s->dir);
	slurm_script_name(&script, phase);
	if (util_buf_oom(&array) || util_buf_oom(&chdir_opt) || util_buf_oom(&array_opt) || util_buf_oom(&dep_opt) ||
	    util_buf_oom(&script)) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	argv[a++] = "sbatch";
	argv[a++] = "--parsable";
	argv[a++] = chdir_opt.ptr;
	argv[a++] = array_opt.ptr; /* the command line's --array wins over the script's */
	if (after) {
		/* task N after task N of the reference; never waiting on one that cannot end well */
		argv[a++] = dep_opt.ptr;
		argv[a++] = "--kill-on-invalid-dep=yes";
	}
	argv[a++] = script.ptr;
	argv[a] = NULL;
	if ((error = slurm_run(&r, s, argv)) < 0) {
		util_process_result_dispose(&r);
		goto done;
	}
	if (r.status != 0) {
		error = util_error_set(UTIL_ERROR, "sbatch %s: exit %d: %.*s", script.ptr, r.status,
				       (int)strcspn(r.err.ptr ? r.err.ptr : "", "\n"), r.err.ptr ? r.err.ptr : "");
	} else if (!r.out.ptr || !(len = strspn(r.out.ptr, "0123456789"))) {
		error = util_error_set(UTIL_ERROR, "sbatch %s: no job id in its output", script.ptr);
	} else if (!(*job = strndup(r.out.ptr, len))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	} else {
		/* kept at once: an interrupted --submit finds the job again */
		error = slurm_jobs_append(s->jobs_path.ptr, phase, *job, array.ptr);
	}
	util_process_result_dispose(&r);
done:
	util_buf_dispose(&array);
	util_buf_dispose(&chdir_opt);
	util_buf_dispose(&array_opt);
	util_buf_dispose(&dep_opt);
	util_buf_dispose(&script);
	return error;
}

/* Whether list ("12:15") names job. */
static int has_job(const char *list, const char *job)
{
	size_t len = strlen(job);
	const char *p = list;

	while (p && *p) {
		if (strncmp(p, job, len) == 0 && (p[len] == ':' || !p[len]))
			return 1;
		p = strchr(p, ':');
		if (p)
			p++;
	}
	return 0;
}

/* Which tasks of each phase to submit: those that ended without a fragment,
 * or were never submitted. A port task runs after the reference task of its
 * number: the one submitted now, or one still queued from before. */
static int submit_unfinished(submitter *s, int quiet)
{
	size_t ntasks = s->plan.ntasks, p, k;
	size_t *tasks = calloc(ntasks + 1, sizeof(*tasks));
	char **ref_active = calloc(ntasks + 1, sizeof(*ref_active));
	char *ref_new = NULL, *job = NULL, *why;
	util_buf after = UTIL_BUF_INIT;
	int error = 0;

	if (!tasks || !ref_active) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (k = 0; k < ntasks; k++) {
		task_state st = state_of(s, "ref", k, &why);

		free(why);
		if (st == TASK_ACTIVE || st == TASK_PENDING)
			ref_active[k] = (char *)slurm_jobs_latest(&s->jobs, "ref", k);
	}
	for (p = 0; p <= s->plan.ntargets && !error; p++) {
		const char *phase = phase_name(s, p);
		size_t n = 0;

		for (k = 0; k < ntasks; k++) {
			if (state_of(s, phase, k, &why) == TASK_ENDED)
				tasks[n++] = k;
			free(why);
		}
		if (!n)
			continue;
		util_buf_clear(&after);
		if (p) {
			if (ref_new)
				util_buf_puts(&after, ref_new);
			for (k = 0; k < n; k++)
				if (ref_active[tasks[k]] && !has_job(after.ptr, ref_active[tasks[k]]))
					util_buf_printf(&after, "%s%s", after.len ? ":" : "", ref_active[tasks[k]]);
		}
		if (util_buf_oom(&after)) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			break;
		}
		if ((error = sbatch(s, phase, tasks, n, after.len ? after.ptr : NULL, &job)) < 0)
			break;
		if (!quiet)
			printf("submitted %s: job %s, %zu array task%s%s%s\n", p ? phase : "the reference", job, n,
			       n == 1 ? "" : "s", after.len ? ", after job " : "", after.len ? after.ptr : "");
		if (!p)
			ref_new = job;
		else
			free(job);
		job = NULL;
	}
	fflush(stdout);
done:
	free(ref_new);
	free(tasks);
	free(ref_active);
	util_buf_dispose(&after);
	return error;
}

/* --- following ------------------------------------------------------------ */

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

typedef struct counts {
	size_t done, running, pending, ended, total;
} counts;

static void count_tasks(const submitter *s, counts *c)
{
	size_t p, k;
	char *why;

	memset(c, 0, sizeof(*c));
	for (p = 0; p <= s->plan.ntargets; p++)
		for (k = 0; k < s->plan.ntasks; k++) {
			switch (state_of(s, phase_name(s, p), k, &why)) {
			case TASK_DONE: c->done++; break;
			case TASK_ACTIVE: c->running++; break;
			case TASK_PENDING: c->pending++; break;
			case TASK_ENDED: c->ended++; break;
			}
			free(why);
			c->total++;
		}
}

/* A bar of the tasks that finished: on a terminal redrawn in place, else a
 * line whenever the counts change. */
static void show_progress(const counts *c, counts *last, int tty)
{
	char bar[31];
	size_t i, filled = c->total ? (c->done + c->ended) * 30 / c->total : 30;

	if (!tty && !memcmp(c, last, sizeof(*c)))
		return;
	*last = *c;
	for (i = 0; i < 30; i++)
		bar[i] = i < filled ? '#' : '-';
	bar[30] = '\0';
	fprintf(stderr, "%s[%s] %zu/%zu tasks done, %zu running, %zu pending, %zu failed%s", tty ? "\r" : "", bar,
		c->done, c->total, c->running, c->pending, c->ended, tty ? "   " : "\n");
	fflush(stderr);
}

static int follow(submitter *s, unsigned poll_seconds, int quiet)
{
	counts c, last;
	int tty = isatty(2), error;
	unsigned waited;

	memset(&last, 0xff, sizeof(last));
	for (;;) {
		if ((error = query_states(s)) < 0)
			return error;
		count_tasks(s, &c);
		if (!quiet)
			show_progress(&c, &last, tty);
		if (!c.running && !c.pending)
			break;
		for (waited = 0; waited < poll_seconds * 10 && !interrupted; waited++) {
			struct timespec ts = { 0, 100000000 };

			nanosleep(&ts, NULL);
		}
		if (interrupted)
			break;
	}
	if (!quiet && tty)
		fputc('\n', stderr);
	return 0;
}

/* Per port target and task, why it left no fragment (NULL where it did). */
static char **failures_of(const submitter *s)
{
	size_t nt = s->plan.ntargets, n = s->plan.ntasks, t, k;
	char **out = calloc(nt * n + 1, sizeof(*out)), *ref_why, *why;

	if (!out)
		return NULL;
	for (k = 0; k < n; k++) {
		task_state ref = state_of(s, "ref", k, &ref_why);

		for (t = 0; t < nt; t++) {
			if (state_of(s, s->plan.targets[t], k, &why) != TASK_ENDED) {
				free(why);
				continue;
			}
			if (ref == TASK_ENDED && ref_why) {
				/* the port's task never ran: its reference did not finish */
				util_buf m = UTIL_BUF_INIT;

				util_buf_printf(&m, "%s (the reference task; the port's did not run)", ref_why);
				free(why);
				why = util_buf_detach(&m);
			}
			out[t * n + k] = why;
		}
		free(ref_why);
	}
	return out;
}

int cmd_check_submit(cmd_context *ctx)
{
	submitter s;
	slurm_config cfg;
	vcs_walk walk;
	util_buf cfg_path = UTIL_BUF_INIT, results = UTIL_BUF_INIT;
	struct sigaction sa, old_sa;
	char *abs = realpath(ctx->submit, NULL), **failures = NULL;
	size_t i;
	int code = CMD_EXIT_OK, error, quiet = ctx->verbosity < 0;

	memset(&s, 0, sizeof(s));
	memset(&cfg, 0, sizeof(cfg));
	memset(&walk, 0, sizeof(walk));
	if (!abs)
		return cmd_fail(CMD_EXIT_USAGE, "check --submit: %s: no such bundle", ctx->submit);
	s.dir = abs;
	/* the settings of the repository we are in (check.slurmHost); outside one, the defaults */
	if (vcs_walk_locate(&walk, ".") == 0 && walk.root)
		util_buf_printf(&cfg_path, "%s.hipport/config", walk.root);
	util_error_clear();
	if ((error = slurm_config_read(&cfg, cfg_path.ptr ? cfg_path.ptr : "")) < 0 ||
	    (error = slurm_plan_load(&s.plan, abs)) < 0) {
		code = cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
		goto done;
	}
	s.host = cfg.host;
	util_buf_printf(&s.jobs_path, "%s/slurm/jobs", abs);
	util_buf_printf(&results, "%s/results.json", abs);
	if (util_buf_oom(&s.jobs_path) || util_buf_oom(&results)) {
		code = cmd_fail(CMD_EXIT_USAGE, "out of memory");
		goto done;
	}
	if ((error = slurm_jobs_read(&s.jobs, s.jobs_path.ptr)) < 0) {
		code = cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
		goto done;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old_sa);
	if ((error = query_states(&s)) < 0 || (error = submit_unfinished(&s, quiet)) < 0) {
		code = cmd_fail(error == UTIL_ETOOLCHAIN ? CMD_EXIT_USAGE : cmd_exit_for(error), "check --submit: %s",
				util_error_last());
		goto restore;
	}
	slurm_jobs_dispose(&s.jobs);
	if ((error = slurm_jobs_read(&s.jobs, s.jobs_path.ptr)) < 0 || (error = follow(&s, cfg.poll_seconds, quiet)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "check --submit: %s", util_error_last());
		goto restore;
	}
	if (interrupted) {
		fprintf(stderr, "hipport: interrupted; the jobs run on (their ids are in %s): hipport check --submit %s "
				"follows them again\n", s.jobs_path.ptr, ctx->submit);
		code = 130;
		goto restore;
	}
	if (!(failures = failures_of(&s))) {
		code = cmd_fail(CMD_EXIT_USAGE, "out of memory");
		goto restore;
	}
	if ((error = slurm_merge(results.ptr, abs, &s.plan, failures)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "check --submit: %s", util_error_last());
		goto restore;
	}
	if (!quiet)
		printf("merged into %s\n", results.ptr);
	fflush(stdout);
	code = cmd_check_import(ctx, results.ptr, abs);
restore:
	sigaction(SIGINT, &old_sa, NULL);
done:
	for (i = 0; failures && i < s.plan.ntargets * s.plan.ntasks; i++)
		free(failures[i]);
	free(failures);
	slurm_states_dispose(&s.states);
	slurm_jobs_dispose(&s.jobs);
	slurm_plan_dispose(&s.plan);
	slurm_config_dispose(&cfg);
	vcs_walk_dispose(&walk);
	util_buf_dispose(&s.jobs_path);
	util_buf_dispose(&results);
	util_buf_dispose(&cfg_path);
	free(abs);
	return code;
}
