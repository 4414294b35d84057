#include "analyze/finding.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* Whether the id appears in a list of ids ("API-001, API-005"). */
bool an_id_listed(const char *list, size_t len, const char *id)
{
	size_t n = strlen(id), i = 0;

	while (i < len) {
		size_t start;

		while (i < len && (list[i] == ',' || list[i] == ' ' || list[i] == '\t'))
			i++;
		start = i;
		while (i < len && list[i] != ',' && list[i] != ' ' && list[i] != '\t')
			i++;
		if (i - start == n && memcmp(list + start, id, n) == 0)
			return true;
	}
	return false;
}

bool an_suppressed_on_line(const char *src, size_t len, size_t offset, const char *id)
{
	static const char marker[] = "hipport: ignore";
	const char *line = src + offset, *end = src + offset, *m;

	while (line > src && line[-1] != '\n')
		line--;
	while (end < src + len && *end != '\n')
		end++;
	m = memmem(line, (size_t)(end - line), marker, sizeof(marker) - 1);
	if (!m)
		return false;
	m += sizeof(marker) - 1;
	/* the ids run to the end of the comment */
	{
		const char *stop = m;

		while (stop < end && !(stop + 1 < end && stop[0] == '*' && stop[1] == '/'))
			stop++;
		return an_id_listed(m, (size_t)(stop - m), id);
	}
}

static int finding_order(const void *a, const void *b)
{
	const an_finding *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return strcmp(x->id, y->id);
}

int an_findings_of(an_finding **out, size_t *count, const char *src, size_t len, const port_result *port,
		   const an_analysis *analysis, const port_options *opts)
{
	an_finding *f = NULL;
	size_t i, n = 0;
	util_buf msg = UTIL_BUF_INIT;

	*out = NULL;
	*count = 0;
	for (i = 0; i < port->nrefs; i++)
		n += port_ref_is_problem(&port->refs[i]);
	n += analysis->count;
	if (!n)
		return 0;
	f = calloc(n, sizeof(*f));
	if (!f)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	n = 0;
	for (i = 0; i < port->nrefs; i++) {
		const port_ref *r = &port->refs[i];

		if (!port_ref_is_problem(r) || an_suppressed_on_line(src, len, r->offset, port_ref_finding_id(r)))
			continue;
		util_buf_clear(&msg);
		port_ref_message(&msg, r, opts);
		f[n].id = port_ref_finding_id(r);
		f[n].severity = an_catalog_find(f[n].id) ? an_catalog_find(f[n].id)->severity : AN_ERROR;
		f[n].line = r->line;
		f[n].col = r->col;
		f[n].end_col = r->col + r->length;
		f[n].offset = r->offset;
		f[n].length = r->length;
		f[n].message = strdup(msg.ptr ? msg.ptr : "");
		f[n].name = r->rule->cuda;
		f[n].family = r->rule->family;
		if (!f[n].message)
			goto oom;
		n++;
	}
	for (i = 0; i < analysis->count; i++) {
		const an_hit *h = &analysis->hits[i];

		if (an_suppressed_on_line(src, len, h->offset, h->id))
			continue;
		f[n].id = h->id;
		f[n].severity = h->severity;
		f[n].line = h->line;
		f[n].col = h->col;
		f[n].end_col = h->end_col;
		f[n].offset = h->offset;
		f[n].length = h->length;
		f[n].edits = h->edits;
		f[n].nedits = h->nedits;
		f[n].fix = h->nedits ? an_fix_title(h->id) : NULL;
		if (!(f[n].message = strdup(h->message)))
			goto oom;
		n++;
	}
	util_buf_dispose(&msg);
	qsort(f, n, sizeof(*f), finding_order);
	*out = f;
	*count = n;
	return 0;
oom:
	an_findings_free(f, n);
	util_buf_dispose(&msg);
	return util_error_set(UTIL_ENOMEM, "out of memory");
}

void an_findings_free(an_finding *findings, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(findings[i].message);
	free(findings);
}

const char *an_severity_name(an_severity s)
{
	return s == AN_ERROR ? "error" : s == AN_WARNING ? "warning" : "note";
}

int an_severity_parse(const char *text)
{
	if (strcmp(text, "error") == 0)
		return AN_ERROR;
	if (strcmp(text, "warning") == 0)
		return AN_WARNING;
	if (strcmp(text, "note") == 0)
		return AN_NOTE;
	return -1;
}
