#include "check/kernel/proxy.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <uthash.h>

#include "util/embedded.h"
#include "util/error.h"

/* The CUDA release the proxy builds with: a CUDA name removed by then
 * cannot stand in for its HIP name. */
#define PROXY_CUDA PORT_VERSION(13, 0, 0)

/* share/check/proxy/compat.txt: what the rules cannot say (its head
 * comment describes the blocks). */
extern const util_embedded_file chk_proxy_builtin[];

typedef enum block_kind { BLOCK_HEAD, BLOCK_NAME, BLOCK_HEADER, BLOCK_FILE } block_kind;

typedef struct block {
	block_kind kind;
	const char *args; /* the rest of the %% line */
	size_t args_len;
	const char *text; /* the lines up to the next block */
	size_t len;
} block;

typedef struct name_entry {
	char *name;
	const port_rule *rule; /* the rule whose HIP name this is, the best found */
	int score;
	bool done;             /* defined by a block or as a warp intrinsic */
	UT_hash_handle hh;
} name_entry;

typedef struct collect {
	name_entry *names;   /* identifiers the texts use */
	name_entry *headers; /* headers they include */
	name_entry *spelled; /* identifiers the originals use */
	block *blocks;
	size_t nblocks;
	bool oom;
} collect;

static void add_name(collect *c, name_entry **set, const char *s, size_t n)
{
	name_entry *e = NULL;

	HASH_FIND(hh, *set, s, n, e);
	if (e)
		return;
	if (!(e = calloc(1, sizeof(*e))) || !(e->name = strndup(s, n))) {
		free(e);
		c->oom = true;
		return;
	}
	HASH_ADD_KEYPTR(hh, *set, e->name, n, e);
}

/* Identifiers (into names) and #include names (into headers, unless
 * NULL) of one text (comments included: a name too many costs one line of
 * the header). */
static void scan(collect *c, name_entry **names, name_entry **headers, const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (isalpha((unsigned char)text[i]) || text[i] == '_') {
			size_t start = i;

			while (i < len && (isalnum((unsigned char)text[i]) || text[i] == '_'))
				i++;
			add_name(c, names, text + start, i - start);
			if (headers && i - start == 7 && memcmp(text + start, "include", 7) == 0) {
				size_t k = i;

				while (k < len && (text[k] == ' ' || text[k] == '\t'))
					k++;
				if (k < len && (text[k] == '<' || text[k] == '"')) {
					char close = text[k] == '<' ? '>' : '"';
					size_t end = ++k;

					while (end < len && text[end] != close && text[end] != '\n')
						end++;
					if (end < len && text[end] == close)
						add_name(c, headers, text + k, end - k);
				}
			}
			continue;
		}
		i++;
	}
}

/* compat.txt's blocks, in file order. */
static int parse_blocks(collect *c, const char *data, size_t len)
{
	static const char *const kinds[] = { "head", "name", "header", "file" };
	const char *p = data, *end = data + len;
	block *cur = NULL;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *line_end = eol ? eol : end;
		const char *next = eol ? eol + 1 : end, *word = p + 3, *args;
		size_t k;

		if (line_end - p >= 3 && memcmp(p, "%% ", 3) == 0) {
			block *m = realloc(c->blocks, (c->nblocks + 1) * sizeof(*m));

			if (!m)
				return util_error_set(UTIL_ENOMEM, "out of memory");
			c->blocks = m;
			cur = &m[c->nblocks++];
			for (args = word; args < line_end && !isspace((unsigned char)*args); args++)
				;
			for (k = 0; k < 4; k++)
				if (strlen(kinds[k]) == (size_t)(args - word) && memcmp(word, kinds[k], (size_t)(args - word)) == 0)
					break;
			if (k == 4)
				return util_error_set(UTIL_ERROR, "proxy data: unknown block '%.*s'", (int)(line_end - p), p);
			while (args < line_end && isspace((unsigned char)*args))
				args++;
			while (line_end > args && isspace((unsigned char)line_end[-1]))
				line_end--;
			*cur = (block){ (block_kind)k, args, (size_t)(line_end - args), next, 0 };
		} else if (cur) {
			cur->len = (size_t)(next - cur->text);
		}
		p = next;
	}
	return 0;
}

/* Calls fn on each word of a block's arguments until it returns true. */
static bool each_arg(const block *b, bool (*fn)(const char *w, size_t n, void *payload), void *payload)
{
	size_t i = 0;

	while (i < b->args_len) {
		size_t start;

		while (i < b->args_len && isspace((unsigned char)b->args[i]))
			i++;
		start = i;
		while (i < b->args_len && !isspace((unsigned char)b->args[i]))
			i++;
		if (i > start && fn(b->args + start, i - start, payload))
			return true;
	}
	return false;
}

typedef struct header_match {
	const char *path;
	size_t score; /* 0 none; an exact match beats every folder */
} header_match;

static bool match_header(const char *w, size_t n, void *payload)
{
	header_match *m = payload;
	size_t len = strlen(m->path);

	if (n == len && memcmp(w, m->path, n) == 0)
		m->score = (size_t)-1;
	else if (n >= 2 && memcmp(w + n - 2, "/*", 2) == 0 && len > n - 1 && memcmp(w, m->path, n - 1) == 0 &&
		 n - 1 > m->score)
		m->score = n - 1;
	return false;
}

/* The header block that makes path's stub: an exact match, else the longest folder. */
static const block *header_block(const collect *c, const char *path)
{
	const block *best = NULL;
	size_t best_score = 0, i;

	for (i = 0; i < c->nblocks; i++) {
		header_match m = { path, 0 };

		if (c->blocks[i].kind != BLOCK_HEADER)
			continue;
		each_arg(&c->blocks[i], match_header, &m);
		if (m.score > best_score) {
			best = &c->blocks[i];
			best_score = m.score;
		}
	}
	return best;
}

static bool name_used(const char *w, size_t n, void *payload)
{
	collect *c = payload;
	name_entry *e = NULL;

	HASH_FIND(hh, c->names, w, n, e);
	return e != NULL;
}

static bool mark_done(const char *w, size_t n, void *payload)
{
	collect *c = payload;
	name_entry *e = NULL;

	HASH_FIND(hh, c->names, w, n, e);
	if (e)
		e->done = true;
	return false;
}

static int score_of(const port_rule *r)
{
	if (strcmp(r->family, "runtime") == 0 || strcmp(r->family, "device") == 0)
		return 3;
	return strcmp(r->family, "driver") == 0 ? 1 : 2;
}

/* Whether cuda is hip's own spelling with CUDA's prefix (cublasStatus_t for
 * hipblasStatus_t): among CUDA names for one HIP name (cublasStatus, a
 * legacy alias, and cublasStatus_t), the one the HIP name was made from. */
static bool same_spelling(const char *hip, const char *cuda)
{
	if (strncasecmp(hip, "hip", 3) != 0)
		return false;
	hip += 3;
	if (strncasecmp(cuda, "cuda", 4) == 0 && strcasecmp(cuda + 4, hip) == 0)
		return true;
	return strncasecmp(cuda, "cu", 2) == 0 && strcasecmp(cuda + 2, hip) == 0;
}

/* Keeps r for the HIP name hip if it is the best so far (of equals, the
 * one of the same spelling). The name the original spelled comes first:
 * HIP has one API where CUDA has a runtime and a driver, and a driver
 * program's hipMemAllocationProp, hipMemLocationTypeDevice and
 * hipDeviceGetAttribute are CUmemAllocationProp, CU_MEM_LOCATION_TYPE_DEVICE
 * and cuDeviceGetAttribute, which go together, not their runtime names. */
static void offer(collect *c, const port_rule *r, const char *hip, int score)
{
	name_entry *e = NULL, *spelled = NULL, **set = r->kind == PORT_RULE_HEADER ? &c->headers : &c->names;

	if (r->kind != PORT_RULE_HEADER) {
		HASH_FIND_STR(c->spelled, r->cuda, spelled);
		if (spelled)
			score += 100;
	}

	/* only HIP's own names: a library rule may map a CUDA typedef to "int" */
	if (!strcasestr(hip, "hip") && strcmp(r->family, "device") != 0)
		return;
	HASH_FIND_STR(*set, hip, e);
	if (e && (!e->rule || score > e->score ||
		  (score == e->score && same_spelling(hip, r->cuda) && !same_spelling(hip, e->rule->cuda)))) {
		e->rule = r;
		e->score = score;
	}
}

static void consider(const port_rule *r, void *payload)
{
	collect *c = payload;

	if (!r->hip || r->unsupported || strcmp(r->hip, r->cuda) == 0 || r->kind == PORT_RULE_NAMESPACE ||
	    (r->cuda_removed && r->cuda_removed <= PROXY_CUDA))
		return;
	offer(c, r, r->hip, score_of(r) + 10);
	/* a header's fallback is the HIP header older releases include in its
	 * place (hip/hip_bfloat16.h for cuda_bf16.h): the same CUDA header serves */
	if (r->kind == PORT_RULE_HEADER && r->fallback)
		offer(c, r, r->fallback, score_of(r));
	/* a name whose older HIP spelling is another name (hip_bfloat16 for
	 * __nv_bfloat16 before HIP 6.0): that spelling stands for it too */
	if (r->kind != PORT_RULE_HEADER && r->fallback && !strpbrk(r->fallback, "($ "))
		offer(c, r, r->fallback, score_of(r));
}

static int by_name(name_entry *a, name_entry *b)
{
	return strcmp(a->name, b->name);
}

static void free_set(name_entry **set)
{
	name_entry *e, *tmp;

	HASH_ITER(hh, *set, e, tmp) {
		HASH_DEL(*set, e);
		free(e->name);
		free(e);
	}
}

/* A warp intrinsic without a mask (HIP before 6.2), from its _sync rule's
 * fallback NAME($2...), whose arguments are the _sync ones after the mask
 * (whatever their count, alternatives by count included): NAME(...) is the
 * _sync form over the lanes active at the call, which is what HIP's maskless
 * forms mean: a full mask would wait forever for lanes a branch left out. */
static void warp_macro(const port_rule *r, void *payload)
{
	void **args = payload;
	collect *c = args[0];
	util_buf *b = args[1];
	const char *f = r->fallback, *paren, *name;
	name_entry *e = NULL;
	size_t n;

	if (r->kind != PORT_RULE_WARP_SYNC || !f || !(paren = strchr(f, '(')) || strncmp(paren, "($2", 3) != 0)
		return;
	for (n = 0; f + n < paren; n++)
		if (!isalnum((unsigned char)f[n]) && f[n] != '_')
			return;
	HASH_FIND(hh, c->names, f, n, e);
	if (!e || e->done)
		return;
	name = f;
	while (*name == '_')
		name++;
	/* a function, not a macro: a port may define the name itself, as the
	 * programs that wrapped the _sync forms did (#define __shfl(v, d) __shfl(v, d)) */
	if (strcmp(paren, "($2-)") == 0)
		util_buf_printf(b,
				"template <typename... A>\n"
				"static __device__ __forceinline__ auto %.*s(A... a) -> decltype(%s(__activemask(), a...))\n"
				"{\n\treturn %s(__activemask(), a...);\n}\n",
				(int)n, f, r->cuda, r->cuda);
	else
		/* a name for a function that forwards every argument: a vote's
		 * name is also libcu++'s (struct __any, which a function-like
		 * macro breaks), and an object-like one renames it whole */
		util_buf_printf(b,
				"#define %.*s hipport_%.*s\n"
				"template <typename... A>\n"
				"static __device__ __forceinline__ auto hipport_%.*s(A... a) -> decltype(%s(__activemask(), a...))\n"
				"{\n\treturn %s(__activemask(), a...);\n}\n",
				(int)n, f, (int)(paren - name), name, (int)(paren - name), name, r->cuda, r->cuda);
	e->done = true;
}

/* Appends a block's text without its trailing blank lines; {cuda} becomes
 * cuda_path. */
static void put_block(util_buf *b, const block *k, const char *cuda_path)
{
	size_t len = k->len, i = 0;

	while (len && isspace((unsigned char)k->text[len - 1]))
		len--;
	while (i < len) {
		const char *hole = cuda_path ? memmem(k->text + i, len - i, "{cuda}", 6) : NULL;
		size_t upto = hole ? (size_t)(hole - k->text) : len;

		util_buf_put(b, k->text + i, upto - i);
		if (!hole)
			break;
		util_buf_puts(b, cuda_path);
		i = upto + 6;
	}
	util_buf_putc(b, '\n');
}

/* path with hip and HIP spelled cuda and CUDA (ATen/hip/HIPContext.h ->
 * ATen/cuda/CUDAContext.h); NULL if it has neither or memory ran out. */
static char *cuda_spelling(const char *path)
{
	util_buf b = UTIL_BUF_INIT;
	bool changed = false;

	while (*path) {
		if (strncmp(path, "hip", 3) == 0 || strncmp(path, "HIP", 3) == 0) {
			util_buf_puts(&b, *path == 'h' ? "cuda" : "CUDA");
			path += 3;
			changed = true;
		} else {
			util_buf_putc(&b, *path++);
		}
	}
	if (!changed || util_buf_oom(&b)) {
		util_buf_dispose(&b);
		return NULL;
	}
	return util_buf_detach(&b);
}

/* A header name that is safe as a path under proxy/include. */
static bool plain_path(const char *p)
{
	const char *s;

	if (!*p || *p == '/' || strstr(p, "..") || strstr(p, "//"))
		return false;
	for (s = p; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-+./", *s))
			return false;
	return true;
}

static chk_proxy_file *add_file(chk_proxy *p, const char *path)
{
	chk_proxy_file *m = realloc(p->files, (p->nfiles + 1) * sizeof(*m));

	if (!m)
		return NULL;
	p->files = m;
	memset(&m[p->nfiles], 0, sizeof(*m));
	if (!(m[p->nfiles].path = strdup(path)))
		return NULL;
	return &m[p->nfiles++];
}

static const char stub_head[] = "// %s for the nvidia-proxy build (generated by hipport)\n";

/* Whether r renames a library header's include guard (CUSPARSEAPI as
 * _HIPSPARSE_H_, CURAND_H_ as HIPRAND_H_), which helper headers test with
 * #ifdef to know the library is included. It is defined where the library's
 * header is (its stub), never in hip_compat.h, which every file includes
 * first; the runtime's own guards are there, since hip_compat.h includes
 * the runtime. */
static bool library_guard(const port_rule *r)
{
	size_t n = strlen(r->hip);

	return r->kind != PORT_RULE_HEADER && n > 2 &&
	       (strcmp(r->hip + n - 2, "_H") == 0 || (n > 3 && strcmp(r->hip + n - 3, "_H_") == 0)) &&
	       strcmp(r->family, "runtime") != 0 && strcmp(r->family, "device") != 0 && strcmp(r->family, "driver") != 0;
}

/* The stub of header e, or nothing when neither a block nor a rule names
 * its CUDA header. */
static int make_stub(chk_proxy *out, const collect *c, const name_entry *e)
{
	const block *k = plain_path(e->name) ? header_block(c, e->name) : NULL;
	char *cuda_path = NULL;
	chk_proxy_file *stub;
	const name_entry *g;

	if (!k && !e->rule)
		return 0;
	if (k && memmem(k->text, k->len, "{cuda}", 6) && !(cuda_path = cuda_spelling(e->name)))
		return 0; /* no HIP spelling to undo: the stub would include itself */
	if (!(stub = add_file(out, e->name))) {
		free(cuda_path);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	util_buf_printf(&stub->text, stub_head, e->name);
	util_buf_puts(&stub->text, "#pragma once\n#include <hip_compat.h>\n");
	if (k)
		put_block(&stub->text, k, cuda_path);
	else
		util_buf_printf(&stub->text, "#include <%s>\n", e->rule->cuda);
	free(cuda_path);
	/* the library is included: its guards, under their HIP names */
	if (e->rule)
		for (g = c->names; g; g = g->hh.next)
			if (g->rule && library_guard(g->rule) && strcmp(g->rule->family, e->rule->family) == 0)
				util_buf_printf(&stub->text, "#ifndef %s\n#define %s %s\n#endif\n", g->name, g->name,
						g->rule->cuda);
	return 0;
}

/* The file blocks that a file written includes, until none is new. */
static int add_file_blocks(chk_proxy *out, const collect *c)
{
	bool added = true;
	size_t i, j;

	while (added) {
		added = false;
		for (i = 0; i < c->nblocks; i++) {
			const block *k = &c->blocks[i];
			util_buf want = UTIL_BUF_INIT;
			bool have = false, used = false;
			chk_proxy_file *f;

			if (k->kind != BLOCK_FILE)
				continue;
			util_buf_printf(&want, "<%.*s>", (int)k->args_len, k->args);
			if (util_buf_oom(&want))
				return util_error_set(UTIL_ENOMEM, "out of memory");
			want.ptr[want.len - 1] = '\0'; /* the path is want.ptr + 1 */
			for (j = 0; j < out->nfiles; j++)
				have = have || strcmp(out->files[j].path, want.ptr + 1) == 0;
			want.ptr[want.len - 1] = '>';
			for (j = 0; j < out->nfiles && !have && !used; j++)
				used = out->files[j].text.ptr && strstr(out->files[j].text.ptr, want.ptr);
			if (used) {
				want.ptr[want.len - 1] = '\0';
				if (!(f = add_file(out, want.ptr + 1))) {
					util_buf_dispose(&want);
					return util_error_set(UTIL_ENOMEM, "out of memory");
				}
				util_buf_printf(&f->text, stub_head, f->path);
				put_block(&f->text, k, NULL);
				added = true;
			}
			util_buf_dispose(&want);
		}
	}
	return 0;
}

/* A driver API function (cuMemCreate): it returns a CUresult. */
static bool driver_call(const port_rule *r)
{
	return r->kind == PORT_RULE_FUNCTION && strcmp(r->family, "driver") == 0 && strncmp(r->cuda, "cu", 2) == 0 &&
	       strncmp(r->cuda, "cuda", 4) != 0;
}

static int make_compat(chk_proxy *out, collect *c, const port_rules *rules)
{
	chk_proxy_file *compat = add_file(out, "hip_compat.h");
	void *warp_args[2];
	name_entry *e, *tmp;
	size_t i;

	if (!compat)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	util_buf_puts(&compat->text,
		      "// HIP names for CUDA: the nvidia-proxy build of a port (generated by hipport\n"
		      "// from its rules and share/check/proxy/compat.txt, for the names this bundle\n"
		      "// uses). A proxy result says the port's source computes the same as the\n"
		      "// original on an NVIDIA GPU; wavefront size 64 and AMD's compiler are only\n"
		      "// exercised on the amd platform.\n"
		      "#ifndef HIPPORT_HIP_COMPAT_H\n"
		      "#define HIPPORT_HIP_COMPAT_H\n");
	for (i = 0; i < c->nblocks; i++)
		if (c->blocks[i].kind == BLOCK_HEAD)
			put_block(&compat->text, &c->blocks[i], NULL);
	util_buf_puts(&compat->text, "\n// HIP's own names (compat.txt)\n");
	for (i = 0; i < c->nblocks; i++) {
		const block *k = &c->blocks[i];

		/* a block for the names it defines, whose rules are then left alone */
		if (k->kind != BLOCK_NAME || !each_arg(k, name_used, c))
			continue;
		each_arg(k, mark_done, c);
		put_block(&compat->text, k, NULL);
	}
	util_buf_puts(&compat->text, "\n// warp intrinsics without a mask (HIP before 6.2): over the lanes active at the call\n");
	warp_args[0] = c;
	warp_args[1] = &compat->text;
	port_rules_each(rules, warp_macro, warp_args);
	util_buf_puts(&compat->text, "\n// renames, from the rules\n");
	HASH_SORT(c->names, by_name);
	HASH_ITER(hh, c->names, e, tmp)
		if (e->rule && !e->done && !library_guard(e->rule)) {
			if (driver_call(e->rule))
				/* a CUresult, where the port's hipError_t may be the runtime's cudaError_t */
				util_buf_printf(&compat->text, "#define %s(...) ((hipError_t)%s(__VA_ARGS__))\n", e->name,
						e->rule->cuda);
			else
				util_buf_printf(&compat->text, "#define %s %s\n", e->name, e->rule->cuda);
		}
	util_buf_puts(&compat->text, "\n#endif\n");
	return 0;
}

int chk_proxy_make(chk_proxy *out, const port_rules *rules, const char *const *texts, const size_t *lens,
		   size_t ntexts, const char *const *origs, const size_t *orig_lens, size_t norigs)
{
	collect c = { NULL, NULL, NULL, NULL, 0, false };
	name_entry *e, *tmp;
	size_t i;
	int error = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < ntexts; i++)
		scan(&c, &c.names, &c.headers, texts[i], lens[i]);
	for (i = 0; i < norigs; i++)
		scan(&c, &c.spelled, NULL, origs[i], orig_lens[i]);
	add_name(&c, &c.headers, "hip/hip_runtime.h", strlen("hip/hip_runtime.h"));
	/* what a driver call's result is cast to (driver_call) */
	add_name(&c, &c.names, "hipError_t", strlen("hipError_t"));
	if ((error = parse_blocks(&c, chk_proxy_builtin[0].data, chk_proxy_builtin[0].len)) < 0)
		goto done;
	port_rules_each(rules, consider, &c);
	if (c.oom) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	if ((error = make_compat(out, &c, rules)) < 0)
		goto done;
	HASH_SORT(c.headers, by_name);
	HASH_ITER(hh, c.headers, e, tmp)
		if ((error = make_stub(out, &c, e)) < 0)
			goto done;
	if ((error = add_file_blocks(out, &c)) < 0)
		goto done;
	for (i = 0; i < out->nfiles; i++)
		if (util_buf_oom(&out->files[i].text))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
done:
	free_set(&c.names);
	free_set(&c.headers);
	free_set(&c.spelled);
	free(c.blocks);
	if (error < 0)
		chk_proxy_dispose(out);
	return error;
}

void chk_proxy_dispose(chk_proxy *p)
{
	size_t i;

	for (i = 0; i < p->nfiles; i++) {
		free(p->files[i].path);
		util_buf_dispose(&p->files[i].text);
	}
	free(p->files);
	memset(p, 0, sizeof(*p));
}
