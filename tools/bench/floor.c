/* The libclang floor for hipport scan: for each file, exactly the libclang
 * work that src/port/lex.c does, and nothing else.
 *
 *   at start-up, LIBCLANG_NOTHREADS=1 unless it is set already (as
 *   port_lexer_global_init), so that libclang parses on the calling thread;
 *   read the file; skip a UTF-8 byte order mark; wrap the rest in a C++ raw
 *   string literal, const char *hipport_source = R"DELIM( ... )DELIM";
 *   where DELIM is hipport, hipport1, hipport2, ..., the first for which
 *   )DELIM" does not occur in the file;
 *   the thread's first file: clang_parseTranslationUnit2 with lex.c's
 *   arguments and flags (SingleFileParse | SkipFunctionBodies) on the wrapped
 *   text as an unsaved file; every later file: clang_reparseTranslationUnit of
 *   that translation unit with the new text (lex.c keeps one per thread);
 *   clang_getFile, clang_tokenize over the file's bytes;
 *   per token clang_getTokenExtent, two clang_getSpellingLocation, clang_getTokenKind
 *   (as lex.c does; --no-extents leaves these out);
 *   clang_disposeTokens; the translation unit is disposed at the end.
 *
 * --parse-each: a new clang_parseTranslationUnit2 (and dispose) per file, as
 * lex.c did before it reused the translation unit; each parse runs the clang
 * driver again (argument parsing, toolchain probing).
 *
 * --full: for reference, the same without the wrapper, so that libclang
 * preprocesses and parses the file (function bodies skipped, no includes
 * followed), then tokenizes it.
 *
 * Experiments, not the floor:
 *
 * --ifzero: the file wrapped in "#if 0\n" ... "\n#endif\n" instead of the raw
 * string literal, as lex.c did before; text inside the file can close that
 * wrapper early (a stray #endif or #else), and libclang then preprocesses and
 * parses the rest of the file for real.
 *
 * --threads-per-parse: LIBCLANG_NOTHREADS is left as it is (unset, unless the
 * caller set it), so that libclang runs each parse and reparse on a safety
 * thread of its own, as lex.c did before.
 *
 * Each mode prints a checksum of the token extents and kinds, so that modes
 * can be checked to give the same tokens.
 *
 * Threads take files from a shared counter, one CXIndex (and translation
 * unit) per thread, like hipport's --jobs.
 *
 * usage: floor [--threads N] [--parse-each] [--full] [--no-extents] [--ifzero]
 *              [--threads-per-parse] LIST
 *   LIST: a file of paths, one a line ("-": standard input).
 * Prints one line: files, bytes, tokens, a checksum of the tokens, seconds
 * (wall, inside the program).
 *
 * Build: cc -O2 -pthread -I/usr/lib/llvm-15/include floor.c \
 *          -L/usr/lib/llvm-15/lib -Wl,-rpath,/usr/lib/llvm-15/lib -lclang -o floor */
#define _GNU_SOURCE
#include <clang-c/Index.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define USAGE \
	"usage: floor [--threads N] [--parse-each] [--full] [--no-extents] [--ifzero] [--threads-per-parse] LIST\n"

static int ifzero; /* --ifzero: the #if 0 wrapper instead of the raw string literal */

/* The same as src/port/lex.c. */
static const char *const parse_args[] = {
	"-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-host-only", "-fsyntax-only", "-undef",
	"--target=xcore", "-std=c++17", "-w", "-Xclang", "-fno-spell-checking", "-ferror-limit=0"
};
static const unsigned parse_flags = CXTranslationUnit_SingleFileParse | CXTranslationUnit_SkipFunctionBodies;

static char **paths;
static size_t npaths;
static atomic_size_t next_path;
static int full_parse, extents = 1, reparse = 1;
static _Atomic unsigned long long checksum;

struct worker {
	pthread_t thread;
	unsigned long long files, bytes, tokens;
	int failed;
};

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)size + 1)) != NULL) {
		*len = fread(buf, 1, (size_t)size, f);
		if (*len != (size_t)size) {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

/* As lex.c: a raw-string delimiter that does not occur in the file as )DELIM". */
static void choose_delimiter(char delim[16], const char *src, size_t len)
{
	char close[24];
	unsigned k;

	for (k = 0;; k++) {
		snprintf(delim, 16, k ? "hipport%u" : "hipport", k);
		snprintf(close, sizeof(close), ")%s\"", delim);
		if (!memmem(src, len, close, strlen(close)))
			return;
	}
}

/* The text libclang gets: the file (less a UTF-8 byte order mark) in the
 * wrapper of the mode, or the file as it is with --full. *head: where the
 * file's bytes start in it; *body: how many there are. */
static char *wrap(const char *src, size_t len, size_t *head, size_t *body, size_t *total, size_t *bom)
{
	char open[64], close[32], delim[16];
	size_t lo, lc;
	char *out;

	*bom = 0;
	if (full_parse) {
		open[0] = close[0] = '\0';
	} else {
		*bom = len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
		if (ifzero) {
			snprintf(open, sizeof(open), "#if 0\n");
			snprintf(close, sizeof(close), "\n#endif\n");
		} else {
			choose_delimiter(delim, src, len);
			snprintf(open, sizeof(open), "const char *hipport_source = R\"%s(", delim);
			snprintf(close, sizeof(close), ")%s\";\n", delim);
		}
	}
	lo = strlen(open);
	lc = strlen(close);
	*head = lo;
	*body = len - *bom;
	*total = lo + *body + lc;
	out = malloc(*total + 1);
	if (!out)
		return NULL;
	memcpy(out, open, lo);
	memcpy(out + lo, src + *bom, *body);
	memcpy(out + lo + *body, close, lc);
	out[*total] = '\0';
	return out;
}

static int one_file(CXIndex index, CXTranslationUnit *keep, const char *path, struct worker *w)
{
	size_t len = 0, head, body, total, bom;
	char *src = read_file(path, &len), *text;
	struct CXUnsavedFile unsaved;
	CXTranslationUnit tu = NULL;
	CXToken *toks = NULL;
	unsigned ntoks = 0, i;
	CXFile file;
	unsigned long long sum = 0;

	if (!src) {
		fprintf(stderr, "floor: cannot read %s\n", path);
		return -1;
	}
	text = wrap(src, len, &head, &body, &total, &bom);
	free(src);
	if (!text) {
		fprintf(stderr, "floor: out of memory\n");
		return -1;
	}
	unsaved.Filename = "hipport-input.cu";
	unsaved.Contents = text;
	unsaved.Length = (unsigned long)total;
	if (reparse && *keep) {
		tu = *keep;
		if (clang_reparseTranslationUnit(tu, 1, &unsaved, clang_defaultReparseOptions(tu)) != 0) {
			fprintf(stderr, "floor: libclang could not reparse %s\n", path);
			clang_disposeTranslationUnit(tu);
			*keep = NULL;
			free(text);
			return -1;
		}
	} else if (clang_parseTranslationUnit2(index, unsaved.Filename, parse_args,
					       (int)(sizeof(parse_args) / sizeof(parse_args[0])), &unsaved, 1,
					       parse_flags, &tu) != CXError_Success || !tu) {
		fprintf(stderr, "floor: libclang could not read %s\n", path);
		free(text);
		return -1;
	}
	file = clang_getFile(tu, unsaved.Filename);
	if (file) {
		clang_tokenize(tu,
			       clang_getRange(clang_getLocationForOffset(tu, file, (unsigned)head),
					      clang_getLocationForOffset(tu, file, (unsigned)(head + body))),
			       &toks, &ntoks);
		if (extents) {
			for (i = 0; i < ntoks; i++) {
				CXSourceRange extent = clang_getTokenExtent(tu, toks[i]);
				unsigned start, end, kind;

				clang_getSpellingLocation(clang_getRangeStart(extent), NULL, NULL, NULL, &start);
				clang_getSpellingLocation(clang_getRangeEnd(extent), NULL, NULL, NULL, &end);
				/* as lex.c */
				if (start < head || start >= head + body || end <= start)
					continue;
				if (end > head + body)
					end = (unsigned)(head + body);
				while (end - start > 2 && text[start] == '\\' &&
				       (text[start + 1] == '\n' || (text[start + 1] == '\r' && text[start + 2] == '\n')))
					start += text[start + 1] == '\n' ? 2 : 3;
				kind = clang_getTokenKind(toks[i]);
				w->tokens++;
				sum = sum * 1000003u +
				      ((start - head + bom) * 31u + (end - head + bom)) * 7u + kind;
			}
		} else {
			w->tokens += ntoks;
		}
	}
	checksum += sum; /* order-independent over files */
	if (toks)
		clang_disposeTokens(tu, toks, ntoks);
	if (reparse)
		*keep = tu; /* reparsed with the next file (libclang copied the text) */
	else
		clang_disposeTranslationUnit(tu);
	free(text);
	w->files++;
	w->bytes += len;
	return 0;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit keep = NULL;
	size_t i;

	while ((i = atomic_fetch_add(&next_path, 1)) < npaths)
		if (one_file(index, &keep, paths[i], w) < 0)
			w->failed = 1;
	if (keep)
		clang_disposeTranslationUnit(keep);
	clang_disposeIndex(index);
	return NULL;
}

static int read_list(const char *name)
{
	FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "r");
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	ssize_t n;

	if (!f)
		return -1;
	while ((n = getline(&line, &cap, f)) > 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0)
			continue;
		if (npaths == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			paths = realloc(paths, alloc * sizeof(*paths));
			if (!paths)
				return -1;
		}
		if (!(paths[npaths++] = strdup(line)))
			return -1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct worker *workers;
	unsigned long long files = 0, bytes = 0, tokens = 0;
	struct timespec t0, t1;
	int threads = 1, i, failed = 0, threads_per_parse = 0;
	const char *list = NULL;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
			threads = atoi(argv[++i]);
		else if (strcmp(argv[i], "--full") == 0)
			full_parse = 1;
		else if (strcmp(argv[i], "--no-extents") == 0)
			extents = 0;
		else if (strcmp(argv[i], "--parse-each") == 0)
			reparse = 0;
		else if (strcmp(argv[i], "--ifzero") == 0)
			ifzero = 1;
		else if (strcmp(argv[i], "--threads-per-parse") == 0)
			threads_per_parse = 1;
		else if (!list && argv[i][0] != '-')
			list = argv[i];
		else if (!list && strcmp(argv[i], "-") == 0)
			list = argv[i];
		else {
			fprintf(stderr, USAGE);
			return 2;
		}
	}
	if (!list || threads < 1 || threads > 256) {
		fprintf(stderr, USAGE);
		return 2;
	}
	if (!threads_per_parse)
		setenv("LIBCLANG_NOTHREADS", "1", 0); /* as port_lexer_global_init */
	if (read_list(list) < 0) {
		fprintf(stderr, "floor: cannot read the list %s\n", list);
		return 2;
	}
	workers = calloc((size_t)threads, sizeof(*workers));
	if (!workers)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (threads == 1) {
		work(&workers[0]);
	} else {
		for (i = 0; i < threads; i++)
			if (pthread_create(&workers[i].thread, NULL, work, &workers[i]) != 0) {
				fprintf(stderr, "floor: cannot start thread %d\n", i);
				return 2;
			}
		for (i = 0; i < threads; i++)
			pthread_join(workers[i].thread, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (i = 0; i < threads; i++) {
		files += workers[i].files;
		bytes += workers[i].bytes;
		tokens += workers[i].tokens;
		failed |= workers[i].failed;
	}
	printf("files %llu bytes %llu tokens %llu checksum %016llx seconds %.3f\n", files, bytes, tokens,
	       (unsigned long long)checksum,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return failed ? 1 : 0;
}
