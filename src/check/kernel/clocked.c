#include "check/kernel/clocked.h"

#include <ctype.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "port/definitions.h"

#define MAX_TOKENS 200000
#define MAX_NAMES 64

typedef struct span {
	const char *p;
	size_t n;
} span;

typedef struct lexed {
	span *t;
	size_t n;
} lexed;

static const char *const operators[] = { "<<=", ">>=", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "&=",
					 "|=", "^=", "->", "::", "++", "--", "&&", "||", "<<", ">>" };

/* Identifiers and numbers, literals (kept, comments dropped) and operators. */
static bool lex(lexed *out, const char *s, size_t len)
{
	const char *p = s, *end = s + len;

	out->n = 0;
	if (!(out->t = malloc(sizeof(*out->t) * (len + 1 < MAX_TOKENS ? len + 1 : MAX_TOKENS))))
		return false;
	while (p < end && out->n < MAX_TOKENS) {
		const char *q = port_skip_literal(p, end);
		size_t k, n = 1;

		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (q != p) {
			if (*p == '"' || *p == '\'')
				out->t[out->n++] = (span){ p, (size_t)(q - p) };
			p = q;
			continue;
		}
		if (port_ident_char(*p)) {
			for (q = p; q < end && port_ident_char(*q); q++)
				;
			n = (size_t)(q - p);
		} else {
			for (k = 0; k < sizeof(operators) / sizeof(*operators); k++)
				if ((size_t)(end - p) >= strlen(operators[k]) && !memcmp(p, operators[k], strlen(operators[k]))) {
					n = strlen(operators[k]);
					break;
				}
		}
		out->t[out->n++] = (span){ p, n };
		p += n;
	}
	return true;
}

static bool is(const lexed *l, size_t i, const char *text)
{
	return i < l->n && l->t[i].n == strlen(text) && !memcmp(l->t[i].p, text, l->t[i].n);
}

static bool is_ident(const lexed *l, size_t i)
{
	return i < l->n && (isalpha((unsigned char)l->t[i].p[0]) || l->t[i].p[0] == '_');
}

static bool same(span a, span b)
{
	return a.n == b.n && !memcmp(a.p, b.p, a.n);
}

static bool is_assignment(const lexed *l, size_t i)
{
	static const char *const ops[] = { "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=" };
	size_t k;

	for (k = 0; k < sizeof(ops) / sizeof(*ops); k++)
		if (is(l, i, ops[k]))
			return true;
	return false;
}

/* A call that reads a clock or a timer, on either vendor. */
static bool is_clock_call(const lexed *l, size_t i)
{
	static const char *const calls[] = { "clock", "clock64", "__clock", "__clock64", "wall_clock64", "__globaltimer",
					     "__builtin_readcyclecounter", "__builtin_readsteadycounter",
					     "__builtin_amdgcn_s_memtime", "__builtin_amdgcn_s_memrealtime" };
	size_t k;

	if (!is(l, i + 1, "("))
		return false;
	for (k = 0; k < sizeof(calls) / sizeof(*calls); k++)
		if (is(l, i, calls[k]))
			return true;
	return false;
}

typedef struct names {
	span name[MAX_NAMES];
	size_t n;
} names;

static bool named(const names *s, span t)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (same(s->name[i], t))
			return true;
	return false;
}

/* A use of a name as a value: not a member, not a call. */
static bool is_use(const lexed *l, size_t i)
{
	return is_ident(l, i) && !is(l, i + 1, "(") && !(i > 0 && (is(l, i - 1, ".") || is(l, i - 1, "->")));
}

/* The parameters in the last parenthesised group before the body's brace:
 * each one's name, and whether it is a pointer. */
static size_t parameters(const lexed *l, size_t *body, names *params, bool *pointer)
{
	size_t i, open = l->n, close = l->n, start, depth = 0;

	for (i = 0; i < l->n && !is(l, i, "{"); i++)
		if (is(l, i, "(") && depth++ == 0)
			open = i;
		else if (is(l, i, ")") && depth > 0 && --depth == 0)
			close = i;
	*body = i;
	params->n = 0;
	if (open >= close)
		return 0;
	for (i = start = open + 1; i <= close && params->n < MAX_NAMES; i++) {
		size_t k, name = l->n;
		int nest = 0;
		bool star = false;

		if (is(l, i, "(") || is(l, i, "[") || is(l, i, "<"))
			depth++;
		else if ((is(l, i, ")") && i < close) || is(l, i, "]") || (is(l, i, ">") && depth > 0))
			depth--;
		else if (is(l, i, ">>") && depth > 1)
			depth -= 2;
		if (i < close && !(depth == 0 && is(l, i, ",")))
			continue;
		for (k = start; k < i; k++) {
			nest += is(l, k, "(") || is(l, k, "[") || is(l, k, "<");
			nest -= is(l, k, ")") || is(l, k, "]") || is(l, k, ">");
			star |= (is(l, k, "*") && nest == 0) || is(l, k, "[");
			if (nest == 0 && is_ident(l, k) && !is(l, k, "const") && !is(l, k, "volatile") &&
			    !is(l, k, "__restrict__") && !is(l, k, "__restrict") && !is(l, k, "restrict"))
				name = k;
		}
		params->name[params->n] = name < l->n ? l->t[name] : (span){ "", 0 };
		pointer[params->n++] = star;
		start = i + 1;
		depth = 0;
	}
	return params->n;
}

/* asm("mov.u32 %0, %%clock;" : "=r"(x)): the outputs of an asm that reads a timer register. */
static void taint_asm(const lexed *l, size_t from, size_t to, names *tainted)
{
	size_t i;
	bool asm_stmt = false, timer = false;

	for (i = from; i < to; i++) {
		asm_stmt |= is(l, i, "asm") || is(l, i, "__asm__") || is(l, i, "__asm");
		if (l->t[i].p[0] == '"') {
			char text[256];

			snprintf(text, sizeof(text), "%.*s", (int)l->t[i].n, l->t[i].p);
			timer |= strstr(text, "clock") || strstr(text, "globaltimer") || strstr(text, "memtime");
		}
	}
	if (!asm_stmt || !timer)
		return;
	for (i = from; i + 2 < to; i++)
		if ((!strncmp(l->t[i].p, "\"=", 2) || !strncmp(l->t[i].p, "\"+", 2)) && is(l, i + 1, "(") &&
		    is_ident(l, i + 2) && !named(tainted, l->t[i + 2]) && tainted->n < MAX_NAMES)
			tainted->name[tainted->n++] = l->t[i + 2];
}

/* One statement [from, to): a store through a parameter, or a local given a clock's value. */
static void statement(const lexed *l, size_t from, size_t to, const names *params, const bool *pointer,
		      names *tainted, uint64_t *clocked, uint64_t *data)
{
	size_t i, at = to, target = l->n, p;
	bool clock = false, store = false;
	int nest = 0;

	taint_asm(l, from, to, tainted);
	for (i = from; i < to && at == to; i++)
		if (is_assignment(l, i))
			at = i;
	if (at == to)
		return;
	for (i = at + 1; i < to && !clock; i++)
		clock = is_clock_call(l, i) || (is_use(l, i) && named(tainted, l->t[i]));
	for (p = 0; p < params->n; p++)
		for (i = from; i < at; i++)
			if (pointer[p] && is_use(l, i) && same(l->t[i], params->name[p])) {
				for (i = from; i < at; i++)
					store |= is(l, i, "[") || is(l, i, "*") || is(l, i, "->");
				if (store && p < 64)
					*(clock ? clocked : data) |= 1ull << p;
				return;
			}
	/* a local: the last name outside brackets before the '=' */
	for (i = from; i < at; i++) {
		nest += is(l, i, "[") || is(l, i, "(");
		nest -= is(l, i, "]") || is(l, i, ")");
		if (nest == 0 && is_use(l, i))
			target = i;
	}
	if (clock && target < l->n && !named(tainted, l->t[target]) && tainted->n < MAX_NAMES)
		tainted->name[tainted->n++] = l->t[target];
}

uint64_t chk_kernel_clocked_params(const char *definition, size_t len)
{
	lexed l;
	names params, tainted = { .n = 0 };
	bool pointer[MAX_NAMES];
	uint64_t clocked = 0, data = 0;
	size_t body, i, from, pass;

	if (!lex(&l, definition, len))
		return 0;
	if (parameters(&l, &body, &params, pointer)) {
		/* twice: a value taken from a clock in a loop's later statement */
		for (pass = 0; pass < 2; pass++) {
			clocked = data = 0;
			for (i = from = body + 1; i < l.n; i++)
				if (is(&l, i, ";") || is(&l, i, "{") || is(&l, i, "}")) {
					statement(&l, from, i, &params, pointer, &tainted, &clocked, &data);
					from = i + 1;
				}
		}
	}
	free(l.t);
	return clocked & ~data;
}
