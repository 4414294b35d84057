/* Kernel launches: kernel<<<grid, block[, shmem[, stream]]>>>(args), kept as
 * they are or rewritten to hipLaunchKernelGGL(kernel, dim3(grid), dim3(block),
 * shmem, stream, args) the way hipify-clang writes it. */
#include <stdlib.h>
#include <string.h>

#include "port/xlate.h"

/* The first token of the kernel name before '<<<': 'k', 'ns::k', 'k<T, 4>'. */
static size_t kernel_start(const xlate *x, size_t open, bool *templated)
{
	size_t k = xlate_prev(x, open), p;

	*templated = false;
	if (k == SIZE_MAX)
		return SIZE_MAX;
	if (xlate_tok_is(x, k, ">") || xlate_tok_is(x, k, ">>")) {
		int depth = 0;

		for (;; k--) {
			if (xlate_tok_is(x, k, ">"))
				depth++;
			else if (xlate_tok_is(x, k, ">>"))
				depth += 2;
			else if (xlate_tok_is(x, k, "<"))
				depth--;
			else if (xlate_tok_is(x, k, ";") || xlate_tok_is(x, k, "{") || xlate_tok_is(x, k, "}"))
				return SIZE_MAX;
			if (depth == 0 || k == 0)
				break;
		}
		if (depth != 0)
			return SIZE_MAX;
		*templated = true;
		k = xlate_prev(x, k);
		if (k == SIZE_MAX)
			return SIZE_MAX;
	}
	if (x->tok[k].kind != PORT_TOKEN_IDENT)
		return SIZE_MAX;
	/* qualified names and kernels reached through objects: 'ns::k', 'table.k', 'p->k' */
	while ((p = xlate_prev(x, k)) != SIZE_MAX &&
	       (xlate_tok_is(x, p, "::") || xlate_tok_is(x, p, ".") || xlate_tok_is(x, p, "->"))) {
		size_t q = xlate_prev(x, p);

		if (q == SIZE_MAX || x->tok[q].kind != PORT_TOKEN_IDENT)
			return xlate_tok_is(x, p, "::") ? p : k; /* '::kernel' */
		k = q;
	}
	return k;
}

/* The name tokens of the kernel templates the file declares
 * (template <...> __global__ void name(...)), in *names (malloc'd). */
static int template_kernel_names(const xlate *x, size_t **names, size_t *n)
{
	size_t i;

	*names = NULL;
	*n = 0;
	for (i = 0; i + 1 < x->ntok; i++) {
		size_t j, *grown;
		int depth;
		bool global = false;

		if (!xlate_tok_is(x, i, "template") || !xlate_tok_is(x, xlate_next(x, i), "<"))
			continue;
		/* the parameter list, then the declaration up to its '(' */
		for (j = xlate_next(x, i), depth = 0; j < x->ntok; j = xlate_next(x, j)) {
			if (xlate_tok_is(x, j, "<"))
				depth++;
			else if (xlate_tok_is(x, j, ">"))
				depth--;
			else if (xlate_tok_is(x, j, ">>"))
				depth -= 2;
			if (depth <= 0 || xlate_tok_is(x, j, ";") || xlate_tok_is(x, j, "{"))
				break;
		}
		for (j = xlate_next(x, j); j < x->ntok; j = xlate_next(x, j)) {
			if (xlate_tok_is(x, j, "__global__"))
				global = true;
			else if (xlate_tok_is(x, j, "(") || xlate_tok_is(x, j, ";") || xlate_tok_is(x, j, "{") ||
				 xlate_tok_is(x, j, "}") || xlate_tok_is(x, j, "template"))
				break;
		}
		if (!global || j >= x->ntok || !xlate_tok_is(x, j, "(") || xlate_prev(x, j) == SIZE_MAX)
			continue;
		if (!(grown = realloc(*names, (*n + 1) * sizeof(*grown)))) {
			free(*names);
			*names = NULL;
			*n = 0;
			return util_error_set(UTIL_ENOMEM, "out of memory");
		}
		*names = grown;
		grown[(*n)++] = xlate_prev(x, j);
	}
	return 0;
}

/* The name a #define at directive token k defines ('#' 'define' NAME), or
 * SIZE_MAX; *function_like when a '(' follows it without a space. */
static size_t defined_name(const xlate *x, size_t k, bool *function_like)
{
	size_t name = k + 2;

	*function_like = false;
	if (name >= x->ntok || !xlate_tok_is(x, k, "#") || !xlate_tok_is(x, k + 1, "define") ||
	    x->tok[name].kind != PORT_TOKEN_IDENT)
		return SIZE_MAX;
	*function_like = name + 1 < x->ntok && xlate_tok_is(x, name + 1, "(") &&
			 x->tok[name + 1].start == x->tok[name].end;
	return name;
}

/* The first token of the directive line that holds token i. */
static size_t directive_start(const xlate *x, size_t i)
{
	while (i > 0 && !(x->tok[i].flags & PORT_TOKEN_LINE_START))
		i--;
	return i;
}

/* Adds to *names the object-like macros the file defines with template
 * arguments in their value ('#define KERNEL k<float>'): a kernel named by
 * one is a template too. */
static int add_template_macros(const xlate *x, size_t **names, size_t *n)
{
	size_t i, k, *grown;
	bool function_like, angle;

	for (i = 0; i + 2 < x->ntok; i++) {
		size_t name = (x->tok[i].flags & PORT_TOKEN_LINE_START) ? defined_name(x, i, &function_like) : SIZE_MAX;

		if (name == SIZE_MAX || function_like)
			continue;
		angle = false;
		for (k = name + 1; k < x->ntok && (x->tok[k].flags & PORT_TOKEN_DIRECTIVE) &&
				   !(x->tok[k].flags & PORT_TOKEN_LINE_START);
		     k++)
			angle |= xlate_tok_is(x, k, "<");
		if (!angle)
			continue;
		if (!(grown = realloc(*names, (*n + 1) * sizeof(*grown))))
			return util_error_set(UTIL_ENOMEM, "out of memory");
		*names = grown;
		grown[(*n)++] = name;
	}
	return 0;
}

/* With --kernel-launch=hip, a launch of a kernel template without template
 * arguments (k<<<g, b>>>(x)) still names a template: HIP_KERNEL_NAME(k).
 * So does a kernel named by a macro that holds template arguments.
 * The file's templates are looked up once, for all its launches. */
static int mark_template_launches(xlate *x)
{
	size_t i, k, *names, nnames;
	int error;

	for (i = 0; i < x->nlaunches && (x->launches[i].templated || x->launches[i].kernel == SIZE_MAX); i++)
		;
	if (x->opts->launch != PORT_LAUNCH_HIP || i == x->nlaunches)
		return 0;
	if ((error = template_kernel_names(x, &names, &nnames)) < 0)
		return error;
	if ((error = add_template_macros(x, &names, &nnames)) < 0) {
		free(names);
		return error;
	}
	for (i = 0; i < x->nlaunches; i++) {
		xlate_launch *l = &x->launches[i];
		size_t last = xlate_prev(x, l->open);

		if (l->kernel == SIZE_MAX || l->templated || last == SIZE_MAX || x->tok[last].kind != PORT_TOKEN_IDENT)
			continue;
		for (k = 0; k < nnames && !l->templated; k++)
			l->templated = xlate_tok_len(x, names[k]) == xlate_tok_len(x, last) &&
				       memcmp(xlate_tok_text(x, names[k]), xlate_tok_text(x, last),
					      xlate_tok_len(x, last)) == 0;
	}
	free(names);
	return 0;
}

/* Every launch is listed, so that x->nlaunches counts entries; one left as
 * written has kernel SIZE_MAX. */
static int add_launch(xlate *x, const xlate_launch *l)
{
	xlate_launch *grown = realloc(x->launches, (x->nlaunches + 1) * sizeof(*grown));

	if (!grown)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	x->launches = grown;
	x->launches[x->nlaunches++] = *l;
	return 0;
}

/* With --kernel-launch=hip, a launch configuration in a #define (#define
 * CFG k<<<g, b>>>) is completed where the macro is used with the argument
 * list, CFG(args): that use becomes the launch, as hipify-clang (which sees
 * the expansion) writes it; the #define is left as written. Only a macro
 * whose whole value is the kernel and its configuration. */
static int launch_macro_uses(xlate *x)
{
	size_t n = x->nlaunches, d, i;

	if (x->opts->launch != PORT_LAUNCH_HIP)
		return 0;
	for (d = 0; d < n; d++) {
		xlate_launch def = x->launches[d];
		size_t hash, name, after;
		bool function_like;

		if (def.kernel != SIZE_MAX || def.name_begin == SIZE_MAX)
			continue;
		hash = directive_start(x, def.open);
		name = defined_name(x, hash, &function_like);
		after = xlate_next(x, def.close);
		if (name == SIZE_MAX || function_like || xlate_next(x, name) != def.name_begin ||
		    (after < x->ntok && (x->tok[after].flags & PORT_TOKEN_DIRECTIVE) &&
		     !(x->tok[after].flags & PORT_TOKEN_LINE_START)))
			continue;
		for (i = 0; i < x->ntok; i++) {
			xlate_launch use = def;
			int error;

			if (x->tok[i].kind != PORT_TOKEN_IDENT || (x->tok[i].flags & PORT_TOKEN_DIRECTIVE) ||
			    (x->mark[i] & (XLATE_PROTECT | XLATE_LAUNCH)) || xlate_tok_len(x, i) != xlate_tok_len(x, name) ||
			    memcmp(xlate_tok_text(x, i), xlate_tok_text(x, name), xlate_tok_len(x, i)) != 0)
				continue;
			use.lparen = xlate_next(x, i);
			if (!xlate_tok_is(x, use.lparen, "(") ||
			    xlate_split_args(x, use.lparen, &use.rparen, NULL, 0, ")") < 0)
				continue;
			use.kernel = i;
			if ((error = add_launch(x, &use)) < 0)
				return error;
			x->mark[i] |= XLATE_LAUNCH;
		}
	}
	return 0;
}

int xlate_find_launches(xlate *x)
{
	size_t i;
	int error;

	for (i = 0; i < x->ntok; i++) {
		xlate_launch l;
		int n;

		if (!xlate_tok_is(x, i, "<<<") || (x->mark[i] & XLATE_PROTECT))
			continue;
		memset(&l, 0, sizeof(l));
		l.open = i;
		n = xlate_split_args(x, i, &l.close, l.config, 4, ">>>");
		if (n < 0)
			return xlate_error_at(x, x->tok[i].start, "'<<<' without a matching '>>>'");
		if (n < 2 || n > 4)
			return xlate_error_at(x, x->tok[i].start,
					      "a kernel launch takes 2 to 4 arguments in <<<...>>>, not %d", n);
		l.nconfig = n;
		l.lparen = xlate_next(x, l.close);
		if ((x->tok[i].flags & PORT_TOKEN_DIRECTIVE) &&
		    (l.lparen >= x->ntok || !(x->tok[l.lparen].flags & PORT_TOKEN_DIRECTIVE) ||
		     (x->tok[l.lparen].flags & PORT_TOKEN_LINE_START))) {
			/* '#define LAUNCH k<<<g, b>>>': the arguments follow where the
			 * macro is used (launch_macro_uses); the #define is left as written */
			l.kernel = SIZE_MAX;
			l.name_begin = kernel_start(x, i, &l.templated);
			l.name_end = i;
			if ((error = add_launch(x, &l)) < 0)
				return error;
			i = l.close;
			continue;
		}
		if (!xlate_tok_is(x, l.lparen, "("))
			return xlate_error_at(x, x->tok[l.close].start,
					      "kernel launch without an argument list after '>>>'");
		if (xlate_split_args(x, l.lparen, &l.rparen, NULL, 0, ")") < 0)
			return xlate_error_at(x, x->tok[l.lparen].start, "unbalanced kernel arguments");
		l.kernel = kernel_start(x, i, &l.templated);
		if (l.kernel != SIZE_MAX && (x->mark[l.kernel] & XLATE_LAUNCH))
			l.kernel = SIZE_MAX;
		l.name_begin = l.kernel;
		l.name_end = i;
		/* counted either way; an unusual callee (SIZE_MAX) is left as written */
		if ((error = add_launch(x, &l)) < 0)
			return error;
		if (l.kernel == SIZE_MAX)
			continue;
		x->mark[l.kernel] |= XLATE_LAUNCH;
		i = l.close;
	}
	if ((error = launch_macro_uses(x)) < 0)
		return error;
	return mark_template_launches(x);
}

/* Whether tokens [begin, end) hold more than comments. */
static bool has_code(const xlate *x, size_t begin, size_t end)
{
	for (; begin < end; begin++)
		if (x->tok[begin].kind != PORT_TOKEN_COMMENT)
			return true;
	return false;
}

/* dim3(...) around a launch dimension, unless it already is one. */
static void emit_dim3(xlate *x, const xlate_range *r, util_buf *out)
{
	size_t rparen;

	if (r->end > r->begin + 2 && xlate_tok_is(x, r->begin, "dim3") &&
	    xlate_tok_is(x, r->begin + 1, "(") &&
	    xlate_split_args(x, r->begin + 1, &rparen, NULL, 0, ")") >= 0 && rparen + 1 == r->end) {
		xlate_emit_range(x, r->begin, r->end, out);
		return;
	}
	util_buf_puts(out, "dim3(");
	xlate_emit_range(x, r->begin, r->end, out);
	util_buf_putc(out, ')');
}

size_t xlate_emit_launch(xlate *x, size_t kernel, util_buf *out)
{
	size_t i;
	const xlate_launch *l = NULL;

	for (i = 0; i < x->nlaunches; i++)
		if (x->launches[i].kernel == kernel && x->launches[i].close) {
			l = &x->launches[i];
			break;
		}
	if (!l) {
		util_buf_put(out, xlate_tok_text(x, kernel), xlate_tok_len(x, kernel));
		return kernel + 1;
	}
	util_buf_puts(out, "hipLaunchKernelGGL(");
	if (l->templated)
		util_buf_puts(out, "HIP_KERNEL_NAME(");
	x->launch_name = l->kernel;
	xlate_emit_range(x, l->name_begin, l->name_end, out);
	x->launch_name = SIZE_MAX;
	if (l->templated)
		util_buf_putc(out, ')');
	util_buf_puts(out, ", ");
	emit_dim3(x, &l->config[0], out);
	util_buf_puts(out, ", ");
	emit_dim3(x, &l->config[1], out);
	util_buf_puts(out, ", ");
	if (l->nconfig > 2)
		xlate_emit_range(x, l->config[2].begin, l->config[2].end, out);
	else
		util_buf_putc(out, '0');
	util_buf_puts(out, ", ");
	if (l->nconfig > 3)
		xlate_emit_range(x, l->config[3].begin, l->config[3].end, out);
	else
		util_buf_putc(out, '0');
	if (has_code(x, l->lparen + 1, l->rparen)) {
		util_buf_puts(out, ", ");
		xlate_emit_range(x, l->lparen + 1, l->rparen, out);
	}
	util_buf_putc(out, ')');
	return l->rparen + 1;
}

