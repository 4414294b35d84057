#include "check/record/printed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text launch l printed, NUL-terminated, or NULL. */
static char *load(const char *dir, const chk_rec_launch *l)
{
	return l->printed ? chk_rec_file_read(dir, l->printed_file, l->printed) : strdup("");
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of text, sorted; text is cut up. */
static char **lines_of(char *text, size_t *n)
{
	size_t cap = 1;
	char **v, *p;

	for (p = text; *p; p++)
		cap += *p == '\n';
	if (!(v = malloc(cap * sizeof(*v))))
		return NULL;
	*n = 0;
	for (p = text; *p;) {
		char *nl = strchr(p, '\n');

		v[(*n)++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	qsort(v, *n, sizeof(*v), by_text);
	return v;
}

/* Whether two lines say the same: equal, or equal but for numbers within 1e-5. */
static bool same_line(const char *x, const char *y)
{
	while (*x && *y) {
		char *ex, *ey;
		double a = strtod(x, &ex), b = strtod(y, &ey);

		if (ex > x && ey > y) {
			if (!(fabs(a - b) <= 1e-5 + 1e-5 * fabs(a)) && !(a != a && b != b))
				return false;
			x = ex;
			y = ey;
			continue;
		}
		if (*x++ != *y++)
			return false;
	}
	return *x == *y;
}

bool rec_printed_same(const char *dir_a, const chk_rec_launch *a, const char *dir_b, const chk_rec_launch *b,
		      char *why, size_t size)
{
	char *ta, *tb, **la = NULL, **lb = NULL;
	size_t na = 0, nb = 0, i;
	bool same = false;

	if (a->printed == b->printed && a->printed_hash == b->printed_hash)
		return true;
	ta = load(dir_a, a);
	tb = load(dir_b, b);
	if (!ta || !tb) {
		snprintf(why, size, "printed %zu bytes and %zu: %s/%s is missing", a->printed, b->printed,
			 !ta ? dir_a : dir_b, !ta ? a->printed_file : b->printed_file);
		goto done;
	}
	if (!(la = lines_of(ta, &na)) || !(lb = lines_of(tb, &nb))) {
		snprintf(why, size, "out of memory comparing what was printed");
		goto done;
	}
	for (i = 0; i < na && i < nb && same_line(la[i], lb[i]); i++)
		;
	same = i == na && i == nb;
	if (!same)
		snprintf(why, size, "printed %zu lines, the original %zu; sorted, line %zu differs: expected \"%.120s\", "
				    "got \"%.120s\"",
			 nb, na, i, i < na ? la[i] : "(none)", i < nb ? lb[i] : "(none)");
done:
	free(la);
	free(lb);
	free(ta);
	free(tb);
	return same;
}
