#include "check/kernel/launch_log.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"

static int bad_line(const char *dir, unsigned line, const char *what)
{
	return util_error_set(UTIL_EINPUT, "%s/launches.log:%u: %s", dir, line, what);
}

/* An "arg ..." line of launch l: 0, -1 when it does not read, -2 out of memory. */
static int parse_arg(chk_rec_launch *l, const char *text)
{
	chk_rec_arg a, *m;
	unsigned idx;
	char kind[16], rest[320];
	int n = 0;

	memset(&a, 0, sizeof(a));
	a.owner = -1;
	if (sscanf(text, "arg %u %15s %15s %n", &idx, kind, a.dtype, &n) < 3 || idx != l->nargs)
		return -1;
	snprintf(rest, sizeof(rest), "%s", text + n);
	rest[strcspn(rest, "\r\n")] = '\0';
	if (!strcmp(kind, "scalar")) {
		a.kind = CHK_REC_SCALAR;
		if (strlen(rest) >= sizeof(a.hex) || strspn(rest, "0123456789abcdef") != strlen(rest) || strlen(rest) % 2)
			return -1;
		memcpy(a.hex, rest, strlen(rest) + 1);
	} else if (!strcmp(kind, "pointer") && !strcmp(rest, "unknown")) {
		a.kind = CHK_REC_UNKNOWN;
	} else if (!strcmp(kind, "pointer") && !strncmp(rest, "same ", 5)) {
		a.kind = CHK_REC_SAME;
		if (sscanf(rest + 5, "%u %zu", &a.same, &a.offset) != 2)
			return -1;
	} else if (!strcmp(kind, "pointer")) {
		uint64_t before, after;
		unsigned owner;
		const char *in;

		a.kind = CHK_REC_POINTER;
		if (sscanf(rest, "%zu %zu %" SCNx64 " %" SCNx64 " %63s", &a.offset, &a.bytes, &before, &after, a.file) != 5)
			return -1;
		a.before = before;
		a.after = after;
		/* a file of the run's directory, never a path elsewhere */
		if (!strcmp(a.file, "-") || strchr(a.file, '/') || a.file[0] == '.')
			a.file[0] = '\0';
		if ((in = strstr(rest, " in ")) && sscanf(in + 4, "%u+%zu", &owner, &a.at) == 2)
			a.owner = (int)owner;
	} else {
		return -1;
	}
	if (!(m = realloc(l->args, (l->nargs + 1) * sizeof(*m))))
		return -2;
	l->args = m;
	m[l->nargs++] = a;
	return 0;
}

/* What record.sh leaves beside a run's log: cut, platform. */
static int read_marks(chk_recording *out, const char *dir)
{
	util_buf path = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	int error = 0;

	util_buf_printf(&path, "%s/cut", dir);
	if (util_buf_oom(&path))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else
		out->cut = access(path.ptr, F_OK) == 0;
	util_buf_clear(&path);
	util_buf_printf(&path, "%s/platform", dir);
	if (!error && util_buf_oom(&path))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else if (!error && util_file_read(&text, path.ptr, 256) == 0)
		snprintf(out->platform, sizeof(out->platform), "%.*s", (int)strcspn(text.ptr, " \t\r\n"), text.ptr);
	else if (!error)
		util_error_clear(); /* a run of the original has none */
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	return error;
}

/* The fields of a "launch" line into l; false when it is none. The site
 * is __FILE__:__LINE__, whose path may hold spaces ("demo/stencil
 * code/stencil.cu:222"): it runs up to the last " grid ". */
static bool launch_line(chk_rec_launch *l, const char *line)
{
	const char *site, *grid = NULL, *p;
	int at = 0;
	size_t n;

	if (sscanf(line, "launch %llu %127s %n", &l->seq, l->kernel, &at) != 2 || !at)
		return false;
	site = line + at;
	for (p = site; (p = strstr(p, " grid ")); p++)
		grid = p;
	if (!grid || (n = (size_t)(grid - site)) == 0 || n >= sizeof(l->site))
		return false;
	memcpy(l->site, site, n);
	l->site[n] = '\0';
	return sscanf(grid, " grid %u %u %u block %u %u %u shared %zu status %d %d", &l->grid[0], &l->grid[1],
		      &l->grid[2], &l->block[0], &l->block[1], &l->block[2], &l->shared, &l->launch_status,
		      &l->sync_status) == 9;
}

int chk_recording_read(chk_recording *out, const char *dir)
{
	util_buf path = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	char *line, *next;
	unsigned lineno = 0;
	int error = 0;

	memset(out, 0, sizeof(*out));
	util_buf_printf(&path, "%s/launches.log", dir);
	if (util_buf_oom(&path) || !(out->dir = strdup(dir))) {
		util_buf_dispose(&path);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	if ((error = util_file_read(&text, path.ptr, (size_t)1 << 30)) < 0)
		goto done;
	for (line = text.ptr; line && *line && error == 0; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!*line)
			continue;
		if (!strncmp(line, "launch ", 7)) {
			chk_rec_launch *m = realloc(out->launches, (out->n + 1) * sizeof(*m)), *l;

			if (!m) {
				error = util_error_set(UTIL_ENOMEM, "out of memory");
				break;
			}
			out->launches = m;
			l = &m[out->n];
			memset(l, 0, sizeof(*l));
			if (!launch_line(l, line)) {
				error = bad_line(dir, lineno, "not a launch line");
				break;
			}
			l->uncaptured = strstr(line, " uncaptured") != NULL;
			/* " time US": what it took, where the run timed it */
			{
				const char *t = strstr(line, " time ");
				char *end;

				l->time_us = t ? strtod(t + 6, &end) : -1;
				if (t && (end == t + 6 || l->time_us < 0)) {
					error = bad_line(dir, lineno, "a launch's time is not a number of microseconds");
					break;
				}
			}
			out->n++;
		} else if (!strncmp(line, "printed ", 8) && out->n) {
			chk_rec_launch *l = &out->launches[out->n - 1];
			unsigned long long h;

			if (sscanf(line, "printed %zu %llx %63s", &l->printed, &h, l->printed_file) != 3) {
				error = bad_line(dir, lineno, "not a printed line");
				break;
			}
			l->printed_hash = h;
			if (!strcmp(l->printed_file, "-"))
				l->printed_file[0] = '\0';
		} else if (!strncmp(line, "arg ", 4) && out->n) {
			int rc = parse_arg(&out->launches[out->n - 1], line);

			if (rc == -2)
				error = util_error_set(UTIL_ENOMEM, "out of memory");
			else if (rc < 0)
				error = bad_line(dir, lineno, "not an argument of the launch before");
		} else {
			error = bad_line(dir, lineno, "neither a launch, an argument nor a printed line");
		}
	}
	if (!error)
		error = read_marks(out, dir);
done:
	util_buf_dispose(&path);
	util_buf_dispose(&text);
	if (error < 0)
		chk_recording_dispose(out);
	return error;
}

void chk_recording_dispose(chk_recording *rec)
{
	size_t i;

	for (i = 0; i < rec->n; i++)
		free(rec->launches[i].args);
	free(rec->launches);
	free(rec->dir);
	memset(rec, 0, sizeof(*rec));
}

char *chk_rec_file_read(const char *dir, const char *file, size_t bytes)
{
	util_buf path = UTIL_BUF_INIT, data = UTIL_BUF_INIT;
	char *p = NULL;

	util_buf_printf(&path, "%s/%s", dir, file);
	if (file[0] && !util_buf_oom(&path) && util_file_read(&data, path.ptr, bytes + 1) == 0 && data.len == bytes &&
	    !util_buf_oom(&data))
		p = util_buf_detach(&data);
	else
		util_error_clear();
	util_buf_dispose(&path);
	util_buf_dispose(&data);
	return p;
}

uint64_t chk_rec_hash(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}
