/* The plan of a bundle's Slurm arrays: its items (checks, then record
 * runs) in groups, one array task per group, the same grouping for the
 * reference and every target so that task N of a port array depends on
 * task N of the reference array (aftercorr). */
#include "check/slurm.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/file.h"

size_t chk_slurm_task_count(size_t n, unsigned group)
{
	return group ? (n + group - 1) / group : 0;
}

int chk_slurm_task_items(size_t *from, size_t *to, size_t task, unsigned group, size_t n)
{
	if (!group || task >= chk_slurm_task_count(n, group))
		return 0;
	*from = task * group;
	*to = *from + group - 1 < n ? *from + group - 1 : n - 1;
	return 1;
}

void chk_slurm_array_range(util_buf *out, const size_t *tasks, size_t n)
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

int chk_slurm_array_parse(size_t **tasks, size_t *n, const char *text)
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

/* The next tab-separated field of *p (up to the end of the line). */
static char *field(const char **p)
{
	size_t len = strcspn(*p, "\t\n");
	char *f = strndup(*p, len);

	*p += len;
	if (**p == '\t')
		(*p)++;
	return f;
}

static int read_list(chk_slurm_plan *out, const char *dir, const char *name, int record)
{
	util_buf path = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	const char *p;
	int error;

	util_buf_printf(&path, "%s/%s", dir, name);
	if (util_buf_oom(&path))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = util_file_read(&text, path.ptr, 64u << 20)) < 0) {
		if (record) { /* bundles without record runs */
			util_error_clear();
			error = 0;
		} else {
			error = util_error_set(UTIL_EINPUT, "%s: cannot read it: is %s a bundle (hipport check --bundle)?",
					       path.ptr, dir);
		}
		goto done;
	}
	for (p = text.ptr ? text.ptr : ""; *p && !error;) {
		const char *line = p, *eol = strchr(p, '\n');
		chk_slurm_item *m, *it;
		char *timeout = NULL, *orig = NULL;

		p = eol ? eol + 1 : line + strlen(line);
		if (*line == '\n' || *line == '\t')
			continue;
		if (!(m = realloc(out->items, (out->nitems + 1) * sizeof(*m)))) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			break;
		}
		out->items = m;
		it = &m[out->nitems++];
		memset(it, 0, sizeof(*it));
		it->record = record;
		it->name = field(&line);
		if (!record) {
			it->source = field(&line);
			it->kernel = field(&line);
			timeout = field(&line);
			orig = field(&line);
			it->port_blob = field(&line);
			if (!it->name || !it->source || !it->kernel || !timeout || !orig || !it->port_blob)
				error = util_error_set(UTIL_ENOMEM, "out of memory");
			else if (!*it->source || (it->timeout = (unsigned)strtoul(timeout, NULL, 10)) == 0)
				error = util_error_set(UTIL_EINPUT, "%s: the line of %s does not read (NAME, source, kernel, "
						       "timeout, blob ids)", path.ptr, it->name);
		} else if (!it->name) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
		}
		free(timeout);
		free(orig);
	}
done:
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	return error;
}

static int read_bundle_id(chk_slurm_plan *out, const char *dir)
{
	util_buf path = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	const char *id;
	int error;

	util_buf_printf(&path, "%s/bundle.conf", dir);
	if (util_buf_oom(&path))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = util_file_read(&text, path.ptr, 1u << 20)) < 0)
		error = util_error_set(UTIL_EINPUT, "%s: cannot read it: is %s a bundle (hipport check --bundle)?", path.ptr,
				       dir);
	else if (!(id = strstr(text.ptr ? text.ptr : "", "BUNDLE_ID=")))
		error = util_error_set(UTIL_EINPUT, "%s: no BUNDLE_ID", path.ptr);
	else if (!(out->bundle_id = strndup(id + 10, strcspn(id + 10, "\n"))))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	return error;
}

static int read_items(chk_slurm_plan *out, const char *dir)
{
	int error;

	if ((error = read_bundle_id(out, dir)) < 0 || (error = read_list(out, dir, "checks.list", 0)) < 0)
		return error;
	out->nchecks = out->nitems;
	if ((error = read_list(out, dir, "records.list", 1)) < 0)
		return error;
	if (!out->nitems)
		return util_error_set(UTIL_EINPUT, "%s/checks.list: the bundle has no checks", dir);
	return 0;
}

static int add_target(chk_slurm_plan *out, const char *t, size_t len)
{
	char **m = realloc(out->targets, (out->ntargets + 1) * sizeof(*m));

	if (!m)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	out->targets = m;
	return (m[out->ntargets++] = strndup(t, len)) ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
}

int chk_slurm_plan_make(chk_slurm_plan *out, const char *dir, const chk_slurm_config *cfg, const char *default_target)
{
	size_t i;
	int error;

	memset(out, 0, sizeof(*out));
	out->group_size = cfg->group_size ? cfg->group_size : CHK_SLURM_GROUP_SIZE;
	if ((error = read_items(out, dir)) < 0)
		goto done;
	for (i = 0; i < cfg->ntargets && !error; i++)
		error = add_target(out, cfg->targets[i], strlen(cfg->targets[i]));
	if (!cfg->ntargets && !error)
		error = add_target(out, default_target, strlen(default_target));
	out->ntasks = chk_slurm_task_count(out->nitems, out->group_size);
done:
	if (error < 0)
		chk_slurm_plan_dispose(out);
	return error;
}

int chk_slurm_plan_load(chk_slurm_plan *out, const char *dir)
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
		out->ntasks = chk_slurm_task_count(out->nitems, out->group_size);
done:
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	if (error < 0)
		chk_slurm_plan_dispose(out);
	return error;
}

void chk_slurm_plan_dispose(chk_slurm_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nitems; i++) {
		free(plan->items[i].name);
		free(plan->items[i].source);
		free(plan->items[i].kernel);
		free(plan->items[i].port_blob);
	}
	free(plan->items);
	for (i = 0; i < plan->ntargets; i++)
		free(plan->targets[i]);
	free(plan->targets);
	free(plan->bundle_id);
	memset(plan, 0, sizeof(*plan));
}

unsigned chk_slurm_time_minutes(const chk_slurm_plan *plan, unsigned build_seconds)
{
	unsigned long most = 0;
	size_t task, i, from, to;

	for (task = 0; chk_slurm_task_items(&from, &to, task, plan->group_size, plan->nitems); task++) {
		unsigned long secs = 0;

		for (i = from; i <= to; i++)
			secs += plan->items[i].record ? 2ul * build_seconds + CHK_SLURM_RECORD_SECONDS
						      : build_seconds + 3ul * plan->items[i].timeout;
		if (secs > most)
			most = secs;
	}
	return (unsigned)((most + 59) / 60) + 1;
}

void chk_slurm_script_name(util_buf *out, const char *phase)
{
	if (strcmp(phase, "ref") == 0)
		util_buf_puts(out, "ref.sbatch");
	else
		util_buf_printf(out, "port-%s.sbatch", phase);
}

void chk_slurm_fragment_path(util_buf *out, const char *dir, const char *phase, size_t task)
{
	util_buf_printf(out, "%s/slurm/fragments/%s/%zu.json", dir, phase, task);
}
