/* hipport scan --format sarif: SARIF 2.1.0, for code-scanning services. */
#include <jansson.h>
#include <string.h>

#include "cmd/scan.h"
#include "util/buf.h"

static const char *sarif_level(an_severity s)
{
	return s == AN_ERROR ? "error" : s == AN_WARNING ? "warning" : "note";
}

/* Percent-encodes a relative path for an artifact URI. */
static char *uri_of(const char *path)
{
	util_buf b = UTIL_BUF_INIT;
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p))
			util_buf_putc(&b, (char)*p);
		else
			util_buf_printf(&b, "%%%02X", *p);
	}
	return util_buf_detach(&b);
}

static json_t *rules_json(void)
{
	json_t *rules = json_array();
	const an_catalog_entry *all;
	size_t n, i;

	all = an_catalog_all(&n);
	for (i = 0; i < n; i++)
		json_array_append_new(rules, json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}}", "id",
						       all[i].id, "name", all[i].id, "shortDescription", "text",
						       all[i].title, "fullDescription", "text", all[i].description,
						       "help", "text", all[i].action, "defaultConfiguration", "level",
						       sarif_level(all[i].severity)));
	return rules;
}

/* The finding's fix as SARIF fixes: byte ranges of the file replaced. */
static json_t *fixes_json(const an_finding *fd, const char *uri, bool rooted)
{
	json_t *replacements = json_array();
	size_t i;

	for (i = 0; i < fd->nedits; i++)
		json_array_append_new(replacements,
				      json_pack("{s:{s:i, s:i}, s:{s:o}}", "deletedRegion", "charOffset",
						(json_int_t)fd->edits[i].offset, "charLength", (json_int_t)fd->edits[i].length,
						"insertedContent", "text", scan_json_text(fd->edits[i].text)));
	return json_pack("[{s:{s:o}, s:[{s:{s:s, s:s*}, s:o}]}]", "description", "text", scan_json_text(fd->fix),
			 "artifactChanges",
			 "artifactLocation", "uri", uri, "uriBaseId", rooted ? "SRCROOT" : NULL, "replacements",
			 replacements);
}

static int rule_index(const char *id)
{
	const an_catalog_entry *all;
	size_t n, i;

	all = an_catalog_all(&n);
	for (i = 0; i < n; i++)
		if (strcmp(all[i].id, id) == 0)
			return (int)i;
	return -1;
}

int scan_print_sarif(FILE *out, const scan_report *r)
{
	json_t *results = json_array(), *notes = json_array(), *run, *doc, *base;
	size_t i, k;

	for (i = 0; i < r->nfiles; i++) {
		const scan_file *f = &r->files[i];
		char *uri = uri_of(f->p->path);

		for (k = 0; k < f->nfindings; k++) {
			const an_finding *fd = &f->findings[k];
			json_t *result = json_pack("{s:s, s:i, s:s, s:{s:o}, s:[{s:{s:{s:s, s:s*}, s:{s:i, s:i, s:i}}}]}",
					  "ruleId", fd->id, "ruleIndex", rule_index(fd->id), "level",
					  sarif_level(fd->severity), "message", "text", scan_json_text(fd->message),
					  "locations",
					  "physicalLocation", "artifactLocation", "uri", uri, "uriBaseId",
					  r->set->walk.root ? "SRCROOT" : NULL,
					  "region", "startLine", fd->line, "startColumn", fd->col, "endColumn",
					  fd->end_col);

			if (result && fd->fix)
				json_object_set_new(result, "fixes", fixes_json(fd, uri, r->set->walk.root != NULL));
			json_array_append_new(results, result);
		}
		free(uri);
	}
	for (i = 0; i < r->set->walk.nnotes; i++)
		json_array_append_new(notes, json_pack("{s:{s:o}, s:s}", "message", "text", scan_json_text(r->set->walk.notes[i]),
						       "level", "note"));
	for (i = 0; i < r->set->n; i++)
		if (r->set->items[i].state == RV_PROPOSAL_BAD_INPUT)
			json_array_append_new(notes, json_pack("{s:{s:o}, s:s}", "message", "text",
							       scan_json_text(r->set->items[i].message), "level",
							       r->set->walk.files[i].named ? "error" : "warning"));
	run = json_pack("{s:{s:{s:s, s:s, s:o}}, s:o, s:[{s:b, s:o}]}", "tool", "driver", "name", "hipport",
			"version", HIPPORT_VERSION, "rules", rules_json(), "results", results, "invocations", "executionSuccessful",
			!r->set->named_bad, "toolExecutionNotifications", notes);
	if (r->set->walk.root) {
		char *root_uri = uri_of(r->set->walk.root);
		util_buf b = UTIL_BUF_INIT;

		util_buf_printf(&b, "file://%s", root_uri);
		base = json_pack("{s:{s:s}}", "SRCROOT", "uri", b.ptr);
		json_object_set_new(run, "originalUriBaseIds", base);
		util_buf_dispose(&b);
		free(root_uri);
	}
	doc = json_pack("{s:s, s:s, s:[o]}", "$schema", "https://json.schemastore.org/sarif-2.1.0.json",
			"version", "2.1.0", "runs", run);
	return scan_print_document(out, doc);
}
