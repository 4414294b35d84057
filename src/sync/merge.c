#include "sync/merge.h"

#include <git2.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "review/hunks.h"
#include "util/buf.h"
#include "util/error.h"

/* Long enough that no source line looks like one (checked). */
#define MARKER 40

/* A region before its key is known: no hunk of a proposal has it. */
static const char unkeyed[17] = "0000000000000000";

/* The merge read back: its text with every conflict as the port has it,
 * and where those conflicts are in it. */
typedef struct merged {
	util_buf ours;
	size_t *start, *lines; /* each conflict's lines in ours */
	size_t n;
} merged;

/* A place where the merge differs from the new proposal, in the new
 * original's lines, grown over the proposal's hunks it meets. */
typedef struct region {
	size_t start, end;
	size_t first, last; /* its differences: indexes into the proposal-to-merge hunks */
	bool conflict;
} region;

static size_t line_end(const char *text, size_t len, size_t at)
{
	const char *nl = memchr(text + at, '\n', len - at);

	return nl ? (size_t)(nl - text) + 1 : len;
}

static bool is_marker(const char *line, size_t len, char c)
{
	size_t i;

	if (len < MARKER)
		return false;
	for (i = 0; i < MARKER; i++)
		if (line[i] != c)
			return false;
	return len == MARKER || line[MARKER] == ' ' || line[MARKER] == '\n' || line[MARKER] == '\r';
}

static bool any_marker(const char *text, size_t len)
{
	size_t at = 0, next;

	for (; at < len; at = next) {
		next = line_end(text, len, at);
		if (is_marker(text + at, next - at, '<') || is_marker(text + at, next - at, '|') ||
		    is_marker(text + at, next - at, '=') || is_marker(text + at, next - at, '>'))
			return true;
	}
	return false;
}

static void merged_dispose(merged *m)
{
	util_buf_dispose(&m->ours);
	free(m->start);
	free(m->lines);
}

/* Reads git_merge_file's diff3 output: the port's side of each conflict kept. */
static int read_merge(merged *m, const char *text, size_t len)
{
	size_t at = 0, next, line = 0, cap = 0;
	int part = 0; /* 0 clean, 1 ours, 2 base, 3 theirs */

	memset(m, 0, sizeof(*m));
	for (; at < len; at = next) {
		const char *l = text + at;

		next = line_end(text, len, at);
		if (part == 0 && is_marker(l, next - at, '<')) {
			if (m->n == cap) {
				size_t *s = realloc(m->start, (cap * 2 + 4) * sizeof(*s)), *n;

				if (s)
					m->start = s;
				if (!s || !(n = realloc(m->lines, (cap * 2 + 4) * sizeof(*n))))
					return util_error_set(UTIL_ENOMEM, "out of memory");
				m->lines = n;
				cap = cap * 2 + 4;
			}
			m->start[m->n] = line;
			m->lines[m->n] = 0;
			part = 1;
		} else if (part == 1 && is_marker(l, next - at, '|')) {
			part = 2;
		} else if ((part == 1 || part == 2) && is_marker(l, next - at, '=')) {
			part = 3;
		} else if (part == 3 && is_marker(l, next - at, '>')) {
			m->n++;
			part = 0;
		} else if (part == 0 || part == 1) {
			util_buf_put(&m->ours, l, next - at);
			line++;
			if (part == 1)
				m->lines[m->n]++;
		}
	}
	util_buf_puts(&m->ours, "");
	if (part != 0)
		return util_error_set(UTIL_ERROR, "the merge left a conflict unterminated");
	return util_buf_oom(&m->ours) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}

/* A line of the new side of hunks as a line of their old side: inside a
 * hunk, its start (or for an end, its end). */
static size_t map_back(const rv_hunks *hunks, size_t pos, bool end)
{
	long long delta = 0;
	size_t i, line = end ? pos - 1 : pos;

	if (end && pos == 0)
		return 0;
	for (i = 0; i < hunks->count; i++) {
		const rv_hunk *h = &hunks->items[i];

		if (h->new_lines && line >= h->new_start && line < h->new_start + h->new_lines)
			return end ? h->old_start + h->old_lines : h->old_start;
		if (h->new_start + h->new_lines < line || (h->new_start + h->new_lines == line && (h->new_lines || end)))
			delta += (long long)h->new_lines - (long long)h->old_lines;
	}
	return (size_t)((long long)line - delta) + (end ? 1 : 0);
}

/* Grows each region over the proposal's hunks it meets, and joins regions
 * that meet, until none does. */
static void settle(region *r, size_t *n, const rv_hunks *st)
{
	bool again = true;
	size_t i, k;

	while (again) {
		again = false;
		for (k = 0; k < *n; k++)
			for (i = 0; i < st->count; i++) {
				const rv_hunk *h = &st->items[i];

				if (!rv_ranges_meet(r[k].start, r[k].end - r[k].start, h->old_start, h->old_lines) ||
				    (h->old_start >= r[k].start && h->old_start + h->old_lines <= r[k].end))
					continue;
				r[k].start = h->old_start < r[k].start ? h->old_start : r[k].start;
				if (h->old_start + h->old_lines > r[k].end)
					r[k].end = h->old_start + h->old_lines;
				again = true;
			}
		for (k = 0; k + 1 < *n; k++) {
			if (!rv_ranges_meet(r[k].start, r[k].end - r[k].start, r[k + 1].start, r[k + 1].end - r[k + 1].start))
				continue;
			if (r[k + 1].end > r[k].end)
				r[k].end = r[k + 1].end;
			r[k].last = r[k + 1].last;
			r[k].conflict = r[k].conflict || r[k + 1].conflict;
			memmove(&r[k + 1], &r[k + 2], (*n - k - 2) * sizeof(*r));
			(*n)--;
			again = true;
		}
	}
}

/* The lines of the port in a region: the new proposal's [t0, t1), with the
 * differences first..last as the merge has them. */
static void region_text(util_buf *out, const sy_inputs *in, const merged *m, const rv_hunks *to, const region *g,
			size_t t0, size_t t1)
{
	size_t pos = t0, j;

	for (j = g->first; j <= g->last; j++) {
		const rv_hunk *h = &to->items[j];

		if (h->old_start > pos)
			rv_lines_copy(out, in->theirs, in->theirs_len, pos, h->old_start - pos);
		rv_lines_copy(out, m->ours.ptr, m->ours.len, h->new_start, h->new_lines);
		pos = h->old_start + h->old_lines > pos ? h->old_start + h->old_lines : pos;
	}
	if (t1 > pos)
		rv_lines_copy(out, in->theirs, in->theirs_len, pos, t1 - pos);
	util_buf_puts(out, "");
}

static bool meets_any(const rv_hunks *hunks, size_t start, size_t lines)
{
	size_t i;

	for (i = 0; i < hunks->count; i++)
		if (rv_ranges_meet(start, lines, hunks->items[i].new_start, hunks->items[i].new_lines))
			return true;
	return false;
}

static bool same_lines(const char *text, size_t len, size_t start, size_t count, const char *other)
{
	util_buf lines = UTIL_BUF_INIT;
	bool same;

	rv_lines_copy(&lines, text, len, start, count);
	same = strcmp(lines.ptr ? lines.ptr : "", other) == 0 && !util_buf_oom(&lines);
	util_buf_dispose(&lines);
	return same;
}

static bool is_region(const rv_hunk *h, const rv_hunks *st)
{
	size_t i;

	if (strcmp(h->key, unkeyed) != 0)
		return false;
	for (i = 0; i < st->count; i++) /* exactly one hunk: no region to keep */
		if (st->items[i].old_start == h->old_start && st->items[i].old_lines == h->old_lines &&
		    st->items[i].new_lines == h->new_lines)
			return false;
	return true;
}

/* The decision of each hunk of all (the proposal's, regions taken in). */
static int decide(sy_merge *out, const sy_inputs *in, const merged *m, const rv_hunks *st, const rv_hunks *bt,
		  const rv_hunks *to, const region *regions, size_t nregions, rv_hunks *all, rv_decision *d,
		  const char **texts)
{
	size_t i, g = 0;

	for (i = 0; i < all->count; i++) {
		rv_hunk *h = &all->items[i];
		bool upstream = meets_any(bt, h->new_start, h->new_lines);
		util_buf text = UTIL_BUF_INIT, base = UTIL_BUF_INIT;
		rv_session_hunk *sh;
		bool clean = false;

		if (strcmp(h->key, unkeyed) != 0) { /* a hunk of the proposal the merge left as proposed */
			d[i] = upstream ? RV_PENDING : RV_ACCEPTED;
			out->proposed += upstream;
			out->carried += !upstream;
			if (upstream)
				continue;
		} else {
			const region *r = &regions[g++];

			region_text(&text, in, m, to, r, h->new_start, h->new_start + h->new_lines);
			/* what upstream changed gets in by a decision only: a clean merge there is confirmed */
			d[i] = r->conflict || upstream ? RV_CONFLICT
			       : same_lines(in->source, in->source_len, h->old_start, h->old_lines, text.ptr) ? RV_REJECTED
			       : RV_EDITED;
			if (d[i] == RV_CONFLICT) {
				size_t b0 = map_back(bt, h->new_start, false);
				size_t b1 = h->new_lines ? map_back(bt, h->new_start + h->new_lines, true) : b0;

				rv_lines_copy(&base, in->base, in->base_len, b0, b1 > b0 ? b1 - b0 : 0);
				util_buf_puts(&base, "");
			}
			clean = d[i] == RV_CONFLICT && !r->conflict;
			out->conflicts += r->conflict;
			out->merged += !r->conflict && upstream;
			out->carried += !r->conflict && !upstream;
			out->edits_kept += d[i] != RV_REJECTED;
			if (is_region(h, st)) {
				rv_session_region *reg = &out->regions[out->nregions++];

				reg->start = h->old_start;
				reg->lines = h->old_lines;
				rv_hunk_set_key(h, in->source, in->source_len, in->theirs, in->theirs_len);
				memcpy(reg->key, h->key, 17);
			} else {
				rv_hunk_set_key(h, in->source, in->source_len, in->theirs, in->theirs_len);
			}
		}
		sh = &out->hunks[out->nhunks++];
		memcpy(sh->key, h->key, 17);
		sh->decision = d[i];
		sh->clean = clean;
		if (d[i] == RV_EDITED || d[i] == RV_CONFLICT) {
			sh->text = util_buf_detach(&text);
			texts[i] = sh->text;
			if (d[i] == RV_CONFLICT)
				sh->base = util_buf_detach(&base);
		}
		util_buf_dispose(&text);
		util_buf_dispose(&base);
		if ((d[i] == RV_EDITED || d[i] == RV_CONFLICT) && (!sh->text || (d[i] == RV_CONFLICT && !sh->base)))
			return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	return 0;
}

/* The decisions must give back what the merge made (a pending hunk taken as
 * proposed): else the merge is not what the review would show. */
static int verify(const sy_inputs *in, const merged *m, const rv_hunks *all, rv_decision *d, const char **texts)
{
	util_buf made = UTIL_BUF_INIT;
	size_t i;
	int error;

	for (i = 0; i < all->count; i++)
		if (d[i] == RV_PENDING)
			d[i] = RV_ACCEPTED;
	error = rv_hunks_compose(&made, in->source, in->source_len, in->theirs, in->theirs_len, all, d, texts);
	if (error == 0 && (made.len != m->ours.len || memcmp(made.ptr ? made.ptr : "", m->ours.ptr, made.len) != 0))
		error = util_error_set(UTIL_ERROR, "the merge's decisions do not give back the merge");
	util_buf_dispose(&made);
	return error;
}

static int merge_text(git_merge_file_result *r, const sy_inputs *in)
{
	git_merge_file_input base, ours, theirs;
	git_merge_file_options opts;

	git_merge_file_input_init(&base, GIT_MERGE_FILE_INPUT_VERSION);
	git_merge_file_input_init(&ours, GIT_MERGE_FILE_INPUT_VERSION);
	git_merge_file_input_init(&theirs, GIT_MERGE_FILE_INPUT_VERSION);
	base.ptr = in->base;
	base.size = in->base_len;
	ours.ptr = in->ours;
	ours.size = in->ours_len;
	theirs.ptr = in->theirs;
	theirs.size = in->theirs_len;
	git_merge_file_options_init(&opts, GIT_MERGE_FILE_OPTIONS_VERSION);
	opts.flags = GIT_MERGE_FILE_STYLE_DIFF3;
	opts.marker_size = MARKER;
	if (git_merge_file(r, &base, &ours, &theirs, &opts) < 0)
		return util_error_set(UTIL_ERROR, "merge failed: %s",
				      git_error_last() ? git_error_last()->message : "libgit2 gave no reason");
	return 0;
}

/* The regions where the merge differs from the new proposal. */
static int find_regions(region **out, size_t *n, const merged *m, const rv_hunks *st, const rv_hunks *to)
{
	size_t j, c;

	*n = 0;
	if (!(*out = calloc(to->count + 1, sizeof(**out))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (j = 0; j < to->count; j++) {
		const rv_hunk *h = &to->items[j];
		region *r = &(*out)[(*n)++];

		r->start = map_back(st, h->old_start, false);
		r->end = h->old_lines ? map_back(st, h->old_start + h->old_lines, true) : r->start;
		if (r->end < r->start)
			r->end = r->start;
		r->first = r->last = j;
		for (c = 0; c < m->n; c++)
			r->conflict = r->conflict || rv_ranges_meet(h->new_start, h->new_lines, m->start[c], m->lines[c]);
	}
	settle(*out, n, st);
	return 0;
}

int sy_merge_file(sy_merge *out, const sy_inputs *in)
{
	git_merge_file_result r;
	merged m;
	rv_hunks st = { NULL, 0 }, bt = { NULL, 0 }, to = { NULL, 0 }, all = { NULL, 0 };
	rv_session_file f;
	region *regions = NULL;
	rv_decision *d = NULL;
	const char **texts = NULL;
	size_t n = 0, i;
	int error;

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	memset(&m, 0, sizeof(m));
	memset(&f, 0, sizeof(f));
	if (any_marker(in->base, in->base_len) || any_marker(in->ours, in->ours_len) ||
	    any_marker(in->theirs, in->theirs_len))
		return util_error_set(UTIL_EINPUT, "holds a line of %d '<', '|', '=' or '>', as a merge marker", MARKER);
	if ((error = merge_text(&r, in)) < 0 || (error = read_merge(&m, r.ptr ? r.ptr : "", r.len)) < 0 ||
	    (error = rv_hunks_make(&st, in->source, in->source_len, in->theirs, in->theirs_len)) < 0 ||
	    (error = rv_hunks_make(&bt, in->base, in->base_len, in->theirs, in->theirs_len)) < 0 ||
	    (error = rv_hunks_make(&to, in->theirs, in->theirs_len, m.ours.ptr, m.ours.len)) < 0 ||
	    (error = find_regions(&regions, &n, &m, &st, &to)) < 0)
		goto done;
	/* the proposal's hunks with the regions taken in, as the session will have them */
	f.regions = calloc(n + 1, sizeof(*f.regions));
	out->regions = calloc(n + 1, sizeof(*out->regions));
	if (!f.regions || !out->regions) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < n; i++)
		f.regions[f.nregions++] = (rv_session_region){ regions[i].start, regions[i].end - regions[i].start,
								"0000000000000000" };
	if ((error = rv_session_hunks(&f, &st, &all)) < 0)
		goto done;
	d = calloc(all.count + 1, sizeof(*d));
	texts = calloc(all.count + 1, sizeof(*texts));
	out->hunks = calloc(all.count + 1, sizeof(*out->hunks));
	if (!d || !texts || !out->hunks) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	if ((error = decide(out, in, &m, &st, &bt, &to, regions, n, &all, d, texts)) == 0 &&
	    (error = verify(in, &m, &all, d, texts)) == 0) {
		out->result_len = m.ours.len;
		out->result = util_buf_detach(&m.ours);
	}
done:
	if (error < 0)
		sy_merge_dispose(out);
	git_merge_file_result_free(&r);
	merged_dispose(&m);
	rv_hunks_dispose(&st);
	rv_hunks_dispose(&bt);
	rv_hunks_dispose(&to);
	rv_hunks_dispose(&all);
	free(f.regions);
	free(regions);
	free(d);
	free(texts);
	return error;
}

void sy_merge_dispose(sy_merge *m)
{
	size_t i;

	for (i = 0; i < m->nhunks; i++) {
		free(m->hunks[i].text);
		free(m->hunks[i].base);
	}
	free(m->hunks);
	free(m->regions);
	free(m->result);
	memset(m, 0, sizeof(*m));
}
