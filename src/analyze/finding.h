/* Findings: what a rename cannot get right, with a stable id, a severity and
 * a place: the references the rules could not convert, and the analyzer's hits. */
#ifndef HIPPORT_ANALYZE_FINDING_H
#define HIPPORT_ANALYZE_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/analysis.h"
#include "port/translate.h"

typedef struct an_finding {
	const char *id;  /* "API-001" */
	an_severity severity;
	unsigned line, col, end_col;
	char *message;
	const char *name;   /* the CUDA name concerned, or NULL */
	const char *family; /* the API family, or NULL */
	const char *fix;    /* the title of its fix, or NULL when it has none */
	const an_edit *edits; /* the fix's edits on the source (borrowed from the proposal) */
	size_t nedits;
	uint32_t offset, length; /* the range in the source */
} an_finding;

typedef struct an_catalog_entry {
	const char *id;
	an_severity severity;
	const char *title;
	const char *description; /* why it matters */
	const char *action;      /* what to do */
	const char *cost;        /* the fix's measured cost, or NULL */
} an_catalog_entry;

/* The finding catalog (share/findings/catalog.txt, compiled in): ids,
 * default severities, descriptions. Loaded on first use; NULL / 0 entries if
 * it cannot be (an_catalog_error says why). */
const an_catalog_entry *an_catalog_find(const char *id);
const an_catalog_entry *an_catalog_all(size_t *count);
const char *an_catalog_error(void);
/* Parses catalog text (cut up in place) into entries; for tests and the loader. */
int an_catalog_parse(an_catalog_entry **out, size_t *count, char *text, const char *name);

/* Whether id is in a list of ids separated by commas or blanks. */
bool an_id_listed(const char *list, size_t len, const char *id);
/* Whether the source line holding offset says "hipport: ignore ID[,ID...]" for id. */
bool an_suppressed_on_line(const char *src, size_t len, size_t offset, const char *id);

/* The findings of a source's port: the references its rules could not
 * convert and the analyzer's hits, in source order (caller frees with
 * an_findings_free). The edits are borrowed from analysis. */
int an_findings_of(an_finding **out, size_t *count, const char *src, size_t len, const port_result *port,
		   const an_analysis *analysis, const port_options *opts);
void an_findings_free(an_finding *findings, size_t count);

const char *an_severity_name(an_severity s);
/* Parses "error", "warning", "note"; -1 if none of them. */
int an_severity_parse(const char *text);

#endif
