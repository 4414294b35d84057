#include "build/vars.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "build/rewrite.h"
#include "util/text.h"

void bld_vars_init(bld_vars *v, const char *src, size_t len, bool cmake)
{
	memset(v, 0, sizeof(*v));
	v->src = src;
	v->len = len;
	v->cmake = cmake;
}

void bld_vars_dispose(bld_vars *v)
{
	free(v->defs);
	free(v->refs);
	free(v->loops);
	free(v->ents);
	memset(v, 0, sizeof(*v));
}

/* Room for one more of *items (n used of *cap); false when out of memory. */
static bool room(bld_vars *v, void **items, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? *cap * 2 : 16;
	void *grown;

	if (n < *cap)
		return true;
	if (!(grown = realloc(*items, want * size))) {
		v->oom = true;
		return false;
	}
	*items = grown;
	*cap = want;
	return true;
}

size_t bld_vars_def(bld_vars *v, bld_span name, bld_span value, bld_def_kind kind, bool named)
{
	bld_var_def *d;

	if (!room(v, (void **)&v->defs, &v->dcap, v->ndefs, sizeof(*d)))
		return SIZE_MAX;
	d = &v->defs[v->ndefs];
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->value = value;
	d->kind = kind;
	d->named = named;
	return v->ndefs++;
}

void bld_vars_ref(bld_vars *v, bld_span name, bld_use use, size_t owner)
{
	bld_var_ref *r;

	if (!name.len || !room(v, (void **)&v->refs, &v->rcap, v->nrefs, sizeof(*r)))
		return;
	r = &v->refs[v->nrefs++];
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->use = use;
	r->owner = owner;
}

size_t bld_vars_loop(bld_vars *v, bld_span name, size_t body, size_t body_end)
{
	bld_var_loop *l;

	if (!room(v, (void **)&v->loops, &v->lcap, v->nloops, sizeof(*l)))
		return SIZE_MAX;
	l = &v->loops[v->nloops];
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->body = body;
	l->body_end = body_end;
	l->list_kind = BLD_DEF_EMPTY;
	return v->nloops++;
}

bool bld_vars_arch_word(const char *w, size_t n, bool *named)
{
	static const char *const prefixes[] = { "sm_", "compute_", "lto_", NULL };
	size_t i;

	for (i = 0; prefixes[i]; i++) {
		size_t k = strlen(prefixes[i]);

		if (n > k && memcmp(w, prefixes[i], k) == 0 && bld_is_arch_value(w + k, n - k) &&
		    w[k] >= '0' && w[k] <= '9') {
			*named = true;
			return true;
		}
	}
	return bld_is_arch_value(w, n);
}

static bool same(const bld_vars *v, bld_span a, bld_span b)
{
	return a.len == b.len && memcmp(v->src + a.at, v->src + b.at, a.len) == 0;
}

static bool name_is(const bld_vars *v, bld_span a, const char *what)
{
	return bld_word_is(v->src + a.at, a.len, what);
}

/* The entity of a name of the file (made when new); SIZE_MAX out of memory. */
static size_t file_ent(bld_vars *v, bld_span name)
{
	size_t i;
	bld_var_ent *e;

	for (i = 0; i < v->nents; i++)
		if (v->ents[i].loop == SIZE_MAX && same(v, v->ents[i].name, name))
			return i;
	if (!room(v, (void **)&v->ents, &v->ecap, v->nents, sizeof(*e)))
		return SIZE_MAX;
	e = &v->ents[v->nents];
	memset(e, 0, sizeof(*e));
	e->name = name;
	e->loop = SIZE_MAX;
	return v->nents++;
}

/* The innermost loop binding name at offset at, or SIZE_MAX. */
static size_t binding_loop(const bld_vars *v, bld_span name)
{
	size_t i, best = SIZE_MAX;

	for (i = 0; i < v->nloops; i++) {
		const bld_var_loop *l = &v->loops[i];

		if (name.at >= l->body && name.at < l->body_end && same(v, l->name, name) &&
		    (best == SIZE_MAX || l->body >= v->loops[best].body))
			best = i;
	}
	return best;
}

/* $(1), ${ARGV0}, ${ARGN}: a call's parameters, which the port cannot follow. */
static bool is_param(const bld_vars *v, bld_span name)
{
	const char *w = v->src + name.at;
	size_t i;

	for (i = 0; i < name.len && w[i] >= '0' && w[i] <= '9'; i++)
		;
	if (i == name.len)
		return true;
	return v->cmake && name.len >= 4 && memcmp(w, "ARG", 3) == 0 &&
	       (name_is(v, name, "ARGN") || name_is(v, name, "ARGC") || name_is(v, name, "ARGV") ||
		(name.len > 4 && memcmp(w, "ARGV", 4) == 0 && w[4] >= '0' && w[4] <= '9'));
}

/* CMake's own list of architectures: the port sets it (or ROCm's default does). */
static bool is_builtin(const bld_vars *v, bld_span name)
{
	return v->cmake && (name_is(v, name, "CMAKE_CUDA_ARCHITECTURES") || name_is(v, name, "CMAKE_HIP_ARCHITECTURES"));
}

static void keep(bld_var_ent *e, bld_why why, size_t at, size_t ent)
{
	e->ok = false;
	e->fate = BLD_FATE_KEEP;
	e->why = why;
	e->why_at = at;
	e->why_ent = ent;
}

static bool good(const bld_vars *v, size_t ent)
{
	return ent != SIZE_MAX && v->ents[ent].cand && v->ents[ent].ok;
}

static void resolve(bld_vars *v)
{
	size_t i;

	for (i = 0; i < v->nloops; i++) {
		bld_var_ent *e;

		if (!room(v, (void **)&v->ents, &v->ecap, v->nents, sizeof(*e))) {
			v->loops[i].ent = SIZE_MAX;
			continue;
		}
		e = &v->ents[v->nents];
		memset(e, 0, sizeof(*e));
		e->name = v->loops[i].name;
		e->loop = i;
		v->loops[i].ent = v->nents++;
	}
	for (i = 0; i < v->ndefs; i++)
		v->defs[i].ent = file_ent(v, v->defs[i].name);
	for (i = 0; i < v->nrefs; i++) {
		size_t loop = binding_loop(v, v->refs[i].name);

		v->refs[i].ent = loop != SIZE_MAX ? v->loops[loop].ent : file_ent(v, v->refs[i].name);
	}
}

/* The first fate of a candidate, from its own definitions and list. */
static void first_fate(bld_vars *v, size_t ent)
{
	bld_var_ent *e = &v->ents[ent];
	size_t i;
	bool set = false;

	e->ok = true;
	if (e->loop != SIZE_MAX) {
		const bld_var_loop *l = &v->loops[e->loop];

		if (l->list_kind == BLD_DEF_OTHER || (!l->list_refs && l->list_kind != BLD_DEF_ARCHS))
			keep(e, BLD_WHY_LIST, l->name.at, SIZE_MAX);
		return;
	}
	if (is_builtin(v, e->name))
		return;
	if (is_param(v, e->name)) {
		keep(e, BLD_WHY_PARAM, e->name.at, SIZE_MAX);
		return;
	}
	for (i = 0; i < v->ndefs; i++) {
		const bld_var_def *d = &v->defs[i];

		if (d->ent != ent)
			continue;
		if (d->kind == BLD_DEF_OTHER || d->kind == BLD_DEF_PARAM) {
			keep(e, d->kind == BLD_DEF_PARAM ? BLD_WHY_PARAM : BLD_WHY_SET, d->name.at, SIZE_MAX);
			return;
		}
		set |= d->kind != BLD_DEF_EMPTY;
	}
	if (!set) {
		e->ok = false;
		if (v->includes)
			keep(e, BLD_WHY_INCLUDED, e->name.at, SIZE_MAX);
		else
			e->fate = BLD_FATE_OUTSIDE;
	}
}

void bld_vars_decide(bld_vars *v)
{
	size_t i;
	bool changed = true;

	resolve(v);
	if (v->oom)
		return;
	for (i = 0; i < v->nrefs; i++)
		if (v->refs[i].use == BLD_USE_ARCH && v->refs[i].ent != SIZE_MAX)
			v->ents[v->refs[i].ent].cand = true;
	/* what flows into an arch: a loop's list, a derived definition's parts */
	while (changed) {
		changed = false;
		for (i = 0; i < v->nrefs; i++) {
			const bld_var_ref *r = &v->refs[i];
			size_t into = SIZE_MAX;

			if (r->ent == SIZE_MAX || v->ents[r->ent].cand)
				continue;
			if (r->use == BLD_USE_LIST)
				into = v->loops[r->owner].ent;
			else if (r->use == BLD_USE_DEF && v->defs[r->owner].kind == BLD_DEF_DERIVED)
				into = v->defs[r->owner].ent;
			if (into != SIZE_MAX && v->ents[into].cand) {
				v->ents[r->ent].cand = true;
				changed = true;
			}
		}
	}
	for (i = 0; i < v->nents; i++)
		if (v->ents[i].cand)
			first_fate(v, i);
	/* a candidate stays good while every use and every source is good */
	changed = true;
	while (changed) {
		changed = false;
		for (i = 0; i < v->nrefs; i++) {
			const bld_var_ref *r = &v->refs[i];
			size_t into = SIZE_MAX;

			if (r->ent == SIZE_MAX)
				continue;
			if (r->use == BLD_USE_LIST)
				into = v->loops[r->owner].ent;
			else if (r->use == BLD_USE_DEF)
				into = v->defs[r->owner].ent;
			/* the value goes where the port cannot follow it */
			if (good(v, r->ent) &&
			    (r->use == BLD_USE_OTHER || (into != SIZE_MAX && !good(v, into) && into != r->ent))) {
				keep(&v->ents[r->ent], BLD_WHY_USED, r->name.at, SIZE_MAX);
				changed = true;
			}
			/* a loop or derived definition over a value the port cannot follow */
			if (into != SIZE_MAX && into != r->ent && good(v, into) && !good(v, r->ent) &&
			    (r->use == BLD_USE_LIST || v->defs[r->owner].kind == BLD_DEF_DERIVED)) {
				keep(&v->ents[into], BLD_WHY_FROM, r->name.at, r->ent);
				/* over a list the command line gives: as outside as it */
				if (v->ents[r->ent].fate == BLD_FATE_OUTSIDE)
					v->ents[into].fate = BLD_FATE_OUTSIDE;
				changed = true;
			}
		}
	}
	for (i = 0; i < v->nents; i++)
		if (good(v, i))
			v->ents[i].fate = v->ents[i].loop != SIZE_MAX ? BLD_FATE_LOOP : BLD_FATE_ARCH;
}

static void explain_from(const bld_vars *v, const bld_var_ent *e, util_buf *why, int depth)
{
	unsigned line, col;
	int n = (int)e->name.len;
	const char *name = v->src + e->name.at;

	if (!why)
		return;
	util_text_position(v->src, e->why_at, &line, &col);
	if (e->fate == BLD_FATE_OUTSIDE && e->why == BLD_WHY_FROM) {
		util_buf_printf(why, "%.*s takes its value from %.*s, which is not set in this file", n, name,
				(int)v->ents[e->why_ent].name.len, v->src + v->ents[e->why_ent].name.at);
		return;
	}
	switch (e->fate == BLD_FATE_OUTSIDE ? BLD_WHY_NONE : e->why) {
	case BLD_WHY_NONE:
		util_buf_printf(why, "%.*s is not set in this file", n, name);
		break;
	case BLD_WHY_INCLUDED:
		util_buf_printf(why, "%.*s is not set in this file, and a file it includes may set it to a CUDA arch", n,
				name);
		break;
	case BLD_WHY_SET:
		util_buf_printf(why, "%.*s is set at line %u to a value the port cannot follow", n, name, line);
		break;
	case BLD_WHY_USED:
		util_buf_printf(why, "%.*s is used at line %u for more than the arch", n, name, line);
		break;
	case BLD_WHY_PARAM:
		util_buf_printf(why, "%.*s is a parameter, set where it is called", n, name);
		break;
	case BLD_WHY_FROM:
		/* and why that one cannot be followed: the reason is where it starts */
		util_buf_printf(why, "%.*s takes its value from %.*s (line %u)", n, name,
				(int)v->ents[e->why_ent].name.len, v->src + v->ents[e->why_ent].name.at, line);
		if (depth < 4 && v->ents[e->why_ent].fate == BLD_FATE_KEEP) {
			util_buf_puts(why, ": ");
			explain_from(v, &v->ents[e->why_ent], why, depth + 1);
		} else {
			util_buf_puts(why, ", which the port cannot follow");
		}
		break;
	case BLD_WHY_LIST:
		util_buf_printf(why, "%.*s goes over values that are not CUDA architectures", n, name);
		break;
	}
}

static void explain(const bld_vars *v, const bld_var_ent *e, util_buf *why)
{
	explain_from(v, e, why, 0);
}

bld_fate bld_vars_fate(const bld_vars *v, bld_span name, util_buf *why)
{
	size_t i, loop, ent = SIZE_MAX;

	if (!v || v->oom) {
		if (why)
			util_buf_printf(why, "%.*s could not be followed", (int)name.len, v ? v->src + name.at : "");
		return BLD_FATE_KEEP;
	}
	for (i = 0; i < v->nrefs && ent == SIZE_MAX; i++)
		if (v->refs[i].name.at == name.at && v->refs[i].name.len == name.len)
			ent = v->refs[i].ent;
	if (ent == SIZE_MAX && (loop = binding_loop(v, name)) != SIZE_MAX)
		ent = v->loops[loop].ent;
	for (i = 0; i < v->nents && ent == SIZE_MAX; i++)
		if (v->ents[i].loop == SIZE_MAX && same(v, v->ents[i].name, name))
			ent = i;
	if (ent == SIZE_MAX) {
		if (why)
			util_buf_printf(why, "%.*s is not set in this file", (int)name.len, v->src + name.at);
		return v->includes ? BLD_FATE_KEEP : BLD_FATE_OUTSIDE;
	}
	if (v->ents[ent].fate == BLD_FATE_KEEP || v->ents[ent].fate == BLD_FATE_OUTSIDE)
		explain(v, &v->ents[ent], why);
	return v->ents[ent].fate;
}

bld_fate bld_vars_def_fate(const bld_vars *v, size_t def, util_buf *why)
{
	const bld_var_ent *e;

	if (v->oom || v->defs[def].ent == SIZE_MAX)
		return BLD_FATE_KEEP;
	e = &v->ents[v->defs[def].ent];
	if (e->fate == BLD_FATE_KEEP)
		explain(v, e, why);
	return e->fate;
}

bld_fate bld_vars_loop_fate(const bld_vars *v, size_t loop)
{
	if (v->oom || v->loops[loop].ent == SIZE_MAX)
		return BLD_FATE_KEEP;
	return v->ents[v->loops[loop].ent].fate;
}

static void replace_values(bld_rewriter *rw, bld_vars_replace_fn replace, bld_span values)
{
	if (replace)
		replace(rw, values);
	else
		bld_replace(rw, values.at, values.len, rw->arch);
}

void bld_vars_rewrite(bld_rewriter *rw, const bld_vars *v, bld_vars_replace_fn replace, const char *override)
{
	size_t i;

	for (i = 0; i < v->ndefs; i++) {
		const bld_var_def *d = &v->defs[i];
		util_buf why = UTIL_BUF_INIT, hint = UTIL_BUF_INIT;
		int n = (int)d->name.len, nv = (int)(d->value.len < 64 ? d->value.len : 64);
		const char *name = v->src + d->name.at, *value = v->src + d->value.at;
		bld_fate fate;

		if (d->kind != BLD_DEF_ARCHS)
			continue;
		fate = bld_vars_def_fate(v, i, &why);
		if (fate == BLD_FATE_ARCH) {
			replace_values(rw, replace, d->value);
			if (override)
				util_buf_printf(&hint, " (%s %.*s=<gfx arch> overrides it)", override, n, name);
			bld_hit(rw, "BUILD-004", AN_NOTE, d->value.at, d->value.len,
				"%.*s: CUDA architectures (%.*s) replaced by the offload arch %s%s", n, name, nv, value,
				rw->arch, hint.ptr ? hint.ptr : "");
		} else if (d->named) {
			if (!why.len)
				util_buf_printf(&why, "it reaches no arch flag the port can follow");
			bld_hit(rw, "BUILD-004", AN_WARNING, d->value.at, d->value.len,
				"%.*s keeps its CUDA architectures (%.*s): %s", n, name, nv, value, why.ptr ? why.ptr : "");
		}
		if (util_buf_oom(&hint))
			rw->oom = true;
		util_buf_dispose(&why);
		util_buf_dispose(&hint);
	}
	for (i = 0; i < v->nloops; i++) {
		const bld_var_loop *l = &v->loops[i];

		if (l->list_kind == BLD_DEF_ARCHS && l->list.len && bld_vars_loop_fate(v, i) == BLD_FATE_LOOP) {
			replace_values(rw, replace, l->list);
			bld_hit(rw, "BUILD-004", AN_NOTE, l->list.at, l->list.len,
				"CUDA architectures (%.*s) replaced by the offload arch %s", (int)l->list.len,
				v->src + l->list.at, rw->arch);
		}
	}
}
