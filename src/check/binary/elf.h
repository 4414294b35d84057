/* A bounds-checked reader of 64-bit little-endian ELF files in memory: the
 * header and the section table, nothing else. Every offset and size is
 * checked against the bytes at hand, so a truncated or corrupt file is an
 * error, never a read past the end. */
#ifndef HIPPORT_CHECK_BINARY_ELF_H
#define HIPPORT_CHECK_BINARY_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BIN_ELF_ET_REL 1
#define BIN_ELF_ET_EXEC 2
#define BIN_ELF_ET_DYN 3
#define BIN_ELF_EM_X86_64 62
#define BIN_ELF_EM_AMDGPU 224
#define BIN_ELF_SHT_NOBITS 8

typedef struct bin_elf {
	const unsigned char *data; /* borrowed */
	size_t size;
	uint16_t type;             /* BIN_ELF_ET_* */
	uint16_t machine;          /* BIN_ELF_EM_* */
	uint32_t flags;            /* e_flags */
	uint8_t osabi;
	uint8_t abi_version;
	uint64_t shoff;
	size_t shnum;
	size_t shstrndx;
} bin_elf;

typedef struct bin_elf_section {
	const char *name;          /* points into the file; "" when it has none */
	uint32_t type;
	uint64_t offset;
	uint64_t size;             /* within the file, unless type is BIN_ELF_SHT_NOBITS */
} bin_elf_section;

/* Whether data starts with the ELF magic. */
bool bin_elf_magic(const unsigned char *data, size_t size);

/* Reads the header and checks that the section table lies inside the data.
 * UTIL_EINPUT names the problem (not an ELF file, truncated header, 32-bit
 * or big-endian, section table past the end). */
int bin_elf_parse(bin_elf *out, const unsigned char *data, size_t size);

/* The i-th section (i < elf->shnum): UTIL_EINPUT when its name or its
 * contents lie outside the file. */
int bin_elf_section_at(const bin_elf *elf, size_t i, bin_elf_section *out);

/* The first section named name into *out: 1 found, 0 not, or an error of
 * bin_elf_section_at. */
int bin_elf_section_find(const bin_elf *elf, const char *name, bin_elf_section *out);

/* Little-endian loads, for the readers of this room. */
static inline uint16_t bin_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t bin_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t bin_le64(const unsigned char *p)
{
	return (uint64_t)bin_le32(p) | (uint64_t)bin_le32(p + 4) << 32;
}

#endif
