/* What GPU code a built file holds: a HIP executable or shared library (the
 * offload bundles of its .hip_fatbin section), an object file (the same, or
 * with -fgpu-rdc the device bitcode in __CLANG_OFFLOAD_BUNDLE__ sections), an
 * offload bundle on its own (hipcc --genco), or a raw AMDGPU code object
 * (.hsaco, .co). */
#ifndef HIPPORT_CHECK_BINARY_FATBIN_H
#define HIPPORT_CHECK_BINARY_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum bin_object_kind {
	BIN_CODE_OBJECT,   /* an AMDGPU code object the runtime can load */
	BIN_BITCODE,       /* device bitcode (-fgpu-rdc objects): linked into code objects later */
	BIN_OTHER          /* a device entry that is neither */
} bin_object_kind;

typedef struct bin_object {
	char target[64];   /* the target id, "gfx942:sramecc+:xnack-"; "" when unknown */
	bin_object_kind kind;
	uint64_t size;
	char *bundle_id;   /* "hipv4-amdgcn-amd-amdhsa--gfx942", or NULL for a raw code object */
	unsigned bundle;   /* the bundle it came from, 1, 2, ...; 0 for a raw code object */
	bool compressed;   /* that bundle was compressed */
} bin_object;

typedef struct bin_file {
	char *path;
	const char *format;  /* "executable", "shared library", "object file", "offload bundle",
				"compressed offload bundle", "code object", "ELF file" */
	bin_object *objects;
	size_t count;
	unsigned bundles;    /* offload bundles found */
	unsigned compressed; /* of which compressed */
	char **notes;        /* what could not be listed, in words ("bundle 2: compressed (zstd), 1356 bytes, cannot list") */
	size_t nnotes;
} bin_file;

/* Reads path. UTIL_ENOTFOUND for a missing file, UTIL_EINPUT naming the
 * file and the problem for one that is not a HIP binary or is truncated or
 * corrupt. A file without GPU code is no error: count is 0. */
int bin_file_read(bin_file *out, const char *path);

/* The same for bytes in memory; name is what messages call them. */
int bin_file_parse(bin_file *out, const char *name, const unsigned char *data, size_t size);

void bin_file_dispose(bin_file *file);

/* The number of objects of kind BIN_CODE_OBJECT with a known target. */
size_t bin_file_code_objects(const bin_file *file);

#endif
