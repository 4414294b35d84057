/* Internal to hipport scan: the per-file results its three formats print. */
#ifndef HIPPORT_CMD_SCAN_H
#define HIPPORT_CMD_SCAN_H

#include <jansson.h>
#include <stdio.h>

#include "analyze/finding.h"
#include "cmd/propose.h"

typedef struct scan_file {
	const rv_proposal *p;
	an_finding *findings;
	size_t nfindings;
	size_t converted, unconverted; /* references */
	size_t fixable;                /* findings with a fix */
	size_t manual;                 /* errors and warnings without one */
	const char *effort;            /* automatic, review or manual */
} scan_file;

typedef struct scan_report {
	const cmd_context *ctx;
	const cmd_proposals *set;
	scan_file *files; /* the files that hold CUDA, in path order */
	size_t nfiles;
} scan_report;

int scan_print_json(FILE *out, const scan_report *r);
/* Prints doc indented, with a final newline, and releases it. */
int scan_print_document(FILE *out, json_t *doc);
/* A JSON string of text that may hold bytes that are not UTF-8 (a source's
 * Latin-1 comment, a path): those bytes read as Windows-1252. NULL for NULL. */
json_t *scan_json_text(const char *text);
int scan_print_sarif(FILE *out, const scan_report *r);

#endif
