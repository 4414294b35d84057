/* cmd_draft_from_includers(): a header's unlaunched kernels drafted from
 * the translation units that include it (check_draft_includers.h). */
#include "cmd/check_draft_includers.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

#define INCLUDE_LEVELS 3 /* the header, a header including it, a third */

/* Whether text has an #include whose quoted name is path or ends in
 * "/" + path's last component with the directories that name gives
 * matching path's (include "kernels/x.cuh" of src/kernels/x.cuh). */
static bool includes_file(const char *text, size_t len, const char *path)
{
	const char *p = text, *end = text + len;

	while (p < end && (p = memmem(p, (size_t)(end - p), "#include", 8))) {
		const char *q = p + 8, *close;
		size_t nlen, plen = strlen(path);

		p = q;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= end || *q != '"' || !(close = memchr(q + 1, '"', (size_t)(end - q - 1))))
			continue;
		q++;
		nlen = (size_t)(close - q);
		while (nlen > 3 && !strncmp(q, "../", 3)) { /* matched by what follows the climb */
			q += 3;
			nlen -= 3;
		}
		while (nlen > 2 && !strncmp(q, "./", 2)) {
			q += 2;
			nlen -= 2;
		}
		if (nlen && nlen <= plen && !memcmp(path + plen - nlen, q, nlen) &&
		    (nlen == plen || path[plen - nlen - 1] == '/'))
			return true;
	}
	return false;
}

static bool is_source(const char *path)
{
	static const char *const ext[] = { ".cu", ".cuh", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".hip", NULL };
	const char *dot = strrchr(path, '.');
	size_t i;

	for (i = 0; dot && ext[i]; i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

/* all's files that include one of the level's (marked in level), into next. */
static int includers_of(bool *next, const bool *level, bool *seen, const vcs_walk *all, cmd_draft_read_fn read,
			void *payload, util_buf *texts)
{
	size_t i, k;
	int error;

	for (i = 0; i < all->nfiles; i++) {
		if (seen[i] || !is_source(all->files[i].path))
			continue;
		if (!texts[i].ptr && (error = read(&texts[i], &all->files[i], payload)) < 0) {
			util_error_clear(); /* unreadable: not an includer */
			seen[i] = true;
			continue;
		}
		for (k = 0; k < all->nfiles; k++)
			if (level[k] && includes_file(texts[i].ptr ? texts[i].ptr : "", texts[i].len, all->files[k].path)) {
				next[i] = seen[i] = true;
				break;
			}
	}
	return 0;
}

/* Moves the launched specs of kernel among drafted[0..nd) to the end of
 * *specs, *moved of them. */
static int adopt(chk_spec **specs, size_t *n, chk_spec *drafted, size_t nd, const char *kernel, size_t *moved)
{
	size_t i;

	*moved = 0;
	for (i = 0; i < nd; i++) {
		chk_spec *m;

		if (!drafted[i].launch || !drafted[i].kernel || strcmp(drafted[i].kernel, kernel) != 0)
			continue;
		if (!(m = realloc(*specs, (*n + 1) * sizeof(**specs))))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		*specs = m;
		m[(*n)++] = drafted[i];
		memset(&drafted[i], 0, sizeof(drafted[i]));
		(*moved)++;
	}
	return 0;
}

int cmd_draft_from_includers(chk_spec **specs, size_t *n, const vcs_file *f, const vcs_walk *all,
			     cmd_draft_read_fn read, void *payload, const chk_draft_options *options)
{
	bool *level = NULL, *next = NULL, *seen = NULL, *replaced = NULL;
	util_buf *texts = NULL;
	size_t i, k, depth, nneeded = 0, norig = *n;
	int error = 0;

	for (i = 0; i < norig; i++)
		nneeded += !(*specs)[i].launch;
	if (!nneeded || !all->nfiles)
		return 0;
	if (!(level = calloc(all->nfiles, sizeof(*level))) || !(next = calloc(all->nfiles, sizeof(*next))) ||
	    !(seen = calloc(all->nfiles, sizeof(*seen))) || !(texts = calloc(all->nfiles, sizeof(*texts))) ||
	    !(replaced = calloc(norig, sizeof(*replaced)))) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < all->nfiles; i++)
		if (!strcmp(all->files[i].path, f->path))
			level[i] = seen[i] = true;
	for (depth = 0; depth < INCLUDE_LEVELS && nneeded && error == 0; depth++) {
		memset(next, 0, all->nfiles * sizeof(*next));
		if ((error = includers_of(next, level, seen, all, read, payload, texts)) < 0)
			break;
		for (i = 0; i < all->nfiles && nneeded && error == 0; i++) {
			chk_spec *drafted = NULL;
			size_t nd = 0, moved;

			if (!next[i])
				continue;
			if ((error = chk_draft_with(&drafted, &nd, all->files[i].path, all->files[i].fs_path, texts[i].ptr,
						    texts[i].len, options)) < 0) {
				util_error_clear(); /* an includer that does not parse drafts nothing */
				error = 0;
				continue;
			}
			for (k = 0; k < norig && error == 0; k++) {
				if (replaced[k] || (*specs)[k].launch || !(*specs)[k].kernel)
					continue;
				if ((error = adopt(specs, n, drafted, nd, (*specs)[k].kernel, &moved)) == 0 && moved) {
					replaced[k] = true; /* removed below */
					nneeded--;
				}
			}
			for (k = 0; k < nd; k++)
				chk_spec_dispose(&drafted[k]);
			free(drafted);
		}
		memcpy(level, next, all->nfiles * sizeof(*level));
	}
	/* drop the replaced specs */
	for (i = k = 0; i < *n; i++) {
		if (i < norig && replaced[i])
			chk_spec_dispose(&(*specs)[i]);
		else
			(*specs)[k++] = (*specs)[i];
	}
	*n = k;
done:
	for (i = 0; texts && i < all->nfiles; i++)
		util_buf_dispose(&texts[i]);
	free(texts);
	free(level);
	free(next);
	free(seen);
	free(replaced);
	return error;
}
