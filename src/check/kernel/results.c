#include "check/kernel/results.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"

static const char *const statuses[] = { "pass", "fail", "error", "no-device", "skipped", NULL };
static const char *const platforms[] = { "amd", "nvidia", "nvidia-proxy", "none", NULL };

static int one_of(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

int chk_status_valid(const char *status)
{
	return one_of(status, statuses);
}

void chk_results_dispose(chk_results *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		rv_session_check_dispose(&r->checks[i]);
	free(r->checks);
	free(r->times);
	free(r->bundle);
	memset(r, 0, sizeof(*r));
}

static char *dup_or_empty(json_t *v)
{
	return strdup(json_is_string(v) ? json_string_value(v) : "");
}

int chk_results_read(chk_results *out, const char *path)
{
	json_error_t jerr;
	json_t *root, *checks, *c;
	size_t i;
	int error = 0;

	memset(out, 0, sizeof(*out));
	if (!(root = json_load_file(path, 0, &jerr))) {
		if (jerr.line > 0)
			return util_error_set(UTIL_EINPUT, "%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column,
					      jerr.text);
		return util_error_set(UTIL_EINPUT, "%s: %s", path, jerr.text);
	}
	checks = json_object_get(root, "checks");
	if (!json_is_object(root) || !json_is_string(json_object_get(root, "schema")) ||
	    strcmp(json_string_value(json_object_get(root, "schema")), "hipport-check-results") != 0) {
		error = util_error_set(UTIL_EINPUT, "%s: not hipport check results (no \"schema\": \"hipport-check-results\")",
				       path);
		goto done;
	}
	if (json_integer_value(json_object_get(root, "version")) != 1 || !json_is_array(checks)) {
		error = util_error_set(UTIL_EINPUT, "%s: expected version 1 and a \"checks\" array", path);
		goto done;
	}
	out->bundle = dup_or_empty(json_object_get(root, "bundle"));
	if (!(out->checks = calloc(json_array_size(checks) + 1, sizeof(*out->checks))) ||
	    !(out->times = calloc(json_array_size(checks) + 1, sizeof(*out->times)))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	json_array_foreach(checks, i, c) {
		rv_session_check *r = &out->checks[out->n];
		const char *name = json_string_value(json_object_get(c, "name"));
		const char *source = json_string_value(json_object_get(c, "source"));
		const char *status = json_string_value(json_object_get(c, "status"));
		const char *platform = json_string_value(json_object_get(c, "platform"));
		const char *blob = json_string_value(json_object_get(c, "port_blob"));

		if (!json_is_object(c) || !name || !*name || !source || !*source) {
			error = util_error_set(UTIL_EINPUT, "%s: checks[%zu] lacks its name or source", path, i);
			goto done;
		}
		if (!one_of(status, statuses)) {
			error = util_error_set(UTIL_EINPUT, "%s: check %s: status '%s' is not pass, fail, error, no-device or skipped",
					       path, name, status ? status : "(none)");
			goto done;
		}
		if (!one_of(platform, platforms)) {
			error = util_error_set(UTIL_EINPUT, "%s: check %s: platform '%s' is not amd, nvidia or nvidia-proxy",
					       path, name, platform ? platform : "(none)");
			goto done;
		}
		if (!blob || strlen(blob) != 40 || strspn(blob, "0123456789abcdef") != 40) {
			error = util_error_set(UTIL_EINPUT, "%s: check %s: port_blob is not a blob id", path, name);
			goto done;
		}
		if (perf_timing_read(&out->times[out->n], json_object_get(c, "time")) < 0) {
			error = util_error_set(UTIL_EINPUT, "%s: check %s: %s", path, name, util_error_last());
			goto done;
		}
		memcpy(r->port, blob, 41);
		r->path = strdup(source);
		r->name = strdup(name);
		r->status = strdup(status);
		r->platform = strdup(platform);
		r->arch = dup_or_empty(json_object_get(c, "arch"));
		r->message = dup_or_empty(json_object_get(c, "message"));
		out->n++;
		if (!r->path || !r->name || !r->status || !r->platform || !r->arch || !r->message) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			goto done;
		}
	}
done:
	json_decref(root);
	if (error < 0)
		chk_results_dispose(out);
	return error;
}

/* A name for a message: a long one cut, with its length said. */
static void shown(util_buf *out, const char *name)
{
	size_t len = strlen(name);

	util_buf_clear(out);
	if (len <= 80)
		util_buf_puts(out, name);
	else
		util_buf_printf(out, "%.60s... (%zu characters)", name, len);
}

static size_t known_check(const chk_results_known *known, const char *name)
{
	const char *at = strrchr(name, '@');
	size_t i;

	for (i = 0; i < known->n; i++)
		if (strcmp(known->names[i], name) == 0)
			return i;
	for (i = 0; at && i < known->n; i++)
		if (strlen(known->names[i]) == (size_t)(at - name) && strncmp(known->names[i], name, (size_t)(at - name)) == 0)
			return i;
	return SIZE_MAX;
}

int chk_results_match(const chk_results *r, const char *path, const chk_results_known *known)
{
	util_buf name = UTIL_BUF_INIT;
	size_t i, k;
	int error = 0;

	for (i = 0; i < r->n && !error; i++) {
		const rv_session_check *c = &r->checks[i];

		shown(&name, c->name);
		if ((k = known_check(known, c->name)) == SIZE_MAX)
			error = util_error_set(UTIL_EINPUT, "%s: checks[%zu] (%s): no check of that name was bundled; "
					       "nothing recorded", path, i, name.ptr ? name.ptr : "");
		else if (strcmp(known->sources[k], c->path) != 0)
			error = util_error_set(UTIL_EINPUT, "%s: checks[%zu] (%s): its source is not %s, the check's; "
					       "nothing recorded", path, i, name.ptr ? name.ptr : "", known->sources[k]);
		else if (!util_file_inside(known->files, c->path))
			error = util_error_set(UTIL_EINPUT, "%s: checks[%zu] (%s): its source %s is no file of %s; "
					       "nothing recorded", path, i, name.ptr ? name.ptr : "", known->sources[k],
					       known->files);
	}
	util_buf_dispose(&name);
	return error;
}
