#include "analyze/parse.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/embedded.h"
#include "util/error.h"

extern const util_embedded_file an_prelude_builtin[];

/* where the prelude seems to lie: it is handed to libclang from memory */
#define PRELUDE_PATH "/hipport-prelude/cuda.h"

/* Flags of every parse. Spell checking (typo correction of unknown names)
 * would dominate the time; without -ferror-limit=0 the AST is cut after 20
 * errors, and code without its headers has many. A CUDA path that does not
 * exist spares the driver its search for installations (a third of an
 * empty file's parse). */
static const char *const base_flags[] = { "-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-path=/hipport-no-cuda",
					  "--cuda-host-only",
					  "-std=c++17", "-w", "-nostdinc", "-Xclang", "-fno-spell-checking",
					  "-ferror-limit=0" };
#define NBASE (sizeof(base_flags) / sizeof(base_flags[0]))

/* The prelude precompiled, once per process: reading it as text costs more
 * than most files. NULL when it could not be made (then it is read as text). */
static char *pch_path;
static pthread_once_t pch_once = PTHREAD_ONCE_INIT;

static void remove_pch(void)
{
	if (pch_path)
		unlink(pch_path);
}

static void make_pch(void)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct CXUnsavedFile prelude = { PRELUDE_PATH, an_prelude_builtin[0].data, an_prelude_builtin[0].len };
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	char *path = NULL;
	int fd;

	if (!index || asprintf(&path, "%s/hipport-prelude-XXXXXX", dir) < 0)
		goto done;
	if ((fd = mkstemp(path)) < 0) {
		free(path);
		path = NULL;
		goto done;
	}
	close(fd);
	if (clang_parseTranslationUnit2(index, PRELUDE_PATH, base_flags, (int)NBASE, &prelude, 1,
					CXTranslationUnit_ForSerialization | CXTranslationUnit_Incomplete,
					&tu) != CXError_Success ||
	    clang_saveTranslationUnit(tu, path, clang_defaultSaveOptions(tu)) != CXSaveError_None) {
		unlink(path);
		free(path);
		path = NULL;
		goto done;
	}
	pch_path = path;
	atexit(remove_pch);
done:
	if (tu)
		clang_disposeTranslationUnit(tu);
	if (index)
		clang_disposeIndex(index);
}

/* What would make the parse itself crash or hang is blanked out in a copy
 * for libclang: clang's debugging pragmas (#pragma clang __debug crash,
 * overflow_stack, ..., also through _Pragma) and an #include "..." of
 * something that is not a regular file (/dev/zero, a FIFO). The copy keeps
 * the length, so that places stay the same. */
typedef struct blank {
	size_t start, end;
} blank;

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool regular_or_missing(const char *dir, const char *name, size_t n)
{
	char path[4096];
	struct stat st;

	if (n == 0 || n >= 2048)
		return true;
	if (name[0] == '/')
		snprintf(path, sizeof(path), "%.*s", (int)n, name);
	else
		snprintf(path, sizeof(path), "%s/%.*s", dir, (int)n, name);
	return stat(path, &st) != 0 || S_ISREG(st.st_mode);
}

/* Adds [start, end) to the list; false when out of memory. */
static bool add_blank(blank **list, size_t *n, size_t start, size_t end)
{
	if (*n % 16 == 0) {
		blank *m = realloc(*list, (*n + 16) * sizeof(**list));

		if (!m)
			return false;
		*list = m;
	}
	(*list)[*n].start = start;
	(*list)[(*n)++].end = end;
	return true;
}

static bool find_blanks(const char *fs_path, const char *src, size_t len, blank **list, size_t *n)
{
	const char *p, *slash = strrchr(fs_path, '/');
	char dir[2048];
	size_t i;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - fs_path) : 1, slash ? fs_path : ".");
	for (p = src; (p = memmem(p, len - (size_t)(p - src), "__debug", 7)); p += 7) {
		const char *q = p;

		while (q > src && is_space(q[-1]))
			q--;
		if (q != p && q - src >= 5 && memcmp(q - 5, "clang", 5) == 0 &&
		    !add_blank(list, n, (size_t)(p - src), (size_t)(p - src) + 7))
			return false;
	}
	for (i = 0; i < len; i++) {
		size_t k, start;

		if (src[i] != '#' || (i > 0 && src[i - 1] != '\n' && !is_space(src[i - 1])))
			continue;
		for (k = i + 1; k < len && is_space(src[k]); k++)
			;
		if (len - k < 8 || memcmp(src + k, "include", 7) != 0)
			continue;
		for (k += 7; k < len && is_space(src[k]); k++)
			;
		if (k >= len || src[k] != '"')
			continue;
		for (start = ++k; k < len && src[k] != '"' && src[k] != '\n'; k++)
			;
		if (!regular_or_missing(dir, src + start, k - start) && !add_blank(list, n, i, k < len ? k + 1 : k))
			return false;
	}
	return true;
}

/* The text libclang gets: src itself, or a defused copy (*copy, to free). */
static const char *defused(const char *fs_path, const char *src, size_t len, char **copy)
{
	blank *list = NULL;
	size_t n = 0, i;

	*copy = NULL;
	if (!find_blanks(fs_path, src, len, &list, &n) || !n || !(*copy = malloc(len))) {
		free(list);
		return src;
	}
	memcpy(*copy, src, len);
	for (i = 0; i < n; i++)
		memset(*copy + list[i].start, ' ', list[i].end - list[i].start);
	free(list);
	return *copy;
}

/* Whether text[at] is on a preprocessor line (or a line it continues). */
static bool in_directive(const char *text, size_t len, size_t at)
{
	size_t start = at;

	for (;;) {
		while (start > 0 && text[start - 1] != '\n')
			start--;
		if (start < 2 || text[start - 2] != '\\')
			break;
		start--;
	}
	while (start < len && is_space(text[start]))
		start++;
	return start < len && text[start] == '#';
}

/* Blanks text[from, to) but for its line ends and its preprocessor lines
 * other than #pragma: the branches and macros stay, and a loop's #pragma
 * unroll left at file scope would drop what follows it. */
static void blank_code(char *text, size_t from, size_t to)
{
	bool keep = false;
	size_t i, k;

	for (i = from; i < to; i++) {
		if (text[i - 1] == '\n') {
			for (k = i; k < to && is_space(text[k]); k++)
				;
			keep = (keep && i >= 2 && text[i - 2] == '\\') ||
			       (k < to && text[k] == '#' && !(to - k > 7 && memcmp(text + k + 1, "pragma", 6) == 0));
		}
		if (!keep && text[i] != '\n' && text[i] != '\r')
			text[i] = ' ';
	}
}

static enum CXCursorKind kind_at(CXTranslationUnit tu, CXFile file, unsigned offset)
{
	return clang_getCursorKind(clang_getCursor(tu, clang_getLocationForOffset(tu, file, offset)));
}

/* Whether the parse left a place of cursor kind k in no declaration (an
 * extern "C" block is an unexposed one to libclang 15). */
static bool dropped(enum CXCursorKind k)
{
	return k == CXCursor_TranslationUnit || k == CXCursor_Namespace || k == CXCursor_LinkageSpec ||
	       k == CXCursor_UnexposedDecl || clang_isInvalid(k);
}

/* The main file's tokens, over the text the parse read. */
typedef struct file_tokens {
	CXTranslationUnit tu;
	CXToken *items;
	unsigned n;
	const char *text;
} file_tokens;

static unsigned tok_offset(const file_tokens *t, unsigned k)
{
	unsigned offset;

	clang_getFileLocation(clang_getTokenLocation(t->tu, t->items[k]), NULL, NULL, NULL, &offset);
	return offset;
}

/* Whether token k is the punctuation or keyword s (">" is not ">>"). */
static bool tok_is(const file_tokens *t, unsigned k, const char *s)
{
	CXTokenKind kind = k < t->n ? clang_getTokenKind(t->items[k]) : CXToken_Comment;
	CXSourceRange r;
	unsigned a, b;

	if (kind != CXToken_Punctuation && kind != CXToken_Keyword)
		return false;
	r = clang_getTokenExtent(t->tu, t->items[k]);
	clang_getFileLocation(clang_getRangeStart(r), NULL, NULL, NULL, &a);
	clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &b);
	return b - a == strlen(s) && memcmp(t->text + a, s, b - a) == 0;
}

static bool tok_opens(const file_tokens *t, unsigned k)
{
	return tok_is(t, k, "(") || tok_is(t, k, "[") || tok_is(t, k, "{");
}

static bool tok_closes(const file_tokens *t, unsigned k)
{
	return tok_is(t, k, ")") || tok_is(t, k, "]") || tok_is(t, k, "}");
}

/* The template parameter that offset at (token k) lies in, where a
 * template <...> of the declaration holds it: [*from, *to) spans it and a
 * comma that separates it from the others. Angle brackets count outside
 * parentheses only (decltype(a < b)), ">>" closes two. */
static bool param_around(const file_tokens *t, unsigned k, unsigned at, unsigned *from, unsigned *to)
{
	unsigned j = k, m, sep, off;
	int paren = 0, angle, inner;
	bool first, close;

	while (j-- > 0) {
		if (paren == 0 && (tok_is(t, j, ";") || tok_is(t, j, "{") || tok_is(t, j, "}")))
			return false;
		paren += tok_closes(t, j) - tok_opens(t, j);
		if (!tok_is(t, j, "template") || !tok_is(t, j + 1, "<"))
			continue;
		sep = tok_offset(t, j + 1);
		first = true;
		for (m = j + 1, angle = inner = 0; m < t->n && !(inner == 0 && tok_is(t, m, ";")); m++) {
			off = tok_offset(t, m);
			close = inner == 0 && (tok_is(t, m, ">") || tok_is(t, m, ">>"));
			if (inner == 0 && tok_is(t, m, "<"))
				angle++;
			else if (close)
				angle -= tok_is(t, m, ">>") ? 2 : 1;
			else if (tok_opens(t, m))
				inner++;
			else if (tok_closes(t, m) && inner-- == 0)
				break;
			if (!(close && angle <= 0) && !(inner == 0 && angle == 1 && tok_is(t, m, ",")))
				continue;
			if (at < off) {
				/* template<> would be another declaration */
				if (at <= sep || (first && close))
					break;
				*from = first ? sep + 1 : sep;
				*to = first ? off + 1 : off;
				return true;
			}
			if (angle <= 0)
				break;
			sep = off;
			first = false;
		}
	}
	return false;
}

/* Definitions the parse dropped with all that follows them. Without the
 * system's and CUDA's headers, std::enable_if<...>::type or cub::X<...>
 * names no template: the declaration fails, and clang's recovery skips to
 * the next ';' of its scope, past the function's body and every definition
 * after it (to the end of the file at file scope, kernels included). In
 * *copy (made from seen), offsets and lines kept, the template parameter
 * that holds the declaration's first error is blanked (the template parses
 * without it), else the declaration is cut there: a ';', the rest to its
 * body's end blanked. Returns how many declarations were changed. */
static size_t cut_dropped(CXTranslationUnit tu, CXFile file, const char *seen, size_t len, char **copy)
{
	file_tokens t = { tu, NULL, 0, seen };
	unsigned ndiag = clang_getNumDiagnostics(tu), i, k, lo, mid;
	size_t cuts = 0, next = 0;

	for (i = 0; i < ndiag; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		CXFile at_file;
		unsigned at, brace = 0, end = 0, from = 0, to = 0;
		bool error = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error, param;
		enum CXCursorKind kind;
		int depth = 0;

		clang_getExpansionLocation(clang_getDiagnosticLocation(d), &at_file, NULL, NULL, &at);
		clang_disposeDiagnostic(d);
		if (!error || !at_file || !clang_File_isEqual(at_file, file) || at < next || at >= len ||
		    in_directive(seen, len, at))
			continue;
		/* an error in a declaration the parse kept (a macro's place is its expansion) */
		kind = kind_at(tu, file, at);
		if (!dropped(kind) && kind != CXCursor_MacroExpansion)
			continue;
		if (!t.items)
			clang_tokenize(tu, clang_getCursorExtent(clang_getTranslationUnitCursor(tu)), &t.items, &t.n);
		for (lo = 0, k = t.n; lo < k;) {
			mid = lo + (k - lo) / 2;
			if (tok_offset(&t, mid) < at)
				lo = mid + 1;
			else
				k = mid;
		}
		param = param_around(&t, k, at, &from, &to);
		/* the first body at the error's level, before any ';' */
		for (; k < t.n && !end && !(depth == 0 && tok_is(&t, k, ";")); k++) {
			if (tok_opens(&t, k)) {
				if (depth++ == 0 && tok_is(&t, k, "{"))
					brace = tok_offset(&t, k);
			} else if (tok_closes(&t, k)) {
				if (depth == 0 && tok_is(&t, k, "}"))
					break;
				if (depth > 0 && --depth == 0 && tok_is(&t, k, "}"))
					end = tok_offset(&t, k) + 1;
			}
		}
		/* a body the parse kept, or a cut with nothing after it that the skip took */
		if (!end || !dropped(kind_at(tu, file, brace)) ||
		    (!param && (k >= t.n || tok_is(&t, k, ";") || tok_is(&t, k, "}"))))
			continue;
		if (!*copy && (*copy = malloc(len)))
			memcpy(*copy, seen, len);
		if (!*copy)
			break;
		if (param) {
			blank_code(*copy, from, to);
		} else {
			(*copy)[at] = ';';
			blank_code(*copy, at + 1, end);
		}
		next = end;
		cuts++;
	}
	if (t.items)
		clang_disposeTokens(tu, t.items, t.n);
	return cuts;
}

/* A translation unit is reused for the files of one directory with the same
 * flags: its main file is a name of that directory that no file has, holding
 * each file's text in turn, so that quoted includes resolve as for the file
 * itself, and a reparse skips the driver's set-up (about half of a small
 * file's parse). A few are kept per thread, the least recently used
 * replaced. */
enum { UNITS = 4 };

typedef struct an_unit {
	char *main;                 /* DIR/.hipport-analysis.cu, or NULL when the slot is free */
	const char *const *extra;   /* the compile database's flags it was made with */
	CXTranslationUnit tu;
	unsigned long used;
} an_unit;

struct an_parser {
	CXIndex index;
	an_unit units[UNITS];
	unsigned long clock;
};

int an_parser_new(an_parser **out)
{
	an_parser *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	/* declarations from the precompiled prelude are left out of walks of
	 * the translation unit: they would be read back from it for every file,
	 * and no check looks at them */
	if (!(p->index = clang_createIndex(1, 0))) {
		free(p);
		return util_error_set(UTIL_ETOOLCHAIN, "libclang: cannot create an index");
	}
	*out = p;
	return 0;
}

static void unit_dispose(an_unit *u)
{
	if (u->tu)
		clang_disposeTranslationUnit(u->tu);
	free(u->main);
	memset(u, 0, sizeof(*u));
}

void an_parser_free(an_parser *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < UNITS; i++)
		unit_dispose(&p->units[i]);
	clang_disposeIndex(p->index);
	free(p);
}

/* The unit for main and extra: the one made for them, else a free or the
 * least recently used slot (emptied). */
static an_unit *unit_for(an_parser *p, const char *main, const char *const *extra)
{
	an_unit *pick = &p->units[0];
	size_t i;

	for (i = 0; i < UNITS; i++) {
		an_unit *u = &p->units[i];

		if (u->main && u->extra == extra && strcmp(u->main, main) == 0)
			return u;
		if (!u->main || (pick->main && u->used < pick->used))
			pick = u;
	}
	unit_dispose(pick);
	return pick;
}

int an_parse(an_parser *p, const an_compile_db *db, const char *fs_path, const char *src, size_t len,
	     CXTranslationUnit *tu, CXFile *file)
{
	char *copy, *main = NULL;
	const char *slash = strrchr(fs_path, '/');
	struct CXUnsavedFile files[2];
	const char *args[NBASE + 5 + 256];
	const char *const *extra = NULL;
	size_t i, nextra = 0;
	int nargs = 0;
	enum CXErrorCode code = CXError_Failure;
	an_unit *u;

	*tu = NULL;
	*file = NULL;
	if (asprintf(&main, "%.*s.hipport-analysis.cu", slash ? (int)(slash - fs_path + 1) : 0, fs_path) < 0)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if (db)
		extra = an_compile_db_flags(db, fs_path, &nextra);
	files[0] = (struct CXUnsavedFile){ PRELUDE_PATH, an_prelude_builtin[0].data, an_prelude_builtin[0].len };
	files[1] = (struct CXUnsavedFile){ main, defused(fs_path, src, len, &copy), len };
	u = unit_for(p, main, extra);
	u->used = ++p->clock;
	if (u->tu) {
		code = (enum CXErrorCode)clang_reparseTranslationUnit(u->tu, 2, files, clang_defaultReparseOptions(u->tu));
		if (code != CXError_Success) /* a failed reparse leaves the unit unusable */
			unit_dispose(u);
	}
	if (!u->tu) {
		for (i = 0; i < NBASE; i++)
			args[nargs++] = base_flags[i];
		pthread_once(&pch_once, make_pch);
		/* a file's own defines and standard could clash with the precompiled
		 * prelude's: it then reads the text */
		if (pch_path && !extra) {
			/* clang's predefined macros come with the precompiled prelude,
			 * made by this process with the same flags: building them again
			 * for the host and the GPU side, and checking them against it,
			 * costs a twentieth of a parse */
			args[nargs++] = "-undef";
			args[nargs++] = "-Xclang";
			args[nargs++] = "-fno-validate-pch";
			args[nargs++] = "-include-pch";
			args[nargs++] = pch_path;
		} else {
			args[nargs++] = "-include";
			args[nargs++] = PRELUDE_PATH;
		}
		for (i = 0; i < nextra && i < 256; i++)
			args[nargs++] = extra[i];
		code = clang_parseTranslationUnit2(p->index, main, args, nargs, files, 2,
						   CXTranslationUnit_KeepGoing |
							   CXTranslationUnit_DetailedPreprocessingRecord,
						   &u->tu);
		if (code == CXError_Success && u->tu) {
			u->main = main;
			u->extra = extra;
			main = NULL;
		} else {
			u->tu = NULL;
		}
	}
	/* what a dropped declaration took with it parses again, at most 16
	 * times (each parse shows the next one the skip hid) */
	for (i = 0; i < 16 && code == CXError_Success && u->tu; i++) {
		CXFile parsed = clang_getFile(u->tu, u->main);

		if (!parsed || !cut_dropped(u->tu, parsed, files[1].Contents, len, &copy))
			break;
		files[1].Contents = copy;
		code = (enum CXErrorCode)clang_reparseTranslationUnit(u->tu, 2, files, clang_defaultReparseOptions(u->tu));
		if (code != CXError_Success)
			unit_dispose(u);
	}
	free(copy);
	free(main);
	if (code != CXError_Success || !u->tu || !(*file = clang_getFile(u->tu, u->main)))
		return util_error_set(UTIL_ETOOLCHAIN, "%s: libclang could not parse the file (error %d)", fs_path,
				      (int)code);
	*tu = u->tu;
	return 0;
}
