#include "check/binary/bundle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HIPPORT_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HIPPORT_HAVE_ZLIB
#include <zlib.h>
#endif

#include "check/binary/elf.h"
#include "util/error.h"

/* The most a compressed bundle may claim to hold: far above any real one
 * (PyTorch's largest are a few hundred MB), low enough that a corrupt size
 * cannot ask for all memory. */
#define CCOB_MAX_UNCOMPRESSED ((uint64_t)4 << 30)

bool bin_bundle_magic(const unsigned char *data, size_t size)
{
	return size >= BIN_BUNDLE_MAGIC_LEN && memcmp(data, BIN_BUNDLE_MAGIC, BIN_BUNDLE_MAGIC_LEN) == 0;
}

bool bin_ccob_magic(const unsigned char *data, size_t size)
{
	return size >= 4 && memcmp(data, BIN_CCOB_MAGIC, 4) == 0;
}

int bin_bundle_parse(bin_bundle *out, const unsigned char *data, size_t size)
{
	uint64_t count, i;
	size_t at = BIN_BUNDLE_MAGIC_LEN + 8, extent;

	memset(out, 0, sizeof(*out));
	if (!bin_bundle_magic(data, size))
		return util_error_set(UTIL_EINPUT, "no offload bundle (no %s)", BIN_BUNDLE_MAGIC);
	if (size < at)
		return util_error_set(UTIL_EINPUT, "truncated offload bundle: %zu bytes, no entry count", size);
	count = bin_le64(data + BIN_BUNDLE_MAGIC_LEN);
	if (count == 0 || count > (size - at) / 24)
		return util_error_set(UTIL_EINPUT, "offload bundle of %llu entries in %zu bytes: truncated or corrupt",
				      (unsigned long long)count, size);
	if (!(out->entries = calloc((size_t)count, sizeof(*out->entries))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	extent = 0;
	for (i = 0; i < count; i++) {
		bin_bundle_entry *e = &out->entries[i];
		uint64_t id_len;

		if (size - at < 24) {
			bin_bundle_dispose(out);
			return util_error_set(UTIL_EINPUT, "truncated offload bundle: entry %llu of %llu cut off",
					      (unsigned long long)i + 1, (unsigned long long)count);
		}
		e->offset = bin_le64(data + at);
		e->size = bin_le64(data + at + 8);
		id_len = bin_le64(data + at + 16);
		at += 24;
		if (id_len > size - at) {
			bin_bundle_dispose(out);
			return util_error_set(UTIL_EINPUT, "truncated offload bundle: the id of entry %llu is cut off",
					      (unsigned long long)i + 1);
		}
		e->id = (const char *)data + at;
		e->id_len = (size_t)id_len;
		at += (size_t)id_len;
		if (e->offset > size || e->size > size - e->offset) {
			unsigned long long offset = e->offset, bytes = e->size;

			bin_bundle_dispose(out);
			return util_error_set(UTIL_EINPUT,
					      "truncated offload bundle: entry %llu (%llu bytes at %llu) runs past the end "
					      "(%zu bytes)",
					      (unsigned long long)i + 1, bytes, offset, size);
		}
		if (e->size && e->offset + e->size > extent)
			extent = (size_t)(e->offset + e->size);
		out->count++;
	}
	out->extent = extent > at ? extent : at;
	return 0;
}

void bin_bundle_dispose(bin_bundle *bundle)
{
	free(bundle->entries);
	memset(bundle, 0, sizeof(*bundle));
}

int bin_ccob_parse(bin_ccob *out, const unsigned char *data, size_t size)
{
	memset(out, 0, sizeof(*out));
	if (!bin_ccob_magic(data, size))
		return util_error_set(UTIL_EINPUT, "no compressed offload bundle (no CCOB)");
	if (size < 8)
		return util_error_set(UTIL_EINPUT, "truncated compressed offload bundle header (%zu bytes)", size);
	out->version = bin_le16(data + 4);
	out->method = bin_le16(data + 6);
	out->header_size = out->version == 1 ? 20 : out->version == 2 ? 24 : out->version == 3 ? 32 : 0;
	if (!out->header_size)
		return util_error_set(UTIL_EINPUT, "compressed offload bundle of unknown version %u", out->version);
	if (size < out->header_size)
		return util_error_set(UTIL_EINPUT, "truncated compressed offload bundle header (%zu of %zu bytes)", size,
				      out->header_size);
	if (out->version == 1) {
		out->uncompressed_size = bin_le32(data + 8);
	} else if (out->version == 2) {
		out->total_size = bin_le32(data + 8);
		out->uncompressed_size = bin_le32(data + 12);
	} else {
		out->total_size = bin_le64(data + 8);
		out->uncompressed_size = bin_le64(data + 16);
	}
	if (out->total_size && (out->total_size < out->header_size || out->total_size > size))
		return util_error_set(UTIL_EINPUT,
				      "truncated compressed offload bundle: %llu bytes by its header, %zu there",
				      (unsigned long long)out->total_size, size);
	return 0;
}

const char *bin_ccob_method_name(unsigned method, char *scratch, size_t size)
{
	if (method == BIN_CCOB_ZSTD)
		return "zstd";
	if (method == BIN_CCOB_ZLIB)
		return "zlib";
	snprintf(scratch, size, "method %u", method);
	return scratch;
}

bool bin_ccob_can_decompress(unsigned method)
{
#ifdef HIPPORT_HAVE_ZSTD
	if (method == BIN_CCOB_ZSTD)
		return true;
#endif
#ifdef HIPPORT_HAVE_ZLIB
	if (method == BIN_CCOB_ZLIB)
		return true;
#endif
	return false;
}

int bin_ccob_decompress(unsigned char **out, size_t *out_size, const bin_ccob *h, const unsigned char *data,
			size_t size)
{
	const unsigned char *src = data + h->header_size;
	size_t src_len = (h->total_size ? (size_t)h->total_size : size) - h->header_size, got = 0;
	unsigned char *dst;
	char name[32];
	bool ok = false;

	*out = NULL;
	*out_size = 0;
	if (!bin_ccob_can_decompress(h->method))
		return util_error_set(UTIL_ERROR, "hipport was built without %s",
				      bin_ccob_method_name(h->method, name, sizeof(name)));
	if (h->uncompressed_size == 0 || h->uncompressed_size > CCOB_MAX_UNCOMPRESSED)
		return util_error_set(UTIL_EINPUT, "compressed offload bundle claims %llu bytes uncompressed",
				      (unsigned long long)h->uncompressed_size);
	if (!(dst = malloc((size_t)h->uncompressed_size)))
		return util_error_set(UTIL_ENOMEM, "out of memory (%llu bytes for a compressed bundle)",
				      (unsigned long long)h->uncompressed_size);
#ifdef HIPPORT_HAVE_ZSTD
	if (h->method == BIN_CCOB_ZSTD) {
		size_t frame = ZSTD_findFrameCompressedSize(src, src_len), n;

		if (!ZSTD_isError(frame)) {
			n = ZSTD_decompress(dst, (size_t)h->uncompressed_size, src, frame);
			ok = !ZSTD_isError(n);
			got = ok ? n : 0;
		}
	}
#endif
#ifdef HIPPORT_HAVE_ZLIB
	if (h->method == BIN_CCOB_ZLIB) {
		uLongf n = (uLongf)h->uncompressed_size;

		ok = src_len <= (uLong)-1 && uncompress(dst, &n, src, (uLong)src_len) == Z_OK;
		got = ok ? (size_t)n : 0;
	}
#endif
	if (!ok || got != h->uncompressed_size) {
		free(dst);
		return util_error_set(UTIL_EINPUT, "corrupt compressed offload bundle (%s data of %zu bytes%s)",
				      bin_ccob_method_name(h->method, name, sizeof(name)), src_len,
				      ok ? " gives another size than its header's" : " does not decompress");
	}
	*out = dst;
	*out_size = got;
	return 0;
}
