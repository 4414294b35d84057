/* The GPU code of built files: ELF sections, offload bundles (plain and
 * compressed), AMDGPU e_flags, and every truncation and a corruption of
 * each byte, which must be errors, never crashes; then the comparison with
 * GPUs under HIP_VISIBLE_DEVICES, HSA_OVERRIDE_GFX_VERSION and HSA_XNACK. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#ifdef HIPPORT_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HIPPORT_HAVE_ZLIB
#include <zlib.h>
#endif

#include "check/binary/bundle.h"
#include "check/binary/codeobj.h"
#include "check/binary/fatbin.h"
#include "check/binary/match.h"
#include "util/error.h"

typedef struct bytes {
	unsigned char data[16384];
	size_t len;
} bytes;

static void put(bytes *b, const void *p, size_t n)
{
	assert_true(b->len + n <= sizeof(b->data));
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void put_le(bytes *b, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		unsigned char c = i < 8 ? (unsigned char)(v >> (8 * i)) : 0; /* n may be past v's 8 bytes: zeros */

		put(b, &c, 1);
	}
}

static void pad_to(bytes *b, size_t at)
{
	while (b->len < at)
		put_le(b, 0, 1);
}

/* An ELF64 header of machine, type and e_flags, abi_version; no sections. */
static void elf_header(bytes *b, unsigned type, unsigned machine, uint32_t flags, unsigned abi_version,
		       uint64_t shoff, unsigned shnum, unsigned shstrndx)
{
	unsigned char ident[16] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 64, (unsigned char)abi_version };

	put(b, ident, 16);
	put_le(b, type, 2);
	put_le(b, machine, 2);
	put_le(b, 1, 4);
	put_le(b, 0, 8);      /* entry */
	put_le(b, 0, 8);      /* phoff */
	put_le(b, shoff, 8);
	put_le(b, flags, 4);
	put_le(b, 64, 2);     /* ehsize */
	put_le(b, 0, 2);
	put_le(b, 0, 2);
	put_le(b, shoff ? 64 : 0, 2);
	put_le(b, shnum, 2);
	put_le(b, shstrndx, 2);
}

/* A code object: an AMDGPU ELF header and some text. */
static void code_object(bytes *b, uint32_t flags)
{
	elf_header(b, 3, 224, flags, 4, 0, 0, 0);
	put(b, "kernel text", 11);
}

/* An uncompressed bundle of a host entry and n device entries. */
static void bundle(bytes *b, const char *const *ids, const uint32_t *flags, size_t n)
{
	bytes objects[4];
	size_t header = 24 + 8, i, at;

	assert_true(n <= 4);
	header += 24 + strlen("host-x86_64-unknown-linux-gnu-");
	for (i = 0; i < n; i++) {
		objects[i].len = 0;
		code_object(&objects[i], flags[i]);
		header += 24 + strlen(ids[i]);
	}
	put(b, BIN_BUNDLE_MAGIC, 24);
	put_le(b, n + 1, 8);
	put_le(b, header, 8);
	put_le(b, 0, 8);
	put_le(b, strlen("host-x86_64-unknown-linux-gnu-"), 8);
	put(b, "host-x86_64-unknown-linux-gnu-", strlen("host-x86_64-unknown-linux-gnu-"));
	for (i = 0, at = header; i < n; i++) {
		put_le(b, at, 8);
		put_le(b, objects[i].len, 8);
		put_le(b, strlen(ids[i]), 8);
		put(b, ids[i], strlen(ids[i]));
		at += objects[i].len;
	}
	for (i = 0; i < n; i++)
		put(b, objects[i].data, objects[i].len);
}

/* A host executable whose .hip_fatbin holds the bytes of fatbin. */
static void host_elf(bytes *b, const bytes *fatbin)
{
	static const char names[] = "\0.shstrtab\0.hip_fatbin\0.interp";
	size_t fat_at = 4096, names_at, sh_at;

	elf_header(b, 3, 62, 0, 0, 0, 0, 0);
	pad_to(b, fat_at);
	put(b, fatbin->data, fatbin->len);
	names_at = b->len;
	put(b, names, sizeof(names));
	pad_to(b, (b->len + 7) & ~(size_t)7);
	sh_at = b->len;
	put_le(b, 0, 64); /* section 0 */
	/* 1: .shstrtab */
	put_le(b, 1, 4), put_le(b, 3, 4), put_le(b, 0, 8), put_le(b, 0, 8), put_le(b, names_at, 8);
	put_le(b, sizeof(names), 8), put_le(b, 0, 8), put_le(b, 1, 8), put_le(b, 0, 8);
	/* 2: .hip_fatbin */
	put_le(b, 11, 4), put_le(b, 1, 4), put_le(b, 2, 8), put_le(b, 0, 8), put_le(b, fat_at, 8);
	put_le(b, fatbin->len, 8), put_le(b, 0, 8), put_le(b, 4096, 8), put_le(b, 0, 8);
	/* 3: .interp (empty) */
	put_le(b, 23, 4), put_le(b, 1, 4), put_le(b, 2, 8), put_le(b, 0, 8), put_le(b, 0, 8);
	put_le(b, 0, 8), put_le(b, 0, 8), put_le(b, 1, 8), put_le(b, 0, 8);
	b->data[40] = (unsigned char)sh_at; /* e_shoff */
	b->data[41] = (unsigned char)(sh_at >> 8);
	b->data[58] = 64, b->data[60] = 4, b->data[62] = 1;
}

static const char *const two_ids[] = { "hipv4-amdgcn-amd-amdhsa--gfx90a", "hipv4-amdgcn-amd-amdhsa--gfx942:xnack+" };
static const uint32_t two_flags[] = { 0x53f, 0x74c };

static void test_codeobj_target(void **state)
{
	char t[64];

	(void)state;
	assert_int_equal(bin_codeobj_target(t, sizeof(t), 0x54c, 4), 0);
	assert_string_equal(t, "gfx942");
	assert_int_equal(bin_codeobj_target(t, sizeof(t), 0x73f, 4), 0);
	assert_string_equal(t, "gfx90a:xnack+");
	assert_int_equal(bin_codeobj_target(t, sizeof(t), 0xe3f, 2), 0); /* sramecc on, xnack off */
	assert_string_equal(t, "gfx90a:sramecc+:xnack-");
	assert_int_equal(bin_codeobj_target(t, sizeof(t), 0x041, 4), 0);
	assert_string_equal(t, "gfx1100");
	assert_int_equal(bin_codeobj_target(t, sizeof(t), 0x040, 4), 0);
	assert_string_equal(t, "gfx940");
	assert_int_equal(bin_codeobj_target(t, sizeof(t), 0x04b, 4), 0);
	assert_string_equal(t, "gfx941");
	assert_int_equal(bin_codeobj_target(t, sizeof(t), 0x100055f, 4), 0);
	assert_string_equal(t, "gfx9-4-generic");
	assert_int_equal(bin_codeobj_target(t, sizeof(t), 0x12f, 1), 0); /* code object v3: the bit says on */
	assert_string_equal(t, "gfx906:xnack+");
	assert_int_equal(bin_codeobj_target(t, sizeof(t), 0x0ff, 4), UTIL_EINPUT);
	assert_int_equal(bin_codeobj_target(t, sizeof(t), 0x001, 4), UTIL_EINPUT); /* R600 */
}

static void test_raw_code_object(void **state)
{
	bytes b = { .len = 0 };
	bin_file f;

	(void)state;
	code_object(&b, 0x73f);
	assert_int_equal(bin_file_parse(&f, "k.hsaco", b.data, b.len), 0);
	assert_string_equal(f.format, "code object");
	assert_int_equal(f.count, 1);
	assert_string_equal(f.objects[0].target, "gfx90a:xnack+");
	assert_null(f.objects[0].bundle_id);
	bin_file_dispose(&f);
}

static void test_host_two_bundles(void **state)
{
	bytes fat = { .len = 0 }, elf = { .len = 0 };
	static const char *const third[] = { "hipv4-amdgcn-amd-amdhsa--gfx1100" };
	static const uint32_t third_flags[] = { 0x041 };
	bin_file f;

	(void)state;
	bundle(&fat, two_ids, two_flags, 2);
	pad_to(&fat, 4096); /* the linker's alignment between the bundles of two files */
	bundle(&fat, third, third_flags, 1);
	host_elf(&elf, &fat);
	assert_int_equal(bin_file_parse(&f, "prog", elf.data, elf.len), 0);
	assert_string_equal(f.format, "executable");
	assert_int_equal(f.bundles, 2);
	assert_int_equal(f.count, 3);
	assert_string_equal(f.objects[0].target, "gfx90a");
	assert_string_equal(f.objects[1].target, "gfx942:xnack+");
	assert_string_equal(f.objects[1].bundle_id, "hipv4-amdgcn-amd-amdhsa--gfx942:xnack+");
	assert_string_equal(f.objects[2].target, "gfx1100");
	assert_int_equal(f.objects[2].bundle, 2);
	assert_int_equal(bin_file_code_objects(&f), 3);
	assert_int_equal(f.nnotes, 0);
	bin_file_dispose(&f);
}

/* The e_flags win over the id, with a note. */
static void test_id_disagrees(void **state)
{
	bytes b = { .len = 0 };
	static const char *const ids[] = { "hipv4-amdgcn-amd-amdhsa--gfx90a" };
	static const uint32_t flags[] = { 0x54c };
	bin_file f;

	(void)state;
	bundle(&b, ids, flags, 1);
	assert_int_equal(bin_file_parse(&f, "k.hsaco", b.data, b.len), 0);
	assert_string_equal(f.format, "offload bundle");
	assert_string_equal(f.objects[0].target, "gfx942");
	assert_int_equal(f.nnotes, 1);
	assert_non_null(strstr(f.notes[0], "holds a code object for gfx942"));
	bin_file_dispose(&f);
}

/* A CCOB header of version 2 around data compressed with method. */
static void ccob(bytes *out, unsigned method, const unsigned char *compressed, size_t n, size_t plain)
{
	put(out, "CCOB", 4);
	put_le(out, 2, 2);
	put_le(out, method, 2);
	put_le(out, 24 + n, 4);
	put_le(out, plain, 4);
	put_le(out, 0x1234, 8);
	put(out, compressed, n);
}

static void test_compressed(void **state)
{
	bytes plain = { .len = 0 }, out = { .len = 0 };
	unsigned char z[8192];
	size_t n = 0;
	bin_file f;
	unsigned method = 7;

	(void)state;
	bundle(&plain, two_ids, two_flags, 2);
	(void)z;
#ifdef HIPPORT_HAVE_ZSTD
	n = ZSTD_compress(z, sizeof(z), plain.data, plain.len, 3);
	assert_false(ZSTD_isError(n));
	method = BIN_CCOB_ZSTD;
#endif
	if (method == 7) { /* no zstd here: zlib, or none */
#ifdef HIPPORT_HAVE_ZLIB
		uLongf zn = sizeof(z);

		assert_int_equal(compress2(z, &zn, plain.data, plain.len, 6), Z_OK);
		n = zn;
		method = BIN_CCOB_ZLIB;
#endif
	}
	if (method == 7)
		skip();
	ccob(&out, method, z, n, plain.len);
	assert_int_equal(bin_file_parse(&f, "k.hsaco", out.data, out.len), 0);
	assert_string_equal(f.format, "compressed offload bundle");
	assert_int_equal(f.compressed, 1);
	assert_int_equal(f.count, 2);
	assert_string_equal(f.objects[1].target, "gfx942:xnack+");
	assert_true(f.objects[1].compressed);
	bin_file_dispose(&f);

	/* a size other than the header's is corrupt */
	out.len = 0;
	ccob(&out, method, z, n, plain.len + 1);
	assert_int_equal(bin_file_parse(&f, "k.hsaco", out.data, out.len), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "k.hsaco: corrupt compressed offload bundle"));
}

/* A method no build knows: listed as a note, not an error. */
static void test_compressed_unknown_method(void **state)
{
	bytes out = { .len = 0 };
	bin_file f;

	(void)state;
	ccob(&out, 9, (const unsigned char *)"0123456789", 10, 100);
	assert_int_equal(bin_file_parse(&f, "comp", out.data, out.len), 0);
	assert_int_equal(f.count, 0);
	assert_int_equal(f.nnotes, 1);
	assert_non_null(strstr(f.notes[0], "compressed (method 9), 34 bytes, cannot list"));
	bin_file_dispose(&f);
}

static void test_not_binaries(void **state)
{
	bin_file f;
	bytes b = { .len = 0 };

	(void)state;
	assert_int_equal(bin_file_parse(&f, "x.txt", (const unsigned char *)"hello world", 11), UTIL_EINPUT);
	assert_string_equal(util_error_last(),
			    "x.txt: neither an ELF file nor an offload bundle (it starts with 68 65 6c 6c)");
	assert_int_equal(bin_file_parse(&f, "e", (const unsigned char *)"", 0), UTIL_EINPUT);
	assert_string_equal(util_error_last(), "e: an empty file");
	assert_int_equal(bin_file_parse(&f, "h", (const unsigned char *)"\177ELF\2\1", 6), UTIL_EINPUT);
	assert_string_equal(util_error_last(), "h: truncated ELF header (6 of 64 bytes)");
	/* a host ELF without .hip_fatbin: no GPU code, no error */
	elf_header(&b, 3, 62, 0, 0, 0, 0, 0);
	assert_int_equal(bin_file_parse(&f, "libc.so", b.data, b.len), 0);
	assert_int_equal(f.count, 0);
	bin_file_dispose(&f);
	assert_int_equal(bin_file_read(&f, "/nonexistent/prog"), UTIL_ENOTFOUND);
	assert_int_equal(bin_file_read(&f, "/"), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "/: a directory"));
}

/* Every prefix of a fat binary, and every byte of it set to 0xff: an
 * error or a listing, never a read past the end (run under ASan/valgrind). */
static void test_truncated_and_corrupt(void **state)
{
	bytes fat = { .len = 0 }, elf = { .len = 0 };
	bin_file f;
	unsigned char *copy;
	size_t i, errors = 0;

	(void)state;
	bundle(&fat, two_ids, two_flags, 2);
	host_elf(&elf, &fat);
	for (i = 0; i < elf.len; i++) {
		copy = malloc(i ? i : 1); /* exactly i bytes, so that ASan sees a read past them */
		assert_non_null(copy);
		memcpy(copy, elf.data, i);
		if (bin_file_parse(&f, "prog", copy, i) < 0)
			errors++;
		else
			bin_file_dispose(&f);
		free(copy);
	}
	assert_true(errors > 0);
	for (i = 0; i < elf.len; i++) {
		copy = malloc(elf.len);
		assert_non_null(copy);
		memcpy(copy, elf.data, elf.len);
		copy[i] ^= 0xff;
		if (bin_file_parse(&f, "prog", copy, elf.len) == 0)
			bin_file_dispose(&f);
		free(copy);
	}
	/* a bundle cut inside its entry table names the problem */
	assert_int_equal(bin_file_parse(&f, "k", fat.data, 60), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "k: "));
	assert_non_null(strstr(util_error_last(), "offload bundle"));
}

static void test_visible(void **state)
{
	(void)state;
	assert_true(bin_gpu_visible(NULL, 3, 4));
	assert_true(bin_gpu_visible("1,3", 3, 4));
	assert_false(bin_gpu_visible("1,3", 0, 4));
	assert_false(bin_gpu_visible("1,9,3", 3, 4)); /* the runtime stops at 9 */
	assert_false(bin_gpu_visible("", 0, 1));
	assert_false(bin_gpu_visible("-1", 0, 1));
	assert_true(bin_gpu_visible("GPU-1234", 0, 1));
}

/* file of the given targets (code objects) */
static void fake_file(bin_file *f, bin_object *objects, const char *const *targets, size_t n)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->path = (char *)"prog";
	f->format = "executable";
	f->objects = objects;
	f->count = n;
	f->bundles = 1;
	for (i = 0; i < n; i++) {
		memset(&objects[i], 0, sizeof(objects[i]));
		strcpy(objects[i].target, targets[i]);
		objects[i].kind = BIN_CODE_OBJECT;
		objects[i].bundle = 1;
	}
}

static bool has_finding(const bin_report *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->nfindings; i++)
		if (strcmp(r->findings[i].id, id) == 0)
			return true;
	return false;
}

static void test_match(void **state)
{
	static const char *const targets[] = { "gfx90a", "gfx942:xnack+" };
	bin_object objects[2];
	bin_file f;
	bin_gpu gpus[2] = { { 0, "gfx942", "option" }, { 1, "gfx90a:xnack+", "option" } };
	tc_env_vars vars = { 0 };
	bin_report r;

	(void)state;
	fake_file(&f, objects, targets, 2);
	/* XNACK off by default: gfx942:xnack+ does not load on the gfx942 */
	assert_int_equal(bin_report_make(&r, &f, gpus, 2, &vars), 0);
	assert_int_equal(r.gpus[0].verdict, BIN_NO_FEATURE);
	assert_string_equal(r.gpus[0].looks_for, "gfx942:xnack-");
	assert_int_equal(r.gpus[1].verdict, BIN_RUNS);
	assert_string_equal(r.gpus[1].chosen->target, "gfx90a");
	assert_false(r.error);
	assert_true(has_finding(&r, "ENV-012") && r.findings[0].severity == AN_WARNING);
	bin_report_dispose(&r);

	/* HSA_XNACK=1: it does */
	vars.hsa_xnack = "1";
	assert_int_equal(bin_report_make(&r, &f, gpus, 2, &vars), 0);
	assert_int_equal(r.gpus[0].verdict, BIN_RUNS);
	assert_int_equal(r.nfindings, 0);
	bin_report_dispose(&r);

	/* only the gfx942 in use, XNACK off: nothing runs, an error */
	vars.hsa_xnack = NULL;
	vars.hip_visible_devices = "0";
	assert_int_equal(bin_report_make(&r, &f, gpus, 2, &vars), 0);
	assert_int_equal(r.gpus[1].verdict, BIN_HIDDEN);
	assert_true(r.error);
	assert_int_equal(r.findings[0].severity, AN_ERROR);
	bin_report_dispose(&r);

	/* HSA_OVERRIDE_GFX_VERSION=9.4.2 on the gfx90a: it looks for gfx942 */
	vars.hip_visible_devices = "1";
	vars.hsa_override_gfx_version = "9.4.2";
	assert_int_equal(bin_report_make(&r, &f, gpus, 2, &vars), 0);
	assert_string_equal(r.gpus[1].looks_for, "gfx942:xnack+");
	assert_int_equal(r.gpus[1].verdict, BIN_RUNS_OVERRIDDEN);
	assert_true(has_finding(&r, "ENV-013"));
	assert_false(r.error);
	bin_report_dispose(&r);

	/* PYTORCH_ROCM_ARCH with an arch the file lacks */
	memset(&vars, 0, sizeof(vars));
	vars.pytorch_rocm_arch = "gfx90a;gfx1100";
	assert_int_equal(bin_report_make(&r, &f, gpus, 1, &vars), 0);
	assert_true(has_finding(&r, "ENV-014"));
	assert_true(has_finding(&r, "ENV-012"));
	assert_true(r.error);
	bin_report_dispose(&r);
}

static void test_match_generic_and_missing(void **state)
{
	static const char *const generic[] = { "gfx9-4-generic", "gfx942" };
	bin_object objects[2];
	bin_file f;
	bin_gpu gpus[2] = { { 0, "gfx950", "hip" }, { 1, "gfx1100", "hip" } };
	tc_env_vars vars = { 0 };
	bin_report r;
	tc_env_finding *findings;
	size_t n;

	(void)state;
	fake_file(&f, objects, generic, 2);
	assert_int_equal(bin_report_make(&r, &f, gpus, 2, &vars), 0);
	assert_int_equal(r.gpus[0].verdict, BIN_RUNS);
	assert_string_equal(r.gpus[0].chosen->target, "gfx9-4-generic");
	assert_int_equal(r.gpus[1].verdict, BIN_NO_PROCESSOR);
	assert_string_equal(r.gpus[1].looks_for, "gfx1100");
	assert_true(has_finding(&r, "ENV-011"));
	bin_report_dispose(&r);

	/* no GPU visible: ENV-009, an error */
	vars.hip_visible_devices = "-1";
	assert_int_equal(bin_setting_findings(&findings, &n, gpus, 2, &vars), 0);
	assert_int_equal(n, 1);
	assert_string_equal(findings[0].id, "ENV-009");
	assert_int_equal(findings[0].severity, AN_ERROR);
	tc_env_findings_free(findings, n);
	/* no GPU at all: ENV-006 */
	vars.hip_visible_devices = NULL;
	assert_int_equal(bin_setting_findings(&findings, &n, NULL, 0, &vars), 0);
	assert_int_equal(n, 1);
	assert_string_equal(findings[0].id, "ENV-006");
	tc_env_findings_free(findings, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codeobj_target),
		cmocka_unit_test(test_raw_code_object),
		cmocka_unit_test(test_host_two_bundles),
		cmocka_unit_test(test_id_disagrees),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_compressed_unknown_method),
		cmocka_unit_test(test_not_binaries),
		cmocka_unit_test(test_truncated_and_corrupt),
		cmocka_unit_test(test_visible),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_match_generic_and_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
