#include "vcs/config.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/buf.h"
#include "util/error.h"

static int add_key(const git_config_entry *entry, void *payload)
{
	vcs_config *out = payload;
	char **names = realloc(out->key_names, (out->nkeys + 1) * sizeof(*names));
	char **values;

	if (!names)
		return -1;
	out->key_names = names;
	values = realloc(out->key_values, (out->nkeys + 1) * sizeof(*values));
	if (!values)
		return -1;
	out->key_values = values;
	names[out->nkeys] = strdup(entry->name + 5); /* after "keys." */
	values[out->nkeys] = strdup(entry->value ? entry->value : "");
	if (!names[out->nkeys] || !values[out->nkeys]) {
		free(names[out->nkeys]);
		free(values[out->nkeys]);
		return -1;
	}
	out->nkeys++;
	return 0;
}

/* record.DIR.build and record.DIR.run: a record entry per DIR. */
static int add_record(const git_config_entry *entry, void *payload)
{
	vcs_config *out = payload;
	const char *sub = entry->name + 7, *last = strrchr(entry->name, '.');
	struct vcs_record *r = NULL, *m;
	size_t i, len;

	if (!last || last <= sub)
		return 0;
	len = (size_t)(last - sub);
	for (i = 0; i < out->nrecords; i++)
		if (strlen(out->records[i].dir) == len && !strncmp(out->records[i].dir, sub, len))
			r = &out->records[i];
	if (!r) {
		if (!(m = realloc(out->records, (out->nrecords + 1) * sizeof(*m))))
			return -1;
		out->records = m;
		r = &m[out->nrecords++];
		memset(r, 0, sizeof(*r));
		if (!(r->dir = strndup(sub, len)))
			return -1;
	}
	if (!strcmp(last + 1, "build")) {
		free(r->build);
		return (r->build = strdup(entry->value ? entry->value : "")) ? 0 : -1;
	}
	if (!strcmp(last + 1, "run")) {
		free(r->run);
		return (r->run = strdup(entry->value ? entry->value : "")) ? 0 : -1;
	}
	return 0;
}

int vcs_config_get_string(char **out, git_config *cfg, const char *name, const char *path)
{
	git_buf value = { 0 };
	int rc = git_config_get_string_buf(&value, cfg, name);

	if (rc == GIT_ENOTFOUND)
		return 0;
	if (rc < 0)
		return util_error_set(UTIL_EINPUT, "%s: %s: %s", path, name,
				      git_error_last() ? git_error_last()->message : "cannot read");
	free(*out);
	*out = strdup(value.ptr);
	git_buf_dispose(&value);
	return *out ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
}

/* check.perfBudget: a number above 0 (0.8: 80% of the reference's speed). */
static int perf_budget(double *out, git_config *cfg, const char *path)
{
	char *text = NULL, *end;
	double v;
	int error;

	if ((error = vcs_config_get_string(&text, cfg, "check.perfBudget", path)) < 0 || !text)
		return error;
	v = strtod(text, &end);
	if (end == text || *end || !(v > 0) || v > 100)
		error = util_error_set(UTIL_EINPUT, "%s: check.perfBudget must be a number above 0 (0.8: 80%% of the "
						    "reference's speed), not '%s'",
				       path, text);
	else
		*out = v;
	free(text);
	return error;
}

int vcs_config_read(vcs_config *out, const char *root)
{
	util_buf path = UTIL_BUF_INIT;
	git_config *cfg = NULL;
	struct stat st;
	int error = 0, rc;
	int64_t size;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->check_perf_budget = 0.8;
	util_buf_printf(&path, "%s.hipport/config", root);
	if (util_buf_oom(&path))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (stat(path.ptr, &st) < 0)
		goto done; /* no configuration */
	if (git_config_open_ondisk(&cfg, path.ptr) < 0) {
		error = util_error_set(UTIL_EINPUT, "%s: %s", path.ptr,
				       git_error_last() ? git_error_last()->message : "cannot read");
		goto done;
	}
	if ((error = vcs_config_get_string(&out->scan_suppress, cfg, "scan.suppress", path.ptr)) < 0 ||
	    (error = vcs_config_get_string(&out->check_includes, cfg, "check.includes", path.ptr)) < 0 ||
	    (error = vcs_config_get_string(&out->check_flags, cfg, "check.flags", path.ptr)) < 0 ||
	    (error = vcs_config_get_string(&out->check_command, cfg, "check.command", path.ptr)) < 0 ||
	    (error = vcs_config_get_string(&out->check_offload_arch, cfg, "check.offloadArch", path.ptr)) < 0 ||
	    (error = vcs_config_get_string(&out->port_target_torch, cfg, "port.targetTorch", path.ptr)) < 0 ||
	    (error = vcs_config_get_string(&out->port_single_source, cfg, "port.singleSource", path.ptr)) < 0)
		goto done;
	if ((error = perf_budget(&out->check_perf_budget, cfg, path.ptr)) < 0)
		goto done;
	rc = git_config_get_bool(&out->check_perf_blocks, cfg, "check.perfblocks");
	if (rc < 0 && rc != GIT_ENOTFOUND) {
		error = util_error_set(UTIL_EINPUT, "%s: check.perfBlocks must be true or false", path.ptr);
		goto done;
	}
	rc = git_config_get_int64(&size, cfg, "scan.maxsize");
	if (rc == 0 && size > 0) {
		out->scan_max_size = size;
	} else if (rc == 0 || rc != GIT_ENOTFOUND) {
		error = util_error_set(UTIL_EINPUT, "%s: scan.maxSize must be a positive number of bytes", path.ptr);
		goto done;
	}
	if (git_config_foreach_match(cfg, "^record\\.", add_record, out) < 0 ||
	    git_config_foreach_match(cfg, "^keys\\.", add_key, out) < 0) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < out->nrecords; i++)
		if (!out->records[i].build || !out->records[i].run) {
			error = util_error_set(UTIL_EINPUT, "%s: [record \"%s\"] needs both build and run", path.ptr,
					       out->records[i].dir);
			goto done;
		}
done:
	git_config_free(cfg);
	util_buf_dispose(&path);
	if (error < 0)
		vcs_config_dispose(out);
	return error;
}

void vcs_config_dispose(vcs_config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nkeys; i++) {
		free(cfg->key_names[i]);
		free(cfg->key_values[i]);
	}
	free(cfg->key_names);
	free(cfg->key_values);
	for (i = 0; i < cfg->nrecords; i++) {
		free(cfg->records[i].dir);
		free(cfg->records[i].build);
		free(cfg->records[i].run);
		free(cfg->records[i].origin);
	}
	free(cfg->records);
	free(cfg->scan_suppress);
	free(cfg->check_includes);
	free(cfg->check_flags);
	free(cfg->check_command);
	free(cfg->port_target_torch);
	free(cfg->port_single_source);
	free(cfg->check_offload_arch);
	memset(cfg, 0, sizeof(*cfg));
}
