/* CUDA -> HIP translation of one source file: token-exact renames by the
 * rule tables, header mapping, kernel launches, version-aware warp intrinsics.
 * Bytes outside the edits are copied unchanged. */
#ifndef HIPPORT_PORT_TRANSLATE_H
#define HIPPORT_PORT_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "port/lex.h"
#include "port/rules.h"
#include "util/buf.h"

typedef enum port_launch_style {
	PORT_LAUNCH_KEEP, /* keep kernel<<<grid, block, shmem, stream>>>(args) */
	PORT_LAUNCH_HIP   /* emit hipLaunchKernelGGL(kernel, grid, block, shmem, stream, args) */
} port_launch_style;

typedef struct port_options {
	port_version target_hip; /* HIP version the port is for */
	port_launch_style launch;
	bool roc;          /* rocBLAS/rocSPARSE/... names instead of hipBLAS/... */
	bool experimental; /* apply mappings marked experimental */
	const char *offload_arch; /* build files: replaces CUDA architectures (NULL: gfx90a) */
	port_torch torch;  /* PyTorch convention for files that include ATen, c10 or torch headers */
	const char *single_source; /* review: keep CUDA, guard fixes by this macro ("": per file); NULL: off */
} port_options;

typedef enum port_ref_status {
	PORT_REF_CONVERTED,   /* renamed (possibly to the same name) */
	PORT_REF_FALLBACK,    /* rewritten to the older form the target HIP has */
	PORT_REF_UNSUPPORTED, /* no HIP equivalent: left as is */
	PORT_REF_TOO_NEW,     /* the HIP equivalent is newer than the target: left as is */
	PORT_REF_REMOVED,     /* the HIP equivalent was removed by the target: left as is */
	PORT_REF_EXPERIMENTAL, /* experimental mapping, not applied without --experimental */
	PORT_REF_LEGACY       /* a cuBLAS v1 call (cublas.h, no handle): hipBLAS has only the handle form */
} port_ref_status;

/* One reference to a CUDA name found in the source. */
typedef struct port_ref {
	uint32_t offset; /* in the source */
	uint32_t length;
	unsigned line, col;
	const port_rule *rule;
	port_ref_status status;
} port_ref;

typedef struct port_result {
	util_buf output;   /* the proposed HIP source */
	port_ref *refs;
	size_t nrefs;
	size_t launches;   /* kernel launches found */
	size_t kernels;    /* __global__ functions found */
	bool header_inserted;
} port_result;

/* Rejects what is not CUDA source text: empty or binary (a NUL byte). Any
 * other bytes are source: a Latin-1 comment is ported byte for byte. */
int port_source_check(const char *name, const char *src, size_t len);

/* Whether an included header's name (between its delimiters) is one of
 * PyTorch's (ATen/, c10/, torch/): the file gets the PyTorch rules. */
bool port_is_torch_header(const char *name, size_t len);
/* A .cu or .cuh file: CUDA by its name, whatever it uses (nvcc compiles it as CUDA). */
bool port_is_cuda_file(const char *name);

/* Whether text is a 32-bit all-ones lane mask written as an expression
 * (uint32_t(-1), (unsigned)-1, ~0u) that the port widens to 64 bits. */
bool port_is_full_mask_expression(const char *text, size_t len);

/* Translates src. On a lexical error (unterminated comment or literal,
 * unbalanced brackets or #if, a broken kernel launch) returns UTIL_EINPUT
 * with "name:line:col: message". */
int port_translate(port_result *out, port_lexer *lexer, const port_rules *rules,
		   const port_options *opts, const char *name, const char *src, size_t len);

void port_result_dispose(port_result *result);

/* A short phrase for a status: "converted", "unsupported", ... */
const char *port_ref_status_name(port_ref_status status);

/* Whether a reference is left unconverted (a finding). */
bool port_ref_is_problem(const port_ref *ref);

/* The stable finding id of an unconverted reference, per API family: "API-001". */
const char *port_ref_finding_id(const port_ref *ref);

/* One-line message for an unconverted reference (into buf). */
void port_ref_message(util_buf *buf, const port_ref *ref, const port_options *opts);

#endif
