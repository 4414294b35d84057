#include "check/kernel/draft_record.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"

/* Recorded inputs above this stay out of the spec: the harness embeds them. */
#define RECORD_INPUT_MAX ((size_t)16 << 20)

/* The hash of n zero bytes, without n bytes. */
static uint64_t zero_hash(size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8)
		h *= 0x100000001b3ull;
	for (; i < n; i++)
		h *= 0x100000001b3ull;
	return h;
}

/* The unqualified name of a spec's kernel: what the record logs. */
static const char *short_name(const char *kernel)
{
	const char *c = strrchr(kernel, ':');

	return c ? c + 1 : kernel;
}

static size_t top_args(const chk_rec_launch *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->nargs; i++)
		n += l->args[i].owner < 0;
	return n;
}

static bool usable(const chk_rec_launch *l, const chk_spec *s)
{
	return !l->uncaptured && !strcmp(l->kernel, short_name(s->kernel)) && top_args(l) == s->nargs;
}

/* Whether another spec of the file was drafted from site. */
static bool site_taken(const chk_spec *specs, size_t n, const chk_spec *s, const char *site)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (&specs[i] != s && specs[i].launch && !strcmp(specs[i].launch, site) &&
		    !strcmp(short_name(specs[i].kernel), short_name(s->kernel)))
			return true;
	return false;
}

/* The recorded launch spec s stands for, or NULL. */
static const chk_rec_launch *launch_for(const chk_recording *rec, const chk_spec *specs, size_t n, const chk_spec *s)
{
	size_t i;

	for (i = 0; s->launch && i < rec->n; i++)
		if (usable(&rec->launches[i], s) && !strcmp(rec->launches[i].site, s->launch))
			return &rec->launches[i];
	for (i = 0; i < rec->n; i++)
		if (usable(&rec->launches[i], s) && !site_taken(specs, n, s, rec->launches[i].site))
			return &rec->launches[i];
	return NULL;
}

static char *dim_text(const unsigned d[3])
{
	char *t = NULL;
	int rc;

	if (d[1] == 1 && d[2] == 1)
		rc = asprintf(&t, "%u", d[0]);
	else if (d[2] == 1)
		rc = asprintf(&t, "dim3(%u, %u)", d[0], d[1]);
	else
		rc = asprintf(&t, "dim3(%u, %u, %u)", d[0], d[1], d[2]);
	return rc < 0 ? NULL : t;
}

/* A scalar's recorded bytes as a value of its type: a literal where one
 * spells it exactly, else hp_from_hex<T>("..."), which the harness
 * runtime reads back bit for bit. NULL when the bytes cannot be its value. */
static char *scalar_value(const chk_arg *a, const char *hex)
{
	size_t nb = strlen(hex) / 2, i;
	unsigned char b[16];
	unsigned lanes = 1;
	int d = chk_type_dtype(a->type, &lanes);
	char *v = NULL;
	int rc = -1;

	for (i = 0; i < nb && i < sizeof(b); i++) {
		unsigned x = 0;

		sscanf(hex + 2 * i, "%2x", &x);
		b[i] = (unsigned char)x;
	}
	/* the recorder keeps 16 bytes of a larger struct: not the value */
	if (a->bytes && a->bytes != nb)
		return NULL;
	if (!strcmp(a->type, "bool") && nb == 1)
		return strdup(b[0] ? "true" : "false");
	if (d >= 0 && lanes == 1 && nb == chk_dtype_size((chk_dtype)d)) {
		uint64_t u = 0;

		for (i = nb; i-- > 0;)
			u = u << 8 | b[i];
		switch ((chk_dtype)d) {
		case CHK_I8: case CHK_I16: case CHK_I32: case CHK_I64: {
			int64_t sv = nb == 8 ? (int64_t)u : (int64_t)(u << (64 - 8 * nb)) >> (64 - 8 * nb);

			if (sv == INT64_MIN)
				rc = asprintf(&v, "(-9223372036854775807ll - 1)");
			else
				rc = asprintf(&v, "%" PRId64 "%s", sv, sv > INT32_MAX || sv < INT32_MIN ? "ll" : "");
			break;
		}
		case CHK_U8: case CHK_U16: case CHK_U32: case CHK_U64:
			rc = asprintf(&v, "%" PRIu64 "%s", u, u > INT32_MAX ? "ull" : "");
			break;
		case CHK_F32: {
			float f;
			uint32_t w = (uint32_t)u;

			memcpy(&f, &w, 4);
			if (isfinite(f))
				rc = asprintf(&v, "%.9gf", (double)f);
			break;
		}
		case CHK_F64: {
			double f;

			memcpy(&f, &u, 8);
			if (isfinite(f))
				rc = asprintf(&v, "%.17g", f);
			break;
		}
		default:
			break;
		}
		/* 1f is no literal: 1.0f */
		if (rc >= 0 && (d == CHK_F32 || d == CHK_F64) && !strpbrk(v, ".en")) {
			char *w = NULL;
			size_t len = strlen(v) - (d == CHK_F32);

			rc = asprintf(&w, "%.*s.0%s", (int)len, v, d == CHK_F32 ? "f" : "");
			free(v);
			v = rc < 0 ? NULL : w;
		}
		if (rc >= 0)
			return v;
	}
	rc = asprintf(&v, "hp_from_hex<%s>(\"%s\")", a->type, hex);
	return rc < 0 ? NULL : v;
}

/* The recorded bytes arg i of launch l held before it ran: its own
 * allocation after the launch when the launch did not change it, else the
 * allocation an earlier launch left with the same hash. *zero when they
 * are all zero. NULL when no file holds them. */
static const char *input_file(const chk_recording *rec, const chk_rec_launch *l, const chk_rec_arg *a, bool *zero)
{
	size_t i, k;

	*zero = a->before == zero_hash(a->bytes);
	if (*zero)
		return NULL;
	if (a->file[0] && a->before == a->after)
		return a->file;
	/* the latest launch before l that left them */
	for (i = (size_t)(l - rec->launches); i-- > 0;)
		for (k = rec->launches[i].nargs; k-- > 0;) {
			const chk_rec_arg *e = &rec->launches[i].args[k];

			if (e->kind == CHK_REC_POINTER && e->file[0] && e->bytes == a->bytes && e->after == a->before)
				return e->file;
		}
	return NULL;
}

/* Whether path's content hashes to h: a file the log names is what it says. */
static bool file_matches(const char *path, size_t bytes, uint64_t h)
{
	util_buf data = UTIL_BUF_INIT;
	bool ok = util_file_read(&data, path, bytes + 1) == 0 && data.len == bytes &&
		  chk_rec_hash((const unsigned char *)(data.ptr ? data.ptr : ""), data.len) == h;

	util_buf_dispose(&data);
	util_error_clear();
	return ok;
}

static int set(char **field, const char *value)
{
	char *v = strdup(value);

	if (!v)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	free(*field);
	*field = v;
	return 0;
}

/* The comment's part before what the draft said of its launch. */
static void keep_header(chk_spec *s)
{
	char *cut;

	if (!s->comment)
		return;
	if ((cut = strstr(s->comment, "\nDrafted from the launch")) || (cut = strstr(s->comment, "\nNo launch of this kernel")))
		*cut = '\0';
}

static int apply_one(chk_spec *s, const chk_recording *rec, const chk_rec_launch *l)
{
	util_buf notes = UTIL_BUF_INIT, guessed = UTIL_BUF_INIT, path = UTIL_BUF_INIT;
	size_t i, same = 0, k;
	char *t;
	int error = 0;

	for (k = 0; k < rec->n; k++)
		same += !strcmp(rec->launches[k].kernel, l->kernel) && !strcmp(rec->launches[k].site, l->site);
	if (!(t = dim_text(l->grid)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	free(s->grid);
	s->grid = t;
	if (!(t = dim_text(l->block)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	free(s->block);
	s->block = t;
	free(s->shared);
	if (asprintf(&s->shared, "%zu", l->shared) < 0)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = set(&s->launch, l->site)) < 0)
		return error;
	keep_header(s);
	util_buf_printf(&notes, "\nDrafted from the recorded launch %llu of %s at %s", l->seq, l->kernel, l->site);
	if (same > 1)
		util_buf_printf(&notes, " (the first of %zu there)", same);
	util_buf_printf(&notes, ",\nin %s/launches.log: grid, block, shared memory, the scalars' bytes, the\n"
				"buffers' sizes and the bytes they held before the launch, as the program ran.",
			rec->dir);
	if (l->launch_status || l->sync_status)
		util_buf_printf(&notes, "\n- the launch failed in the program (status %d, %d)", l->launch_status, l->sync_status);
	for (i = 0, k = 0; i < l->nargs && k < s->nargs; i++) {
		const chk_rec_arg *r = &l->args[i];
		chk_arg *a = &s->args[k];
		size_t fields = 0, j;

		if (r->owner >= 0)
			continue;
		k++;
		for (j = 0; j < l->nargs; j++)
			fields += l->args[j].owner == (int)i;
		if (a->role == CHK_ROLE_SCALAR) {
			char *v;

			if (r->kind != CHK_REC_SCALAR) {
				util_buf_printf(&guessed, " %s", a->name);
				continue;
			}
			if (fields) {
				/* the recorder zeroes the pointers it finds in a struct */
				util_buf_printf(&notes, "\n- %s: holds %zu device pointer%s, which a spec cannot give: drafted",
						a->name, fields, fields == 1 ? "" : "s");
				util_buf_printf(&guessed, " %s", a->name);
				continue;
			}
			if (!(v = scalar_value(a, r->hex))) {
				util_buf_printf(&notes, "\n- %s: %zu bytes recorded of its %zu: drafted", a->name,
						strlen(r->hex) / 2, a->bytes);
				util_buf_printf(&guessed, " %s", a->name);
				continue;
			}
			free(a->value);
			a->value = v;
			chk_spec_unmark(s, "arg", a->name, "value");
			continue;
		}
		if (r->kind != CHK_REC_POINTER) {
			util_buf_printf(&notes, "\n- %s: %s: drafted", a->name,
					r->kind == CHK_REC_SAME ? "points into the allocation of an earlier argument, which a "
								  "spec cannot share"
					: r->kind == CHK_REC_UNKNOWN ? "not device memory the driver knows (host memory or NULL)"
								     : "a scalar in the record");
			util_buf_printf(&guessed, " %s", a->name);
			continue;
		}
		{
			size_t elem = chk_dtype_size(a->dtype) * a->lanes;
			const char *file;
			bool zero;

			if (!elem || r->bytes % elem || r->offset % elem) {
				util_buf_printf(&notes, "\n- %s: %zu bytes at offset %zu are not whole %s elements: drafted",
						a->name, r->bytes, r->offset, a->type);
				util_buf_printf(&guessed, " %s", a->name);
				continue;
			}
			free(a->count);
			if (asprintf(&a->count, "%zu", r->bytes / elem) < 0)
				return util_error_set(UTIL_ENOMEM, "out of memory");
			chk_spec_unmark(s, "arg", a->name, "count");
			free(a->offset);
			a->offset = NULL;
			if (r->offset && asprintf(&a->offset, "%zu", r->offset / elem) < 0)
				return util_error_set(UTIL_ENOMEM, "out of memory");
			/* the kernel changed it: compared, whatever const said */
			if (r->before != r->after && a->role == CHK_ROLE_IN)
				a->role = CHK_ROLE_INOUT;
			file = input_file(rec, l, r, &zero);
			util_buf_clear(&path);
			if (file)
				util_buf_printf(&path, "%s/%s", rec->dir, file);
			if (zero) {
				a->init = CHK_INIT_CONSTANT;
				a->init_a = a->init_b = 0;
			} else if (file && r->bytes <= RECORD_INPUT_MAX && file_matches(path.ptr, r->bytes, r->before)) {
				a->init = CHK_INIT_FILE;
				if ((error = set(&a->init_from, path.ptr)) < 0)
					return error;
			} else {
				const char *why = file ? (r->bytes > RECORD_INPUT_MAX ? "above the 16 MiB a harness embeds"
										     : "its file does not hold what was hashed")
						       : "not recorded (the launch changed them and no earlier launch left them)";

				util_buf_clear(&path);
				util_buf_printf(&path, "the bytes it held before the launch are %s: init drafted", why);
				if (chk_spec_mark(s, "arg", a->name, "init", path.ptr) < 0)
					return util_error_set(UTIL_ENOMEM, "out of memory");
			}
		}
	}
	if (k < s->nargs)
		util_buf_printf(&notes, "\n- the record has %zu arguments for %zu parameters", k, s->nargs);
	free(s->guessed);
	s->guessed = guessed.len ? strdup(guessed.ptr + 1) : NULL;
	{
		util_buf c = UTIL_BUF_INIT;

		util_buf_printf(&c, "%s%s", s->comment ? s->comment : "", notes.ptr ? notes.ptr : "");
		free(s->comment);
		s->comment = util_buf_detach(&c);
	}
	error = util_buf_oom(&notes) || util_buf_oom(&guessed) || !s->comment ? util_error_set(UTIL_ENOMEM, "out of memory")
									     : 0;
	util_buf_dispose(&notes);
	util_buf_dispose(&guessed);
	util_buf_dispose(&path);
	return error;
}

int chk_record_apply(chk_spec *specs, size_t n, const chk_recording *rec)
{
	size_t i;
	int error = 0;

	for (i = 0; i < n && error == 0; i++) {
		const chk_rec_launch *l = launch_for(rec, specs, n, &specs[i]);

		if (l)
			error = apply_one(&specs[i], rec, l);
	}
	return error;
}

int chk_draft_write(chk_spec *spec, const char *path)
{
	const char *slash = strrchr(path, '/');
	util_buf to = UTIL_BUF_INIT, data = UTIL_BUF_INIT;
	size_t i;
	int error = 0;

	for (i = 0; i < spec->nargs && error == 0; i++) {
		chk_arg *a = &spec->args[i];

		if (a->init != CHK_INIT_FILE || !a->init_from)
			continue;
		free(a->init_file);
		a->init_file = NULL;
		if (asprintf(&a->init_file, "inputs/%s/%s.bin", spec->name, a->name) < 0)
			return util_error_set(UTIL_ENOMEM, "out of memory");
		util_buf_clear(&to);
		util_buf_printf(&to, "%.*s%s%s", slash ? (int)(slash - path + 1) : 0, path, "", a->init_file);
		util_buf_clear(&data);
		if (util_buf_oom(&to))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
		else if ((error = util_file_read(&data, a->init_from, RECORD_INPUT_MAX + 1)) == 0 &&
			 (error = util_file_make_parents(to.ptr)) == 0)
			error = util_file_write_atomic(to.ptr, data.ptr ? data.ptr : "", data.len);
		if (error == 0 && (error = set(&a->init_path, to.ptr)) == 0)
			continue;
	}
	util_buf_dispose(&to);
	util_buf_dispose(&data);
	return error < 0 ? error : chk_spec_write(spec, path);
}
