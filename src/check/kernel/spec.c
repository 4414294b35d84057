#include "check/kernel/spec.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"
#include "util/file.h"

static const char *const role_names[] = { "in", "out", "inout", "scalar" };
static const char *const init_names[] = { "uniform", "constant", "iota", "file" };

const char *chk_role_name(chk_role role)
{
	return role_names[role];
}

static const struct {
	const char *type;
	chk_dtype dtype;
	unsigned lanes;
} type_table[] = {
	{ "__half", CHK_F16, 1 }, { "half", CHK_F16, 1 }, { "_Float16", CHK_F16, 1 },
	{ "__half2", CHK_F16, 2 }, { "half2", CHK_F16, 2 },
	{ "__nv_bfloat16", CHK_BF16, 1 }, { "nv_bfloat16", CHK_BF16, 1 }, { "__hip_bfloat16", CHK_BF16, 1 },
	{ "hip_bfloat16", CHK_BF16, 1 }, { "__bf16", CHK_BF16, 1 },
	{ "__nv_bfloat162", CHK_BF16, 2 }, { "nv_bfloat162", CHK_BF16, 2 }, { "__hip_bfloat162", CHK_BF16, 2 },
	{ "float", CHK_F32, 1 }, { "float2", CHK_F32, 2 }, { "float3", CHK_F32, 3 }, { "float4", CHK_F32, 4 },
	{ "double", CHK_F64, 1 }, { "double2", CHK_F64, 2 }, { "double4", CHK_F64, 4 },
	{ "char", CHK_I8, 1 }, { "signed char", CHK_I8, 1 }, { "int8_t", CHK_I8, 1 },
	{ "unsigned char", CHK_U8, 1 }, { "uint8_t", CHK_U8, 1 }, { "bool", CHK_U8, 1 },
	{ "short", CHK_I16, 1 }, { "int16_t", CHK_I16, 1 },
	{ "unsigned short", CHK_U16, 1 }, { "uint16_t", CHK_U16, 1 },
	{ "int", CHK_I32, 1 }, { "int32_t", CHK_I32, 1 }, { "int2", CHK_I32, 2 }, { "int4", CHK_I32, 4 },
	{ "unsigned", CHK_U32, 1 }, { "unsigned int", CHK_U32, 1 }, { "uint32_t", CHK_U32, 1 },
	{ "uint", CHK_U32, 1 }, { "uint2", CHK_U32, 2 }, { "uint4", CHK_U32, 4 },
	{ "long", CHK_I64, 1 }, { "long long", CHK_I64, 1 }, { "int64_t", CHK_I64, 1 },
	{ "ptrdiff_t", CHK_I64, 1 }, { "long int", CHK_I64, 1 }, { "long long int", CHK_I64, 1 },
	{ "unsigned long", CHK_U64, 1 }, { "unsigned long long", CHK_U64, 1 }, { "uint64_t", CHK_U64, 1 },
	{ "size_t", CHK_U64, 1 }, { "unsigned long int", CHK_U64, 1 }, { "unsigned long long int", CHK_U64, 1 },
};

int chk_type_dtype(const char *type, unsigned *lanes)
{
	size_t i;

	for (i = 0; i < sizeof(type_table) / sizeof(type_table[0]); i++)
		if (strcmp(type_table[i].type, type) == 0) {
			*lanes = type_table[i].lanes;
			return (int)type_table[i].dtype;
		}
	return -1;
}

static void arg_dispose(chk_arg *a)
{
	free(a->name);
	free(a->type);
	free(a->count);
	free(a->value);
	free(a->offset);
	free(a->accessor);
	free(a->sizes);
	free(a->init_file);
	free(a->init_path);
	free(a->init_from);
}

void chk_spec_dispose(chk_spec *spec)
{
	size_t i;

	for (i = 0; i < spec->nargs; i++)
		arg_dispose(&spec->args[i]);
	for (i = 0; i < spec->nvars; i++) {
		free(spec->vars[i].name);
		free(spec->vars[i].type);
		free(spec->vars[i].value);
	}
	for (i = 0; i < spec->nglobals; i++)
		arg_dispose(&spec->globals[i]);
	for (i = 0; i < spec->nmarks; i++) {
		free(spec->marks[i].section);
		free(spec->marks[i].sub);
		free(spec->marks[i].key);
		free(spec->marks[i].why);
	}
	free(spec->marks);
	free(spec->globals);
	free(spec->launch);
	free(spec->guessed);
	free(spec->undraftable);
	free(spec->args);
	free(spec->vars);
	free(spec->name);
	free(spec->source);
	free(spec->kernel);
	free(spec->templ);
	free(spec->grid);
	free(spec->block);
	free(spec->shared);
	free(spec->setup);
	free(spec->comment);
	memset(spec, 0, sizeof(*spec));
}

static chk_arg *add_arg(chk_arg **items, size_t *n, const char *name, chk_role role)
{
	chk_arg *m = realloc(*items, (*n + 1) * sizeof(*m)), *a;

	if (!m)
		return NULL;
	*items = m;
	a = &m[*n];
	memset(a, 0, sizeof(*a));
	a->lanes = 1;
	a->role = role;
	a->dtype = CHK_F32;
	if (!(a->name = strdup(name)))
		return NULL;
	(*n)++;
	return a;
}

chk_arg *chk_spec_add_arg(chk_spec *spec, const char *name)
{
	return add_arg(&spec->args, &spec->nargs, name, CHK_ROLE_SCALAR);
}

chk_arg *chk_spec_add_global(chk_spec *spec, const char *name)
{
	return add_arg(&spec->globals, &spec->nglobals, name, CHK_ROLE_OUT);
}

chk_var *chk_spec_add_var(chk_spec *spec, const char *name, const char *type, const char *value)
{
	chk_var *m = realloc(spec->vars, (spec->nvars + 1) * sizeof(*m)), *v;

	if (!m)
		return NULL;
	spec->vars = m;
	v = &m[spec->nvars];
	v->name = strdup(name);
	v->type = strdup(type ? type : "int");
	v->value = strdup(value ? value : "0");
	spec->nvars++;
	if (!v->name || !v->type || !v->value)
		return NULL;
	return v;
}

static bool same_key(const chk_mark *m, const char *section, const char *sub, const char *key)
{
	return !strcmp(m->section, section) && !strcmp(m->key, key) &&
	       (sub ? m->sub && !strcmp(m->sub, sub) : !m->sub);
}

const chk_mark *chk_spec_mark_of(const chk_spec *spec, const char *section, const char *sub, const char *key)
{
	size_t i;

	for (i = 0; i < spec->nmarks; i++)
		if (same_key(&spec->marks[i], section, sub, key))
			return &spec->marks[i];
	return NULL;
}

void chk_spec_unmark(chk_spec *spec, const char *section, const char *sub, const char *key)
{
	size_t i;

	for (i = 0; i < spec->nmarks; i++)
		if (same_key(&spec->marks[i], section, sub, key)) {
			free(spec->marks[i].section);
			free(spec->marks[i].sub);
			free(spec->marks[i].key);
			free(spec->marks[i].why);
			spec->marks[i] = spec->marks[--spec->nmarks];
			return;
		}
}

int chk_spec_mark(chk_spec *spec, const char *section, const char *sub, const char *key, const char *why)
{
	chk_mark *m = (chk_mark *)chk_spec_mark_of(spec, section, sub, key);
	char *text = strdup(why), *p;

	if (!text)
		return -1;
	/* a comment ends at the line's end */
	for (p = text; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	if (m) {
		free(m->why);
		m->why = text;
		return 0;
	}
	if (!(m = realloc(spec->marks, (spec->nmarks + 1) * sizeof(*m)))) {
		free(text);
		return -1;
	}
	spec->marks = m;
	m = &m[spec->nmarks];
	m->section = strdup(section);
	m->sub = sub ? strdup(sub) : NULL;
	m->key = strdup(key);
	m->why = text;
	spec->nmarks++;
	return m->section && m->key && (!sub || m->sub) ? 0 : -1;
}

/* The 1-based line of `key` in section [section "sub"] of text, or of the
 * section header when key is NULL; 0 when not found. */
static unsigned line_of(const char *text, const char *section, const char *sub, const char *key)
{
	const char *p = text;
	unsigned line = 1;
	int inside = 0;

	for (; p && *p; line++) {
		const char *end = strchr(p, '\n'), *q = p;
		size_t n = end ? (size_t)(end - p) : strlen(p);

		while (q < p + n && isspace((unsigned char)*q))
			q++;
		if (*q == '[') {
			char header[256];
			size_t sl = strlen(section);

			snprintf(header, sizeof(header), "%.*s", (int)(p + n - q), q);
			inside = strncasecmp(header + 1, section, sl) == 0 &&
				 (sub ? header[1 + sl] == ' ' && strstr(header + sl, sub) != NULL
				      : header[1 + sl] == ']');
			if (inside && !key)
				return line;
		} else if (inside && key && strncasecmp(q, key, strlen(key)) == 0 &&
			   (q[strlen(key)] == ' ' || q[strlen(key)] == '=' || q[strlen(key)] == '\t')) {
			return line;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}

typedef struct reader {
	const char *path;
	util_buf text;
	chk_spec *spec;
	char *order; /* check.args */
} reader;

/* A spec error, at the line of key in [section "sub"] where it is found. */
static int bad(reader *r, const char *section, const char *sub, const char *key, const char *fmt, ...)
	UTIL_PRINTF(5, 6);

static int bad(reader *r, const char *section, const char *sub, const char *key, const char *fmt, ...)
{
	unsigned line = line_of(r->text.ptr ? r->text.ptr : "", section, sub, key);
	util_buf msg = UTIL_BUF_INIT;
	va_list ap;
	int code;

	va_start(ap, fmt);
	util_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	if (line)
		code = util_error_set(UTIL_EINPUT, "%s:%u: %s", r->path, line, msg.ptr ? msg.ptr : "bad spec");
	else
		code = util_error_set(UTIL_EINPUT, "%s: %s", r->path, msg.ptr ? msg.ptr : "bad spec");
	util_buf_dispose(&msg);
	return code;
}

static int set_string(char **field, const char *value)
{
	free(*field);
	*field = strdup(value);
	return *field ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
}

static int parse_number(double *out, const char *s)
{
	char *end;

	*out = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	return end != s && !*end ? 0 : -1;
}

/* The [arg "name"] of spec, or its [global "name"] when global; added when new. */
static chk_arg *arg_named(chk_spec *spec, const char *name, bool global)
{
	chk_arg **items = global ? &spec->globals : &spec->args;
	size_t *n = global ? &spec->nglobals : &spec->nargs, i;

	for (i = 0; i < *n; i++)
		if (strcmp((*items)[i].name, name) == 0)
			return &(*items)[i];
	return add_arg(items, n, name, global ? CHK_ROLE_OUT : CHK_ROLE_SCALAR);
}

/* The string keys of [check]: where each goes, and whether an empty value means none. */
static const struct {
	const char *key; /* as libgit2 gives it: lower case */
	size_t offset;
	bool empty_is_none;
} check_strings[] = {
	{ "source", offsetof(chk_spec, source), false },   { "kernel", offsetof(chk_spec, kernel), false },
	{ "template", offsetof(chk_spec, templ), true },   { "grid", offsetof(chk_spec, grid), false },
	{ "block", offsetof(chk_spec, block), false },     { "sharedbytes", offsetof(chk_spec, shared), false },
	{ "setup", offsetof(chk_spec, setup), true },	   { "launch", offsetof(chk_spec, launch), true },
	{ "guessed", offsetof(chk_spec, guessed), true },
};

static int check_key(reader *r, const char *var, const char *value)
{
	chk_spec *s = r->spec;
	size_t i;

	for (i = 0; i < sizeof(check_strings) / sizeof(check_strings[0]); i++)
		if (strcmp(var, check_strings[i].key) == 0)
			return check_strings[i].empty_is_none && !*value
				       ? 0
				       : set_string((char **)((char *)s + check_strings[i].offset), value);
	if (strcmp(var, "args") == 0)
		return set_string(&r->order, value);
	if (strcmp(var, "seed") == 0 || strcmp(var, "timeout") == 0) {
		char *end;
		unsigned long long v = strtoull(value, &end, 0);

		if (end == value || *end || value[0] == '-')
			return bad(r, "check", NULL, var, "%s must be a non-negative integer", var);
		if (var[0] == 's')
			s->seed = v;
		else
			s->timeout = (unsigned)v;
		return 0;
	}
	return bad(r, "check", NULL, var, "unknown key check.%s", var);
}

static int init_value(reader *r, chk_arg *a, const char *value)
{
	char kind[16];
	int n = 0, i;

	a->init_a = a->init_b = 0;
	if (sscanf(value, "%15s %n", kind, &n) < 1)
		return bad(r, "arg", a->name, "init",
			   "init must be 'uniform LO HI', 'constant V', 'iota START STEP' or 'file PATH'");
	for (i = 0; i < 4; i++)
		if (strcmp(kind, init_names[i]) == 0)
			break;
	if (i == 4)
		return bad(r, "arg", a->name, "init", "init must be uniform, constant, iota or file, not '%s'", kind);
	a->init = (chk_init)i;
	if (a->init == CHK_INIT_FILE) {
		/* relative to the spec's directory: .hipport/checks/inputs/NAME/ARG.bin */
		const char *slash = strrchr(r->path, '/');
		const char *file = value + n;
		int code;

		if (!*file)
			return bad(r, "arg", a->name, "init", "init 'file' lacks its path");
		if ((code = set_string(&a->init_file, file)) < 0)
			return code;
		free(a->init_path);
		a->init_path = NULL;
		if (file[0] == '/' || !slash)
			return set_string(&a->init_path, file);
		if (asprintf(&a->init_path, "%.*s/%s", (int)(slash - r->path), r->path, file) < 0)
			return util_error_set(UTIL_ENOMEM, "out of memory");
		return 0;
	}
	{
		double x, y;
		int got = sscanf(value + n, "%lf %lf", &x, &y);

		if ((a->init == CHK_INIT_CONSTANT && got < 1) || (a->init != CHK_INIT_CONSTANT && got < 2))
			return bad(r, "arg", a->name, "init", "init '%s' lacks its numbers", value);
		a->init_a = x;
		a->init_b = got > 1 ? y : 0;
	}
	if (a->init == CHK_INIT_UNIFORM && !(a->init_b > a->init_a))
		return bad(r, "arg", a->name, "init", "uniform range '%s' is empty", value + n);
	return 0;
}

/* A key of [arg "name"], or of [global "name"] when global. */
static int arg_key(reader *r, const char *name, const char *var, const char *value, bool global)
{
	chk_arg *a = arg_named(r->spec, name, global);
	const char *section = global ? "global" : "arg";
	int i;

	if (!a)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (strcmp(var, "role") == 0) {
		for (i = 0; i < (global ? 3 : 4); i++)
			if (strcmp(value, role_names[i]) == 0)
				break;
		if (i == (global ? 3 : 4))
			return bad(r, section, name, "role", "role must be in, out, inout%s, not '%s'",
				   global ? "" : " or scalar", value);
		a->role = (chk_role)i;
		return 0;
	}
	if (strcmp(var, "type") == 0) {
		unsigned lanes = 1;
		int t = chk_type_dtype(value, &lanes);

		if (t >= 0) {
			a->dtype = (chk_dtype)t;
			a->lanes = lanes;
		}
		return set_string(&a->type, value);
	}
	if (strcmp(var, "dtype") == 0) {
		/* auto: the harness asks the compiler (a typedef of the program's) */
		if ((a->dtype_auto = strcmp(value, "auto") == 0)) {
			a->dtype = CHK_U8;
			return 0;
		}
		if ((i = chk_dtype_parse(value)) < 0)
			return bad(r, section, name, "dtype", "unknown dtype '%s' (f16 bf16 f32 f64 i8 u8 i16 u16 i32 u32 i64 u64)",
				   value);
		a->dtype = (chk_dtype)i;
		return 0;
	}
	if (strcmp(var, "lanes") == 0) {
		char *end;
		long v = strtol(value, &end, 10);

		if (*end || v < 1 || v > 16)
			return bad(r, section, name, "lanes", "lanes must be 1 to 16, not '%s'", value);
		a->lanes = (unsigned)v;
		return 0;
	}
	if (strcmp(var, "count") == 0)
		return set_string(&a->count, value);
	if (strcmp(var, "offset") == 0 && !global)
		return set_string(&a->offset, value);
	if (strcmp(var, "accessor") == 0 && !global)
		return set_string(&a->accessor, value);
	if (strcmp(var, "sizes") == 0 && !global)
		return set_string(&a->sizes, value);
	if (strcmp(var, "value") == 0)
		return set_string(&a->value, value);
	if (strcmp(var, "init") == 0) {
		if (global && !strncmp(value, "file", 4))
			return bad(r, section, name, "init", "a global's init cannot be a file");
		return init_value(r, a, value);
	}
	if (strcmp(var, "abs") == 0 || strcmp(var, "rel") == 0 || strcmp(var, "ulp") == 0) {
		double v;

		if (parse_number(&v, value) < 0 || v < 0)
			return bad(r, section, name, var, "tolerance '%s' is not a non-negative number", value);
		*(var[0] == 'a' ? &a->tol.abs : var[0] == 'r' ? &a->tol.rel : &a->tol.ulp) = v;
		return 0;
	}
	return bad(r, section, name, var, "unknown key '%s'", var);
}

static int var_key(reader *r, const char *name, const char *var, const char *value)
{
	chk_spec *s = r->spec;
	chk_var *v = NULL;
	size_t i;

	for (i = 0; i < s->nvars; i++)
		if (strcmp(s->vars[i].name, name) == 0)
			v = &s->vars[i];
	if (!v && !(v = chk_spec_add_var(s, name, NULL, NULL)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (strcmp(var, "type") == 0)
		return set_string(&v->type, value);
	if (strcmp(var, "value") == 0)
		return set_string(&v->value, value);
	return bad(r, "var", name, var, "unknown key '%s'", var);
}

static int entry(reader *r, const git_config_entry *e)
{
	const char *name = e->name, *dot = strchr(name, '.'), *last = strrchr(name, '.');
	const char *value = e->value ? e->value : "";
	char sub[256];

	if (dot == last) {
		if (strncmp(name, "check.", 6) == 0)
			return check_key(r, last + 1, value);
		return bad(r, name, NULL, NULL, "unknown section in '%s'", name);
	}
	snprintf(sub, sizeof(sub), "%.*s", (int)(last - dot - 1), dot + 1);
	if (strncmp(name, "arg.", 4) == 0)
		return arg_key(r, sub, last + 1, value, false);
	if (strncmp(name, "global.", 7) == 0)
		return arg_key(r, sub, last + 1, value, true);
	if (strncmp(name, "var.", 4) == 0)
		return var_key(r, sub, last + 1, value);
	return bad(r, name, NULL, NULL, "unknown section in '%s'", name);
}

/* Puts args in the order check.args gives, and checks each is complete. */
static int settle(reader *r)
{
	chk_spec *s = r->spec;
	chk_arg *sorted;
	size_t i, n = 0;
	const char *p = r->order;

	if (!s->source || !s->kernel)
		return bad(r, "check", NULL, NULL, "the spec needs check.source and check.kernel");
	if (!s->grid || !s->block)
		return bad(r, "check", NULL, NULL, "the spec needs check.grid and check.block");
	if (!p)
		return bad(r, "check", NULL, NULL, "the spec needs check.args (the kernel's parameters in order)");
	sorted = calloc(s->nargs + 1, sizeof(*sorted));
	if (!sorted)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	while (*p) {
		size_t len = strcspn(p, " ,\t"), k;
		char name[256];

		if (len) {
			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			for (k = 0; k < s->nargs; k++)
				if (s->args[k].name && strcmp(s->args[k].name, name) == 0)
					break;
			if (k == s->nargs) {
				free(sorted);
				return bad(r, "check", NULL, "args", "check.args names '%s', which has no [arg] section", name);
			}
			sorted[n++] = s->args[k];
			s->args[k].name = NULL;
		}
		p += len;
		p += strspn(p, " ,\t");
	}
	for (i = 0; i < s->nargs; i++)
		if (s->args[i].name) {
			int code = bad(r, "arg", s->args[i].name, NULL, "[arg \"%s\"] is not in check.args",
				       s->args[i].name);

			for (; i < s->nargs; i++)
				arg_dispose(&s->args[i]);
			free(s->args);
			s->args = sorted;
			s->nargs = n;
			return code;
		}
	free(s->args);
	s->args = sorted;
	s->nargs = n;
	for (i = 0; i < n; i++) {
		chk_arg *a = &s->args[i];

		if (!a->type)
			return bad(r, "arg", a->name, NULL, "arg \"%s\" needs a type", a->name);
		if (a->role == CHK_ROLE_SCALAR && !a->value)
			return bad(r, "arg", a->name, NULL, "scalar \"%s\" needs a value", a->name);
		if (a->role != CHK_ROLE_SCALAR && !a->count)
			return bad(r, "arg", a->name, NULL, "pointer \"%s\" needs a count", a->name);
		if ((a->accessor != NULL) != (a->sizes != NULL) || (a->accessor && a->role == CHK_ROLE_SCALAR))
			return bad(r, "arg", a->name, a->accessor ? "accessor" : "sizes",
				   "accessor \"%s\" needs both accessor and sizes, and a role other than scalar", a->name);
		if (a->role != CHK_ROLE_SCALAR) {
			unsigned lanes = 1;

			if (chk_type_dtype(a->type, &lanes) < 0 && !line_of(r->text.ptr, "arg", a->name, "dtype"))
				return bad(r, "arg", a->name, "type",
					   "type '%s' is not one hipport knows: give its dtype (f32, ..., or auto) and lanes",
					   a->type);
			/* no tolerance given: the dtype's, which the harness knows */
			if (a->dtype_auto && !line_of(r->text.ptr, "arg", a->name, "abs") &&
			    !line_of(r->text.ptr, "arg", a->name, "rel") && !line_of(r->text.ptr, "arg", a->name, "ulp"))
				a->tol.abs = a->tol.rel = a->tol.ulp = -1;
		}
	}
	for (i = 0; i < s->nglobals; i++) {
		chk_arg *g = &s->globals[i];
		unsigned lanes = 1;

		if (!g->type || !g->count)
			return bad(r, "global", g->name, NULL, "global \"%s\" needs a type and a count", g->name);
		if (chk_type_dtype(g->type, &lanes) < 0 && !line_of(r->text.ptr, "global", g->name, "dtype"))
			return bad(r, "global", g->name, "type",
				   "type '%s' is not one hipport knows: give its dtype (f32, ...) and lanes", g->type);
	}
	return 0;
}

void chk_check_name_clean(char *name)
{
	for (; *name; name++)
		if (!isalnum((unsigned char)*name) && !strchr("._+-", *name))
			*name = '-';
}

int chk_spec_read(chk_spec *out, const char *path)
{
	reader r;
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	const char *base = strrchr(path, '/');
	int error, rc;

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	r.path = path;
	r.spec = out;
	out->seed = 1234;
	out->timeout = 60;
	if ((error = util_file_read(&r.text, path, 1 << 20)) < 0)
		return error;
	base = base ? base + 1 : path;
	out->name = strndup(base, strlen(base) > 6 && strcmp(base + strlen(base) - 6, ".check") == 0
					  ? strlen(base) - 6 : strlen(base));
	if (!out->name) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	/* a spec drafted from a directory with a space in its name: its check
	 * is named as one drafted now */
	chk_check_name_clean(out->name);
	if (git_config_open_ondisk(&cfg, path) < 0 || git_config_iterator_new(&it, cfg) < 0) {
		const git_error *ge = git_error_last();

		error = util_error_set(UTIL_EINPUT, "%s: %s", path, ge ? ge->message : "cannot read the spec");
		goto done;
	}
	while ((rc = git_config_next(&e, it)) == 0)
		if ((error = entry(&r, e)) < 0)
			goto done;
	if (rc != GIT_ITEROVER) {
		error = util_error_set(UTIL_EINPUT, "%s: %s", path, git_error_last() ? git_error_last()->message : "?");
		goto done;
	}
	error = settle(&r);
done:
	git_config_iterator_free(it);
	git_config_free(cfg);
	util_buf_dispose(&r.text);
	free(r.order);
	if (error < 0)
		chk_spec_dispose(out);
	return error;
}

void chk_put_quoted(util_buf *b, const char *s)
{
	util_buf_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			util_buf_putc(b, '\\');
		if (*s == '\n') {
			util_buf_puts(b, "\\n");
			continue;
		}
		util_buf_putc(b, *s);
	}
	util_buf_putc(b, '"');
}

/* A value as git-config text: quoted when it holds what the syntax reads
 * otherwise (comment characters, quotes, backslashes, edge spaces). */
static void put_value(util_buf *b, const char *v)
{
	size_t n = strlen(v);
	bool quote = n && (strpbrk(v, "#;\"\\") || isspace((unsigned char)v[0]) || isspace((unsigned char)v[n - 1]));

	if (quote)
		chk_put_quoted(b, v);
	else
		util_buf_puts(b, v);
}

static void put_key(util_buf *b, const char *key, const char *value)
{
	util_buf_printf(b, "\t%s = ", key);
	put_value(b, value);
	util_buf_putc(b, '\n');
}

/* key = value, and its mark when the drafter guessed it. */
static void put_marked(util_buf *b, const chk_spec *s, const char *section, const char *sub, const char *key,
		       const char *value)
{
	const chk_mark *m = chk_spec_mark_of(s, section, sub, key);

	util_buf_printf(b, "\t%s = ", key);
	put_value(b, value);
	if (m)
		util_buf_printf(b, "  # guessed: %s", m->why);
	util_buf_putc(b, '\n');
}

static void put_comment(util_buf *b, const char *text, const char *indent)
{
	while (text && *text) {
		size_t n = strcspn(text, "\n");

		util_buf_printf(b, "%s# %.*s\n", indent, (int)n, text);
		text += n;
		if (*text)
			text++;
	}
}

int chk_spec_format(util_buf *b, const chk_spec *s)
{
	size_t i;
	char num[64];

	put_comment(b, s->comment, "");
	util_buf_puts(b, "[check]\n");
	put_key(b, "source", s->source);
	put_key(b, "kernel", s->kernel);
	if (s->templ)
		put_marked(b, s, "check", NULL, "template", s->templ);
	util_buf_puts(b, "\targs =");
	for (i = 0; i < s->nargs; i++)
		util_buf_printf(b, " %s", s->args[i].name);
	util_buf_putc(b, '\n');
	put_marked(b, s, "check", NULL, "grid", s->grid);
	put_marked(b, s, "check", NULL, "block", s->block);
	put_marked(b, s, "check", NULL, "sharedBytes", s->shared ? s->shared : "0");
	if (s->setup)
		put_key(b, "setup", s->setup);
	if (s->launch)
		put_key(b, "launch", s->launch);
	if (s->guessed)
		put_key(b, "guessed", s->guessed);
	util_buf_printf(b, "\tseed = %llu\n\ttimeout = %u\n", (unsigned long long)s->seed, s->timeout);
	for (i = 0; i < s->nvars; i++) {
		util_buf_printf(b, "[var \"%s\"]\n", s->vars[i].name);
		put_key(b, "type", s->vars[i].type);
		put_marked(b, s, "var", s->vars[i].name, "value", s->vars[i].value);
	}
	for (i = 0; i < s->nargs + s->nglobals; i++) {
		const chk_arg *a = i < s->nargs ? &s->args[i] : &s->globals[i - s->nargs];
		unsigned lanes = 1;

		util_buf_printf(b, "[%s \"%s\"]\n", i < s->nargs ? "arg" : "global", a->name);
		put_key(b, "role", role_names[a->role]);
		put_key(b, "type", a->type);
		if (a->role == CHK_ROLE_SCALAR) {
			put_marked(b, s, "arg", a->name, "value", a->value);
			continue;
		}
		if (a->dtype_auto)
			put_key(b, "dtype", "auto");
		else if (chk_type_dtype(a->type, &lanes) != (int)a->dtype || lanes != a->lanes)
			util_buf_printf(b, "\tdtype = %s\n\tlanes = %u\n", chk_dtype_name(a->dtype), a->lanes);
		put_marked(b, s, i < s->nargs ? "arg" : "global", a->name, "count", a->count);
		if (a->offset)
			put_key(b, "offset", a->offset);
		if (a->accessor) {
			put_key(b, "accessor", a->accessor);
			put_marked(b, s, "arg", a->name, "sizes", a->sizes);
		}
		if (a->init == CHK_INIT_FILE) {
			util_buf f = UTIL_BUF_INIT;

			util_buf_printf(&f, "file %s", a->init_file ? a->init_file : "");
			put_marked(b, s, i < s->nargs ? "arg" : "global", a->name, "init", f.ptr ? f.ptr : "file");
			util_buf_dispose(&f);
		} else {
			if (a->init == CHK_INIT_CONSTANT)
				snprintf(num, sizeof(num), "constant %.9g", a->init_a);
			else
				snprintf(num, sizeof(num), "%s %.9g %.9g", init_names[a->init], a->init_a, a->init_b);
			put_marked(b, s, i < s->nargs ? "arg" : "global", a->name, "init", num);
		}
		if (a->role != CHK_ROLE_IN && !(a->dtype_auto && a->tol.abs < 0))
			util_buf_printf(b, "\tabs = %.9g\n\trel = %.9g\n\tulp = %.9g\n", a->tol.abs, a->tol.rel, a->tol.ulp);
	}
	return util_buf_oom(b) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}

int chk_spec_write(const chk_spec *s, const char *path)
{
	util_buf b = UTIL_BUF_INIT;
	int error;

	if ((error = chk_spec_format(&b, s)) == 0 && (error = util_file_make_parents(path)) == 0)
		error = util_file_write_atomic(path, b.ptr, b.len);
	util_buf_dispose(&b);
	return error;
}
