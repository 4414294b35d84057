/* The CUDA->HIP mapping tables (the .tsv files of rules/, see docs/rules.md), loaded once
 * into hash tables. */
#ifndef HIPPORT_PORT_RULES_H
#define HIPPORT_PORT_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "port/version.h"

typedef enum port_rule_kind {
	PORT_RULE_FUNCTION,
	PORT_RULE_TYPE,
	PORT_RULE_CONSTANT,
	PORT_RULE_WARP_SYNC, /* warp intrinsic whose first argument is a lane mask */
	PORT_RULE_HEADER,
	PORT_RULE_NAMESPACE,
	PORT_RULE_QUALIFIED /* ns::name replaced as a whole (PyTorch's cuda::CUDAGuard) */
} port_rule_kind;

/* Which PyTorch hipify convention torch files follow (--target-torch). */
typedef enum port_torch {
	PORT_TORCH_NONE, /* no PyTorch mappings */
	PORT_TORCH_V1,   /* PyTorch before 2.11: ...MasqueradingAsCUDA names */
	PORT_TORCH_V2    /* PyTorch 2.11 and newer: CUDA spellings kept */
} port_torch;

typedef struct port_rule {
	const char *cuda;
	const char *hip;      /* NULL: no HIP equivalent (or, for a header, drop it) */
	const char *roc;      /* rocBLAS/rocSPARSE/.../MIOpen name, or NULL */
	port_rule_kind kind;
	const char *kind_name;
	const char *family;
	port_version cuda_added, cuda_deprecated, cuda_removed;
	port_version hip_added, hip_deprecated, hip_removed;
	bool experimental;
	bool unsupported;
	const char *call;     /* call template applied with the rename, or NULL */
	const char *fallback; /* template (or header) for targets older than hip_added */
	const char *file;     /* where the rule was defined */
	unsigned line;
} port_rule;

typedef struct port_rules port_rules;

/* Loads the rule files compiled into the binary. */
int port_rules_load_builtin(port_rules **out);

/* Loads every *.tsv of dir (overrides.tsv last). */
int port_rules_load_dir(port_rules **out, const char *dir);

/* The rule for an identifier (functions, types, constants, warp intrinsics). */
const port_rule *port_rules_find(const port_rules *rules, const char *name, size_t len);
const port_rule *port_rules_find_header(const port_rules *rules, const char *name, size_t len);
const port_rule *port_rules_find_namespace(const port_rules *rules, const char *name, size_t len);
/* The rule whose HIP (or ROC) name is name, for reverse lookups; NULL if none. */
const port_rule *port_rules_find_by_target(const port_rules *rules, const char *name);

/* The convention of a PyTorch version: v2 from 2.11 (torch.utils.hipify 2.0). */
port_torch port_torch_convention(port_version torch_version);

/* The PyTorch rules of a convention (rules/torch-v1.tsv, torch-v2.tsv), which
 * torch files consult before these; NULL for PORT_TORCH_NONE or when not loaded. */
const port_rules *port_rules_torch(const port_rules *rules, port_torch convention);
/* The header rule for a folder ("FOLDER/" followed by a star) that starts name (torch path
 * rewrites), or NULL. */
const port_rule *port_rules_find_header_folder(const port_rules *rules, const char *name, size_t len);

/* Calls fn on every rule (identifiers, headers, namespaces), in load order. */
void port_rules_each(const port_rules *rules, void (*fn)(const port_rule *rule, void *payload), void *payload);

size_t port_rules_count(const port_rules *rules);
/* A digest of the rule texts as loaded (16 hex digits), for cache keys. */
const char *port_rules_digest(const port_rules *rules);
/* The newest HIP version any rule mentions (the default target without hipcc). */
port_version port_rules_newest_hip(const port_rules *rules);

void port_rules_free(port_rules *rules);

#endif
