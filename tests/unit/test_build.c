#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/finding.h"
#include "build/build.h"

/* Translates src as kind and checks the output; returns the hit count. */
static size_t port(bld_kind kind, const char *src, const char *arch, const char *want)
{
	util_buf out = UTIL_BUF_INIT;
	an_analysis hits;
	size_t n, i;

	assert_int_equal(bld_translate(&out, &hits, kind, src, strlen(src), arch), 0);
	assert_string_equal(out.ptr, want);
	n = hits.count;
	for (i = 0; i < hits.count; i++)
		assert_non_null(an_catalog_find(hits.hits[i].id));
	an_analysis_dispose(&hits);
	util_buf_dispose(&out);
	return n;
}

static void test_kind(void **state)
{
	(void)state;
	assert_int_equal(bld_kind_of("CMakeLists.txt"), BLD_CMAKE);
	assert_int_equal(bld_kind_of("a/b/CMakeLists.txt"), BLD_CMAKE);
	assert_int_equal(bld_kind_of("cmake/cuda.cmake"), BLD_CMAKE);
	assert_int_equal(bld_kind_of("Makefile"), BLD_MAKE);
	assert_int_equal(bld_kind_of("sub/makefile"), BLD_MAKE);
	assert_int_equal(bld_kind_of("GNUmakefile"), BLD_MAKE);
	assert_int_equal(bld_kind_of("rules.mk"), BLD_MAKE);
	assert_int_equal(bld_kind_of("kernel.cu"), BLD_NONE);
	assert_int_equal(bld_kind_of("Makefile.am"), BLD_NONE);
	assert_int_equal(bld_kind_of("notCMakeLists.txt"), BLD_NONE);
	assert_true(bld_looks_like_cuda("NVCC ?= nvcc\n", 13));
	assert_false(bld_looks_like_cuda("CC ?= gcc\n", 10));
}

static void test_cmake_comments_brackets(void **state)
{
	(void)state;
	/* comments and bracket arguments are kept */
	assert_int_equal(port(BLD_CMAKE, "# project(x CUDA) CUDA::cublas\n#[[ enable_language(CUDA)\n]]\n"
					 "message([==[CUDA::cublas ]] CMAKE_CUDA_FLAGS]==])\n",
			      NULL,
			      "# project(x CUDA) CUDA::cublas\n#[[ enable_language(CUDA)\n]]\n"
			      "message([==[CUDA::cublas ]] CMAKE_CUDA_FLAGS]==])\n"),
			 0);
	/* a quoted argument is a value: rewritten; escaped quotes do not end it */
	port(BLD_CMAKE, "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} \\\" -lineinfo\")\n", NULL,
	     "set(CMAKE_HIP_FLAGS \"${CMAKE_HIP_FLAGS} \\\" -gline-tables-only\")\n");
	/* a comment after an argument */
	port(BLD_CMAKE, "enable_language(CUDA) # CUDA\n", NULL, "enable_language(HIP) # CUDA\n");
}

static void test_cmake_case(void **state)
{
	(void)state;
	/* commands in any case; the language word is case-sensitive */
	port(BLD_CMAKE, "PROJECT(x LANGUAGES CXX CUDA)\nEnable_Language(CUDA)\nproject(y cuda)\n", NULL,
	     "PROJECT(x LANGUAGES CXX HIP)\nEnable_Language(HIP)\nproject(y cuda)\n");
	/* CUDA elsewhere than a language position stays */
	port(BLD_CMAKE, "message(STATUS CUDA)\n", NULL, "message(STATUS CUDA)\n");
}

static void test_cmake_arch(void **state)
{
	(void)state;
	port(BLD_CMAKE, "set(CMAKE_CUDA_ARCHITECTURES 70;80-real 90a)\n", "gfx942",
	     "set(CMAKE_HIP_ARCHITECTURES gfx942)\n");
	port(BLD_CMAKE, "set_target_properties(t PROPERTIES CUDA_ARCHITECTURES \"80;90\" CXX_STANDARD 17)\n", NULL,
	     "set_target_properties(t PROPERTIES HIP_ARCHITECTURES \"gfx90a\" CXX_STANDARD 17)\n");
	port(BLD_CMAKE, "set_property(TARGET t PROPERTY CUDA_ARCHITECTURES ${ARCHS})\n", NULL,
	     "set_property(TARGET t PROPERTY HIP_ARCHITECTURES ${ARCHS})\n");
}

static void test_cmake_packages(void **state)
{
	(void)state;
	port(BLD_CMAKE,
	     "  find_package(CUDAToolkit 12.0 REQUIRED)\n"
	     "add_executable(app main.cu util.cpp k.cu)\n"
	     "target_link_libraries(app CUDA::cudart CUDA::cufft CUDA::cufft_static)\n",
	     NULL,
	     "  find_package(hip REQUIRED)\n  find_package(hipfft REQUIRED)\n"
	     "add_executable(app main.cu util.cpp k.cu)\n"
	     "set_source_files_properties(main.cu k.cu PROPERTIES LANGUAGE HIP)\n"
	     "target_link_libraries(app hip::host hip::hipfft hip::hipfft)\n");
	assert_int_equal(port(BLD_CMAKE, "target_link_libraries(app CUDA::cupti)\n", NULL,
			      "target_link_libraries(app CUDA::cupti)\n"),
			 1);
}

static void test_cmake_genex(void **state)
{
	(void)state;
	port(BLD_CMAKE,
	     "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math --expt-relaxed-constexpr>\n"
	     "  $<$<COMPILE_LANGUAGE:CXX,CUDA>:-Xcompiler -fopenmp>)\n",
	     NULL,
	     "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-ffast-math>\n"
	     "  $<$<COMPILE_LANGUAGE:CXX,HIP>:-fopenmp>)\n");
}

static void test_make(void **state)
{
	(void)state;
	/* continuation lines are one statement: one arch */
	port(BLD_MAKE,
	     "NVCC ?= nvcc # nvcc here\n"
	     "FLAGS = -gencode arch=compute_80,code=sm_80 \\\n"
	     "\t-gencode=arch=compute_90,code=sm_90 -O2\n"
	     "OTHER = -arch=sm_70\n"
	     "LIBS = -L$(CUDA_HOME)/lib64 -lcublas -lcudart -lm\n",
	     "gfx942",
	     "NVCC ?= hipcc # nvcc here\n"
	     "FLAGS = --offload-arch=gfx942 \\\n"
	     "\t-O2\n"
	     "OTHER = --offload-arch=gfx942\n"
	     "LIBS = -L$(ROCM_PATH)/lib -lhipblas -lamdhip64 -lm\n");
	/* a recipe; quoted strings keep their words apart */
	port(BLD_MAKE, "k: k.cu\n\t/usr/local/cuda-12.4/bin/nvcc -ccbin g++ -o $@ $<\n", NULL,
	     "k: k.cu\n\t/opt/rocm/bin/hipcc -o $@ $<\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_cmake_comments_brackets),
		cmocka_unit_test(test_cmake_case),
		cmocka_unit_test(test_cmake_arch),
		cmocka_unit_test(test_cmake_packages),
		cmocka_unit_test(test_cmake_genex),
		cmocka_unit_test(test_make),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
