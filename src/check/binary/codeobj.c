#include "check/binary/codeobj.h"

#include <stdio.h>
#include <string.h>

#include "check/binary/elf.h"
#include "util/error.h"

/* EF_AMDGPU_MACH_AMDGCN_* of LLVM's BinaryFormat/ELF.h, checked against the
 * e_flags clang 21 writes (gfx940 and gfx941, gone from clang 21, from LLVM
 * 18's list). */
static const struct {
	unsigned mach;
	const char *processor;
} machs[] = {
	{ 0x020, "gfx600" },  { 0x021, "gfx601" },  { 0x022, "gfx700" },  { 0x023, "gfx701" },
	{ 0x024, "gfx702" },  { 0x025, "gfx703" },  { 0x026, "gfx704" },  { 0x028, "gfx801" },
	{ 0x029, "gfx802" },  { 0x02a, "gfx803" },  { 0x02b, "gfx810" },  { 0x02c, "gfx900" },
	{ 0x02d, "gfx902" },  { 0x02e, "gfx904" },  { 0x02f, "gfx906" },  { 0x030, "gfx908" },
	{ 0x031, "gfx909" },  { 0x032, "gfx90c" },  { 0x033, "gfx1010" }, { 0x034, "gfx1011" },
	{ 0x035, "gfx1012" }, { 0x036, "gfx1030" }, { 0x037, "gfx1031" }, { 0x038, "gfx1032" },
	{ 0x039, "gfx1033" }, { 0x03a, "gfx602" },  { 0x03b, "gfx705" },  { 0x03c, "gfx805" },
	{ 0x03d, "gfx1035" }, { 0x03e, "gfx1034" }, { 0x03f, "gfx90a" },  { 0x040, "gfx940" },
	{ 0x041, "gfx1100" }, { 0x042, "gfx1013" }, { 0x043, "gfx1150" }, { 0x044, "gfx1103" },
	{ 0x045, "gfx1036" }, { 0x046, "gfx1101" }, { 0x047, "gfx1102" }, { 0x048, "gfx1200" },
	{ 0x049, "gfx1250" }, { 0x04a, "gfx1151" }, { 0x04b, "gfx941" },  { 0x04c, "gfx942" },
	{ 0x04e, "gfx1201" }, { 0x04f, "gfx950" },  { 0x051, "gfx9-generic" },
	{ 0x052, "gfx10-1-generic" }, { 0x053, "gfx10-3-generic" }, { 0x054, "gfx11-generic" },
	{ 0x055, "gfx1152" }, { 0x058, "gfx1153" }, { 0x059, "gfx12-generic" }, { 0x05f, "gfx9-4-generic" },
};

#define EF_AMDGPU_MACH 0x0ff
#define XNACK_V4 0x300
#define SRAMECC_V4 0xc00
#define XNACK_V3 0x100
#define SRAMECC_V3 0x200
#define ABI_V4 2 /* ELFABIVERSION_AMDGPU_HSA_V4: the first with the any/off/on encoding */

const char *bin_codeobj_processor(unsigned mach)
{
	size_t i;

	for (i = 0; i < sizeof(machs) / sizeof(machs[0]); i++)
		if (machs[i].mach == mach)
			return machs[i].processor;
	return NULL;
}

/* ":name+" or ":name-" for a v4 setting (on/off), "" for any or unsupported. */
static const char *v4_feature(uint32_t value, uint32_t off, uint32_t on, const char *plus, const char *minus)
{
	return value == on ? plus : value == off ? minus : "";
}

int bin_codeobj_target(char *out, size_t size, uint32_t e_flags, unsigned abi_version)
{
	const char *processor = bin_codeobj_processor(e_flags & EF_AMDGPU_MACH), *sramecc, *xnack;

	if (!processor)
		return util_error_set(UTIL_EINPUT, "unknown AMDGPU processor 0x%02x in e_flags 0x%x",
				      (unsigned)(e_flags & EF_AMDGPU_MACH), (unsigned)e_flags);
	if (abi_version >= ABI_V4) {
		sramecc = v4_feature(e_flags & SRAMECC_V4, 0x800, 0xc00, ":sramecc+", ":sramecc-");
		xnack = v4_feature(e_flags & XNACK_V4, 0x200, 0x300, ":xnack+", ":xnack-");
	} else {
		sramecc = e_flags & SRAMECC_V3 ? ":sramecc+" : "";
		xnack = e_flags & XNACK_V3 ? ":xnack+" : "";
	}
	if ((size_t)snprintf(out, size, "%s%s%s", processor, sramecc, xnack) >= size)
		return util_error_set(UTIL_EINPUT, "target id too long");
	return 0;
}

int bin_codeobj_read(char *out, size_t size, const unsigned char *data, size_t len)
{
	bin_elf elf;
	int error;

	if ((error = bin_elf_parse(&elf, data, len)) < 0)
		return error;
	if (elf.machine != BIN_ELF_EM_AMDGPU)
		return util_error_set(UTIL_EINPUT, "an ELF file of machine %u, not an AMDGPU code object (224)",
				      elf.machine);
	return bin_codeobj_target(out, size, elf.flags, elf.abi_version);
}
