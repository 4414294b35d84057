#include "check/toolchain/compile.h"

#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"
#include "util/process.h"

bool tc_compile_is_header(const char *path)
{
	static const char *const headers[] = { ".h", ".hpp", ".hh", ".hxx", ".cuh", ".inl", ".inc", NULL };
	const char *dot = strrchr(path, '.');
	size_t i;

	for (i = 0; dot && headers[i]; i++)
		if (strcmp(dot, headers[i]) == 0)
			return true;
	return false;
}

void tc_compile_result_dispose(tc_compile_result *r)
{
	size_t i;

	for (i = 0; i < r->ndiags; i++) {
		free(r->diags[i].file);
		free(r->diags[i].severity);
		free(r->diags[i].message);
	}
	free(r->diags);
	free(r->summary);
	free(r->output);
	memset(r, 0, sizeof(*r));
}

static const char *const severities[] = { "fatal error", "error", "warning", "note", NULL };

/* "FILE:LINE:COL: SEVERITY: MESSAGE" (clang's form); false for other lines. */
static bool parse_line(const char *line, size_t len, tc_diagnostic *d)
{
	const char *end = line + len, *p;
	size_t i;

	/* the first ":LINE:COL: " from the left: file names may hold ':' rarely, digits never follow it so */
	for (p = line; p < end; p++) {
		const char *q = p + 1;
		unsigned long ln, col;
		char *stop;

		if (*p != ':' || q >= end || *q < '0' || *q > '9')
			continue;
		ln = strtoul(q, &stop, 10);
		if (stop >= end || *stop != ':' || stop[1] < '0' || stop[1] > '9')
			continue;
		col = strtoul(stop + 1, &stop, 10);
		if (stop + 1 >= end || stop[0] != ':' || stop[1] != ' ')
			continue;
		for (i = 0; severities[i]; i++) {
			size_t n = strlen(severities[i]);

			if ((size_t)(end - (stop + 2)) > n + 1 && memcmp(stop + 2, severities[i], n) == 0 && stop[2 + n] == ':')
				break;
		}
		if (!severities[i])
			return false;
		d->file = strndup(line, (size_t)(p - line));
		d->line = (unsigned)ln;
		d->col = (unsigned)col;
		d->severity = strdup(severities[i]);
		q = stop + 2 + strlen(severities[i]) + 1;
		while (q < end && *q == ' ')
			q++;
		d->message = strndup(q, (size_t)(end - q));
		return true;
	}
	return false;
}

int tc_compile_parse(tc_diagnostic **out, size_t *n, const char *output, const char *fs_path)
{
	const char *line = output, *base = strrchr(fs_path, '/');
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	base = base ? base + 1 : fs_path;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		tc_diagnostic d;

		memset(&d, 0, sizeof(d));
		if (parse_line(line, len, &d)) {
			const char *dbase = d.file ? strrchr(d.file, '/') : NULL;

			if (!d.file || !d.severity || !d.message) {
				free(d.file);
				free(d.severity);
				free(d.message);
				return util_error_set(UTIL_ENOMEM, "out of memory");
			}
			dbase = dbase ? dbase + 1 : d.file;
			d.in_file = strcmp(d.file, fs_path) == 0 ||
				    (strcmp(dbase, base) == 0 && (d.file[0] != '/' || fs_path[0] != '/'));
			if (*n == cap) {
				tc_diagnostic *m = realloc(*out, (cap = cap ? cap * 2 : 8) * sizeof(*m));

				if (!m) {
					free(d.file);
					free(d.severity);
					free(d.message);
					return util_error_set(UTIL_ENOMEM, "out of memory");
				}
				*out = m;
			}
			(*out)[(*n)++] = d;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* The cache key: every input that decides the result. */
static void cache_key(char out[41], const tc_compile_options *o, const char *blob, bool header)
{
	util_buf b = UTIL_BUF_INIT;
	git_oid oid;
	size_t i;

	util_buf_printf(&b, "hipport-compile 1\n%s\n%s\n%s\n%s\n%s\n%d\n%s", blob, o->hipcc,
			o->compiler_version ? o->compiler_version : "", o->arch,
			o->sources_digest ? o->sources_digest : "", header, o->resources ? "resources\n" : "");
	if (o->max_threads)
		util_buf_printf(&b, "max-threads %d\n", o->max_threads);
	for (i = 0; i < o->nflags; i++)
		util_buf_printf(&b, "%s\n", o->flags[i]);
	git_odb_hash(&oid, b.ptr ? b.ptr : "", b.len, GIT_OBJECT_BLOB);
	git_oid_tostr(out, 41, &oid);
	util_buf_dispose(&b);
}

static char *cache_path(const tc_compile_options *o, const char *key)
{
	util_buf b = UTIL_BUF_INIT;

	util_buf_printf(&b, "%s/%s.json", o->cache_dir, key);
	return util_buf_detach(&b);
}

/* A result kept earlier: 1 when found. */
static int cache_load(tc_compile_result *out, const tc_compile_options *o, const char *key)
{
	char *path = cache_path(o, key);
	json_t *root = path ? json_load_file(path, 0, NULL) : NULL;
	const char *status = root ? json_string_value(json_object_get(root, "status")) : NULL;
	const char *output = root ? json_string_value(json_object_get(root, "output")) : NULL;
	const char *summary = root ? json_string_value(json_object_get(root, "summary")) : NULL;
	int found = 0;

	free(path);
	if (status && output && summary && (strcmp(status, "pass") == 0 || strcmp(status, "fail") == 0)) {
		out->status = strcmp(status, "pass") == 0 ? "pass" : "fail";
		out->output = strdup(output);
		out->summary = strdup(summary);
		out->cached = true;
		found = out->output && out->summary ? 1 : util_error_set(UTIL_ENOMEM, "out of memory");
	}
	json_decref(root);
	return found;
}

/* Only what the compiler decided is kept: a timeout or a crash may pass next time. */
static void cache_store(const tc_compile_result *r, const tc_compile_options *o, const char *key)
{
	char *path = cache_path(o, key), *text;
	json_t *root = json_pack("{s:s, s:s, s:s}", "status", r->status, "summary", r->summary, "output", r->output);

	if (path && root && (text = json_dumps(root, JSON_INDENT(1)))) {
		if (util_file_make_parents(path) < 0 || util_file_write_fast(path, text, strlen(text)) < 0)
			util_error_clear(); /* a cache that cannot be written is no error */
		free(text);
	}
	json_decref(root);
	free(path);
}

static char *summary_of(const tc_compile_result *r, const util_process_result *p, const tc_compile_options *o)
{
	util_buf b = UTIL_BUF_INIT;
	size_t i;

	for (i = 0; i < r->ndiags; i++)
		if (strstr(r->diags[i].severity, "error")) {
			util_buf_printf(&b, "%s:%u:%u: %s: %s", r->diags[i].file, r->diags[i].line, r->diags[i].col,
					r->diags[i].severity, r->diags[i].message);
			return util_buf_detach(&b);
		}
	if (p->timed_out)
		util_buf_printf(&b, "hipcc timed out after %d s", o->timeout_ms / 1000);
	else if (p->signal)
		util_buf_printf(&b, "hipcc was killed by signal %d", p->signal);
	else if (p->not_found)
		util_buf_printf(&b, "%s could not be run", o->hipcc);
	else if (p->status != 0)
		util_buf_printf(&b, "hipcc exited with %d", p->status);
	else
		util_buf_printf(&b, "compiled for %s", o->arch);
	return util_buf_detach(&b);
}

static int skipped(tc_compile_result *out, const char *why)
{
	out->status = "skipped";
	out->summary = strdup(why);
	out->output = strdup("");
	return out->summary && out->output ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
}

int tc_compile_file(tc_compile_result *out, const tc_compile_options *o, const char *fs_path, const char *blob)
{
	bool header = tc_compile_is_header(fs_path);
	const char **argv;
	char key[41], object[4096], arch_flag[128], bound_flag[48];
	util_process_result p;
	size_t n = 0, i;
	int fd, error;

	memset(out, 0, sizeof(*out));
	if (!o->hipcc)
		return skipped(out, "no hipcc found: install ROCm's hipcc (hipport doctor says where it looked)");
	if (!o->arch)
		return skipped(out, "no offload arch: give --offload-arch, set check.offloadArch, or run on the GPU");
	if (!o->arch_known) {
		util_buf b = UTIL_BUF_INIT;

		util_buf_printf(&b, "the installed compiler (clang %s) does not know %s: a newer ROCm does",
				o->compiler_version ? o->compiler_version : "?", o->arch);
		error = skipped(out, b.ptr ? b.ptr : "");
		util_buf_dispose(&b);
		return error;
	}
	cache_key(key, o, blob, header);
	if (o->cache_dir && (error = cache_load(out, o, key)) != 0) {
		if (error < 0)
			return error;
		return tc_compile_parse(&out->diags, &out->ndiags, out->output, fs_path);
	}
	snprintf(object, sizeof(object), "%s/hipport-compile-XXXXXX.o",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!header && ((fd = mkstemps(object, 2)) < 0 || close(fd) < 0))
		return util_error_set(UTIL_ERROR, "cannot make a temporary file in %s", object);
	if (!(argv = calloc(o->nflags + 14, sizeof(*argv)))) {
		if (!header)
			unlink(object);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	snprintf(arch_flag, sizeof(arch_flag), "--offload-arch=%s", o->arch);
	argv[n++] = o->hipcc;
	argv[n++] = arch_flag;
	for (i = 0; i < o->nflags; i++)
		argv[n++] = o->flags[i];
	/* HIP 6.2 to 6.4 declare the _sync warp builtins a port calls only with it (7.0 always) */
	argv[n++] = "-DHIP_ENABLE_WARP_SYNC_BUILTINS";
	argv[n++] = "-fno-color-diagnostics"; /* what is parsed has no escapes */
	argv[n++] = "-x";
	argv[n++] = "hip";
	/* each kernel's registers, spills, LDS and occupancy, as remarks (check/perf/resources.h) */
	if (!header && o->resources)
		argv[n++] = "-Rpass-analysis=kernel-resource-usage";
	/* what a kernel without __launch_bounds__ would be given with this bound */
	if (o->max_threads) {
		snprintf(bound_flag, sizeof(bound_flag), "--gpu-max-threads-per-block=%d", o->max_threads);
		argv[n++] = bound_flag;
	}
	argv[n++] = header ? "-fsyntax-only" : "-c";
	argv[n++] = fs_path;
	if (!header) {
		argv[n++] = "-o";
		argv[n++] = object;
	}
	error = util_process_run_watched(&p, argv, o->timeout_ms, o->watch, o->payload);
	free(argv);
	if (!header)
		unlink(object);
	if (error < 0)
		return error;
	util_buf_put(&p.err, "", 0);
	{
		util_buf all = UTIL_BUF_INIT;

		util_buf_printf(&all, "%s%s", p.out.ptr ? p.out.ptr : "", p.err.ptr ? p.err.ptr : "");
		out->output = util_buf_detach(&all);
	}
	if (!out->output || (error = tc_compile_parse(&out->diags, &out->ndiags, out->output, fs_path)) < 0) {
		util_process_result_dispose(&p);
		return out->output ? error : util_error_set(UTIL_ENOMEM, "out of memory");
	}
	out->status = p.timed_out || p.signal || p.not_found ? "error" : p.status == 0 ? "pass" : "fail";
	/* an exit status without any error line is the compiler's trouble, not the code's */
	if (strcmp(out->status, "fail") == 0) {
		for (i = 0; i < out->ndiags && !strstr(out->diags[i].severity, "error"); i++)
			;
		if (i == out->ndiags)
			out->status = "error";
	}
	out->summary = summary_of(out, &p, o);
	util_process_result_dispose(&p);
	if (!out->summary)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (o->cache_dir && strcmp(out->status, "error") != 0)
		cache_store(out, o, key);
	return 0;
}
