#include "review/session.h"

#include <git2.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/finding.h"
#include "review/proposal.h"
#include "util/error.h"
#include "util/file.h"

#define SESSION_VERSION 1

static void file_dispose(rv_session_file *f)
{
	size_t i;

	for (i = 0; i < f->nhunks; i++) {
		free(f->hunks[i].text);
		free(f->hunks[i].base);
	}
	free(f->hunks);
	free(f->path);
	free(f->fixes);
	free(f->splits);
	free(f->regions);
}

void rv_session_check_dispose(rv_session_check *c)
{
	free(c->path);
	free(c->name);
	free(c->status);
	free(c->platform);
	free(c->arch);
	free(c->message);
	free(c->kernel);
}

void rv_session_dispose(rv_session *s)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++)
		file_dispose(&s->files[i]);
	for (i = 0; i < s->nchecks; i++)
		rv_session_check_dispose(&s->checks[i]);
	free(s->checks);
	free(s->files);
	free(s->git_dir);
	free(s->path);
	memset(s, 0, sizeof(*s));
}

static bool copy_id(char out[41], json_t *value)
{
	const char *id = json_string_value(value);

	if (!value || json_is_null(value)) {
		out[0] = '\0';
		return true;
	}
	if (!id || strlen(id) != 40 || strspn(id, "0123456789abcdef") != 40)
		return false;
	memcpy(out, id, 41);
	return true;
}

static bool is_key(const char *key)
{
	return key && strlen(key) == 16 && strspn(key, "0123456789abcdef") == 16;
}

/* "splits": the keys of hunks split (absent when none), "reviewed": the
 * fingerprint of the proposal marked reviewed (absent when not). */
static bool parse_review(rv_session_file *f, json_t *obj)
{
	json_t *splits = json_object_get(obj, "splits"), *reviewed = json_object_get(obj, "reviewed"), *k;
	size_t i;

	if (reviewed) {
		if (!is_key(json_string_value(reviewed)))
			return false;
		memcpy(f->reviewed, json_string_value(reviewed), 17);
	}
	if (!splits)
		return true;
	if (!json_is_array(splits) || !(f->splits = calloc(json_array_size(splits) + 1, sizeof(*f->splits))))
		return false;
	json_array_foreach(splits, i, k) {
		if (!is_key(json_string_value(k)))
			return false;
		memcpy(f->splits[f->nsplits++], json_string_value(k), 17);
	}
	return true;
}

/* "regions": what a sync decided as one hunk, [{start, lines, key}] (absent when none). */
static bool parse_regions(rv_session_file *f, json_t *obj)
{
	json_t *regions = json_object_get(obj, "regions"), *r;
	size_t i;

	if (!regions)
		return true;
	if (!json_is_array(regions) || !(f->regions = calloc(json_array_size(regions) + 1, sizeof(*f->regions))))
		return false;
	json_array_foreach(regions, i, r) {
		json_t *start = json_object_get(r, "start"), *lines = json_object_get(r, "lines");
		rv_session_region *out = &f->regions[f->nregions];

		if (!json_is_integer(start) || !json_is_integer(lines) || json_integer_value(start) < 0 ||
		    json_integer_value(lines) < 0 || !is_key(json_string_value(json_object_get(r, "key"))))
			return false;
		out->start = (size_t)json_integer_value(start);
		out->lines = (size_t)json_integer_value(lines);
		memcpy(out->key, json_string_value(json_object_get(r, "key")), 17);
		f->nregions++;
	}
	return true;
}

static bool parse_file(rv_session_file *f, const char *path, json_t *obj)
{
	json_t *hunks = json_object_get(obj, "hunks"), *h;
	size_t i;

	memset(f, 0, sizeof(*f));
	if (!(f->path = strdup(path)))
		return false;
	if (!json_is_object(obj) || !copy_id(f->base, json_object_get(obj, "base")) || !f->base[0] ||
	    !copy_id(f->written, json_object_get(obj, "written")) ||
	    !copy_id(f->previous, json_object_get(obj, "previous")) ||
	    !copy_id(f->committed, json_object_get(obj, "committed")) ||
	    !copy_id(f->commit, json_object_get(obj, "commit")) || !json_is_array(hunks))
		return false;
	if (json_is_string(json_object_get(obj, "fixes")) &&
	    !(f->fixes = strdup(json_string_value(json_object_get(obj, "fixes")))))
		return false;
	if (!parse_review(f, obj) || !parse_regions(f, obj))
		return false;
	f->hunks = calloc(json_array_size(hunks) + 1, sizeof(*f->hunks));
	if (!f->hunks)
		return false;
	json_array_foreach(hunks, i, h) {
		rv_session_hunk *sh = &f->hunks[f->nhunks];
		const char *key = json_string_value(json_object_get(h, "key"));
		const char *decision = json_string_value(json_object_get(h, "decision"));
		const char *text = json_string_value(json_object_get(h, "text"));
		const char *bulk = json_string_value(json_object_get(h, "bulk"));
		const char *base = json_string_value(json_object_get(h, "base"));
		int d = decision ? rv_decision_parse(decision) : -1;

		if (!key || strlen(key) != 16 || d <= RV_PENDING || ((d == RV_EDITED || d == RV_CONFLICT) && !text))
			return false;
		memcpy(sh->key, key, 17);
		sh->decision = (rv_decision)d;
		if (text && !(sh->text = strdup(text)))
			return false;
		if (base && d == RV_CONFLICT && !(sh->base = strdup(base)))
			return false;
		sh->clean = d == RV_CONFLICT && json_is_true(json_object_get(h, "clean"));
		if (bulk)
			snprintf(sh->bulk, sizeof(sh->bulk), "%s", bulk);
		f->nhunks++;
	}
	return true;
}

/* Copies what c holds into out; false when out of memory. */
static bool copy_check(rv_session_check *out, const rv_session_check *c)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->port, c->port, sizeof(out->port));
	memcpy(out->scope, c->scope, sizeof(out->scope));
	out->path = strdup(c->path);
	out->name = strdup(c->name);
	out->status = strdup(c->status);
	out->platform = strdup(c->platform ? c->platform : "");
	out->arch = strdup(c->arch ? c->arch : "");
	out->message = strdup(c->message ? c->message : "");
	out->time = c->time;
	if (c->kernel && *c->kernel && !(out->kernel = strdup(c->kernel)))
		return false;
	return out->path && out->name && out->status && out->platform && out->arch && out->message;
}

/* "checks": [{path, name, port, status, platform, arch, message, time,
 * kernel, scope}] (absent from sessions older than kernel checks; "time"
 * only where both sides were timed, and a time unlike rv_check_time's is
 * none; "kernel" and "scope" only for a kernel's check whose scope is known). */
static bool parse_checks(rv_session *out, json_t *checks)
{
	json_t *c;
	size_t i;

	if (!checks)
		return true;
	if (!json_is_array(checks) || !(out->checks = calloc(json_array_size(checks) + 1, sizeof(*out->checks))))
		return false;
	json_array_foreach(checks, i, c) {
		rv_session_check in;
		const char *port = json_string_value(json_object_get(c, "port"));

		memset(&in, 0, sizeof(in));
		in.path = (char *)json_string_value(json_object_get(c, "path"));
		in.name = (char *)json_string_value(json_object_get(c, "name"));
		in.status = (char *)json_string_value(json_object_get(c, "status"));
		in.platform = (char *)json_string_value(json_object_get(c, "platform"));
		in.arch = (char *)json_string_value(json_object_get(c, "arch"));
		in.message = (char *)json_string_value(json_object_get(c, "message"));
		in.kernel = (char *)json_string_value(json_object_get(c, "kernel"));
		rv_check_time_from_json(&in.time, json_object_get(c, "time"));
		if (!in.path || !in.name || !in.status || !port || strlen(port) != 40 ||
		    !copy_id(in.scope, json_object_get(c, "scope")))
			return false;
		memcpy(in.port, port, 41);
		if (!copy_check(&out->checks[out->nchecks++], &in))
			return false;
	}
	return true;
}

int rv_session_parse(rv_session *out, const char *text, size_t len, const char *name)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, 0, &jerr), *files, *value;
	const char *key;

	files = json_object_get(root, "files");
	if (!root || json_integer_value(json_object_get(root, "version")) != SESSION_VERSION || !json_is_object(files))
		goto damaged;
	out->files = calloc(json_object_size(files) + 1, sizeof(*out->files));
	if (!out->files)
		goto damaged;
	json_object_foreach(files, key, value) {
		out->nfiles++;
		if (!parse_file(&out->files[out->nfiles - 1], key, value))
			goto damaged;
	}
	if (!parse_checks(out, json_object_get(root, "checks")))
		goto damaged;
	json_decref(root);
	return 0;
damaged:
	util_error_set(UTIL_EINPUT, "%s: damaged session file (%s); move it away to start afresh", name,
		       root ? "unexpected content" : jerr.text);
	json_decref(root);
	return UTIL_EINPUT;
}

int rv_session_open(rv_session *out, const char *git_dir)
{
	util_buf b = UTIL_BUF_INIT;
	int error;

	memset(out, 0, sizeof(*out));
	util_buf_printf(&b, "%s/hipport/session.json", git_dir);
	out->path = util_buf_detach(&b);
	out->git_dir = strdup(git_dir);
	if (!out->path || !out->git_dir) {
		rv_session_dispose(out);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	if (access(out->path, F_OK) != 0)
		return 0; /* no session yet */
	if ((error = util_file_read(&b, out->path, 0)) < 0 ||
	    (error = rv_session_parse(out, b.ptr ? b.ptr : "", b.len, out->path)) < 0) {
		util_buf_dispose(&b);
		rv_session_dispose(out);
		return error;
	}
	util_buf_dispose(&b);
	return 0;
}

static int save(const rv_session *s)
{
	json_t *files = json_object(), *root;
	char *text;
	size_t i, k;
	int error;

	for (i = 0; i < s->nfiles; i++) {
		const rv_session_file *f = &s->files[i];
		json_t *hunks = json_array(), *splits = f->nsplits ? json_array() : NULL, *file;
		json_t *regions = f->nregions ? json_array() : NULL;

		for (k = 0; k < f->nhunks; k++)
			json_array_append_new(hunks, json_pack("{s:s, s:s, s:s?, s:s*, s:s*, s:o*}", "key",
							       f->hunks[k].key, "decision",
							       rv_decision_name(f->hunks[k].decision), "text",
							       f->hunks[k].text, "bulk",
							       f->hunks[k].bulk[0] ? f->hunks[k].bulk : NULL, "base",
							       f->hunks[k].base, "clean",
							       f->hunks[k].clean ? json_true() : NULL));
		for (k = 0; k < f->nsplits; k++)
			json_array_append_new(splits, json_string(f->splits[k]));
		for (k = 0; k < f->nregions; k++)
			json_array_append_new(regions, json_pack("{s:I, s:I, s:s}", "start", (json_int_t)f->regions[k].start,
								 "lines", (json_int_t)f->regions[k].lines, "key",
								 f->regions[k].key));
		file = json_pack("{s:s, s:s?, s:s?, s:o, s:s*, s:s*, s:s*, s:o*, s:s*}", "base", f->base, "written",
				 f->written[0] ? f->written : NULL, "previous", f->previous[0] ? f->previous : NULL, "hunks",
				 hunks, "fixes", f->fixes, "committed", f->committed[0] ? f->committed : NULL, "commit",
				 f->commit[0] ? f->commit : NULL, "splits", splits, "reviewed",
				 f->reviewed[0] ? f->reviewed : NULL);
		if (file && regions)
			json_object_set_new(file, "regions", regions);
		json_object_set_new(files, f->path, file);
	}
	root = json_pack("{s:i, s:o}", "version", SESSION_VERSION, "files", files);
	if (root && s->nchecks) {
		json_t *checks = json_array();

		for (i = 0; i < s->nchecks; i++) {
			const rv_session_check *c = &s->checks[i];

			json_t *check = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "path", c->path, "name",
						  c->name, "port", c->port, "status", c->status, "platform",
						  c->platform, "arch", c->arch, "message", c->message);

			if (check && c->time.timed)
				json_object_set_new(check, "time", rv_check_time_to_json(&c->time));
			if (check && c->kernel && c->scope[0]) {
				json_object_set_new(check, "kernel", json_string(c->kernel));
				json_object_set_new(check, "scope", json_string(c->scope));
			}
			json_array_append_new(checks, check);
		}
		json_object_set_new(root, "checks", checks);
	}
	text = root ? json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS) : NULL;
	json_decref(root);
	if (!text)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = util_file_make_parents(s->path)) == 0)
		error = util_file_write_atomic(s->path, text, strlen(text));
	free(text);
	return error;
}

rv_session_file *rv_session_find(const rv_session *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i].path, path) == 0)
			return &s->files[i];
	return NULL;
}

static int open_odb(const rv_session *s, git_odb **odb)
{
	util_buf b = UTIL_BUF_INIT;
	int rc;

	util_buf_printf(&b, "%s/objects", s->git_dir);
	rc = util_buf_oom(&b) ? -1 : git_odb_open(odb, b.ptr);
	util_buf_dispose(&b);
	return rc < 0 ? util_error_set(UTIL_ERROR, "%s: cannot open the object database: %s", s->git_dir,
				       git_error_last() ? git_error_last()->message : "?")
		      : 0;
}

int rv_session_original(const rv_session *s, const rv_session_file *f, util_buf *out)
{
	git_odb *odb = NULL;
	git_odb_object *obj = NULL;
	git_oid oid;
	int error;

	if ((error = open_odb(s, &odb)) < 0)
		return error;
	if (git_oid_fromstr(&oid, f->base) < 0 || git_odb_read(&obj, odb, &oid) < 0) {
		git_odb_free(odb);
		return util_error_set(UTIL_EINPUT, "%s: the original (blob %s) is missing from the object database",
				      f->path, f->base);
	}
	util_buf_put(out, git_odb_object_data(obj), git_odb_object_size(obj));
	git_odb_object_free(obj);
	git_odb_free(odb);
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}

/* Keeps the original where git keeps content: recoverable as a blob. */
static int store_original(const rv_session *s, const char *original, size_t len, char id[41])
{
	git_odb *odb = NULL;
	git_oid oid;
	int error;

	if ((error = open_odb(s, &odb)) < 0)
		return error;
	if (git_odb_write(&oid, odb, original, len, GIT_OBJECT_BLOB) < 0) {
		git_odb_free(odb);
		return util_error_set(UTIL_ERROR, "cannot store the original: %s",
				      git_error_last() ? git_error_last()->message : "?");
	}
	git_oid_tostr(id, 41, &oid);
	git_odb_free(odb);
	return 0;
}

/* The recorded decision of the hunk with key (text: an edited one's). */
static rv_decision decision_of(const rv_session_file *f, const char *key, const char **text)
{
	size_t k;

	if (text)
		*text = NULL;
	for (k = 0; f && k < f->nhunks; k++) {
		if (strcmp(f->hunks[k].key, key) != 0)
			continue;
		if (text)
			*text = f->hunks[k].text;
		return f->hunks[k].decision;
	}
	return RV_PENDING;
}

bool rv_session_split_has(const rv_session_file *f, const char *key)
{
	size_t k;

	for (k = 0; f && k < f->nsplits; k++)
		if (strcmp(f->splits[k], key) == 0)
			return true;
	return false;
}

/* A split hunk's decision, from its pieces'. */
static rv_decision split_decision(const rv_session_file *f, const rv_hunk *h)
{
	size_t n = rv_hunk_pieces(h), i, count[RV_DECISIONS] = { 0 };

	for (i = 0; i < n; i++) {
		rv_hunk piece;

		rv_hunk_piece(h, i, &piece);
		count[decision_of(f, piece.key, NULL)]++;
	}
	if (count[RV_PENDING])
		return RV_PENDING;
	if (count[RV_ACCEPTED] == n || count[RV_REJECTED] == n)
		return count[RV_ACCEPTED] == n ? RV_ACCEPTED : RV_REJECTED;
	return RV_EDITED;
}

void rv_session_decisions(const rv_session_file *f, const rv_hunks *hunks, rv_decision *decisions,
			  const char **texts)
{
	size_t i;

	for (i = 0; i < hunks->count; i++) {
		const rv_hunk *h = &hunks->items[i];

		if (!h->parent[0] && rv_session_split_has(f, h->key)) {
			decisions[i] = split_decision(f, h);
			if (texts)
				texts[i] = NULL;
		} else {
			decisions[i] = decision_of(f, h->key, texts ? &texts[i] : NULL);
		}
	}
}

/* A region's key: its own while it spans what the sync decided, another
 * (with no decision) once a new proposal's hunks made it larger. */
static void region_key(const rv_session_region *g, size_t start, size_t lines, char out[17])
{
	uint64_t hash = 14695981039346656037ULL;
	char place[48];
	size_t k;

	if (start == g->start && lines == g->lines) {
		memcpy(out, g->key, 17);
		return;
	}
	snprintf(place, sizeof(place), "%s:%zu+%zu", g->key, start, lines);
	for (k = 0; place[k]; k++) {
		hash ^= (unsigned char)place[k];
		hash *= 1099511628211ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)hash);
}

/* Whether hunks already holds region g (this list went through here). */
static bool region_in(const rv_hunks *hunks, const rv_session_region *g)
{
	size_t i;

	for (i = 0; i < hunks->count; i++)
		if (strcmp(hunks->items[i].key, g->key) == 0 || strcmp(hunks->items[i].parent, g->key) == 0)
			return true;
	return false;
}

/* Region g as one hunk in place of the whole hunks of in it meets (taken[]
 * marks them), or false when it meets a region made before. */
static bool region_hunk(const rv_session_region *g, const rv_hunks *in, bool *taken, const rv_hunks *made,
			rv_hunk *out)
{
	size_t start = g->start, end = g->start + g->lines, i, k;
	bool grew = true, *mine = calloc(in->count + 1, sizeof(*mine));
	long long delta = 0, inside = 0;

	if (!mine)
		return false;
	while (grew) { /* a hunk taken in can make it meet the next */
		grew = false;
		for (i = 0; i < in->count; i++) {
			const rv_hunk *h = &in->items[i];

			if (mine[i] || h->parent[0] || !rv_ranges_meet(start, end - start, h->old_start, h->old_lines))
				continue;
			if (taken[i]) {
				free(mine);
				return false;
			}
			mine[i] = grew = true;
			start = h->old_start < start ? h->old_start : start;
			end = h->old_start + h->old_lines > end ? h->old_start + h->old_lines : end;
		}
	}
	for (k = 0; k < made->count; k++)
		if (rv_ranges_meet(start, end - start, made->items[k].old_start, made->items[k].old_lines)) {
			free(mine);
			return false;
		}
	for (i = 0; i < in->count; i++) {
		const rv_hunk *h = &in->items[i];
		long long d = (long long)h->new_lines - (long long)h->old_lines;

		if (mine[i])
			inside += d, taken[i] = true;
		else if (h->old_start < start)
			delta += d;
	}
	free(mine);
	memset(out, 0, sizeof(*out));
	out->old_start = start;
	out->old_lines = end - start;
	out->new_start = (size_t)((long long)start + delta);
	out->new_lines = (size_t)((long long)(end - start) + inside);
	region_key(g, start, end - start, out->key);
	return true;
}

static int by_place(const void *a, const void *b)
{
	const rv_hunk *x = a, *y = b;

	if (x->old_start != y->old_start)
		return x->old_start < y->old_start ? -1 : 1;
	return x->old_lines < y->old_lines ? -1 : x->old_lines > y->old_lines;
}

/* The hunks with the regions of a sync in place of those they meet. */
static int absorb_regions(const rv_session_file *f, const rv_hunks *in, rv_hunks *out)
{
	bool *taken = calloc(in->count + 1, sizeof(*taken));
	rv_hunks made = { calloc(f->nregions + 1, sizeof(rv_hunk)), 0 };
	size_t i;

	memset(out, 0, sizeof(*out));
	out->items = calloc(in->count + f->nregions + 1, sizeof(*out->items));
	if (!taken || !made.items || !out->items) {
		free(taken);
		free(made.items);
		rv_hunks_dispose(out);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	for (i = 0; i < f->nregions; i++)
		if (!region_in(in, &f->regions[i]) && region_hunk(&f->regions[i], in, taken, &made, &made.items[made.count]))
			made.count++;
	for (i = 0; i < in->count; i++)
		if (!taken[i])
			out->items[out->count++] = in->items[i];
	for (i = 0; i < made.count; i++)
		out->items[out->count++] = made.items[i];
	qsort(out->items, out->count, sizeof(*out->items), by_place);
	free(taken);
	free(made.items);
	return 0;
}

int rv_session_hunks(const rv_session_file *f, const rv_hunks *whole, rv_hunks *out)
{
	rv_hunks absorbed = { NULL, 0 };
	const rv_hunks *hunks = whole;
	size_t i, k, n = 0;
	int error;

	memset(out, 0, sizeof(*out));
	if (f && f->nregions) {
		if ((error = absorb_regions(f, whole, &absorbed)) < 0)
			return error;
		hunks = &absorbed;
	}
	for (i = 0; i < hunks->count; i++)
		n += !hunks->items[i].parent[0] && rv_session_split_has(f, hunks->items[i].key)
			     ? rv_hunk_pieces(&hunks->items[i])
			     : 1;
	if (!(out->items = calloc(n + 1, sizeof(*out->items)))) {
		rv_hunks_dispose(&absorbed);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	for (i = 0; i < hunks->count; i++) {
		const rv_hunk *h = &hunks->items[i];

		if (h->parent[0] || !rv_session_split_has(f, h->key))
			out->items[out->count++] = *h;
		else
			for (k = 0; k < rv_hunk_pieces(h); k++)
				rv_hunk_piece(h, k, &out->items[out->count++]);
	}
	rv_hunks_dispose(&absorbed);
	return 0;
}

/* rv_session_stale, given the blob id of what the tree holds. */
static bool stale_id(const rv_session_file *f, const char *id)
{
	if (f->written[0])
		return strcmp(id, f->written) != 0 && strcmp(id, f->previous) != 0;
	return strcmp(id, f->base) != 0;
}

bool rv_session_stale(const rv_session_file *f, const char *tree, size_t tree_len)
{
	char id[41];

	rv_blob_id(id, tree, tree_len);
	return stale_id(f, id);
}

rv_file_state rv_session_state(const rv_session_file *f, const rv_hunks *hunks, const char *tree, size_t tree_len)
{
	rv_decision *d;
	size_t i, decided = 0;
	char id[41];

	if (!f)
		return RV_STATE_PENDING;
	rv_blob_id(id, tree, tree_len); /* once: committed and stale both ask */
	if (f->committed[0] && strcmp(id, f->committed) == 0)
		return RV_STATE_COMMITTED;
	if (stale_id(f, id))
		return RV_STATE_STALE;
	d = calloc(hunks->count + 1, sizeof(*d));
	if (!d)
		return RV_STATE_PENDING;
	rv_session_decisions(f, hunks, d, NULL);
	for (i = 0; i < hunks->count; i++)
		decided += rv_decided(d[i]);
	free(d);
	return decided == 0 ? RV_STATE_PENDING : decided < hunks->count ? RV_STATE_PARTIAL : RV_STATE_ACCEPTED;
}

static rv_session_file *add_file(rv_session *s, const char *path)
{
	rv_session_file *n = realloc(s->files, (s->nfiles + 1) * sizeof(*n));

	if (!n)
		return NULL;
	s->files = n;
	n = &s->files[s->nfiles];
	memset(n, 0, sizeof(*n));
	if (!(n->path = strdup(path)))
		return NULL;
	s->nfiles++;
	return n;
}

/* Sets (or clears, for pending) the decision of the hunk with key. */
static int record(rv_session_file *f, const char *key, rv_decision decision, const char *text)
{
	size_t k;
	char *copy = NULL;

	if ((decision == RV_EDITED || decision == RV_CONFLICT) && !(copy = strdup(text ? text : "")))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (k = 0; k < f->nhunks && strcmp(f->hunks[k].key, key) != 0; k++)
		;
	if (k < f->nhunks) {
		free(f->hunks[k].text);
		free(f->hunks[k].base); /* a conflict's, resolved now */
		f->hunks[k].base = NULL;
		f->hunks[k].clean = false;
		if (decision == RV_PENDING) {
			f->hunks[k] = f->hunks[--f->nhunks];
			return 0;
		}
	} else if (decision != RV_PENDING) {
		rv_session_hunk *n = realloc(f->hunks, (f->nhunks + 1) * sizeof(*n));

		if (!n) {
			free(copy);
			return util_error_set(UTIL_ENOMEM, "out of memory");
		}
		f->hunks = n;
		memset(&f->hunks[f->nhunks], 0, sizeof(*n));
		memcpy(f->hunks[f->nhunks++].key, key, 17);
	} else {
		return 0;
	}
	f->hunks[k].decision = decision;
	f->hunks[k].text = copy;
	f->hunks[k].bulk[0] = '\0'; /* decided again, by hand: rv_session_decide_bulk marks it after */
	return 0;
}

/* What the file holds with f's decisions, split hunks as their pieces. */
static int compose(const rv_session_file *f, const char *original, size_t original_len, const char *port,
		   size_t port_len, const rv_hunks *hunks, util_buf *out)
{
	rv_hunks all;
	rv_decision *d = NULL;
	const char **texts = NULL;
	int error;

	if ((error = rv_session_hunks(f, hunks, &all)) < 0)
		return error;
	d = calloc(all.count + 1, sizeof(*d));
	texts = calloc(all.count + 1, sizeof(*texts));
	if (!d || !texts) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	} else {
		rv_session_decisions(f, &all, d, texts);
		error = rv_hunks_compose(out, original, original_len, port, port_len, &all, d, texts);
	}
	free(d);
	free(texts);
	rv_hunks_dispose(&all);
	return error;
}

/* The blob id of what a working-tree file holds now. */
static int file_blob_id(const char *fs_path, char id[41])
{
	util_buf tree = UTIL_BUF_INIT;
	int error = util_file_read(&tree, fs_path, 0);

	if (error == 0)
		rv_blob_id(id, tree.ptr ? tree.ptr : "", tree.len);
	util_buf_dispose(&tree);
	return error;
}

/* The file's record, made (with its original stored) if the file still
 * holds the original; UTIL_EINPUT when it changed outside hipport. */
static int record_of(rv_session *s, const char *path, const char *fs_path, const char *original,
		     size_t original_len, rv_session_file **out)
{
	rv_session_file *f = rv_session_find(s, path);
	char tree_id[41];
	int error;

	if ((error = file_blob_id(fs_path, tree_id)) < 0)
		return error;
	/* the file must hold what hipport left in it, or the original */
	if (f) {
		if (strcmp(tree_id, f->written[0] ? f->written : f->base) != 0)
			return util_error_set(UTIL_EINPUT, "%s: changed outside hipport since the last decision", path);
	} else {
		char original_id[41];

		rv_blob_id(original_id, original, original_len);
		if (strcmp(tree_id, original_id) != 0)
			return util_error_set(UTIL_EINPUT, "%s: changed since its proposal was made", path);
		if (!(f = add_file(s, path)))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		if ((error = store_original(s, original, original_len, f->base)) < 0) {
			file_dispose(&s->files[--s->nfiles]);
			return error;
		}
	}
	*out = f;
	return 0;
}

int rv_session_choose_fix(rv_session *s, const char *path, const char *fs_path, const char *original,
			  size_t original_len, const char *id)
{
	rv_session_file *f;
	util_buf list = UTIL_BUF_INIT;
	int error;

	if ((error = record_of(s, path, fs_path, original, original_len, &f)) < 0)
		return error;
	if (f->fixes && an_id_listed(f->fixes, strlen(f->fixes), id))
		return 0;
	util_buf_printf(&list, "%s%s%s", f->fixes ? f->fixes : "", f->fixes ? "," : "", id);
	if (util_buf_oom(&list))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	free(f->fixes);
	f->fixes = util_buf_detach(&list);
	return save(s);
}

int rv_session_rebase(rv_session *s, const char *path, const char *text, size_t len)
{
	rv_session_file *f = rv_session_find(s, path);
	int error;

	if (!f)
		return 0;
	if ((error = store_original(s, text, len, f->base)) < 0)
		return error;
	f->written[0] = f->previous[0] = '\0';
	return save(s);
}

/* What the file holds after f's decisions: recorded, saved, then written
 * (when write): a kill before the file is written is resumed. */
static int save_and_write(rv_session *s, rv_session_file *f, const char *fs_path, const char *original,
			  size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks, bool write,
			  util_buf *composed)
{
	util_buf next = UTIL_BUF_INIT;
	int error;

	if ((error = compose(f, original, original_len, port, port_len, hunks, &next)) < 0) {
		util_buf_dispose(&next);
		return error;
	}
	memcpy(f->previous, f->written[0] ? f->written : f->base, 41);
	rv_blob_id(f->written, next.ptr ? next.ptr : "", next.len);
	if ((error = save(s)) == 0 && write)
		error = util_file_write_atomic(fs_path, next.ptr ? next.ptr : "", next.len);
	if (composed && !error) {
		util_buf_dispose(composed);
		*composed = next;
	} else {
		util_buf_dispose(&next);
	}
	return error;
}

/* Drops a split: its key and its pieces' decisions. */
static int drop_split(rv_session_file *f, const rv_hunk *h)
{
	size_t k;
	int error = 0;

	for (k = 0; k < rv_hunk_pieces(h) && !error; k++) {
		rv_hunk piece;

		rv_hunk_piece(h, k, &piece);
		error = record(f, piece.key, RV_PENDING, NULL);
	}
	for (k = 0; k < f->nsplits; k++)
		if (strcmp(f->splits[k], h->key) == 0) {
			memmove(&f->splits[k], &f->splits[k + 1], (f->nsplits - k - 1) * sizeof(*f->splits));
			f->nsplits--;
			break;
		}
	return error;
}

/* A decision on hunk h, whole or split: a split hunk's pieces all take it,
 * except an edit, which makes it whole again. */
static int record_hunk(rv_session_file *f, const rv_hunk *h, rv_decision decision, const char *text)
{
	size_t k;
	int error = 0;

	if (h->parent[0] || !rv_session_split_has(f, h->key))
		return record(f, h->key, decision, text);
	if (decision == RV_EDITED)
		return (error = drop_split(f, h)) < 0 ? error : record(f, h->key, decision, text);
	for (k = 0; k < rv_hunk_pieces(h) && !error; k++) {
		rv_hunk piece;

		rv_hunk_piece(h, k, &piece);
		error = record(f, piece.key, decision, NULL);
	}
	return error;
}

/* Marks the recorded hunk with key (and a split hunk's pieces) as accepted in bulk. */
static void mark_bulk(rv_session_file *f, const char *key, const char *kind)
{
	size_t k;

	for (k = 0; k < f->nhunks; k++)
		if (strcmp(f->hunks[k].key, key) == 0)
			snprintf(f->hunks[k].bulk, sizeof(f->hunks[k].bulk), "%s", kind);
}

int rv_session_decide_bulk(rv_session *s, const char *path, const char *fs_path, const char *original,
			   size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks,
			   const size_t *indexes, size_t n, const char *kind)
{
	rv_session_file *f;
	size_t i, k;
	int error;

	if ((error = record_of(s, path, fs_path, original, original_len, &f)) < 0)
		return error;
	for (i = 0; i < n; i++) {
		const rv_hunk *h;

		if (indexes[i] >= hunks->count)
			return util_error_set(UTIL_EINPUT, "%s: no hunk %zu", path, indexes[i] + 1);
		h = &hunks->items[indexes[i]];
		if ((error = record_hunk(f, h, RV_ACCEPTED, NULL)) < 0)
			return error;
		mark_bulk(f, h->key, kind);
		if (!h->parent[0] && rv_session_split_has(f, h->key))
			for (k = 0; k < rv_hunk_pieces(h); k++) {
				rv_hunk piece;

				rv_hunk_piece(h, k, &piece);
				mark_bulk(f, piece.key, kind);
			}
	}
	return save_and_write(s, f, fs_path, original, original_len, port, port_len, hunks, true, NULL);
}

/* Whether the hunk recorded with key was accepted in bulk. */
static bool key_bulk(const rv_session_file *f, const char *key)
{
	size_t k;

	for (k = 0; k < f->nhunks; k++)
		if (strcmp(f->hunks[k].key, key) == 0)
			return f->hunks[k].decision == RV_ACCEPTED && f->hunks[k].bulk[0];
	return false;
}

bool rv_session_hunk_bulk(const rv_session_file *f, const rv_hunk *h)
{
	size_t k;

	if (!f)
		return false;
	if (h->parent[0] || !rv_session_split_has(f, h->key))
		return key_bulk(f, h->key);
	for (k = 0; k < rv_hunk_pieces(h); k++) {
		rv_hunk piece;

		rv_hunk_piece(h, k, &piece);
		if (!key_bulk(f, piece.key))
			return false;
	}
	return true;
}

int rv_session_decide(rv_session *s, const char *path, const char *fs_path, const char *original,
		      size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks, size_t index,
		      rv_decision decision, const char *text)
{
	rv_session_file *f;
	int error;

	if (index >= hunks->count)
		return util_error_set(UTIL_EINPUT, "%s: no hunk %zu (the file has %zu)", path, index + 1, hunks->count);
	if ((error = record_of(s, path, fs_path, original, original_len, &f)) < 0 ||
	    (error = record_hunk(f, &hunks->items[index], decision, text)) < 0)
		return error;
	return save_and_write(s, f, fs_path, original, original_len, port, port_len, hunks, true, NULL);
}

int rv_session_decide_as(rv_session *s, const char *path, const char *fs_path, const char *original,
			 size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks, size_t index,
			 const rv_session_hunk *was)
{
	rv_session_file *f;
	rv_session_hunk *h;
	int error;

	if (index >= hunks->count)
		return util_error_set(UTIL_EINPUT, "%s: no hunk %zu (the file has %zu)", path, index + 1, hunks->count);
	if ((error = record_of(s, path, fs_path, original, original_len, &f)) < 0 ||
	    (error = record_hunk(f, &hunks->items[index], was->decision, was->text)) < 0)
		return error;
	if (was->decision == RV_CONFLICT && (h = (rv_session_hunk *)rv_session_hunk_of(f, hunks->items[index].key))) {
		if (was->base && !(h->base = strdup(was->base)))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		h->clean = was->clean;
	}
	return save_and_write(s, f, fs_path, original, original_len, port, port_len, hunks, true, NULL);
}

int rv_session_decide_pending(rv_session *s, const char *path, const char *fs_path, const char *original,
			      size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks,
			      rv_decision decision, bool write, util_buf *composed)
{
	rv_session_file *f;
	rv_hunks all;
	rv_decision *now;
	size_t i;
	int error;

	if ((error = record_of(s, path, fs_path, original, original_len, &f)) < 0 ||
	    (error = rv_session_hunks(f, hunks, &all)) < 0)
		return error;
	if (!(now = calloc(all.count + 1, sizeof(*now)))) {
		rv_hunks_dispose(&all);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	/* a split hunk's pending pieces, not the pieces decided already */
	rv_session_decisions(f, &all, now, NULL);
	for (i = 0; i < all.count && !error; i++)
		if (now[i] == RV_PENDING)
			error = record(f, all.items[i].key, decision, NULL);
	free(now);
	rv_hunks_dispose(&all);
	return error < 0 ? error
			 : save_and_write(s, f, fs_path, original, original_len, port, port_len, hunks, write, composed);
}

/* Splits hunk h: its pieces take its decision. */
static int split(rv_session_file *f, const rv_hunk *h, size_t index)
{
	rv_decision d = decision_of(f, h->key, NULL);
	char (*splits)[17];
	int error;

	if (rv_hunk_pieces(h) < 2)
		return util_error_set(UTIL_EINPUT, "hunk %zu is one line: it splits no further", index + 1);
	if (d == RV_EDITED || d == RV_CONFLICT)
		return util_error_set(UTIL_EINPUT, "hunk %zu is %s: accept or reject it before splitting it",
				      index + 1, rv_decision_name(d));
	if (!(splits = realloc(f->splits, (f->nsplits + 1) * sizeof(*splits))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	f->splits = splits;
	memcpy(f->splits[f->nsplits++], h->key, 17);
	if (d != RV_PENDING && ((error = record(f, h->key, RV_PENDING, NULL)) < 0 ||
				(error = record_hunk(f, h, d, NULL)) < 0))
		return error;
	return 0;
}

/* Joins the hunk that piece belongs to: it takes its pieces' decision, or,
 * when they differ, is edited to hold the lines they make. */
static int join(rv_session_file *f, const rv_hunks *hunks, size_t index, const char *original, size_t original_len,
		const char *port, size_t port_len)
{
	const char *key = hunks->items[index].parent;
	rv_hunk whole = { .old_start = 0 };
	util_buf text = UTIL_BUF_INIT;
	rv_decision d;
	size_t i;
	bool first = true;
	int error;

	/* the hunk is its pieces' lines together, from the first one's place */
	for (i = 0; i < hunks->count; i++) {
		const rv_hunk *p = &hunks->items[i];

		if (strcmp(p->parent, key) != 0)
			continue;
		if (first) {
			whole.old_start = p->old_start;
			whole.new_start = p->new_start;
			first = false;
		}
		whole.old_lines += p->old_lines;
		whole.new_lines += p->new_lines;
	}
	memcpy(whole.key, key, 17);
	if ((d = split_decision(f, &whole)) == RV_PENDING) {
		for (i = 0; i < rv_hunk_pieces(&whole); i++) {
			rv_hunk piece;

			rv_hunk_piece(&whole, i, &piece);
			if (decision_of(f, piece.key, NULL) != RV_PENDING)
				return util_error_set(UTIL_EINPUT, "some lines of this hunk are decided and some not: "
								   "decide the rest before joining them");
		}
	}
	for (i = 0; d == RV_EDITED && i < rv_hunk_pieces(&whole); i++) {
		rv_hunk piece;
		const char *edited;

		rv_hunk_piece(&whole, i, &piece);
		switch (decision_of(f, piece.key, &edited)) {
		case RV_ACCEPTED:
			rv_lines_copy(&text, port, port_len, piece.new_start, piece.new_lines);
			break;
		case RV_EDITED:
			util_buf_puts(&text, edited ? edited : "");
			break;
		default:
			rv_lines_copy(&text, original, original_len, piece.old_start, piece.old_lines);
			break;
		}
	}
	if (util_buf_oom(&text))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else if ((error = drop_split(f, &whole)) == 0)
		error = record(f, key, d, d == RV_EDITED ? (text.ptr ? text.ptr : "") : NULL);
	util_buf_dispose(&text);
	return error;
}

int rv_session_split(rv_session *s, const char *path, const char *fs_path, const char *original,
		     size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks, size_t index)
{
	rv_session_file *f;
	int error;

	if (index >= hunks->count)
		return util_error_set(UTIL_EINPUT, "%s: no hunk %zu (the file has %zu)", path, index + 1, hunks->count);
	if ((error = record_of(s, path, fs_path, original, original_len, &f)) < 0)
		return error;
	if (hunks->items[index].parent[0])
		error = join(f, hunks, index, original, original_len, port, port_len);
	else
		error = split(f, &hunks->items[index], index);
	return error < 0 ? error : save(s);
}

int rv_session_mark_reviewed(rv_session *s, const char *path, const char *fs_path, const char *original,
			     size_t original_len, const rv_hunks *hunks, bool reviewed)
{
	rv_session_file *f;
	int error;

	if ((error = record_of(s, path, fs_path, original, original_len, &f)) < 0)
		return error;
	if (reviewed)
		rv_hunks_fingerprint(hunks, f->reviewed);
	else
		f->reviewed[0] = '\0';
	return save(s);
}

bool rv_session_reviewed(const rv_session_file *f, const rv_hunks *hunks)
{
	char now[17];

	if (!f || !f->reviewed[0])
		return false;
	rv_hunks_fingerprint(hunks, now);
	return strcmp(now, f->reviewed) == 0;
}

int rv_session_resume(rv_session *s, const char *path, const char *fs_path, const char *original,
		      size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks)
{
	rv_session_file *f = rv_session_find(s, path);
	util_buf next = UTIL_BUF_INIT;
	char id[41];
	int error;

	if (!f || !f->written[0])
		return 0;
	if ((error = file_blob_id(fs_path, id)) < 0)
		return error;
	if (strcmp(id, f->previous) != 0 || strcmp(id, f->written) == 0)
		return 0;
	if ((error = compose(f, original, original_len, port, port_len, hunks, &next)) == 0)
		error = util_file_write_atomic(fs_path, next.ptr ? next.ptr : "", next.len);
	util_buf_dispose(&next);
	return error < 0 ? error : 1;
}

const rv_session_hunk *rv_session_hunk_of(const rv_session_file *f, const char *key)
{
	size_t k;

	for (k = 0; f && k < f->nhunks; k++)
		if (strcmp(f->hunks[k].key, key) == 0)
			return &f->hunks[k];
	return NULL;
}

/* f's regions and hunks as in's (copied); false when out of memory. */
static bool take_synced(rv_session_file *f, const rv_session_synced *in)
{
	size_t k;

	if ((in->fixes && !(f->fixes = strdup(in->fixes))) ||
	    !(f->regions = calloc(in->nregions + 1, sizeof(*f->regions))) ||
	    !(f->hunks = calloc(in->nhunks + 1, sizeof(*f->hunks))))
		return false;
	memcpy(f->regions, in->regions, in->nregions * sizeof(*f->regions));
	f->nregions = in->nregions;
	for (k = 0; k < in->nhunks; k++) {
		rv_session_hunk *h = &f->hunks[f->nhunks++];

		*h = in->hunks[k];
		h->text = h->base = NULL;
		if ((in->hunks[k].text && !(h->text = strdup(in->hunks[k].text))) ||
		    (in->hunks[k].base && !(h->base = strdup(in->hunks[k].base))))
			return false;
	}
	return true;
}

int rv_session_sync_file(rv_session *s, const char *path, const char *fs_path, const rv_session_synced *in,
			 const char *holds)
{
	rv_session_file next, *f;
	rv_hunks whole;
	util_buf text = UTIL_BUF_INIT;
	char tree_id[41];
	int error;

	memset(&next, 0, sizeof(next));
	if ((error = file_blob_id(fs_path, tree_id)) < 0)
		return error;
	if (!(next.path = strdup(path)) || !take_synced(&next, in)) {
		file_dispose(&next);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	if ((error = rv_hunks_make(&whole, in->original, in->original_len, in->port, in->port_len)) == 0) {
		error = compose(&next, in->original, in->original_len, in->port, in->port_len, &whole, &text);
		rv_hunks_dispose(&whole);
	}
	if (error == 0) {
		rv_blob_id(next.written, text.ptr ? text.ptr : "", text.len);
		if (strcmp(tree_id, holds) != 0 && strcmp(tree_id, next.written) != 0)
			error = util_error_set(UTIL_EINPUT, "%s: changed since it was committed; commit or stash it first",
					       path);
	}
	if (error == 0)
		error = store_original(s, in->original, in->original_len, next.base);
	if (error == 0 && !(f = rv_session_find(s, path)) && !(f = add_file(s, path)))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	if (error < 0) {
		file_dispose(&next);
		util_buf_dispose(&text);
		return error;
	}
	memcpy(next.previous, holds, 41);
	memcpy(next.committed, f->committed, 41); /* what it was validated on stays known */
	memcpy(next.commit, f->commit, 41);
	file_dispose(f);
	*f = next;
	if ((error = save(s)) == 0 && strcmp(tree_id, f->written) != 0)
		error = util_file_write_atomic(fs_path, text.ptr ? text.ptr : "", text.len);
	util_buf_dispose(&text);
	return error;
}

int rv_session_mark_committed(rv_session *s, const char *path, const char *blob, const char *commit)
{
	rv_session_file *f = rv_session_find(s, path);

	if (!f)
		return util_error_set(UTIL_ENOTFOUND, "%s: not in the review session", path);
	snprintf(f->committed, sizeof(f->committed), "%s", blob);
	snprintf(f->commit, sizeof(f->commit), "%s", commit);
	return 0;
}

int rv_session_save(const rv_session *s)
{
	return save(s);
}

int rv_session_forget(rv_session *s, const char *path)
{
	rv_session_file *f = rv_session_find(s, path);

	if (!f)
		return 0;
	file_dispose(f);
	memmove(f, f + 1, (size_t)(s->files + s->nfiles - (f + 1)) * sizeof(*f));
	s->nfiles--;
	return save(s);
}

const char *rv_file_state_name(rv_file_state state)
{
	switch (state) {
	case RV_STATE_PARTIAL:
		return "partial";
	case RV_STATE_ACCEPTED:
		return "accepted";
	case RV_STATE_STALE:
		return "stale";
	case RV_STATE_COMMITTED:
		return "committed";
	default:
		return "pending";
	}
}

int rv_session_record_checks(rv_session *s, const rv_session_check *checks, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		rv_session_check *slot = NULL;

		for (k = 0; k < s->nchecks && !slot; k++)
			if (strcmp(s->checks[k].path, checks[i].path) == 0 && strcmp(s->checks[k].name, checks[i].name) == 0)
				slot = &s->checks[k];
		if (slot) {
			rv_session_check_dispose(slot);
		} else {
			rv_session_check *m = realloc(s->checks, (s->nchecks + 1) * sizeof(*m));

			if (!m)
				return util_error_set(UTIL_ENOMEM, "out of memory");
			s->checks = m;
			slot = &m[s->nchecks++];
		}
		if (!copy_check(slot, &checks[i])) {
			rv_session_check_dispose(slot);
			s->nchecks--;
			if (slot != &s->checks[s->nchecks])
				*slot = s->checks[s->nchecks];
			return util_error_set(UTIL_ENOMEM, "out of memory");
		}
	}
	return save(s);
}

int rv_session_outdate_checks(rv_session *s, const char *prefix)
{
	size_t i, n = 0, len = strlen(prefix);

	for (i = 0; i < s->nchecks; i++) {
		rv_session_check *c = &s->checks[i];

		if (strncmp(c->name, prefix, len) != 0 || strspn(c->port, "0") == 40)
			continue;
		memset(c->port, '0', 40);
		c->scope[0] = '\0';
		n++;
	}
	return n ? save(s) : 0;
}

const rv_session_check *rv_session_check_find(const rv_session *s, const char *path, const char *name)
{
	size_t i;

	for (i = 0; i < s->nchecks; i++)
		if (strcmp(s->checks[i].path, path) == 0 && strcmp(s->checks[i].name, name) == 0)
			return &s->checks[i];
	return NULL;
}
