/* The merge of a bundle's Slurm fragments into one results.json, in the
 * format of run.sh's (docs/checks.md), so the same import records it. A
 * task that left no fragment is reported, never dropped: each of its checks
 * is an `error` with what the scheduler said. */
#include "check/slurm/slurm.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/file.h"

static const char *platform_of(const char *target)
{
	return strcmp(target, "nvidia-proxy") == 0 ? "nvidia-proxy" : "amd";
}

/* The error result of a check whose task did not finish. */
static json_t *unfinished(const bundle_item *it, const char *target, const char *message)
{
	json_t *c = json_object();

	if (!c)
		return NULL;
	json_object_set_new(c, "name", json_string(it->name));
	json_object_set_new(c, "source", json_string(it->source));
	json_object_set_new(c, "kernel", json_string(it->kernel));
	json_object_set_new(c, "status", json_string("error"));
	json_object_set_new(c, "platform", json_string(platform_of(target)));
	json_object_set_new(c, "arch", json_string(""));
	json_object_set_new(c, "device", json_string(""));
	json_object_set_new(c, "message", json_string(message));
	json_object_set_new(c, "errors", json_array());
	json_object_set_new(c, "port_blob", json_string(it->port_blob));
	json_object_set_new(c, "target", json_string(target));
	return c;
}

/* Appends the checks of one fragment, named NAME@TARGET when asked. */
static int take_fragment(json_t *checks, const char *path, const char *target, int suffix)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr), *list, *c;
	size_t i;
	int error = 0;

	if (!root)
		return util_error_set(UTIL_EINPUT, "%s: not valid JSON: %s", path, jerr.text);
	list = json_object_get(root, "checks");
	if (!json_is_array(list)) {
		json_decref(root);
		return util_error_set(UTIL_EINPUT, "%s: no \"checks\" array", path);
	}
	json_array_foreach(list, i, c) {
		const char *name = json_string_value(json_object_get(c, "name"));

		if (!json_is_object(c) || !name) {
			error = util_error_set(UTIL_EINPUT, "%s: checks[%zu] lacks its name", path, i);
			break;
		}
		if (suffix) {
			util_buf n = UTIL_BUF_INIT;

			util_buf_printf(&n, "%s@%s", name, target);
			if (util_buf_oom(&n)) {
				error = util_error_set(UTIL_ENOMEM, "out of memory");
				break;
			}
			json_object_set_new(c, "name", json_string(n.ptr));
			util_buf_dispose(&n);
		}
		json_array_append(checks, c);
	}
	json_decref(root);
	return error;
}

int slurm_merge(const char *out_path, const char *dir, const slurm_plan *plan, char *const *failures)
{
	json_t *root = json_object(), *checks = json_array();
	util_buf path = UTIL_BUF_INIT;
	char *text = NULL;
	size_t t, task, i, from, to;
	int error = 0;

	if (!root || !checks) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (t = 0; t < plan->ntargets && !error; t++) {
		const char *target = plan->targets[t];

		for (task = 0; task < plan->ntasks && !error; task++) {
			const char *why = failures ? failures[t * plan->ntasks + task] : NULL;

			util_buf_clear(&path);
			slurm_fragment_path(&path, dir, target, task);
			if (util_buf_oom(&path)) {
				error = util_error_set(UTIL_ENOMEM, "out of memory");
			} else if (access(path.ptr, F_OK) == 0) {
				error = take_fragment(checks, path.ptr, target, plan->ntargets > 1);
			} else if (slurm_task_items(&from, &to, task, plan->group_size, plan->nitems)) {
				for (i = from; i <= to && i < plan->nchecks && !error; i++) {
					util_buf n = UTIL_BUF_INIT;
					bundle_item it = plan->items[i];
					json_t *c;

					util_buf_puts(&n, it.name);
					if (plan->ntargets > 1)
						util_buf_printf(&n, "@%s", target);
					it.name = n.ptr;
					if (util_buf_oom(&n) ||
					    !(c = unfinished(&it, target, why ? why : "slurm: the array task left no results "
										     "(it did not run or did not finish)")))
						error = util_error_set(UTIL_ENOMEM, "out of memory");
					else
						json_array_append_new(checks, c);
					util_buf_dispose(&n);
				}
			}
		}
	}
	if (error)
		goto done;
	json_object_set_new(root, "schema", json_string("hipport-check-results"));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "bundle", json_string(plan->bundle_id ? plan->bundle_id : ""));
	json_object_set_new(root, "port_platform", json_string(platform_of(plan->targets[0])));
	json_object_set(root, "checks", checks);
	if (!(text = json_dumps(root, JSON_INDENT(1)))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	error = util_file_write_atomic(out_path, text, strlen(text));
done:
	free(text);
	json_decref(checks);
	json_decref(root);
	util_buf_dispose(&path);
	return error;
}
