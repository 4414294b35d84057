/* The plan of a bundle's Slurm arrays: its items (checks, then record
 * runs) in groups, one array task per group, the same grouping for the
 * reference and every target so that task N of a port array depends on
 * task N of the reference array (aftercorr). */
#include "check/slurm/slurm.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/file.h"

size_t slurm_task_count(size_t n, unsigned group)
{
	return group ? (n + group - 1) / group : 0;
}

int slurm_task_items(size_t *from, size_t *to, size_t task, unsigned group, size_t n)
{
	if (!group || task >= slurm_task_count(n, group))
		return 0;
	*from = task * group;
	*to = *from + group - 1 < n ? *from + group - 1 : n - 1;
	return 1;
}

void slurm_array_range(util_buf *out, const size_t *tasks, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t k = i;

		while (k + 1 < n && tasks[k + 1] == tasks[k] + 1)
			k++;
		util_buf_printf(out, "%s%zu", i ? "," : "", tasks[i]);
		if (k > i)
			util_buf_printf(out, "-%zu", tasks[k]);
		i = k + 1;
	}
}

static int add_task(size_t **tasks, size_t *n, size_t t)
{
	size_t *m = realloc(*tasks, (*n + 1) * sizeof(*m));

	if (!m)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	*tasks = m;
	m[(*n)++] = t;
	return 0;
}

int slurm_array_parse(size_t **tasks, size_t *n, const char *text)
{
	const char *p = text;
	int error = 0;

	*tasks = NULL;
	*n = 0;
	while (*p && *p != '%' && !error) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a, step = 1, t;

		if (end == p || *p == '-')
			goto bad;
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1 || b < a || b - a > 1000000)
				goto bad;
			p = end;
		}
		if (*p == ':') {
			step = strtoul(p + 1, &end, 10);
			if (end == p + 1 || !step)
				goto bad;
			p = end;
		}
		for (t = a; t <= b && !error; t += step)
			error = add_task(tasks, n, t);
		if (*p == ',')
			p++;
		else if (*p && *p != '%')
			goto bad;
	}
	if (!error && *n)
		return 0;
	if (error)
		goto out;
bad:
	error = util_error_set(UTIL_EINPUT, "'%s' is not an array task list", text);
out:
	free(*tasks);
	*tasks = NULL;
	*n = 0;
	return error;
}

static int read_items(slurm_plan *out, const char *dir)
{
	bundle_list list;
	int error;

	if ((error = bundle_list_read(&list, dir)) < 0)
		return error;
	out->items = list.items;
	out->nitems = list.nitems;
	out->nchecks = list.nchecks;
	out->bundle_id = list.bundle_id;
	if (!out->nitems)
		return util_error_set(UTIL_EINPUT, "%s/checks.list: the bundle has no checks", dir);
	return 0;
}

static int add_target(slurm_plan *out, const char *t, size_t len)
{
	char **m = realloc(out->targets, (out->ntargets + 1) * sizeof(*m));

	if (!m)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	out->targets = m;
	return (m[out->ntargets++] = strndup(t, len)) ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
}

int slurm_plan_make(slurm_plan *out, const char *dir, const slurm_config *cfg, const char *default_target)
{
	size_t i;
	int error;

	memset(out, 0, sizeof(*out));
	out->group_size = cfg->group_size ? cfg->group_size : SLURM_GROUP_SIZE;
	if ((error = read_items(out, dir)) < 0)
		goto done;
	for (i = 0; i < cfg->ntargets && !error; i++)
		error = add_target(out, cfg->targets[i], strlen(cfg->targets[i]));
	if (!cfg->ntargets && !error)
		error = add_target(out, default_target, strlen(default_target));
	out->ntasks = slurm_task_count(out->nitems, out->group_size);
done:
	if (error < 0)
		slurm_plan_dispose(out);
	return error;
}

int slurm_plan_load(slurm_plan *out, const char *dir)
{
	util_buf path = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	const char *g, *t;
	int error;

	memset(out, 0, sizeof(*out));
	util_buf_printf(&path, "%s/slurm/plan", dir);
	if (util_buf_oom(&path))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (util_file_read(&text, path.ptr, 1u << 20) < 0) {
		error = util_error_set(UTIL_EINPUT, "%s: cannot read it: write the bundle with hipport check --bundle %s "
				       "--slurm", path.ptr, dir);
		goto done;
	}
	g = strstr(text.ptr ? text.ptr : "", "groupSize=");
	t = strstr(text.ptr ? text.ptr : "", "targets=");
	if (!g || !t || (out->group_size = (unsigned)strtoul(g + 10, NULL, 10)) == 0) {
		error = util_error_set(UTIL_EINPUT, "%s: expected groupSize= and targets= lines", path.ptr);
		goto done;
	}
	for (t += 8, error = 0; *t && *t != '\n' && !error;) {
		size_t len = strcspn(t, " \n");

		if (len)
			error = add_target(out, t, len);
		t += len;
		if (*t == ' ')
			t++;
	}
	if (!error && !out->ntargets)
		error = util_error_set(UTIL_EINPUT, "%s: no targets", path.ptr);
	if (!error && (error = read_items(out, dir)) == 0)
		out->ntasks = slurm_task_count(out->nitems, out->group_size);
done:
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	if (error < 0)
		slurm_plan_dispose(out);
	return error;
}

void slurm_plan_dispose(slurm_plan *plan)
{
	bundle_list list = {
		.items = plan->items, .nitems = plan->nitems, .nchecks = plan->nchecks, .bundle_id = plan->bundle_id
	};
	size_t i;

	bundle_list_dispose(&list);
	for (i = 0; i < plan->ntargets; i++)
		free(plan->targets[i]);
	free(plan->targets);
	memset(plan, 0, sizeof(*plan));
}

unsigned slurm_time_minutes(const slurm_plan *plan, unsigned build_seconds)
{
	unsigned long most = 0;
	size_t task, i, from, to;

	for (task = 0; slurm_task_items(&from, &to, task, plan->group_size, plan->nitems); task++) {
		unsigned long secs = 0;

		for (i = from; i <= to; i++)
			secs += plan->items[i].record ? 2ul * build_seconds + SLURM_RECORD_SECONDS
						      : build_seconds + 3ul * plan->items[i].timeout;
		if (secs > most)
			most = secs;
	}
	return (unsigned)((most + 59) / 60) + 1;
}

void slurm_script_name(util_buf *out, const char *phase)
{
	if (strcmp(phase, "ref") == 0)
		util_buf_puts(out, "ref.sbatch");
	else
		util_buf_printf(out, "port-%s.sbatch", phase);
}

void slurm_fragment_path(util_buf *out, const char *dir, const char *phase, size_t task)
{
	util_buf_printf(out, "%s/slurm/fragments/%s/%zu.json", dir, phase, task);
}
