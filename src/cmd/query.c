/* hipport query NAME...: what the rules say of a CUDA (or HIP) name. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"

typedef struct lookup {
	const char *name;
	const port_rule *rule;
	bool reverse; /* name is the HIP/ROC side of rule */
} lookup;

static lookup find_name(const port_rules *rules, const char *name)
{
	lookup l = { name, NULL, false };
	size_t n = strlen(name);

	if ((l.rule = port_rules_find(rules, name, n)) ||
	    (l.rule = port_rules_find_header(rules, name, n)) ||
	    (l.rule = port_rules_find_namespace(rules, name, n)))
		return l;
	if ((l.rule = port_rules_find_by_target(rules, name)))
		l.reverse = true;
	return l;
}

/* What translation does with the rule for the given options. */
static const char *verdict(const port_rule *r, const port_options *opts)
{
	if (r->experimental && !opts->experimental)
		return "experimental";
	if (opts->roc && r->roc)
		return "converted";
	if (!r->hip)
		return r->kind == PORT_RULE_HEADER && !r->unsupported ? "dropped" : "unsupported";
	if (r->hip_removed && opts->target_hip >= r->hip_removed)
		return "removed";
	if (r->hip_added && opts->target_hip < r->hip_added)
		return r->fallback ? "fallback" : "too-new";
	return "converted";
}

static void put_version(util_buf *out, const char *label, port_version v)
{
	char text[32];

	if (!v)
		return;
	port_version_format(text, sizeof(text), v);
	util_buf_printf(out, ", %s %s", label, text);
}

static void print_text(const lookup *l, const port_options *opts)
{
	const port_rule *r = l->rule;
	const char *v = verdict(r, opts);
	util_buf line = UTIL_BUF_INIT;
	char target[32];

	port_version_format(target, sizeof(target), opts->target_hip);
	if (l->reverse)
		util_buf_printf(&line, "%s is the %s name of %s: ", l->name,
				r->hip && strcmp(r->hip, l->name) == 0 ? "HIP" : "ROC", r->cuda);
	util_buf_printf(&line, "%s -> %s", r->cuda, r->hip ? r->hip : (r->kind == PORT_RULE_HEADER && !r->unsupported) ? "(removed)" : "unsupported");
	util_buf_printf(&line, " (%s, %s", r->kind_name, r->family);
	put_version(&line, "HIP added", r->hip_added);
	put_version(&line, "deprecated", r->hip_deprecated);
	put_version(&line, "removed", r->hip_removed);
	put_version(&line, "CUDA added", r->cuda_added);
	put_version(&line, "CUDA deprecated", r->cuda_deprecated);
	put_version(&line, "CUDA removed", r->cuda_removed);
	if (r->experimental)
		util_buf_puts(&line, ", experimental");
	util_buf_putc(&line, ')');
	if (r->roc)
		util_buf_printf(&line, "; ROC: %s", r->roc);
	if (strcmp(v, "converted") != 0)
		util_buf_printf(&line, "; for HIP %s: %s%s%s", target, v, r->fallback ? " -> " : "",
				r->fallback && strcmp(v, "fallback") == 0 ? r->fallback : "");
	puts(line.ptr);
	util_buf_dispose(&line);
}

static json_t *version_json(port_version v)
{
	char text[32];

	if (!v)
		return json_null();
	port_version_format(text, sizeof(text), v);
	return json_string(text);
}

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *lookup_json(const lookup *l, const port_options *opts)
{
	const port_rule *r = l->rule;

	if (!r)
		return json_pack("{s:s, s:b}", "name", l->name, "found", 0);
	return json_pack("{s:s, s:b, s:s, s:o, s:o, s:s, s:s, s:{s:o, s:o, s:o}, s:{s:o, s:o, s:o}, "
			 "s:b, s:b, s:o, s:o, s:s}",
			 "name", l->name, "found", 1, "cuda", r->cuda, "hip", string_or_null(r->hip),
			 "roc", string_or_null(r->roc), "kind", r->kind_name, "family", r->family,
			 "cuda_versions", "added", version_json(r->cuda_added), "deprecated",
			 version_json(r->cuda_deprecated), "removed", version_json(r->cuda_removed),
			 "hip_versions", "added", version_json(r->hip_added), "deprecated",
			 version_json(r->hip_deprecated), "removed", version_json(r->hip_removed),
			 "experimental", r->experimental, "unsupported", r->unsupported,
			 "call", string_or_null(r->call), "fallback", string_or_null(r->fallback),
			 "for_target", verdict(r, opts));
}

int cmd_query(cmd_context *ctx)
{
	json_t *array = NULL;
	bool json, missing = false;
	int code, i;
	char target[32];

	if (ctx->nargs < 1)
		return cmd_fail(CMD_EXIT_USAGE, "query: expected at least one NAME (see 'hipport query --help')");
	json = ctx->format && strcmp(ctx->format, "json") == 0;
	if (ctx->format && !json && strcmp(ctx->format, "text") != 0)
		return cmd_fail(CMD_EXIT_USAGE, "query: --format must be text or json, not '%s'", ctx->format);
	if ((code = cmd_load_rules(ctx)) != 0)
		return code;
	if (json)
		array = json_array();
	for (i = 0; i < ctx->nargs; i++) {
		lookup l = find_name(ctx->rules, ctx->args[i]);

		if (!l.rule)
			missing = true;
		if (json)
			json_array_append_new(array, lookup_json(&l, &ctx->port));
		else if (l.rule)
			print_text(&l, &ctx->port);
		else
			printf("%s: not a known CUDA or HIP name\n", l.name);
	}
	if (json) {
		json_t *doc;

		port_version_format(target, sizeof(target), ctx->port.target_hip);
		doc = json_pack("{s:i, s:s, s:o}", "version", 1, "target_hip", target, "results", array);
		json_dumpf(doc, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
		json_decref(doc);
	}
	return missing ? CMD_EXIT_FINDINGS : CMD_EXIT_OK;
}
