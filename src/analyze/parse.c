#include "analyze/parse.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/embedded.h"
#include "util/error.h"

extern const util_embedded_file an_prelude_builtin[];

/* where the prelude seems to lie: it is handed to libclang from memory */
#define PRELUDE_PATH "/hipport-prelude/cuda.h"

/* Flags of every parse. Spell checking (typo correction of unknown names)
 * would dominate the time; without -ferror-limit=0 the AST is cut after 20
 * errors, and code without its headers has many. */
static const char *const base_flags[] = { "-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-host-only",
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

int an_parse(CXTranslationUnit *tu, CXIndex index, const an_compile_db *db, const char *fs_path, const char *src,
	     size_t len)
{
	struct CXUnsavedFile files[2] = { { PRELUDE_PATH, an_prelude_builtin[0].data, an_prelude_builtin[0].len },
					  { fs_path, src, len } };
	const char *args[NBASE + 2 + 256];
	const char *const *extra = NULL;
	size_t i, nextra = 0;
	int nargs = 0;
	enum CXErrorCode code;

	for (i = 0; i < NBASE; i++)
		args[nargs++] = base_flags[i];
	if (db)
		extra = an_compile_db_flags(db, fs_path, &nextra);
	pthread_once(&pch_once, make_pch);
	/* a file's own defines and standard could clash with the precompiled
	 * prelude's: it then reads the text */
	args[nargs++] = pch_path && !extra ? "-include-pch" : "-include";
	args[nargs++] = pch_path && !extra ? pch_path : PRELUDE_PATH;
	for (i = 0; i < nextra && i < 256; i++)
		args[nargs++] = extra[i];
	code = clang_parseTranslationUnit2(index, fs_path, args, nargs, files, 2,
					   CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord,
					   tu);
	if (code != CXError_Success || !*tu)
		return util_error_set(UTIL_ETOOLCHAIN, "%s: libclang could not parse the file (error %d)", fs_path,
				      (int)code);
	return 0;
}
