/* Clang offload bundles, the container hipcc puts code objects in: the
 * uncompressed format (__CLANG_OFFLOAD_BUNDLE__, an entry count, then per
 * entry offset, size, id length and id, all little-endian u64) and the
 * compressed one of ROCm 6 (CCOB: a header, then a whole bundle compressed
 * with zstd or zlib). */
#ifndef HIPPORT_CHECK_BINARY_BUNDLE_H
#define HIPPORT_CHECK_BINARY_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BIN_BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define BIN_BUNDLE_MAGIC_LEN 24
#define BIN_CCOB_MAGIC "CCOB"

typedef struct bin_bundle_entry {
	const char *id;          /* "hipv4-amdgcn-amd-amdhsa--gfx942:xnack-", points into the data, not NUL-terminated */
	size_t id_len;
	uint64_t offset;         /* from the start of the bundle; checked to lie inside it */
	uint64_t size;
} bin_bundle_entry;

typedef struct bin_bundle {
	bin_bundle_entry *entries;
	size_t count;
	size_t extent;           /* bytes from the magic to the end of its header or its last entry */
} bin_bundle;

/* Whether data starts with an uncompressed or a compressed bundle. */
bool bin_bundle_magic(const unsigned char *data, size_t size);
bool bin_ccob_magic(const unsigned char *data, size_t size);

/* Parses the bundle at data (which may go on past its end). UTIL_EINPUT
 * names what is truncated or out of range. */
int bin_bundle_parse(bin_bundle *out, const unsigned char *data, size_t size);
void bin_bundle_dispose(bin_bundle *bundle);

/* The compression methods of the CCOB header (LLVM's compression::Format). */
#define BIN_CCOB_ZLIB 0
#define BIN_CCOB_ZSTD 1

typedef struct bin_ccob {
	unsigned version;        /* 1, 2 or 3 */
	unsigned method;         /* BIN_CCOB_ZLIB, BIN_CCOB_ZSTD, or what the file says */
	size_t header_size;      /* 20, 24 or 32 */
	uint64_t total_size;     /* header and compressed bytes (versions 2 and 3); 0 in version 1 */
	uint64_t uncompressed_size;
} bin_ccob;

/* Reads the header of the compressed bundle at data. UTIL_EINPUT for a
 * truncated header, an unknown version, or a total size past the data. */
int bin_ccob_parse(bin_ccob *out, const unsigned char *data, size_t size);

/* The name of the method ("zstd", "zlib", or "method N"). */
const char *bin_ccob_method_name(unsigned method, char *scratch, size_t size);

/* Whether this build of hipport can decompress the method. */
bool bin_ccob_can_decompress(unsigned method);

/* Decompresses the bundle at data (size: the bytes available; the header's
 * total size, where given, bounds it) into *out (free it), of *out_size
 * bytes. UTIL_EINPUT for corrupt data or a size other than the header's,
 * UTIL_ERROR for a method this build cannot decompress. */
int bin_ccob_decompress(unsigned char **out, size_t *out_size, const bin_ccob *header, const unsigned char *data,
			size_t size);

#endif
