#include "check/tune/tune.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"

#define TREE_MARK "/trees/port/"

static char *dup_str(const json_t *v, const char *fallback)
{
	return strdup(json_is_string(v) ? json_string_value(v) : fallback);
}

static bool identifier(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 255 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

static double row_time(const json_t *row, const char *key)
{
	const json_t *ms = json_object_get(row, key);

	return json_is_number(ms) ? json_number_value(ms) : 0;
}

static double row_ms(const json_t *row)
{
	return row_time(row, "ms");
}

static bool row_ok(const json_t *row)
{
	const json_t *s = json_object_get(row, "status");

	return json_is_string(s) && strcmp(json_string_value(s), "ok") == 0;
}

/* The options of one kernel's best config, with the program's values. */
static int take_options(tune_kernel *k, const json_t *entry)
{
	const json_t *best = json_object_get(entry, "best"), *program = json_object_get(entry, "program"),
		     *given = json_object_get(entry, "given"), *v;
	const char *key;

	if (!json_is_object(best))
		return 0;
	if (!(k->options = calloc(json_object_size(best) + 1, sizeof(*k->options))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	json_object_foreach((json_t *)best, key, v) {
		tune_option *o = &k->options[k->noptions];
		const json_t *p = json_object_get(program, key);

		if (!json_is_integer(v) || !identifier(key))
			continue;
		if (!(o->name = strdup(key)))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		o->best = (long)json_integer_value(v);
		o->program = json_is_integer(p) ? (long)json_integer_value(p) : o->best;
		o->given = json_object_get(given, key) != NULL;
		k->noptions++;
	}
	return 0;
}

/* Launch options, not constexprs: what a triton.Config takes as keywords. */
static bool launch_option(const char *key)
{
	static const char *const options[] = { "num_warps", "num_stages", "num_ctas", "maxnreg", "waves_per_eu",
					       "matrix_instr_nonkdim", "kpack", "num_buffers_warp_spec",
					       "num_consumer_groups", "reg_dec_producer", "reg_inc_consumer", NULL };
	size_t i;

	for (i = 0; options[i]; i++)
		if (strcmp(key, options[i]) == 0)
			return true;
	return false;
}

/* The constexprs of an autotuner's chosen config as a Python dict literal. */
static char *autotuned_dict(const json_t *chosen)
{
	util_buf b = UTIL_BUF_INIT;
	const char *key, *sep = "";
	const json_t *v;

	util_buf_putc(&b, '{');
	json_object_foreach((json_t *)chosen, key, v) {
		if (launch_option(key) || !identifier(key))
			continue;
		if (json_is_integer(v))
			util_buf_printf(&b, "%s\"%s\": %lld", sep, key, (long long)json_integer_value(v));
		else if (json_is_real(v))
			util_buf_printf(&b, "%s\"%s\": %.17g", sep, key, json_real_value(v));
		else if (json_is_boolean(v))
			util_buf_printf(&b, "%s\"%s\": %s", sep, key, json_is_true(v) ? "True" : "False");
		else
			continue; /* a string or a dtype: not written back by guess */
		sep = ", ";
	}
	util_buf_putc(&b, '}');
	if (util_buf_oom(&b)) {
		util_buf_dispose(&b);
		return NULL;
	}
	return util_buf_detach(&b);
}

static int take_kernel(tune_kernel *k, const json_t *entry, const char *source)
{
	const json_t *rows = json_object_get(entry, "configs"), *row, *line = json_object_get(entry, "line");
	size_t i;

	k->source = strdup(source);
	k->kernel = dup_str(json_object_get(entry, "kernel"), "");
	k->backend = dup_str(json_object_get(entry, "backend"), "cuda");
	k->device = dup_str(json_object_get(entry, "device"), "?");
	k->line = json_is_integer(line) ? (unsigned)json_integer_value(line) : 0;
	if (json_is_string(json_object_get(entry, "skipped")))
		k->skipped = dup_str(json_object_get(entry, "skipped"), "");
	if (json_is_object(json_object_get(entry, "autotuned")) &&
	    !(k->autotuned = autotuned_dict(json_object_get(entry, "autotuned"))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (!k->source || !k->kernel || !k->backend || !k->device ||
	    (json_is_string(json_object_get(entry, "skipped")) && !k->skipped))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	json_array_foreach(rows, i, row) {
		const json_t *status = json_object_get(row, "status"), *label = json_object_get(row, "label");
		const char *s = json_is_string(status) ? json_string_value(status) : "";

		k->nconfigs++;
		if (row_ok(row)) {
			k->nok++;
			if (json_is_string(label) && strcmp(json_string_value(label), "program") == 0) {
				k->program_ms = row_ms(row);
				k->program_q1 = row_time(row, "q1");
			}
			if (k->best_ms == 0 || row_ms(row) < k->best_ms) {
				k->best_ms = row_ms(row);
				k->best_q3 = row_time(row, "q3");
			}
		} else if (strcmp(s, "differs") == 0) {
			k->ndiffer++;
		} else {
			k->nfailed++;
		}
	}
	return take_options(k, entry);
}

static int grow(tune_set *set)
{
	tune_kernel *k = realloc(set->kernels, (set->n + 1) * sizeof(*k));

	if (!k)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	set->kernels = k;
	memset(&k[set->n], 0, sizeof(*k));
	return 0;
}

int tune_read_run(tune_set *out, const char *path, const char *bundle)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr), *list, *entry;
	util_buf file = UTIL_BUF_INIT;
	size_t i;
	int error = 0;

	memset(out, 0, sizeof(*out));
	if (!root)
		return util_error_set(UTIL_EINPUT, "%s: line %d: %s", path, jerr.line, jerr.text);
	list = json_object_get(root, "kernels");
	if (!json_is_string(json_object_get(root, "schema")) ||
	    strcmp(json_string_value(json_object_get(root, "schema")), "hipport-tune") != 0 || !json_is_array(list)) {
		json_decref(root);
		return util_error_set(UTIL_EINPUT, "%s: not a tune.json of hipport's tuning hook", path);
	}
	json_array_foreach(list, i, entry) {
		const json_t *p = json_object_get(entry, "path"), *name = json_object_get(entry, "kernel");
		const char *full = json_is_string(p) ? json_string_value(p) : "", *rel = strstr(full, TREE_MARK);

		rel = rel ? rel + strlen(TREE_MARK) : NULL;
		if (!json_is_string(name) || !identifier(json_string_value(name))) {
			error = util_error_set(UTIL_EINPUT, "%s: kernel %zu: its name is no Python identifier", path, i);
			break;
		}
		util_buf_clear(&file);
		util_buf_printf(&file, "%s/port", bundle);
		if (!rel || util_buf_oom(&file) || !util_file_inside(file.ptr, rel)) {
			error = util_error_set(UTIL_EINPUT, "%s: kernel %s: %.200s is no file of the bundle's port/", path,
					       json_string_value(name), full);
			break;
		}
		if ((error = grow(out)) < 0 || (error = take_kernel(&out->kernels[out->n++], entry, rel)) < 0)
			break;
	}
	json_decref(root);
	util_buf_dispose(&file);
	if (error < 0)
		an_tuned_set_dispose(out);
	return error;
}

/* --- the time table -------------------------------------------------- */

static int by_time(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int rx = row_ok(x) ? 0 : 1, ry = row_ok(y) ? 0 : 1;

	if (rx != ry)
		return rx - ry;
	if (rx == 0 && row_ms(x) != row_ms(y))
		return row_ms(x) < row_ms(y) ? -1 : 1;
	return 0;
}

/* The kernel's file as the repository has it (the hook wrote where it ran). */
static const char *shown_path(const json_t *entry)
{
	const json_t *p = json_object_get(entry, "path");
	const char *full = json_is_string(p) ? json_string_value(p) : "?", *rel = strstr(full, TREE_MARK);

	return rel ? rel + strlen(TREE_MARK) : full;
}

static void print_kernel(FILE *f, const json_t *entry)
{
	const json_t *rows = json_object_get(entry, "configs"), *row, *v, *keys = json_array();
	const json_t **sorted;
	const char *key;
	double program = 0;
	size_t i, j, n = json_array_size(rows);

	fprintf(f, "tune: %s (%s:%lld) on %s (%s)", json_string_value(json_object_get(entry, "kernel")),
		shown_path(entry), (long long)json_integer_value(json_object_get(entry, "line")),
		json_is_string(json_object_get(entry, "device")) ? json_string_value(json_object_get(entry, "device"))
								  : "?",
		json_is_string(json_object_get(entry, "backend")) ? json_string_value(json_object_get(entry, "backend"))
								   : "?");
	if (json_is_string(json_object_get(entry, "skipped")))
		fprintf(f, ": not swept: %s", json_string_value(json_object_get(entry, "skipped")));
	fputc('\n', f);
	if (!n || !keys || !(sorted = calloc(n, sizeof(*sorted)))) {
		json_decref((json_t *)keys);
		return;
	}
	json_array_foreach(rows, i, row) {
		sorted[i] = row;
		json_object_foreach(json_object_get(row, "config"), key, v) {
			for (j = 0; j < json_array_size(keys); j++)
				if (strcmp(json_string_value(json_array_get(keys, j)), key) == 0)
					break;
			if (j == json_array_size(keys))
				json_array_append_new((json_t *)keys, json_string(key));
		}
		if (row_ok(row) && json_is_string(json_object_get(row, "label")))
			program = row_ms(row);
	}
	qsort(sorted, n, sizeof(*sorted), by_time);
	fputs("  ", f);
	for (j = 0; j < json_array_size(keys); j++)
		fprintf(f, "%-*s ", (int)strlen(json_string_value(json_array_get(keys, j))),
			json_string_value(json_array_get(keys, j)));
	fprintf(f, "%12s %9s\n", "ms", "speed-up");
	for (i = 0; i < n; i++) {
		const json_t *config = json_object_get(sorted[i], "config"), *detail = json_object_get(sorted[i], "detail");

		fputs("  ", f);
		for (j = 0; j < json_array_size(keys); j++) {
			const char *k = json_string_value(json_array_get(keys, j));
			const json_t *x = json_object_get(config, k);

			if (json_is_integer(x))
				fprintf(f, "%-*lld ", (int)strlen(k), (long long)json_integer_value(x));
			else
				fprintf(f, "%-*s ", (int)strlen(k), "-");
		}
		if (row_ok(sorted[i]))
			fprintf(f, "%12.4f %8.2fx", row_ms(sorted[i]),
				program > 0 && row_ms(sorted[i]) > 0 ? program / row_ms(sorted[i]) : 0.0);
		else
			fprintf(f, "%12s %9s  %s: %.100s", "-", "-", json_string_value(json_object_get(sorted[i], "status")),
				json_is_string(detail) ? json_string_value(detail) : "");
		if (json_is_string(json_object_get(sorted[i], "label")))
			fprintf(f, "  <- the program's");
		else if (i == 0 && row_ok(sorted[i]))
			fprintf(f, "  <- fastest correct");
		fputc('\n', f);
	}
	free(sorted);
	json_decref((json_t *)keys);
}

int tune_print_table(FILE *f, const char *path)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr), *entry;
	size_t i;

	if (!root)
		return util_error_set(UTIL_EINPUT, "%s: line %d: %s", path, jerr.line, jerr.text);
	json_array_foreach(json_object_get(root, "kernels"), i, entry)
		print_kernel(f, entry);
	json_decref(root);
	return 0;
}

/* --- what the session keeps ------------------------------------------- */

static json_t *kernel_json(const tune_kernel *k)
{
	json_t *o = json_pack("{s:s, s:s, s:i, s:s, s:s, s:f, s:f, s:f, s:f, s:i, s:i, s:i, s:i}", "source", k->source,
			      "kernel", k->kernel, "line", (json_int_t)k->line, "backend", k->backend, "device", k->device,
			      "program_ms", k->program_ms, "best_ms", k->best_ms, "program_q1", k->program_q1, "best_q3",
			      k->best_q3, "configs", (json_int_t)k->nconfigs,
			      "ok", (json_int_t)k->nok, "differ", (json_int_t)k->ndiffer, "failed",
			      (json_int_t)k->nfailed),
	       *opts = json_array();
	size_t i;

	if (!o || !opts) {
		json_decref(o);
		json_decref(opts);
		return NULL;
	}
	for (i = 0; i < k->noptions; i++)
		json_array_append_new(opts, json_pack("{s:s, s:i, s:i, s:b}", "name", k->options[i].name, "program",
						      (json_int_t)k->options[i].program, "best",
						      (json_int_t)k->options[i].best, "given", k->options[i].given));
	json_object_set_new(o, "options", opts);
	if (k->skipped)
		json_object_set_new(o, "skipped", json_string(k->skipped));
	if (k->autotuned)
		json_object_set_new(o, "autotuned", json_string(k->autotuned));
	return o;
}

static int session_path(util_buf *b, const char *git_dir)
{
	util_buf_printf(b, "%s/hipport/tune.json", git_dir);
	return util_buf_oom(b) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}

static json_t *session_kernels(const char *path)
{
	json_t *root = json_load_file(path, 0, NULL), *list = json_object_get(root, "kernels");

	list = json_is_array(list) ? json_incref(list) : json_array();
	json_decref(root);
	return list;
}

static bool same_kernel(const json_t *o, const tune_kernel *k)
{
	const json_t *s = json_object_get(o, "source"), *n = json_object_get(o, "kernel");

	return json_is_string(s) && json_is_string(n) && strcmp(json_string_value(s), k->source) == 0 &&
	       strcmp(json_string_value(n), k->kernel) == 0;
}

int tune_store(const char *git_dir, const tune_set *set)
{
	util_buf path = UTIL_BUF_INIT;
	json_t *list, *root = NULL;
	char *text = NULL;
	size_t i, j;
	int error;

	if ((error = session_path(&path, git_dir)) < 0)
		return error;
	list = session_kernels(path.ptr);
	for (i = 0; list && i < set->n; i++) {
		json_t *o = kernel_json(&set->kernels[i]);

		for (j = json_array_size(list); j-- > 0;)
			if (same_kernel(json_array_get(list, j), &set->kernels[i]))
				json_array_remove(list, j);
		if (!o || json_array_append_new(list, o) < 0) {
			list = NULL;
			break;
		}
	}
	if (list)
		root = json_pack("{s:s, s:i, s:o}", "schema", "hipport-tune-session", "version", 1, "kernels", list);
	if (!root || !(text = json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS)))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else if ((error = util_file_make_parents(path.ptr)) == 0)
		error = util_file_write_atomic(path.ptr, text, strlen(text));
	free(text);
	json_decref(root);
	util_buf_dispose(&path);
	return error;
}

static int load_kernel(tune_kernel *k, const json_t *o)
{
	const json_t *opts = json_object_get(o, "options"), *v;
	size_t i;

	k->source = dup_str(json_object_get(o, "source"), "");
	k->kernel = dup_str(json_object_get(o, "kernel"), "");
	k->backend = dup_str(json_object_get(o, "backend"), "cuda");
	k->device = dup_str(json_object_get(o, "device"), "?");
	k->line = (unsigned)json_integer_value(json_object_get(o, "line"));
	k->program_ms = json_number_value(json_object_get(o, "program_ms"));
	k->best_ms = json_number_value(json_object_get(o, "best_ms"));
	k->program_q1 = json_number_value(json_object_get(o, "program_q1"));
	k->best_q3 = json_number_value(json_object_get(o, "best_q3"));
	k->nconfigs = (size_t)json_integer_value(json_object_get(o, "configs"));
	k->nok = (size_t)json_integer_value(json_object_get(o, "ok"));
	k->ndiffer = (size_t)json_integer_value(json_object_get(o, "differ"));
	k->nfailed = (size_t)json_integer_value(json_object_get(o, "failed"));
	if (json_is_string(json_object_get(o, "autotuned")) &&
	    !(k->autotuned = dup_str(json_object_get(o, "autotuned"), "{}")))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (!k->source || !k->kernel || !k->backend || !k->device ||
	    !(k->options = calloc(json_array_size(opts) + 1, sizeof(*k->options))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	json_array_foreach(opts, i, v) {
		tune_option *t = &k->options[k->noptions];
		const json_t *name = json_object_get(v, "name");

		if (!json_is_string(name) || !identifier(json_string_value(name)))
			continue;
		if (!(t->name = strdup(json_string_value(name))))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		t->program = (long)json_integer_value(json_object_get(v, "program"));
		t->best = (long)json_integer_value(json_object_get(v, "best"));
		t->given = json_is_true(json_object_get(v, "given"));
		k->noptions++;
	}
	return 0;
}

int tune_load(tune_set *out, const char *git_dir, const char *source)
{
	util_buf path = UTIL_BUF_INIT;
	json_t *list, *o;
	size_t i;
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = session_path(&path, git_dir)) < 0)
		return error;
	list = session_kernels(path.ptr);
	json_array_foreach(list, i, o) {
		const json_t *s = json_object_get(o, "source");

		if (!json_is_string(s) || strcmp(json_string_value(s), source) != 0)
			continue;
		if ((error = grow(out)) < 0 || (error = load_kernel(&out->kernels[out->n++], o)) < 0)
			break;
	}
	json_decref(list);
	util_buf_dispose(&path);
	if (error < 0)
		an_tuned_set_dispose(out);
	return error;
}
