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
	free(copy);
	free(main);
	if (code != CXError_Success || !u->tu || !(*file = clang_getFile(u->tu, u->main)))
		return util_error_set(UTIL_ETOOLCHAIN, "%s: libclang could not parse the file (error %d)", fs_path,
				      (int)code);
	*tu = u->tu;
	return 0;
}
