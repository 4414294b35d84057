#include "port/lex.h"

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"

struct port_lexer {
	CXIndex index;
	CXTranslationUnit tu; /* reused: a reparse skips the driver's set-up */
	/* the last text lexed and its tokens: the analyzer and the translation
	 * of one file ask for the same tokens */
	char *last_src;
	size_t last_len;
	port_token *last_tokens;
	size_t last_count;
};

/* libclang needs a translation unit to tokenize. Translation wants raw tokens
 * only, so the file is handed over inside a raw string literal: nothing in it
 * is preprocessed or parsed (no #include is opened, no pragma runs, whatever
 * the file holds), and clang_tokenize lexes its bytes raw. */
static const char wrap_head[] = "const char *hipport_source = R\"";
static const char wrap_tail[] = "\";\n";

/* A raw-string delimiter that does not occur in the file as )DELIM". */
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

/* CUDA for the <<< and >>> tokens. What clang sets up on every reparse and
 * a raw string never uses is left out: predefined macros (-undef), and the
 * thousands of builtin functions of an x86 host (a host target with a
 * handful, 32-bit XCore). The tokens are the same. */
static const char *const parse_args[] = {
	"-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-host-only", "-fsyntax-only", "-undef",
	"--target=xcore", "-std=c++17", "-w", "-Xclang", "-fno-spell-checking", "-ferror-limit=0"
};

void port_lexer_global_init(void)
{
	/* the units parsed are a single string literal: the safety thread
	 * libclang starts per parse (a fifth of the lexing time) buys nothing */
	setenv("LIBCLANG_NOTHREADS", "1", 0);
}

int port_lexer_new(port_lexer **out)
{
	port_lexer *lexer = calloc(1, sizeof(*lexer));

	*out = NULL;
	if (!lexer)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	lexer->index = clang_createIndex(0, 0);
	if (!lexer->index) {
		free(lexer);
		return util_error_set(UTIL_ERROR, "libclang: cannot create an index");
	}
	*out = lexer;
	return 0;
}

void port_lexer_free(port_lexer *lexer)
{
	if (!lexer)
		return;
	if (lexer->tu)
		clang_disposeTranslationUnit(lexer->tu);
	clang_disposeIndex(lexer->index);
	free(lexer->last_src);
	free(lexer->last_tokens);
	free(lexer);
}

static uint8_t token_kind(CXTokenKind kind)
{
	switch (kind) {
	case CXToken_Keyword:
		return PORT_TOKEN_KEYWORD;
	case CXToken_Identifier:
		return PORT_TOKEN_IDENT;
	case CXToken_Literal:
		return PORT_TOKEN_LITERAL;
	case CXToken_Comment:
		return PORT_TOKEN_COMMENT;
	default:
		return PORT_TOKEN_PUNCT;
	}
}

/* Marks line starts and preprocessor directive lines (with continuations). */
static void mark_lines(const char *src, port_token *tokens, size_t count)
{
	size_t i;
	bool in_directive = false;
	uint32_t prev_end = 0;

	for (i = 0; i < count; i++) {
		uint32_t p;
		bool newline = (i == 0), continued = false;

		for (p = prev_end; p < tokens[i].start; p++) {
			if (src[p] == '\n') {
				continued = p > 0 && (src[p - 1] == '\\' ||
						      (src[p - 1] == '\r' && p > 1 && src[p - 2] == '\\'));
				newline = true;
				if (!continued)
					in_directive = false;
			}
		}
		if (newline && !continued)
			tokens[i].flags |= PORT_TOKEN_LINE_START;
		if ((tokens[i].flags & PORT_TOKEN_LINE_START) && tokens[i].end - tokens[i].start == 1 &&
		    src[tokens[i].start] == '#')
			in_directive = true;
		if (in_directive)
			tokens[i].flags |= PORT_TOKEN_DIRECTIVE;
		prev_end = tokens[i].end;
	}
}

/* A copy of the tokens of the last text lexed, when src is that text. */
static bool tokens_again(const port_lexer *lexer, const char *src, size_t len, port_token **out, size_t *count)
{
	if (!lexer->last_src || lexer->last_len != len || memcmp(lexer->last_src, src, len) != 0)
		return false;
	*out = malloc((lexer->last_count ? lexer->last_count : 1) * sizeof(**out));
	if (!*out)
		return false;
	memcpy(*out, lexer->last_tokens, lexer->last_count * sizeof(**out));
	*count = lexer->last_count;
	return true;
}

static void remember(port_lexer *lexer, const char *src, size_t len, const port_token *tokens, size_t count)
{
	free(lexer->last_src);
	free(lexer->last_tokens);
	lexer->last_src = malloc(len ? len : 1);
	lexer->last_tokens = malloc((count ? count : 1) * sizeof(*tokens));
	if (!lexer->last_src || !lexer->last_tokens) {
		free(lexer->last_src);
		free(lexer->last_tokens);
		lexer->last_src = NULL;
		lexer->last_tokens = NULL;
		return;
	}
	memcpy(lexer->last_src, src, len);
	memcpy(lexer->last_tokens, tokens, count * sizeof(*tokens));
	lexer->last_len = len;
	lexer->last_count = count;
}

int port_lexer_tokenize(port_lexer *lexer, const char *name, const char *src, size_t len,
			port_token **out, size_t *count)
{
	util_buf wrapped = UTIL_BUF_INIT;
	struct CXUnsavedFile unsaved;
	CXTranslationUnit tu = NULL;
	CXToken *toks = NULL;
	unsigned ntoks = 0, i;
	port_token *tokens = NULL;
	size_t n = 0, head, bom;
	char delim[16];
	enum CXErrorCode rc;
	int error = UTIL_ERROR;
	CXFile file;

	*out = NULL;
	*count = 0;
	if (len > UINT32_MAX - 64)
		return util_error_set(UTIL_EINPUT, "%s: file too large", name);
	if (tokens_again(lexer, src, len, out, count))
		return 0;
	/* a UTF-8 byte order mark is not a token: lex what follows it */
	bom = len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	choose_delimiter(delim, src, len);
	util_buf_printf(&wrapped, "%s%s(", wrap_head, delim);
	head = wrapped.len;
	util_buf_put(&wrapped, src + bom, len - bom);
	util_buf_printf(&wrapped, ")%s%s", delim, wrap_tail);
	if (util_buf_oom(&wrapped))
		return util_error_set(UTIL_ENOMEM, "out of memory");

	unsaved.Filename = "hipport-input.cu";
	unsaved.Contents = wrapped.ptr;
	unsaved.Length = (unsigned long)wrapped.len;
	if (lexer->tu) {
		rc = (enum CXErrorCode)clang_reparseTranslationUnit(lexer->tu, 1, &unsaved,
								    clang_defaultReparseOptions(lexer->tu));
		if (rc != CXError_Success) {
			/* a failed reparse leaves the unit unusable: start afresh */
			clang_disposeTranslationUnit(lexer->tu);
			lexer->tu = NULL;
		}
	}
	if (!lexer->tu) {
		rc = clang_parseTranslationUnit2(lexer->index, unsaved.Filename, parse_args,
						 (int)(sizeof(parse_args) / sizeof(parse_args[0])), &unsaved, 1,
						 CXTranslationUnit_SingleFileParse |
							 CXTranslationUnit_SkipFunctionBodies,
						 &lexer->tu);
		if (rc != CXError_Success || !lexer->tu) {
			lexer->tu = NULL;
			error = util_error_set(UTIL_ERROR, "%s: libclang could not read the file (error %d)", name, rc);
			goto done;
		}
	}
	tu = lexer->tu;
	file = clang_getFile(tu, unsaved.Filename);
	if (!file) {
		error = util_error_set(UTIL_ERROR, "%s: libclang lost the file", name);
		goto done;
	}
	clang_tokenize(tu,
		       clang_getRange(clang_getLocationForOffset(tu, file, (unsigned)head),
				      clang_getLocationForOffset(tu, file, (unsigned)(head + len - bom))),
		       &toks, &ntoks);
	tokens = malloc((ntoks ? ntoks : 1) * sizeof(*tokens));
	if (!tokens) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < ntoks; i++) {
		CXSourceRange extent = clang_getTokenExtent(tu, toks[i]);
		unsigned start, end;

		clang_getSpellingLocation(clang_getRangeStart(extent), NULL, NULL, NULL, &start);
		clang_getSpellingLocation(clang_getRangeEnd(extent), NULL, NULL, NULL, &end);
		if (start < head || start >= head + len - bom || end <= start)
			continue;
		if (end > head + len - bom)
			end = (unsigned)(head + len - bom); /* an unterminated comment runs into the wrapper */
		/* a token after an escaped newline starts at the backslash */
		while (end - start > 2 && wrapped.ptr[start] == '\\' &&
		       (wrapped.ptr[start + 1] == '\n' ||
			(wrapped.ptr[start + 1] == '\r' && wrapped.ptr[start + 2] == '\n')))
			start += wrapped.ptr[start + 1] == '\n' ? 2 : 3;
		tokens[n].start = (uint32_t)(start - head + bom);
		tokens[n].end = (uint32_t)(end - head + bom);
		tokens[n].kind = token_kind(clang_getTokenKind(toks[i]));
		tokens[n].flags = 0;
		n++;
	}
	mark_lines(src, tokens, n);
	remember(lexer, src, len, tokens, n);
	*out = tokens;
	*count = n;
	tokens = NULL;
	error = 0;
done:
	free(tokens);
	if (toks)
		clang_disposeTokens(tu, toks, ntoks);
	util_buf_dispose(&wrapped);
	return error;
}
