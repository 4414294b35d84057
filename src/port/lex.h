/* Raw tokens of a source file, from libclang in CUDA mode, with no CUDA SDK
 * and no preprocessing: every #if branch is seen. */
#ifndef HIPPORT_PORT_LEX_H
#define HIPPORT_PORT_LEX_H

#include <stddef.h>
#include <stdint.h>

typedef enum port_token_kind {
	PORT_TOKEN_PUNCT,
	PORT_TOKEN_KEYWORD,
	PORT_TOKEN_IDENT,
	PORT_TOKEN_LITERAL,
	PORT_TOKEN_COMMENT
} port_token_kind;

enum port_token_flags {
	PORT_TOKEN_LINE_START = 1, /* first token on its line */
	PORT_TOKEN_DIRECTIVE = 2   /* part of a preprocessor directive line */
};

typedef struct port_token {
	uint32_t start; /* byte offsets into the source */
	uint32_t end;
	uint8_t kind;   /* port_token_kind */
	uint8_t flags;
} port_token;

typedef struct port_lexer port_lexer;

/* Once per process, before any thread starts: libclang then parses on the
 * calling thread instead of starting a thread for each file. */
void port_lexer_global_init(void);

/* One lexer per thread: it owns a libclang index. */
int port_lexer_new(port_lexer **out);
void port_lexer_free(port_lexer *lexer);

/* Tokenizes src (len bytes; name is only used in messages). The caller
 * free()s *out. */
int port_lexer_tokenize(port_lexer *lexer, const char *name, const char *src, size_t len,
			port_token **out, size_t *count);

#endif
