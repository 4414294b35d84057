#include "review/hunks.h"

#include <git2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* Byte offset of line `line` (0-based) in text, or len past the end. */
static size_t line_offset(const char *text, size_t len, size_t line)
{
	size_t off = 0;

	while (line > 0 && off < len) {
		const char *nl = memchr(text + off, '\n', len - off);

		if (!nl)
			return len;
		off = (size_t)(nl - text) + 1;
		line--;
	}
	return line ? len : off;
}

void rv_lines_copy(util_buf *out, const char *text, size_t len, size_t start, size_t count)
{
	size_t from = line_offset(text, len, start), to = line_offset(text, len, start + count);

	util_buf_put(out, text + from, to - from);
}

static void hash_lines(uint64_t *h, const char *text, size_t len, size_t start, size_t count)
{
	size_t from = line_offset(text, len, start), to = line_offset(text, len, start + count), i;

	for (i = from; i < to; i++) {
		*h ^= (unsigned char)text[i];
		*h *= 1099511628211ULL; /* FNV-1a */
	}
}

bool rv_ranges_meet(size_t a, size_t n, size_t b, size_t m)
{
	if (n && m)
		return a < b + m && b < a + n;
	return b <= a + n && a <= b + m;
}

void rv_hunk_set_key(rv_hunk *h, const char *source, size_t source_len, const char *port, size_t port_len)
{
	uint64_t hash = 14695981039346656037ULL;

	hash_lines(&hash, source, source_len, h->old_start, h->old_lines);
	hash ^= 0xff;
	hash *= 1099511628211ULL;
	hash_lines(&hash, port, port_len, h->new_start, h->new_lines);
	snprintf(h->key, sizeof(h->key), "%016llx", (unsigned long long)hash);
}

int rv_hunks_make(rv_hunks *out, const char *source, size_t source_len, const char *port, size_t port_len)
{
	git_diff_options opts;
	git_patch *patch = NULL;
	size_t i, n;

	memset(out, 0, sizeof(*out));
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 0;
	opts.interhunk_lines = 0;
	if (git_patch_from_buffers(&patch, source, source_len, NULL, port, port_len, NULL, &opts) < 0)
		return util_error_set(UTIL_ERROR, "diff failed: %s", git_error_last() ? git_error_last()->message : "?");
	n = git_patch_num_hunks(patch);
	out->items = calloc(n ? n : 1, sizeof(*out->items));
	if (!out->items) {
		git_patch_free(patch);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		const git_diff_hunk *gh;
		size_t lines;
		rv_hunk *h = &out->items[i];

		if (git_patch_get_hunk(&gh, &lines, patch, i) < 0)
			continue;
		/* an insertion or a deletion names the line after which it happens */
		h->old_lines = (size_t)gh->old_lines;
		h->new_lines = (size_t)gh->new_lines;
		h->old_start = gh->old_lines ? (size_t)gh->old_start - 1 : (size_t)gh->old_start;
		h->new_start = gh->new_lines ? (size_t)gh->new_start - 1 : (size_t)gh->new_start;
		rv_hunk_set_key(h, source, source_len, port, port_len);
		out->count++;
	}
	git_patch_free(patch);
	return 0;
}

size_t rv_hunk_pieces(const rv_hunk *h)
{
	return h->old_lines > h->new_lines ? h->old_lines : h->new_lines;
}

void rv_hunk_piece(const rv_hunk *h, size_t i, rv_hunk *out)
{
	size_t pairs = h->old_lines < h->new_lines ? h->old_lines : h->new_lines, k;
	uint64_t hash = 14695981039346656037ULL;
	char place[24];

	memset(out, 0, sizeof(*out));
	if (i < pairs) {
		*out = (rv_hunk){ .old_start = h->old_start + i, .old_lines = 1, .new_start = h->new_start + i,
				  .new_lines = 1 };
	} else if (h->old_lines > h->new_lines) { /* removed after the pairs, before the next port line */
		*out = (rv_hunk){ .old_start = h->old_start + i, .old_lines = 1, .new_start = h->new_start + pairs,
				  .new_lines = 0 };
	} else { /* added after the pairs' source lines */
		*out = (rv_hunk){ .old_start = h->old_start + pairs, .old_lines = 0, .new_start = h->new_start + i,
				  .new_lines = 1 };
	}
	snprintf(place, sizeof(place), ":%zu", i);
	for (k = 0; h->key[k]; k++) {
		hash ^= (unsigned char)h->key[k];
		hash *= 1099511628211ULL;
	}
	for (k = 0; place[k]; k++) {
		hash ^= (unsigned char)place[k];
		hash *= 1099511628211ULL;
	}
	snprintf(out->key, sizeof(out->key), "%016llx", (unsigned long long)hash);
	memcpy(out->parent, h->key, sizeof(out->parent));
}

void rv_hunks_fingerprint(const rv_hunks *hunks, char out[17])
{
	uint64_t hash = 14695981039346656037ULL;
	const char *last = NULL;
	size_t i, k;

	for (i = 0; i < hunks->count; i++) {
		const char *key = hunks->items[i].parent[0] ? hunks->items[i].parent : hunks->items[i].key;

		if (last && strcmp(last, key) == 0)
			continue; /* the next piece of the same hunk */
		for (k = 0; key[k]; k++) {
			hash ^= (unsigned char)key[k];
			hash *= 1099511628211ULL;
		}
		hash ^= 0xff;
		hash *= 1099511628211ULL;
		last = key;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)hash);
}

void rv_hunks_dispose(rv_hunks *hunks)
{
	free(hunks->items);
	memset(hunks, 0, sizeof(*hunks));
}

int rv_hunks_compose(util_buf *out, const char *source, size_t source_len, const char *port, size_t port_len,
		     const rv_hunks *hunks, const rv_decision *decisions, const char *const *texts)
{
	size_t line = 0, i;

	for (i = 0; i < hunks->count; i++) {
		const rv_hunk *h = &hunks->items[i];

		rv_lines_copy(out, source, source_len, line, h->old_start - line);
		if (decisions[i] == RV_ACCEPTED)
			rv_lines_copy(out, port, port_len, h->new_start, h->new_lines);
		else if ((decisions[i] == RV_EDITED || decisions[i] == RV_CONFLICT) && texts && texts[i])
			util_buf_puts(out, texts[i]);
		else
			rv_lines_copy(out, source, source_len, h->old_start, h->old_lines);
		line = h->old_start + h->old_lines;
	}
	rv_lines_copy(out, source, source_len, line, SIZE_MAX / 2);
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}

const char *rv_decision_name(rv_decision d)
{
	switch (d) {
	case RV_ACCEPTED:
		return "accepted";
	case RV_REJECTED:
		return "rejected";
	case RV_EDITED:
		return "edited";
	case RV_CONFLICT:
		return "conflict";
	default:
		return "pending";
	}
}

int rv_decision_parse(const char *name)
{
	static const rv_decision all[] = { RV_PENDING, RV_ACCEPTED, RV_REJECTED, RV_EDITED, RV_CONFLICT };
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(name, rv_decision_name(all[i])) == 0)
			return (int)all[i];
	return -1;
}
