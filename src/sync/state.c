#include "sync/state.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"

#define STATE_VERSION 1

static const char *const kind_names[] = { "merge", "take", "add", "delete", "remove", "by-hand", "text" };
static const char *const decision_names[] = { "", "removed", "kept" };

const char *sy_kind_name(sy_kind kind)
{
	return kind_names[kind];
}

static int name_index(const char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; name && i < n; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

static bool copy_id(char out[41], json_t *v)
{
	const char *id = json_string_value(v);

	if (!id || strlen(id) != 40 || strspn(id, "0123456789abcdef") != 40)
		return false;
	memcpy(out, id, 41);
	return true;
}

static size_t count(json_t *obj, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(obj, key));

	return v > 0 ? (size_t)v : 0;
}

static bool parse_file(sy_state *s, json_t *f)
{
	int kind = name_index(kind_names, 7, json_string_value(json_object_get(f, "kind")));
	int decision = name_index(decision_names, 3, json_string_value(json_object_get(f, "decision")));
	const char *path = json_string_value(json_object_get(f, "path"));
	sy_file *out;

	if (!path || !*path || kind < 0)
		return false;
	if (!(out = sy_state_add(s, path, (sy_kind)kind)))
		return false;
	out->done = json_is_true(json_object_get(f, "done"));
	out->decision = decision < 0 ? SY_UNDECIDED : (sy_decision)decision;
	out->carried = count(f, "carried");
	out->proposed = count(f, "proposed");
	out->merged = count(f, "merged");
	out->conflicts = count(f, "conflicts");
	out->edits_kept = count(f, "editsKept");
	return true;
}

int sy_state_open(sy_state *out, const char *git_dir)
{
	util_buf text = UTIL_BUF_INIT;
	json_t *root = NULL, *files, *f;
	json_error_t jerr;
	size_t i;
	int error;

	memset(out, 0, sizeof(*out));
	util_buf_printf(&text, "%s/hipport/sync.json", git_dir);
	if (util_buf_oom(&text) || !(out->path = util_buf_detach(&text)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (access(out->path, F_OK) != 0)
		return 0;
	if ((error = util_file_read(&text, out->path, 0)) < 0)
		return error;
	root = json_loadb(text.ptr ? text.ptr : "", text.len, 0, &jerr);
	util_buf_dispose(&text);
	files = json_object_get(root, "files");
	if (!root || json_integer_value(json_object_get(root, "version")) != STATE_VERSION ||
	    !copy_id(out->from, json_object_get(root, "from")) || !copy_id(out->to, json_object_get(root, "to")) ||
	    !copy_id(out->head, json_object_get(root, "head")) || !json_is_array(files))
		goto damaged;
	json_array_foreach(files, i, f)
		if (!parse_file(out, f))
			goto damaged;
	json_decref(root);
	return 1;
damaged:
	json_decref(root);
	return util_error_set(UTIL_EINPUT, "%s: damaged (remove it to give the sync up; the files stay as they are)",
			      out->path);
}

int sy_state_save(const sy_state *s)
{
	json_t *files = json_array(), *root;
	char *text;
	size_t i;
	int error;

	for (i = 0; i < s->n; i++) {
		const sy_file *f = &s->files[i];

		json_array_append_new(files, json_pack("{s:s, s:s, s:b, s:s*, s:I, s:I, s:I, s:I, s:I}", "path", f->path,
						       "kind", kind_names[f->kind], "done", f->done, "decision",
						       f->decision ? decision_names[f->decision] : NULL, "carried",
						       (json_int_t)f->carried, "proposed", (json_int_t)f->proposed,
						       "merged", (json_int_t)f->merged, "conflicts",
						       (json_int_t)f->conflicts, "editsKept", (json_int_t)f->edits_kept));
	}
	root = json_pack("{s:i, s:s, s:s, s:s, s:o}", "version", STATE_VERSION, "from", s->from, "to", s->to, "head",
			 s->head, "files", files);
	text = root ? json_dumps(root, JSON_INDENT(1)) : NULL;
	json_decref(root);
	if (!text)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = util_file_make_parents(s->path)) == 0)
		error = util_file_write_atomic(s->path, text, strlen(text));
	free(text);
	return error;
}

int sy_state_finish(const sy_state *s)
{
	if (unlink(s->path) != 0 && access(s->path, F_OK) == 0)
		return util_error_set(UTIL_ERROR, "%s: cannot be removed", s->path);
	return 0;
}

void sy_state_dispose(sy_state *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->files[i].path);
	free(s->files);
	free(s->path);
	memset(s, 0, sizeof(*s));
}

sy_file *sy_state_find(const sy_state *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->files[i].path, path) == 0)
			return &s->files[i];
	return NULL;
}

sy_file *sy_state_add(sy_state *s, const char *path, sy_kind kind)
{
	sy_file *n = realloc(s->files, (s->n + 1) * sizeof(*n));

	if (!n)
		return NULL;
	s->files = n;
	n = &s->files[s->n];
	memset(n, 0, sizeof(*n));
	if (!(n->path = strdup(path)))
		return NULL;
	n->kind = kind;
	s->n++;
	return n;
}

size_t sy_state_open_files(const sy_state *s)
{
	size_t i, open = 0;

	for (i = 0; i < s->n; i++)
		open += !s->files[i].done ||
			((s->files[i].kind == SY_REMOVE || s->files[i].kind == SY_BY_HAND) && !s->files[i].decision);
	return open;
}
