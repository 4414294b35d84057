#include "port/rules.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "port/rules_builtin.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/file.h"

#define RULE_FIELDS 15

typedef struct rule_entry {
	port_rule rule;
	UT_hash_handle hh;
} rule_entry;

/* One loaded file: its text, cut into NUL-terminated fields in place. */
typedef struct rule_text {
	char *name;
	char *data;
	struct rule_text *next;
} rule_text;

struct port_rules {
	rule_entry *identifiers;
	rule_entry *headers;
	rule_entry *namespaces;
	rule_text *texts;
	struct port_rules *torch[2]; /* torch-v1.tsv, torch-v2.tsv */
	size_t count;
	port_version newest_hip;
	unsigned long long hash; /* FNV-1a over every loaded text */
	char digest[17];
};

/* Families load in this order; a name defined twice keeps its first
 * definition, except that overrides.tsv (always last) replaces. */
static const char *const family_order[] = {
	"runtime.tsv", "driver.tsv", "device.tsv", "complex.tsv", "blas.tsv", "rand.tsv",
	"dnn.tsv", "fft.tsv", "sparse.tsv", "solver.tsv", "cub.tsv", "rtc.tsv", NULL
};

static const struct {
	const char *name;
	port_rule_kind kind;
} kind_names[] = {
	{ "function", PORT_RULE_FUNCTION }, { "type", PORT_RULE_TYPE },
	{ "constant", PORT_RULE_CONSTANT }, { "warp_sync", PORT_RULE_WARP_SYNC },
	{ "header", PORT_RULE_HEADER }, { "namespace", PORT_RULE_NAMESPACE },
	{ "qualified", PORT_RULE_QUALIFIED },
};

static rule_entry **table_for(port_rules *rules, port_rule_kind kind)
{
	if (kind == PORT_RULE_HEADER)
		return &rules->headers;
	if (kind == PORT_RULE_NAMESPACE)
		return &rules->namespaces;
	return &rules->identifiers;
}

static const char *field_or_null(const char *field)
{
	return strcmp(field, "-") == 0 ? NULL : field;
}

static int parse_version_field(port_version *out, const char *field, const char *file, unsigned line,
			       const char *column)
{
	if (strcmp(field, "-") == 0) {
		*out = 0;
		return 0;
	}
	if (port_version_parse(out, field, strlen(field)) < 0)
		return util_error_set(UTIL_EINPUT, "%s:%u: bad %s version '%s'", file, line, column, field);
	return 0;
}

static int parse_flag_field(bool *out, const char *field, const char *file, unsigned line,
			    const char *column)
{
	if (strcmp(field, "0") != 0 && strcmp(field, "1") != 0)
		return util_error_set(UTIL_EINPUT, "%s:%u: %s must be 0 or 1, not '%s'", file, line, column,
				      field);
	*out = field[0] == '1';
	return 0;
}

static int parse_row(port_rule *rule, char **f, const char *file, unsigned line)
{
	static const char *const version_columns[6] = { "cuda_added", "cuda_deprecated", "cuda_removed",
							 "hip_added", "hip_deprecated", "hip_removed" };
	port_version *versions[6] = { &rule->cuda_added, &rule->cuda_deprecated, &rule->cuda_removed,
				      &rule->hip_added, &rule->hip_deprecated, &rule->hip_removed };
	size_t i;
	int error;

	memset(rule, 0, sizeof(*rule));
	rule->file = file;
	rule->line = line;
	if (strcmp(f[0], "-") == 0 || f[0][0] == '\0')
		return util_error_set(UTIL_EINPUT, "%s:%u: empty CUDA name", file, line);
	rule->cuda = f[0];
	rule->hip = field_or_null(f[1]);
	rule->roc = field_or_null(f[2]);
	rule->kind_name = f[3];
	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (strcmp(f[3], kind_names[i].name) == 0)
			break;
	if (i == sizeof(kind_names) / sizeof(kind_names[0]))
		return util_error_set(UTIL_EINPUT, "%s:%u: unknown kind '%s'", file, line, f[3]);
	rule->kind = kind_names[i].kind;
	rule->family = f[4];
	for (i = 0; i < 6; i++)
		if ((error = parse_version_field(versions[i], f[5 + i], file, line, version_columns[i])) < 0)
			return error;
	if ((error = parse_flag_field(&rule->experimental, f[11], file, line, "experimental")) < 0 ||
	    (error = parse_flag_field(&rule->unsupported, f[12], file, line, "unsupported")) < 0)
		return error;
	rule->call = field_or_null(f[13]);
	rule->fallback = field_or_null(f[14]);
	if (rule->unsupported && rule->hip && rule->kind != PORT_RULE_HEADER)
		return util_error_set(UTIL_EINPUT, "%s:%u: '%s' is marked unsupported but has a HIP name",
				      file, line, rule->cuda);
	return 0;
}

static int add_rule(port_rules *rules, const port_rule *rule, bool replace)
{
	rule_entry **table = table_for(rules, rule->kind), *old = NULL, *entry;

	HASH_FIND_STR(*table, rule->cuda, old);
	if (old && !replace)
		return 0;
	entry = calloc(1, sizeof(*entry));
	if (!entry)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	entry->rule = *rule;
	if (old) {
		HASH_DEL(*table, old);
		free(old);
		rules->count--;
	}
	HASH_ADD_KEYPTR(hh, *table, entry->rule.cuda, strlen(entry->rule.cuda), entry);
	rules->count++;
	if (rule->kind != PORT_RULE_HEADER && rule->hip_added > rules->newest_hip)
		rules->newest_hip = rule->hip_added;
	return 0;
}

/* Parses one file's text; text->data is cut up in place and kept. */
static int load_text(port_rules *rules, rule_text *text, bool replace)
{
	char *line = text->data;
	unsigned lineno = 0;
	int error;

	while (line && *line) {
		char *end = strchr(line, '\n'), *f[RULE_FIELDS], *p;
		size_t n = 0;
		port_rule rule;

		lineno++;
		if (end)
			*end = '\0';
		if (end && end > line && end[-1] == '\r')
			end[-1] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			goto next;
		for (p = line;; ) {
			char *tab = strchr(p, '\t');

			if (n < RULE_FIELDS)
				f[n] = p;
			n++;
			if (!tab)
				break;
			*tab = '\0';
			p = tab + 1;
		}
		if (n != RULE_FIELDS)
			return util_error_set(UTIL_EINPUT, "%s:%u: expected %d tab-separated fields, found %zu",
					      text->name, lineno, RULE_FIELDS, n);
		if ((error = parse_row(&rule, f, text->name, lineno)) < 0)
			return error;
		if ((error = add_rule(rules, &rule, replace)) < 0)
			return error;
next:
		line = end ? end + 1 : NULL;
	}
	return 0;
}

/* 0 for torch-v1.tsv, 1 for torch-v2.tsv, -1 for the other files. */
static int torch_index(const char *name)
{
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	if (strcmp(base, "torch-v1.tsv") == 0)
		return 0;
	if (strcmp(base, "torch-v2.tsv") == 0)
		return 1;
	return -1;
}

static int add_text(port_rules *rules, const char *name, const char *data, size_t len)
{
	rule_text *text = calloc(1, sizeof(*text));
	int torch;

	if (!text)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	text->name = strdup(name);
	text->data = malloc(len + 1);
	if (!text->name || !text->data) {
		free(text->name);
		free(text->data);
		free(text);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	memcpy(text->data, data, len);
	text->data[len] = '\0';
	{
		size_t i;

		if (!rules->hash)
			rules->hash = 1469598103934665603ull;
		for (i = 0; i < len; i++)
			rules->hash = (rules->hash ^ (unsigned char)data[i]) * 1099511628211ull;
		snprintf(rules->digest, sizeof(rules->digest), "%016llx", rules->hash);
	}
	text->next = rules->texts;
	rules->texts = text;
	if ((torch = torch_index(name)) >= 0) {
		if (!rules->torch[torch] && !(rules->torch[torch] = calloc(1, sizeof(*rules))))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		return load_text(rules->torch[torch], text, false);
	}
	return load_text(rules, text, strstr(name, "overrides.tsv") != NULL);
}

static int order_of(const char *name)
{
	const char *base = strrchr(name, '/');
	int i;

	base = base ? base + 1 : name;
	if (strcmp(base, "overrides.tsv") == 0)
		return 1000;
	for (i = 0; family_order[i]; i++)
		if (strcmp(base, family_order[i]) == 0)
			return i;
	return 100;
}

static int compare_names(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int ox = order_of(x), oy = order_of(y);

	return ox != oy ? ox - oy : strcmp(x, y);
}

int port_rules_load_builtin(port_rules **out)
{
	const char *names[64];
	size_t n = 0, i, k;
	port_rules *rules;
	int error = 0;

	*out = NULL;
	rules = calloc(1, sizeof(*rules));
	if (!rules)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; port_rules_builtin[i].name && n < 64; i++)
		names[n++] = port_rules_builtin[i].name;
	qsort(names, n, sizeof(names[0]), compare_names);
	for (i = 0; i < n && !error; i++)
		for (k = 0; port_rules_builtin[k].name; k++)
			if (port_rules_builtin[k].name == names[i])
				error = add_text(rules, names[i], port_rules_builtin[k].data,
						 port_rules_builtin[k].len);
	if (error < 0) {
		port_rules_free(rules);
		return error;
	}
	*out = rules;
	return 0;
}

int port_rules_load_dir(port_rules **out, const char *dir)
{
	util_buf path = UTIL_BUF_INIT, data = UTIL_BUF_INIT;
	char **names = NULL;
	size_t n = 0, i;
	struct dirent *de;
	port_rules *rules = NULL;
	DIR *d;
	int error = 0;

	*out = NULL;
	d = opendir(dir);
	if (!d)
		return util_error_set(UTIL_ENOTFOUND, "%s: cannot open rules directory", dir);
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		char **grown;

		if (len < 5 || strcmp(de->d_name + len - 4, ".tsv") != 0)
			continue;
		grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown || !(grown[n] = strdup(de->d_name))) {
			names = grown ? grown : names;
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			break;
		}
		names = grown;
		n++;
	}
	closedir(d);
	if (!error && n == 0)
		error = util_error_set(UTIL_EINPUT, "%s: no rule files (*.tsv)", dir);
	if (!error && !(rules = calloc(1, sizeof(*rules))))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	if (!error)
		qsort(names, n, sizeof(*names), compare_names);
	for (i = 0; i < n && !error; i++) {
		util_buf_clear(&path);
		util_buf_printf(&path, "%s/%s", dir, names[i]);
		if ((error = util_file_read(&data, path.ptr, 0)) < 0)
			break;
		error = add_text(rules, path.ptr, data.ptr, data.len);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	util_buf_dispose(&path);
	util_buf_dispose(&data);
	if (error < 0) {
		port_rules_free(rules);
		return error;
	}
	*out = rules;
	return 0;
}

static const port_rule *find_in(rule_entry *table, const char *name, size_t len)
{
	rule_entry *entry = NULL;

	HASH_FIND(hh, table, name, len, entry);
	return entry ? &entry->rule : NULL;
}

const port_rule *port_rules_find(const port_rules *rules, const char *name, size_t len)
{
	return find_in(rules->identifiers, name, len);
}

const port_rule *port_rules_find_header(const port_rules *rules, const char *name, size_t len)
{
	return find_in(rules->headers, name, len);
}

const port_rule *port_rules_find_namespace(const port_rules *rules, const char *name, size_t len)
{
	return find_in(rules->namespaces, name, len);
}

port_torch port_torch_convention(port_version torch_version)
{
	return torch_version >= PORT_VERSION(2, 11, 0) ? PORT_TORCH_V2 : PORT_TORCH_V1;
}

const port_rules *port_rules_torch(const port_rules *rules, port_torch convention)
{
	if (convention == PORT_TORCH_V1)
		return rules->torch[0];
	if (convention == PORT_TORCH_V2)
		return rules->torch[1];
	return NULL;
}

const port_rule *port_rules_find_header_folder(const port_rules *rules, const char *name, size_t len)
{
	rule_entry *e, *tmp;
	const port_rule *best = NULL;
	size_t best_len = 0;

	HASH_ITER(hh, rules->headers, e, tmp) {
		size_t n = strlen(e->rule.cuda);

		/* the folder ATen/cuda matches ATen/cuda/X, not ATen/cudnn/X; the longest folder wins */
		if (n >= 2 && memcmp(e->rule.cuda + n - 2, "/*", 2) == 0 && len > n - 1 &&
		    memcmp(e->rule.cuda, name, n - 1) == 0 && n > best_len) {
			best = &e->rule;
			best_len = n;
		}
	}
	return best;
}

const port_rule *port_rules_find_by_target(const port_rules *rules, const char *name)
{
	rule_entry *tables[3] = { rules->identifiers, rules->headers, rules->namespaces }, *e, *tmp;
	const port_rule *roc_match = NULL;
	size_t i;

	for (i = 0; i < 3; i++) {
		HASH_ITER(hh, tables[i], e, tmp) {
			if (e->rule.hip && strcmp(e->rule.hip, name) == 0 && strcmp(e->rule.cuda, name) != 0)
				return &e->rule;
			if (!roc_match && e->rule.roc && strcmp(e->rule.roc, name) == 0)
				roc_match = &e->rule;
		}
	}
	return roc_match;
}

void port_rules_each(const port_rules *rules, void (*fn)(const port_rule *rule, void *payload), void *payload)
{
	rule_entry *tables[3] = { rules->identifiers, rules->headers, rules->namespaces }, *e, *tmp;
	size_t i;

	for (i = 0; i < 3; i++)
		HASH_ITER(hh, tables[i], e, tmp)
			fn(&e->rule, payload);
}

size_t port_rules_count(const port_rules *rules)
{
	return rules->count;
}

const char *port_rules_digest(const port_rules *rules)
{
	return rules->digest;
}

port_version port_rules_newest_hip(const port_rules *rules)
{
	return rules->newest_hip;
}

static void free_table(rule_entry **table)
{
	rule_entry *e, *tmp;

	HASH_ITER(hh, *table, e, tmp) {
		HASH_DEL(*table, e);
		free(e);
	}
}

void port_rules_free(port_rules *rules)
{
	rule_text *t, *next;

	if (!rules)
		return;
	free_table(&rules->identifiers);
	free_table(&rules->headers);
	free_table(&rules->namespaces);
	port_rules_free(rules->torch[0]);
	port_rules_free(rules->torch[1]);
	for (t = rules->texts; t; t = next) {
		next = t->next;
		free(t->name);
		free(t->data);
		free(t);
	}
	free(rules);
}
