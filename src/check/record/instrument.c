#include "check/record/instrument.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"

typedef struct toks {
	const char *src;
	port_token *t;
	size_t n;
} toks;

static bool is(const toks *k, size_t i, const char *s)
{
	size_t len = strlen(s);

	return i < k->n && k->t[i].end - k->t[i].start == len && memcmp(k->src + k->t[i].start, s, len) == 0;
}

static bool ident(const toks *k, size_t i)
{
	return i < k->n && k->t[i].kind == PORT_TOKEN_IDENT;
}

/* The next token that is not a comment, from i. */
static size_t code(const toks *k, size_t i)
{
	while (i < k->n && k->t[i].kind == PORT_TOKEN_COMMENT)
		i++;
	return i;
}

/* The index of the bracket closing the one at i, or k->n. */
static size_t closing(const toks *k, size_t i)
{
	int depth = 0;

	for (; i < k->n; i++) {
		if (is(k, i, "(") || is(k, i, "[") || is(k, i, "{"))
			depth++;
		else if ((is(k, i, ")") || is(k, i, "]") || is(k, i, "}")) && --depth == 0)
			return i;
	}
	return k->n;
}

/* How token i changes the bracket depth of an argument list, angle
 * brackets counted as brackets ('>>' closes two). */
static int depth_step(const toks *k, size_t i)
{
	if (is(k, i, "(") || is(k, i, "[") || is(k, i, "{") || is(k, i, "<"))
		return 1;
	if (is(k, i, ")") || is(k, i, "]") || is(k, i, "}") || is(k, i, ">"))
		return -1;
	return is(k, i, ">>") ? -2 : 0;
}

/* Arguments between the parentheses at open and close: commas at depth 0, plus one. */
static int count_args(const toks *k, size_t open, size_t close)
{
	size_t i;
	int depth = 0, n = 1, step;

	if (code(k, open + 1) == close || (is(k, code(k, open + 1), "void") && code(k, code(k, open + 1) + 1) == close))
		return 0;
	for (i = open + 1; i < close; i++) {
		step = depth_step(k, i);
		depth += step;
		if (!step && is(k, i, ",") && depth <= 0)
			n++;
	}
	return n;
}

static int lex(toks *k, port_lexer *lexer, const char *path, const char *src, size_t len)
{
	k->src = src;
	return port_lexer_tokenize(lexer, path, src, len, &k->t, &k->n);
}

static int set_put(rec_kernel_set *set, const char *name, size_t len, int params, bool deduced, int required)
{
	char **names;
	int *counts, *req;
	bool *templ;
	size_t i;

	/* a name may stand for kernels of several programs: each count once */
	for (i = 0; i < set->n; i++)
		if (strlen(set->names[i]) == len && memcmp(set->names[i], name, len) == 0 && set->params[i] == params) {
			set->deduced[i] |= deduced;
			if (required > set->required[i])
				set->required[i] = required;
			return 0;
		}
	names = realloc(set->names, (set->n + 1) * sizeof(*names));
	if (names)
		set->names = names;
	counts = realloc(set->params, (set->n + 1) * sizeof(*counts));
	if (counts)
		set->params = counts;
	templ = realloc(set->deduced, (set->n + 1) * sizeof(*templ));
	if (templ)
		set->deduced = templ;
	req = realloc(set->required, (set->n + 1) * sizeof(*req));
	if (req)
		set->required = req;
	if (!names || !counts || !templ || !req || !(set->names[set->n] = strndup(name, len)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	set->deduced[set->n] = deduced;
	set->required[set->n] = required;
	set->params[set->n++] = params;
	return 0;
}

/* Whether the declaration whose __global__ is token i begins with template <...>. */
static bool templated_at(const toks *k, size_t i)
{
	while (i-- > 0 && !is(k, i, ";") && !is(k, i, "}") && !is(k, i, "{") && !(k->t[i].flags & PORT_TOKEN_DIRECTIVE))
		if (is(k, i, "template"))
			return true;
	return false;
}

/* The template arguments a launch of the declaration whose __global__ is
 * token i must give (its template parameters without a default); 0 when it
 * is no template. */
static int template_required(const toks *k, size_t i)
{
	size_t t = i, j;
	int depth = 0, required = 0;
	bool param = false, defaulted = false;

	while (t-- > 0 && !is(k, t, "template"))
		if (is(k, t, ";") || is(k, t, "}") || is(k, t, "{") || (k->t[t].flags & PORT_TOKEN_DIRECTIVE))
			return 0;
	if (t + 1 >= i || !is(k, t + 1, "<"))
		return 0;
	for (j = t + 1; j < i; j++) {
		depth += depth_step(k, j);
		if (depth <= 0 || (depth == 1 && is(k, j, ","))) {
			required += param && !defaulted;
			param = defaulted = false;
			if (depth <= 0)
				break;
			continue;
		}
		if (depth == 1 && j > t + 1 && k->t[j].kind != PORT_TOKEN_COMMENT) {
			param = true;
			defaulted |= is(k, j, "=");
		}
	}
	return required;
}

int rec_kernel_set_add(rec_kernel_set *set, port_lexer *lexer, const char *path, const char *src, size_t len)
{
	toks k;
	size_t i;
	int error;

	if ((error = lex(&k, lexer, path, src, len)) < 0)
		return error;
	for (i = 0; i < k.n && error == 0; i++) {
		size_t j, open;

		if (!is(&k, i, "__global__") || (k.t[i].flags & PORT_TOKEN_DIRECTIVE))
			continue;
		/* the name is the identifier before the first "(" that is not __launch_bounds__'s */
		for (j = i + 1; j < k.n && !is(&k, j, ";") && !is(&k, j, "{"); j++) {
			size_t prev = j - 1;

			if (!is(&k, j, "("))
				continue;
			open = j;
			while (prev > i && k.t[prev].kind == PORT_TOKEN_COMMENT)
				prev--;
			if (ident(&k, prev) && !is(&k, prev, "__launch_bounds__") && !is(&k, prev, "__attribute__")) {
				size_t close = closing(&k, open);

				if (close < k.n)
					error = set_put(set, src + k.t[prev].start, k.t[prev].end - k.t[prev].start,
							count_args(&k, open, close), templated_at(&k, i),
							template_required(&k, i));
				break;
			}
			j = closing(&k, open);
		}
	}
	free(k.t);
	return error;
}

/* Whether token j, an identifier before "(", declares a function other than
 * a kernel: a type before it (void f(, int *f(), not a call (return f(,
 * x = f() nor a kernel's own declaration (__global__ before it). */
static bool other_function_at(const toks *k, size_t j)
{
	static const char *const not_types[] = { "return", "else", "case", "do", "sizeof", "new", "delete", "throw",
						 "co_return", NULL };
	size_t p = j, i;

	while (p > 0 && k->t[p - 1].kind == PORT_TOKEN_COMMENT)
		p--;
	if (p == 0 || !(ident(k, p - 1) || k->t[p - 1].kind == PORT_TOKEN_KEYWORD || is(k, p - 1, "*") ||
			is(k, p - 1, "&") || is(k, p - 1, ">")))
		return false;
	for (i = 0; not_types[i]; i++)
		if (is(k, p - 1, not_types[i]))
			return false;
	for (i = p; i > 0 && !is(k, i - 1, ";") && !is(k, i - 1, "{") && !is(k, i - 1, "}") &&
		    !(k->t[i - 1].flags & PORT_TOKEN_DIRECTIVE);
	     i--)
		if (is(k, i - 1, "__global__") || is(k, i - 1, "=") || is(k, i - 1, "(") || is(k, i - 1, ","))
			return false;
	return true;
}

int rec_kernel_set_overloads(rec_kernel_set *set, port_lexer *lexer, const char *path, const char *src, size_t len)
{
	toks k;
	size_t i, n;
	int error;

	if ((error = lex(&k, lexer, path, src, len)) < 0)
		return error;
	for (i = 0; i + 1 < k.n; i++) {
		if (!ident(&k, i) || !is(&k, i + 1, "(") || !other_function_at(&k, i))
			continue;
		for (n = 0; n < set->n; n++)
			if (strlen(set->names[n]) == k.t[i].end - k.t[i].start &&
			    memcmp(set->names[n], src + k.t[i].start, k.t[i].end - k.t[i].start) == 0)
				set->deduced[n] = true;
	}
	free(k.t);
	return 0;
}

void rec_kernel_set_dispose(rec_kernel_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		free(set->names[i]);
	free(set->names);
	free(set->params);
	free(set->deduced);
	free(set->required);
	memset(set, 0, sizeof(*set));
}

/* The kernel of that name taking nargs parameters (any count: nargs < 0):
 * its index in set, or -1. */
static int known(const rec_kernel_set *set, const char *name, size_t len, int nargs)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (strlen(set->names[i]) == len && memcmp(set->names[i], name, len) == 0 &&
		    (nargs < 0 || set->params[i] == nargs))
			return (int)i;
	return -1;
}

typedef enum launch_form { FORM_NONE, FORM_DIRECT, FORM_DEDUCED, FORM_POINTER } launch_form;

/* How the launch of the callee at tokens callee..name with nargs arguments
 * is recorded: a kernel of the set by its type (direct) or, templated,
 * overloaded or given fewer arguments than it has parameters (defaults),
 * through the launch as written (deduced); a plain name no kernel of the
 * set has is a function pointer, named at run time by what it points to. */
static launch_form form_of(const toks *k, const rec_kernel_set *set, size_t callee, size_t name, int given,
			   int nargs)
{
	const char *text = k->src + k->t[name].start;
	size_t len = k->t[name].end - k->t[name].start;
	int kernel = known(set, text, len, nargs);
	bool explicit_args = given >= 0;

	/* kernel<N><<< of a template <int N, typename Payoff> kernel: the rest
	 * is deduced from the arguments, so the kernel has no address to take */
	if (kernel >= 0 && explicit_args && given < set->required[kernel])
		return FORM_DEDUCED;
	if (kernel >= 0)
		return set->deduced[kernel] && !explicit_args ? FORM_DEDUCED : FORM_DIRECT;
	if (known(set, text, len, -1) >= 0)
		return explicit_args ? FORM_NONE : FORM_DEDUCED;
	/* obj.f<<<, p->f<<< and ns::f<<< are not a pointer this rewrite can take */
	if (explicit_args || callee != name || (callee > 0 && (is(k, callee - 1, ".") || is(k, callee - 1, "->"))))
		return FORM_NONE;
	return FORM_POINTER;
}

/* The token closing the template argument list opened at i ("<"), before
 * to: a ">", or the ">>" that closes it with an inner one; to if none. */
static size_t angle_end(const toks *k, size_t i, size_t to)
{
	int depth = 0;

	for (; i < to; i++) {
		if (is(k, i, "<"))
			depth++;
		else if ((is(k, i, ">") && --depth == 0) || (is(k, i, ">>") && (depth -= 2) <= 0))
			return i;
	}
	return to;
}

/* The runtime calls that launch a kernel given as a pointer, with its
 * arguments as an array: (func, grid, block, args, shared, stream). */
static const char *const launch_calls[] = { "cudaLaunchKernel", "cudaLaunchCooperativeKernel", "hipLaunchKernel",
					    "hipLaunchCooperativeKernel", NULL };

/* The kernel named in [from, to), a launch call's first argument under its
 * casts ((void *)k<T>, reinterpret_cast<const void *>(&k)): *name its
 * identifier, [*start, *end) the expression to take its address from. */
static bool call_kernel(const toks *k, size_t from, size_t to, const rec_kernel_set *set, size_t *name,
			size_t *start, size_t *end)
{
	size_t i;

	from = code(k, from);
	while (from < to) {
		if (is(k, from, "(")) { /* (void *) or (const void *): a C cast */
			size_t c = closing(k, from), j;

			for (j = from + 1; j < c && (is(k, j, "void") || is(k, j, "const") || is(k, j, "*")); j++)
				;
			if (j != c)
				return false;
			from = code(k, c + 1);
		} else if (is(k, from, "reinterpret_cast") || is(k, from, "static_cast")) {
			size_t j = angle_end(k, from + 1, to), c;

			if (j >= to || !is(k, code(k, j + 1), "(") || (c = closing(k, code(k, j + 1))) + 1 != to)
				return false;
			from = code(k, code(k, j + 1) + 1);
			to = c;
		} else if (is(k, from, "&")) {
			from = code(k, from + 1);
		} else {
			break;
		}
	}
	/* ns::kernel<T, N>, nothing after it */
	*start = from;
	for (i = from; i + 2 < to && ident(k, i) && is(k, i + 1, "::"); i += 2)
		;
	if (!ident(k, i) || known(set, k->src + k->t[i].start, k->t[i].end - k->t[i].start, -1) < 0)
		return false;
	*name = i;
	if (i + 1 < to && is(k, i + 1, "<"))
		i = angle_end(k, i + 1, to);
	*end = i + 1;
	return code(k, *end) >= to;
}

/* cudaLaunchKernel(f, grid, block, args, shared, stream) of a kernel of set
 * at token i: HIPPORT_RECORD_LAUNCH_CALL("kernel", "path:line", f, grid,
 * block, args, shared, [&] { return cudaLaunchKernel(...); }) into out.
 * Returns the token after the call, or 0 when it is not one. */
static size_t instrument_call(util_buf *out, size_t *copied, const toks *k, size_t i, const rec_kernel_set *set,
			      const char *path, util_text_cursor *where)
{
	size_t open = code(k, i + 1), close, starts[6], ends[6], n = 0, j, from, name, start, end;
	unsigned line, col;
	int depth = 0;

	if (!is(k, open, "(") || (close = closing(k, open)) >= k->n || (i > 0 && (is(k, i - 1, ".") || is(k, i - 1, "->"))))
		return 0;
	for (j = from = open + 1; j <= close && n < 6; j++) {
		if (is(k, j, "(") || is(k, j, "[") || is(k, j, "{"))
			depth++;
		else if (j < close && (is(k, j, ")") || is(k, j, "]") || is(k, j, "}")))
			depth--;
		if ((j == close || (is(k, j, ",") && depth == 0))) {
			starts[n] = from;
			ends[n++] = j;
			from = j + 1;
		}
	}
	if (n < 4 || !call_kernel(k, starts[0], ends[0], set, &name, &start, &end))
		return 0;
	util_text_position_from(where, k->src, k->t[i].start, &line, &col);
	util_buf_put(out, k->src + *copied, k->t[i].start - *copied);
	util_buf_printf(out, "HIPPORT_RECORD_LAUNCH_CALL(\"%.*s\", \"%s:%u\", ", (int)(k->t[name].end - k->t[name].start),
			k->src + k->t[name].start, path, line);
	util_buf_put(out, k->src + k->t[start].start, k->t[end - 1].end - k->t[start].start);
	for (j = 1; j < 4; j++) {
		util_buf_puts(out, ", ");
		util_buf_put(out, k->src + k->t[starts[j]].start, k->t[ends[j] - 1].end - k->t[starts[j]].start);
	}
	util_buf_puts(out, ", ");
	if (n > 4)
		util_buf_put(out, k->src + k->t[starts[4]].start, k->t[ends[4] - 1].end - k->t[starts[4]].start);
	else
		util_buf_puts(out, "0");
	util_buf_puts(out, ", [&] { return ");
	util_buf_put(out, k->src + k->t[i].start, k->t[close].end - k->t[i].start);
	util_buf_puts(out, "; })");
	*copied = k->t[close].end;
	return close;
}

int rec_instrument(util_buf *out, size_t *nlaunches, port_lexer *lexer, const rec_kernel_set *set,
		   const char *path, const char *src, size_t len, const char *include)
{
	toks k;
	size_t i, copied = 0;
	util_text_cursor where = { 0 };
	int error;

	*nlaunches = 0;
	if ((error = lex(&k, lexer, path, src, len)) < 0)
		return error;
	for (i = 1; i < k.n; i++) {
		size_t name = i - 1, callee, close, open, end;
		unsigned line, col;
		bool explicit_args;
		int given = -1;       /* explicit template arguments */
		size_t subscript = 0; /* the "[" of kernels[i]<<< */
		launch_form form;

		if (ident(&k, i)) {
			size_t c, after;

			for (c = 0; launch_calls[c] && !is(&k, i, launch_calls[c]); c++)
				;
			if (launch_calls[c] && (after = instrument_call(out, &copied, &k, i, set, path, &where)) > 0) {
				(*nlaunches)++;
				i = after;
			}
			continue;
		}
		if (!is(&k, i, "<<<"))
			continue;
		/* kernels[i]<<<: a table of function pointers (NVIDIA's
		 * finite-difference sample), taken as the pointer it holds */
		subscript = 0;
		if (is(&k, name, "]")) {
			int depth = 0;

			for (subscript = name; subscript > 0; subscript--) {
				if (is(&k, subscript, "]"))
					depth++;
				else if (is(&k, subscript, "[") && --depth == 0)
					break;
			}
			if (subscript == 0 || !ident(&k, subscript - 1))
				continue;
			name = subscript - 1;
		}
		/* kernel<T, N><<<: the template arguments go with the kernel */
		explicit_args = !subscript && (is(&k, name, ">") || is(&k, name, ">>"));
		if (explicit_args) {
			int depth = 0;

			for (; name > 0; name--) {
				if (is(&k, name, ">"))
					depth++;
				else if (is(&k, name, ">>"))
					depth += 2;
				else if (is(&k, name, "<") && --depth == 0)
					break;
			}
			if (name == 0)
				continue;
			given = count_args(&k, name, i - 1);
			name--;
		}
		if (!ident(&k, name))
			continue;
		callee = name;
		/* ns::kernel */
		while (callee >= 2 && is(&k, callee - 1, "::") && ident(&k, callee - 2))
			callee -= 2;
		for (close = i + 1; close < k.n && !is(&k, close, ">>>"); close++)
			;
		open = code(&k, close + 1);
		if (close >= k.n || !is(&k, open, "(") || (end = closing(&k, open)) >= k.n ||
		    (form = subscript ? (known(set, src + k.t[name].start, k.t[name].end - k.t[name].start, -1) >= 0 ||
					 callee != name || (callee > 0 && (is(&k, callee - 1, ".") || is(&k, callee - 1, "->")))
					 ? FORM_NONE : FORM_POINTER)
				      : form_of(&k, set, callee, name, given, count_args(&k, open, end))) == FORM_NONE)
			continue;
		util_text_position_from(&where, src, k.t[name].start, &line, &col);
		util_buf_put(out, src + copied, k.t[callee].start - copied);
		if (form == FORM_POINTER)
			util_buf_printf(out, "HIPPORT_RECORD_LAUNCH_POINTER(\"%s:%u\", ", path, line);
		else
			util_buf_printf(out, "HIPPORT_RECORD_LAUNCH%s(\"%.*s\", \"%s:%u\", ",
					form == FORM_DEDUCED ? "_DEDUCED" : "", (int)(k.t[name].end - k.t[name].start),
					src + k.t[name].start, path, line);
		if (form == FORM_DEDUCED) {
			/* the launch as written, in a generic lambda: its template arguments
			 * deduced, or its overload chosen, as before */
			util_buf_puts(out, "[&](auto &&...hipport_arg) { ");
			util_buf_put(out, src + k.t[callee].start, k.t[close].end - k.t[callee].start);
			util_buf_puts(out, "(hipport_arg...); }");
		} else {
			util_buf_put(out, src + k.t[callee].start, k.t[i].start - k.t[callee].start);
		}
		util_buf_puts(out, ", ");
		util_buf_put(out, src + k.t[i].end, k.t[close].start - k.t[i].end);
		util_buf_puts(out, ")");
		copied = k.t[close].end;
		(*nlaunches)++;
		i = close;
	}
	free(k.t);
	if (*nlaunches) {
		util_buf b = UTIL_BUF_INIT;

		util_buf_printf(&b, "#include \"%s\"\n#line 1\n", include);
		util_buf_put(&b, out->ptr ? out->ptr : "", out->len);
		util_buf_put(&b, src + copied, len - copied);
		util_buf_dispose(out);
		*out = b;
	} else {
		util_buf_clear(out);
		util_buf_put(out, src, len);
	}
	return util_buf_oom(out) ? util_error_set(UTIL_ENOMEM, "out of memory") : 0;
}
