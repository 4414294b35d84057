/* hipport scan --format json: the report documented in docs/scan-json.md. */
#include <jansson.h>
#include <string.h>

#include "cmd/scan.h"
#include "util/text.h"

static json_t *family_counts(const rv_proposal *p)
{
	json_t *by = json_object();
	size_t i;

	for (i = 0; i < p->port.nrefs; i++) {
		const port_ref *r = &p->port.refs[i];
		json_t *fam = json_object_get(by, r->rule->family);
		const char *key = port_ref_is_problem(r) ? "unconverted" : "converted";

		if (!fam) {
			fam = json_pack("{s:i, s:i}", "converted", 0, "unconverted", 0);
			json_object_set_new(by, r->rule->family, fam);
		}
		json_object_set_new(fam, key, json_integer(json_integer_value(json_object_get(fam, key)) + 1));
	}
	return by;
}

/* A fix: its title and its edits as byte ranges of the source. */
static json_t *fix_json(const an_finding *fd)
{
	json_t *edits = json_array();
	size_t i;

	for (i = 0; i < fd->nedits; i++)
		json_array_append_new(edits, json_pack("{s:i, s:i, s:o, s:s*}", "offset", (json_int_t)fd->edits[i].offset,
						       "length", (json_int_t)fd->edits[i].length, "text",
						       scan_json_text(fd->edits[i].text), "helper", fd->edits[i].helper));
	return json_pack("{s:o, s:o}", "title", scan_json_text(fd->fix), "edits", edits);
}

static json_t *findings_json(const scan_file *f)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < f->nfindings; i++) {
		const an_finding *fd = &f->findings[i];

		json_t *item = json_pack("{s:s, s:s, s:i, s:i, s:i, s:o, s:o*, s:s*}", "id", fd->id, "severity",
					 an_severity_name(fd->severity), "line", fd->line, "column", fd->col,
					 "end_column", fd->end_col, "message", scan_json_text(fd->message), "name",
					 scan_json_text(fd->name), "family",
					 fd->family);

		if (item && fd->fix)
			json_object_set_new(item, "fix", fix_json(fd));
		json_array_append_new(a, item);
	}
	return a;
}

static void add_to(json_t *obj, const char *key, json_int_t n)
{
	json_object_set_new(obj, key, json_integer(json_integer_value(json_object_get(obj, key)) + n));
}

json_t *scan_json_text(const char *text)
{
	char *utf8;
	json_t *s;

	if (!text)
		return NULL;
	if (!(utf8 = util_text_utf8_dup(text, strlen(text))))
		return NULL;
	s = json_string(utf8);
	free(utf8);
	return s;
}

int scan_print_document(FILE *out, json_t *doc)
{
	int error;

	if (!doc)
		return -1;
	error = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
	return error;
}

int scan_print_json(FILE *out, const scan_report *r)
{
	json_t *files = json_array(), *skipped = json_array(), *doc, *totals, *findings, *effort;
	char target[32];
	size_t i, k;

	totals = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "files", 0, "lines", 0, "lines_added", 0,
			   "lines_removed", 0, "references_converted", 0, "references_unconverted", 0,
			   "findings_with_fixes", 0, "findings_by_hand", 0);
	findings = json_pack("{s:i, s:i, s:i}", "error", 0, "warning", 0, "note", 0);
	effort = json_pack("{s:i, s:i, s:i}", "automatic", 0, "review", 0, "manual", 0);
	for (i = 0; i < r->nfiles; i++) {
		const scan_file *f = &r->files[i];
		const rv_proposal *p = f->p;

		json_array_append_new(
			files, json_pack("{s:o, s:i, s:i, s:i, s:i, s:i, s:b, s:s, s:i, s:i, s:{s:i, s:i, s:o}, s:o}",
					 "path", scan_json_text(p->path), "lines", p->lines, "lines_added", p->additions, "lines_removed",
					 p->deletions, "kernels", p->port.kernels, "launches", p->port.launches,
					 "runtime_header_inserted", p->port.header_inserted, "effort", f->effort,
					 "findings_with_fixes", (json_int_t)f->fixable, "findings_by_hand", (json_int_t)f->manual,
					 "references", "converted", f->converted, "unconverted", f->unconverted,
					 "by_family", family_counts(p), "findings", findings_json(f)));
		add_to(totals, "files", 1);
		add_to(totals, "findings_with_fixes", (json_int_t)f->fixable);
		add_to(totals, "findings_by_hand", (json_int_t)f->manual);
		add_to(totals, "lines", (json_int_t)p->lines);
		add_to(totals, "lines_added", (json_int_t)p->additions);
		add_to(totals, "lines_removed", (json_int_t)p->deletions);
		add_to(totals, "references_converted", (json_int_t)f->converted);
		add_to(totals, "references_unconverted", (json_int_t)f->unconverted);
		add_to(effort, f->effort, 1);
		for (k = 0; k < f->nfindings; k++)
			add_to(findings, an_severity_name(f->findings[k].severity), 1);
	}
	json_object_set_new(totals, "findings", findings);
	json_object_set_new(totals, "effort", effort);
	for (i = 0; i < r->set->walk.nnotes; i++)
		json_array_append_new(skipped, json_pack("{s:o}", "note", scan_json_text(r->set->walk.notes[i])));
	for (i = 0; i < r->set->n; i++)
		if (r->set->items[i].state == RV_PROPOSAL_BAD_INPUT)
			json_array_append_new(skipped, json_pack("{s:o, s:o}", "path", scan_json_text(r->set->items[i].path),
								 "note", scan_json_text(r->set->items[i].message)));
	port_version_format(target, sizeof(target), r->ctx->port.target_hip);
	doc = json_pack("{s:s, s:i, s:{s:s, s:s}, s:s, s:{s:s, s:b, s:b, s:b}, s:o?, s:o, s:o, s:o}",
			"schema", "hipport-scan", "version", 1, "tool", "name", "hipport", "version",
			HIPPORT_VERSION, "target_hip", target, "options", "kernel_launch",
			r->ctx->port.launch == PORT_LAUNCH_HIP ? "hip" : "keep", "roc", r->ctx->port.roc,
			"experimental", r->ctx->port.experimental, "cache", !r->ctx->no_cache, "root",
			scan_json_text(r->set->walk.root), "files", files, "skipped", skipped, "totals", totals);
	return scan_print_document(out, doc);
}
