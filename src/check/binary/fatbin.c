#include "check/binary/fatbin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/binary/bundle.h"
#include "check/binary/codeobj.h"
#include "check/binary/elf.h"
#include "util/buf.h"
#include "util/error.h"

#define FATBIN_SECTION ".hip_fatbin"

static int oom(void)
{
	return util_error_set(UTIL_ENOMEM, "out of memory");
}

static int add_note(bin_file *f, const char *fmt, ...) UTIL_PRINTF(2, 3);

static int add_note(bin_file *f, const char *fmt, ...)
{
	util_buf b = UTIL_BUF_INIT;
	char **grown;
	va_list ap;

	va_start(ap, fmt);
	util_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (util_buf_oom(&b) || !(grown = realloc(f->notes, (f->nnotes + 1) * sizeof(*grown)))) {
		util_buf_dispose(&b);
		return oom();
	}
	f->notes = grown;
	f->notes[f->nnotes++] = util_buf_detach(&b);
	return 0;
}

static bin_object *add_object(bin_file *f)
{
	bin_object *grown = realloc(f->objects, (f->count + 1) * sizeof(*grown));

	if (!grown)
		return NULL;
	f->objects = grown;
	memset(&grown[f->count], 0, sizeof(*grown));
	return &grown[f->count++];
}

/* The target id of a bundle entry id: what follows the amdgcn-amd-amdhsa
 * triple ("hipv4-amdgcn-amd-amdhsa--gfx942:xnack-", and HIP 4's
 * "hip-amdgcn-amd-amdhsa-gfx906"), or "" for another triple. */
static void target_of_id(char *out, size_t size, const char *id, size_t len)
{
	static const char triple[] = "amdgcn-amd-amdhsa-";
	size_t i;

	*out = '\0';
	for (i = 0; i + sizeof(triple) - 1 <= len; i++) {
		if (memcmp(id + i, triple, sizeof(triple) - 1) != 0)
			continue;
		i += sizeof(triple) - 1;
		while (i < len && id[i] == '-')
			i++;
		snprintf(out, size, "%.*s", (int)(len - i), id + i);
		return;
	}
}

static bool is_bitcode(const unsigned char *p, uint64_t size)
{
	return size >= 4 && ((p[0] == 'B' && p[1] == 'C' && p[2] == 0xc0 && p[3] == 0xde) ||
			     (p[0] == 0xde && p[1] == 0xc0 && p[2] == 0x17 && p[3] == 0x0b));
}

/* One device entry of bundle number: its kind and target from its bytes
 * (a code object's e_flags win over the id), else from the id. */
static int add_entry(bin_file *f, const char *id, size_t id_len, const unsigned char *p, uint64_t size,
		     unsigned bundle, bool compressed)
{
	bin_object *o;
	char from_id[64], from_flags[64];
	size_t i;

	if (id_len >= 5 && memcmp(id, "host-", 5) == 0)
		return 0;
	if (!(o = add_object(f)) || !(o->bundle_id = strndup(id, id_len)))
		return oom();
	for (i = 0; o->bundle_id[i]; i++) /* the bytes of a corrupt file go to a terminal */
		if ((unsigned char)o->bundle_id[i] < 0x20 || (unsigned char)o->bundle_id[i] >= 0x7f)
			o->bundle_id[i] = '?';
	target_of_id(from_id, sizeof(from_id), o->bundle_id, strlen(o->bundle_id));
	o->kind = BIN_OTHER;
	o->size = size;
	o->bundle = bundle;
	o->compressed = compressed;
	snprintf(o->target, sizeof(o->target), "%s", from_id);
	if (bin_elf_magic(p, (size_t)size)) {
		if (bin_codeobj_read(from_flags, sizeof(from_flags), p, (size_t)size) < 0)
			return add_note(f, "bundle %u: entry %s: %s", bundle, o->bundle_id, util_error_last());
		o->kind = BIN_CODE_OBJECT;
		if (*from_id && strcmp(from_id, from_flags) != 0)
			if (add_note(f, "bundle %u: entry %s holds a code object for %s (its e_flags)", bundle,
				     o->bundle_id, from_flags) < 0)
				return UTIL_ENOMEM;
		snprintf(o->target, sizeof(o->target), "%s", from_flags);
		return 0;
	}
	o->kind = is_bitcode(p, size) ? BIN_BITCODE : BIN_OTHER;
	if (o->kind == BIN_OTHER)
		return add_note(f, "bundle %u: entry %s (%llu bytes) is neither a code object nor bitcode", bundle,
				o->bundle_id, (unsigned long long)size);
	return 0;
}

/* The entries of the uncompressed bundle at p. */
static int add_bundle(bin_file *f, const unsigned char *p, size_t size, size_t *extent, bool compressed)
{
	bin_bundle b;
	size_t i;
	int error;

	f->bundles++;
	if ((error = bin_bundle_parse(&b, p, size)) < 0)
		return error;
	for (i = 0; i < b.count && error >= 0; i++)
		error = add_entry(f, b.entries[i].id, b.entries[i].id_len, p + b.entries[i].offset, b.entries[i].size,
				  f->bundles, compressed);
	*extent = b.extent;
	bin_bundle_dispose(&b);
	return error;
}

/* The compressed bundle at p: decompressed and listed, or a note where
 * this build cannot decompress it. */
static int add_compressed(bin_file *f, const unsigned char *p, size_t size, size_t *extent)
{
	bin_ccob h;
	unsigned char *plain;
	size_t plain_size, inner;
	char name[32];
	int error;

	if ((error = bin_ccob_parse(&h, p, size)) < 0)
		return error;
	f->compressed++;
	*extent = h.total_size ? (size_t)h.total_size : size; /* version 1 does not say: the rest */
	if (!bin_ccob_can_decompress(h.method)) {
		f->bundles++;
		return add_note(f, "bundle %u: compressed (%s), %zu bytes, cannot list: hipport was built without %s",
				f->bundles, bin_ccob_method_name(h.method, name, sizeof(name)), *extent,
				bin_ccob_method_name(h.method, name, sizeof(name)));
	}
	if ((error = bin_ccob_decompress(&plain, &plain_size, &h, p, size)) < 0)
		return error;
	if (!bin_bundle_magic(plain, plain_size)) {
		free(plain);
		return util_error_set(UTIL_EINPUT, "a compressed offload bundle that holds no bundle");
	}
	error = add_bundle(f, plain, plain_size, &inner, true);
	free(plain);
	return error;
}

/* Every bundle in region, one after the other, zero bytes of alignment
 * between them. */
static int add_bundles(bin_file *f, const unsigned char *region, size_t size, const char *where)
{
	size_t at = 0, extent;
	int error;

	while (at < size) {
		const unsigned char *p = region + at;

		if (*p == 0) {
			at++;
			continue;
		}
		if (bin_bundle_magic(p, size - at))
			error = add_bundle(f, p, size - at, &extent, false);
		else if (bin_ccob_magic(p, size - at))
			error = add_compressed(f, p, size - at, &extent);
		else if (f->bundles == 0)
			return util_error_set(UTIL_EINPUT, "%s holds no offload bundle (it starts with %02x %02x %02x %02x)",
					      where, p[0], size - at > 1 ? p[1] : 0, size - at > 2 ? p[2] : 0,
					      size - at > 3 ? p[3] : 0);
		else
			return add_note(f, "%zu bytes after bundle %u of %s are no bundle: not read", size - at,
					f->bundles, where);
		if (error < 0)
			return error;
		at += extent ? extent : 1;
	}
	return 0;
}

/* An ELF file for the host: its .hip_fatbin section, or the bundle
 * sections of an -fgpu-rdc object. */
static int read_host_elf(bin_file *f, const bin_elf *elf)
{
	bin_elf_section s;
	size_t i;
	bool interp = false, rdc = false;
	int error;

	for (i = 0; i < elf->shnum; i++) {
		if ((error = bin_elf_section_at(elf, i, &s)) < 0)
			return error;
		if (strcmp(s.name, ".interp") == 0)
			interp = true;
		if (strncmp(s.name, BIN_BUNDLE_MAGIC, BIN_BUNDLE_MAGIC_LEN) == 0 && s.type != BIN_ELF_SHT_NOBITS) {
			const char *id = s.name + BIN_BUNDLE_MAGIC_LEN;

			if (!rdc)
				f->bundles++;
			rdc = true;
			if ((error = add_entry(f, id, strlen(id), elf->data + s.offset, s.size, f->bundles, false)) < 0)
				return error;
		}
	}
	f->format = elf->type == BIN_ELF_ET_REL			? "object file"
		    : elf->type == BIN_ELF_ET_EXEC || interp ? "executable"
		    : elf->type == BIN_ELF_ET_DYN		? "shared library"
								: "ELF file";
	if ((error = bin_elf_section_find(elf, FATBIN_SECTION, &s)) <= 0)
		return error;
	if (s.type == BIN_ELF_SHT_NOBITS)
		return add_note(f, "the %s section has no contents in the file", FATBIN_SECTION);
	return add_bundles(f, elf->data + s.offset, (size_t)s.size, "the " FATBIN_SECTION " section");
}

static int parse(bin_file *f, const unsigned char *data, size_t size)
{
	bin_elf elf;
	bin_object *o;
	int error;

	if (size == 0)
		return util_error_set(UTIL_EINPUT, "an empty file");
	if (bin_bundle_magic(data, size) || bin_ccob_magic(data, size)) {
		f->format = bin_ccob_magic(data, size) ? "compressed offload bundle" : "offload bundle";
		return add_bundles(f, data, size, "the file");
	}
	if (!bin_elf_magic(data, size)) {
		if (size < BIN_BUNDLE_MAGIC_LEN && memcmp(data, BIN_BUNDLE_MAGIC, size) == 0)
			return util_error_set(UTIL_EINPUT, "a truncated offload bundle (%zu bytes)", size);
		return util_error_set(UTIL_EINPUT,
				      "neither an ELF file nor an offload bundle (it starts with %02x %02x %02x %02x)",
				      data[0], size > 1 ? data[1] : 0, size > 2 ? data[2] : 0, size > 3 ? data[3] : 0);
	}
	if ((error = bin_elf_parse(&elf, data, size)) < 0)
		return error;
	if (elf.machine != BIN_ELF_EM_AMDGPU)
		return read_host_elf(f, &elf);
	f->format = "code object";
	if (!(o = add_object(f)))
		return oom();
	o->kind = BIN_CODE_OBJECT;
	o->size = size;
	return bin_codeobj_target(o->target, sizeof(o->target), elf.flags, elf.abi_version);
}

int bin_file_parse(bin_file *out, const char *name, const unsigned char *data, size_t size)
{
	int error;

	memset(out, 0, sizeof(*out));
	out->format = "file";
	if (!(out->path = strdup(name)))
		return oom();
	if ((error = parse(out, data, size)) < 0) {
		char *why = strdup(util_error_last());

		bin_file_dispose(out);
		error = util_error_set(why ? error : UTIL_ENOMEM, "%s: %s", name, why ? why : "out of memory");
		free(why);
	}
	return error;
}

int bin_file_read(bin_file *out, const char *path)
{
	struct stat st;
	void *map;
	int fd, error;

	memset(out, 0, sizeof(*out));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return util_error_set(errno == ENOENT ? UTIL_ENOTFOUND : UTIL_EINPUT, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		error = util_error_set(UTIL_EINPUT, "%s: %s", path, strerror(errno));
		close(fd);
		return error;
	}
	if (!S_ISREG(st.st_mode)) {
		error = util_error_set(UTIL_EINPUT, "%s: %s", path,
				       S_ISDIR(st.st_mode) ? "a directory, not a file" : "not a regular file");
		close(fd);
		return error;
	}
	if (st.st_size == 0) {
		close(fd);
		return bin_file_parse(out, path, (const unsigned char *)"", 0);
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return util_error_set(UTIL_EINPUT, "%s: cannot map it: %s", path, strerror(errno));
	error = bin_file_parse(out, path, map, (size_t)st.st_size);
	munmap(map, (size_t)st.st_size);
	return error;
}

void bin_file_dispose(bin_file *file)
{
	size_t i;

	for (i = 0; i < file->count; i++)
		free(file->objects[i].bundle_id);
	for (i = 0; i < file->nnotes; i++)
		free(file->notes[i]);
	free(file->objects);
	free(file->notes);
	free(file->path);
	memset(file, 0, sizeof(*file));
}

size_t bin_file_code_objects(const bin_file *file)
{
	size_t i, n = 0;

	for (i = 0; i < file->count; i++)
		n += file->objects[i].kind == BIN_CODE_OBJECT && file->objects[i].target[0];
	return n;
}
