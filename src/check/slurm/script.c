/* The sbatch scripts of a bundle (slurm/ref.sbatch, slurm/port-TARGET.sbatch)
 * and the plan they were written for. Each array task runs run.sh on its
 * group of items in its own work directory and writes its own fragment, so
 * nothing two tasks write can collide. */
#include "check/slurm/slurm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/bundle/bundle.h"
#include "util/error.h"
#include "util/file.h"

int slurm_script(util_buf *out, const slurm_config *cfg, const slurm_plan *plan, const char *target)
{
	const char *phase = target ? target : "ref";
	const char *partition = target && strcmp(target, "nvidia-proxy") != 0
					? cfg->partition
					: (cfg->nvidia_partition ? cfg->nvidia_partition : cfg->partition);
	size_t i;

	util_buf_puts(out, "#!/bin/sh\n");
	if (target)
		util_buf_printf(out, "# hipport bundle %s: the port's checks for %s, each compared with the reference\n"
				     "# task of the same number (slurm/refs), which it runs after.\n", plan->bundle_id, target);
	else
		util_buf_printf(out, "# hipport bundle %s: the reference checks, the original CUDA source built\n"
				     "# by nvcc and run on NVIDIA; their outputs go to slurm/refs.\n", plan->bundle_id);
	util_buf_printf(out, "# An array task per group of up to %u of the bundle's %zu items (docs/checks.md, \"Slurm\").\n",
			plan->group_size, plan->nitems);
	util_buf_printf(out, "#SBATCH --job-name=hipport-%s\n", phase);
	util_buf_printf(out, "#SBATCH --array=0-%zu\n", plan->ntasks ? plan->ntasks - 1 : 0);
	util_buf_puts(out, "#SBATCH --ntasks=1\n");
	if (cfg->gpus_per_task)
		util_buf_printf(out, "#SBATCH --gpus-per-task=%u\n", cfg->gpus_per_task);
	util_buf_printf(out, "#SBATCH --time=%u\n", slurm_time_minutes(plan, cfg->build_seconds));
	if (partition)
		util_buf_printf(out, "#SBATCH --partition=%s\n", partition);
	if (cfg->account)
		util_buf_printf(out, "#SBATCH --account=%s\n", cfg->account);
	if (cfg->qos)
		util_buf_printf(out, "#SBATCH --qos=%s\n", cfg->qos);
	util_buf_printf(out, "#SBATCH --output=slurm/log/%s-%%a.out\n", phase);
	for (i = 0; i < cfg->nextra; i++)
		util_buf_printf(out, "#SBATCH %s\n", cfg->extra[i]);
	for (i = 0; i < cfg->nsetup; i++)
		util_buf_printf(out, "%s\n", cfg->setup[i]);
	util_buf_puts(out, "task=${SLURM_ARRAY_TASK_ID:?hipport: not a Slurm array task}\n");
	util_buf_printf(out, "from=$((task * %u))\n", plan->group_size);
	util_buf_printf(out, "to=$((from + %u))\n", plan->group_size - 1);
	util_buf_printf(out, "[ \"$to\" -lt %zu ] || to=%zu\n", plan->nitems, plan->nitems ? plan->nitems - 1 : 0);
	util_buf_printf(out, "mkdir -p slurm/fragments/%s slurm/refs slurm/work/%s || exit 2\n", phase, phase);
	if (!target)
		util_buf_puts(out, "HIPPORT_PHASE=ref ");
	else if (strcmp(target, "nvidia-proxy") == 0)
		util_buf_printf(out, "HIPPORT_PHASE=port PORT_PLATFORM=nvidia-proxy HIPPORT_RECORD_PORT=%s ",
				strcmp(target, plan->targets[0]) == 0 ? "port" : "port-nvidia-proxy");
	else
		util_buf_printf(out, "HIPPORT_PHASE=port PORT_PLATFORM=amd OFFLOAD_ARCH=%s HIPPORT_RECORD_PORT=%s%s ", target,
				strcmp(target, plan->targets[0]) == 0 ? "port" : "port-",
				strcmp(target, plan->targets[0]) == 0 ? "" : target);
	util_buf_printf(out, "HIPPORT_REFS=slurm/refs HIPPORT_ITEMS=$from-$to \\\n"
			     "\tHIPPORT_WORK=slurm/work/%s/$task HIPPORT_RESULTS=slurm/fragments/%s/$task.json \\\n"
			     "\texec sh ./run.sh\n", phase, phase);
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}

static int put(const char *dir, const char *name, const util_buf *text)
{
	util_buf path = UTIL_BUF_INIT;
	int error;

	util_buf_printf(&path, "%s/%s", dir, name);
	error = util_buf_oom(&path) ? util_error_set(UTIL_ENOMEM, "out of memory")
				    : util_file_write_atomic(path.ptr, text->ptr ? text->ptr : "", text->len);
	util_buf_dispose(&path);
	return error;
}

static int make_dir(const char *dir, const char *name)
{
	util_buf path = UTIL_BUF_INIT;
	int error = 0;

	util_buf_printf(&path, "%s/%s", dir, name);
	if (util_buf_oom(&path))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else if (mkdir(path.ptr, 0777) < 0 && errno != EEXIST)
		error = util_error_set(UTIL_ERROR, "%s: cannot make it: %s", path.ptr, strerror(errno));
	util_buf_dispose(&path);
	return error;
}

int slurm_write(const char *dir, const slurm_config *cfg, const slurm_plan *plan)
{
	util_buf tmp = UTIL_BUF_INIT, final = UTIL_BUF_INIT, text = UTIL_BUF_INIT, name = UTIL_BUF_INIT;
	size_t i;
	int error;

	util_buf_printf(&tmp, "%s/slurm.tmp", dir);
	util_buf_printf(&final, "%s/slurm", dir);
	if (util_buf_oom(&tmp) || util_buf_oom(&final)) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	if ((error = bundle_remove_tree(tmp.ptr)) < 0 || (error = make_dir(dir, "slurm.tmp")) < 0 ||
	    (error = make_dir(tmp.ptr, "log")) < 0 || (error = make_dir(tmp.ptr, "fragments")) < 0)
		goto done;
	util_buf_printf(&text, "groupSize=%u\ntargets=", plan->group_size);
	for (i = 0; i < plan->ntargets; i++)
		util_buf_printf(&text, "%s%s", i ? " " : "", plan->targets[i]);
	util_buf_puts(&text, "\n");
	if ((error = put(tmp.ptr, "plan", &text)) < 0)
		goto done;
	for (i = 0; i <= plan->ntargets && !error; i++) {
		const char *target = i ? plan->targets[i - 1] : NULL;

		util_buf_clear(&text);
		util_buf_clear(&name);
		slurm_script_name(&name, target ? target : "ref");
		if ((error = slurm_script(&text, cfg, plan, target)) == 0)
			error = util_buf_oom(&name) ? util_error_set(UTIL_ENOMEM, "out of memory") : put(tmp.ptr, name.ptr, &text);
	}
	if (error < 0 || (error = bundle_remove_tree(final.ptr)) < 0)
		goto done;
	if (rename(tmp.ptr, final.ptr) < 0)
		error = util_error_set(UTIL_ERROR, "%s: cannot put it in place: %s", final.ptr, strerror(errno));
done:
	if (error < 0 && tmp.ptr)
		bundle_remove_tree(tmp.ptr);
	util_buf_dispose(&tmp);
	util_buf_dispose(&final);
	util_buf_dispose(&text);
	util_buf_dispose(&name);
	return error;
}
