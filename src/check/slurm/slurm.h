/* Kernel checks on a Slurm cluster (docs/checks.md, "Slurm"): the [slurm]
 * settings, the plan of array tasks over a bundle's items, the sbatch
 * scripts, the scheduler's states and the merge of the tasks' results
 * fragments. Slurm schedules; hipport only writes scripts for it, submits
 * them and reads what it says. Nothing here prints or runs a process. */
#ifndef HIPPORT_CHECK_SLURM_H
#define HIPPORT_CHECK_SLURM_H

#include <stddef.h>

#include "check/bundle/bundle_list.h"
#include "util/buf.h"

#define SLURM_GROUP_SIZE 4
#define SLURM_BUILD_SECONDS 300
#define SLURM_POLL_SECONDS 10
#define SLURM_RECORD_SECONDS 600

/* [slurm] of .hipport/config (and check.slurmHost). */
typedef struct slurm_config {
	char *partition;        /* slurm.partition: the port tasks' (and the reference's without the next) */
	char *nvidia_partition; /* slurm.nvidiaPartition: the reference tasks' */
	char *account, *qos;    /* slurm.account, slurm.qos */
	char **extra;           /* slurm.extra (each value one line after #SBATCH) */
	size_t nextra;
	char **setup;           /* slurm.setup (each value one shell line before run.sh: module load ...) */
	size_t nsetup;
	char **targets;         /* slurm.targets: gfx90a gfx942 nvidia-proxy; none: the bundle's arch */
	size_t ntargets;
	unsigned group_size;    /* slurm.groupSize: items per array task */
	unsigned gpus_per_task; /* slurm.gpusPerTask: 1, or 0 where the cluster has no GPU gres */
	unsigned build_seconds; /* slurm.buildSeconds: one build, for the time limit */
	unsigned poll_seconds;  /* slurm.pollSeconds: between looks at the queue */
	char *host;             /* check.slurmHost: the login host that runs sbatch, over ssh */
} slurm_config;

/* Reads path (.hipport/config; a missing file gives the defaults). A bad value
 * is UTIL_EINPUT naming the file and the key. */
int slurm_config_read(slurm_config *out, const char *path);
void slurm_config_dispose(slurm_config *cfg);


typedef struct slurm_plan {
	bundle_item *items; /* checks first, then records: run.sh's HIPPORT_ITEMS order */
	size_t nitems, nchecks;
	unsigned group_size;
	size_t ntasks;         /* array tasks per target: ceil(nitems / group_size) */
	char **targets;        /* the port's targets */
	size_t ntargets;
	char *bundle_id;
} slurm_plan;

/* Array tasks for n items in groups of group (0 for none). */
size_t slurm_task_count(size_t n, unsigned group);
/* The items [*from, *to] of task (inclusive); 0 when the task has none. */
int slurm_task_items(size_t *from, size_t *to, size_t task, unsigned group, size_t n);
/* tasks (ascending) as Slurm's --array list, ranges joined: "0-3,5,7-8". */
void slurm_array_range(util_buf *out, const size_t *tasks, size_t n);
/* Parses an --array list ("0-3,5", "1-7:2", "0-9%4") into *tasks (allocated). */
int slurm_array_parse(size_t **tasks, size_t *n, const char *text);

/* The plan of bundle dir: its checks.list, records.list and bundle.conf,
 * with cfg's group size and targets (default_target when it names none). */
int slurm_plan_make(slurm_plan *out, const char *dir, const slurm_config *cfg, const char *default_target);
/* The plan a bundle's slurm/plan recorded when its scripts were written. */
int slurm_plan_load(slurm_plan *out, const char *dir);
void slurm_plan_dispose(slurm_plan *plan);
/* The time limit of a target's tasks in minutes: the longest group's
 * builds (build_seconds each) and three runs of each check's timeout. */
unsigned slurm_time_minutes(const slurm_plan *plan, unsigned build_seconds);

/* The sbatch script of the reference (target NULL) or of a port target. */
int slurm_script(util_buf *out, const slurm_config *cfg, const slurm_plan *plan, const char *target);
/* Writes dir/slurm/ (the scripts and the plan) whole: built aside, then put
 * in place, so a failure leaves what was there before. */
int slurm_write(const char *dir, const slurm_config *cfg, const slurm_plan *plan);

/* What the scheduler says of one array task. */
typedef enum slurm_phase_state {
	SLURM_ACTIVE,   /* pending, running, completing */
	SLURM_DONE,     /* completed */
	SLURM_FAILED,   /* cancelled, timed out, node failure, failed ... */
	SLURM_UNKNOWN   /* the scheduler no longer knows it */
} slurm_phase_state;

typedef struct slurm_task_state {
	char *job;       /* the array's job id */
	size_t task;
	char *state;     /* the scheduler's word: RUNNING, CANCELLED, ... */
	char *reason;    /* its reason or exit code, or "" */
} slurm_task_state;

typedef struct slurm_states {
	slurm_task_state *items;
	size_t n;
} slurm_states;

/* sacct -n -P -X -o JobID,State,ExitCode output ("12_3|CANCELLED by 0|0:15"). */
int slurm_states_parse_sacct(slurm_states *out, const char *text);
/* scontrol -o show job output: a line per job record (ArrayJobId=, ArrayTaskId=,
 * JobState=, Reason=, ExitCode=); a pending record of several tasks gives each. */
int slurm_states_parse_scontrol(slurm_states *out, const char *text);
/* squeue -h -r -o '%A|%K|%T|%r' output. */
int slurm_states_parse_squeue(slurm_states *out, const char *text);
const slurm_task_state *slurm_states_find(const slurm_states *s, const char *job, size_t task);
void slurm_states_dispose(slurm_states *s);
/* The state word as ACTIVE, DONE or FAILED; for FAILED, *message (allocated)
 * says what happened, as a check's error message. */
slurm_phase_state slurm_state_judge(const slurm_task_state *st, char **message);

/* slurm/jobs: a line per submission, "PHASE JOBID TASKS" (PHASE ref or a
 * target, TASKS an --array list); a later line's tasks replace earlier ones. */
typedef struct slurm_job {
	char *phase, *job;
	size_t *tasks;
	size_t ntasks;
} slurm_job;

typedef struct slurm_jobs {
	slurm_job *items;
	size_t n;
} slurm_jobs;

/* Parses the file's text; a line that does not read is UTIL_EINPUT naming path. */
int slurm_jobs_parse(slurm_jobs *out, const char *text, const char *path);
int slurm_jobs_read(slurm_jobs *out, const char *path);
/* The job that last took task of phase, or NULL. */
const char *slurm_jobs_latest(const slurm_jobs *jobs, const char *phase, size_t task);
/* Appends a line to path, atomically (the whole file rewritten). */
int slurm_jobs_append(const char *path, const char *phase, const char *job, const char *tasks);
void slurm_jobs_dispose(slurm_jobs *jobs);

/* The script of phase in dir/slurm/: ref.sbatch for "ref", else port-PHASE.sbatch. */
void slurm_script_name(util_buf *out, const char *phase);

/* Where a task's fragment is: dir/slurm/fragments/PHASE/TASK.json. */
void slurm_fragment_path(util_buf *out, const char *dir, const char *phase, size_t task);

/* Merges the port targets' fragments of dir into results.json at out_path:
 * a task without a fragment gives an `error` for each of its checks, with
 * failures[target * ntasks + task] as the message (or a default). Names get
 * @TARGET when there are several targets. Written atomically. */
int slurm_merge(const char *out_path, const char *dir, const slurm_plan *plan, char *const *failures);

#endif
