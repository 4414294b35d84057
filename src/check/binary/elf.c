#include "check/binary/elf.h"

#include <string.h>

#include "util/error.h"

#define EHDR_SIZE 64
#define SHDR_SIZE 64
#define SHN_XINDEX 0xffff

bool bin_elf_magic(const unsigned char *data, size_t size)
{
	return size >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

/* Whether [offset, offset + len) lies inside size bytes. */
static bool inside(uint64_t offset, uint64_t len, size_t size)
{
	return offset <= size && len <= size - offset;
}

int bin_elf_parse(bin_elf *out, const unsigned char *data, size_t size)
{
	const unsigned char *sh0;
	uint16_t shentsize;

	memset(out, 0, sizeof(*out));
	if (!bin_elf_magic(data, size))
		return util_error_set(UTIL_EINPUT, "not an ELF file");
	if (size < EHDR_SIZE && (size < 5 || data[4] == 2))
		return util_error_set(UTIL_EINPUT, "truncated ELF header (%zu of 64 bytes)", size);
	if (data[4] != 2)
		return util_error_set(UTIL_EINPUT, "a 32-bit ELF file (HIP binaries are 64-bit)");
	if (data[5] != 1)
		return util_error_set(UTIL_EINPUT, "a big-endian ELF file (HIP binaries are little-endian)");
	out->data = data;
	out->size = size;
	out->osabi = data[7];
	out->abi_version = data[8];
	out->type = bin_le16(data + 16);
	out->machine = bin_le16(data + 18);
	out->flags = bin_le32(data + 48);
	out->shoff = bin_le64(data + 40);
	shentsize = bin_le16(data + 58);
	out->shnum = bin_le16(data + 60);
	out->shstrndx = bin_le16(data + 62);
	if (out->shoff == 0) { /* no section table: a code object still has its header */
		out->shnum = 0;
		return 0;
	}
	if (shentsize != SHDR_SIZE)
		return util_error_set(UTIL_EINPUT, "ELF section headers of %u bytes, not 64", shentsize);
	if (!inside(out->shoff, SHDR_SIZE, size))
		return util_error_set(UTIL_EINPUT, "truncated: the ELF section table starts at byte %llu of %zu",
				      (unsigned long long)out->shoff, size);
	sh0 = data + out->shoff;
	if (out->shnum == 0) /* extended numbering: the count is section 0's size */
		out->shnum = bin_le64(sh0 + 32) > SIZE_MAX / SHDR_SIZE ? SIZE_MAX / SHDR_SIZE : (size_t)bin_le64(sh0 + 32);
	if (out->shstrndx == SHN_XINDEX)
		out->shstrndx = bin_le32(sh0 + 40);
	if (!inside(out->shoff, (uint64_t)out->shnum * SHDR_SIZE, size))
		return util_error_set(UTIL_EINPUT,
				      "truncated: %zu ELF section headers at byte %llu run past the end (%zu bytes)",
				      out->shnum, (unsigned long long)out->shoff, size);
	if (out->shstrndx >= out->shnum)
		return util_error_set(UTIL_EINPUT, "the ELF section name table is section %zu of %zu", out->shstrndx,
				      out->shnum);
	return 0;
}

/* The raw fields of section i (no checks of what they point to). */
static void raw_section(const bin_elf *elf, size_t i, uint32_t *name, bin_elf_section *out)
{
	const unsigned char *sh = elf->data + elf->shoff + i * SHDR_SIZE;

	*name = bin_le32(sh);
	out->type = bin_le32(sh + 4);
	out->offset = bin_le64(sh + 24);
	out->size = bin_le64(sh + 32);
}

int bin_elf_section_at(const bin_elf *elf, size_t i, bin_elf_section *out)
{
	bin_elf_section strtab;
	uint32_t name, ignored;

	memset(out, 0, sizeof(*out));
	if (i >= elf->shnum)
		return util_error_set(UTIL_EINPUT, "no ELF section %zu", i);
	raw_section(elf, elf->shstrndx, &ignored, &strtab);
	raw_section(elf, i, &name, out);
	if (!inside(strtab.offset, strtab.size, elf->size) || name >= strtab.size ||
	    !memchr(elf->data + strtab.offset + name, '\0', strtab.size - name))
		return util_error_set(UTIL_EINPUT, "the name of ELF section %zu lies outside the file", i);
	out->name = (const char *)elf->data + strtab.offset + name;
	if (out->type != BIN_ELF_SHT_NOBITS && !inside(out->offset, out->size, elf->size))
		return util_error_set(UTIL_EINPUT,
				      "truncated: ELF section %s (%llu bytes at byte %llu) runs past the end (%zu bytes)",
				      out->name, (unsigned long long)out->size, (unsigned long long)out->offset,
				      elf->size);
	return 0;
}

int bin_elf_section_find(const bin_elf *elf, const char *name, bin_elf_section *out)
{
	size_t i;
	int error;

	for (i = 0; i < elf->shnum; i++) {
		if ((error = bin_elf_section_at(elf, i, out)) < 0)
			return error;
		if (strcmp(out->name, name) == 0)
			return 1;
	}
	memset(out, 0, sizeof(*out));
	return 0;
}
