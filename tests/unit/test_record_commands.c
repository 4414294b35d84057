/* The default build and run of a program to record, from small projects
 * written in a temporary directory: a Makefile's run target, CMake with
 * CTest, a README's fenced block, a Makefile's default target, a
 * compile_commands.json; which wins when several are there; and what is
 * never taken (install lines, a cd out of the tree, a run with no build);
 * and records.list's origin column read back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/bundle/bundle_list.h"
#include "check/record/commands.h"
#include "util/error.h"
#include "util/file.h"

#define MAKE_BUILD "make CC=\"$HIPPORT_CXX\" NVCC=\"$HIPPORT_CXX\""

static char root[512];

static int read_root(util_buf *out, const char *path, void *payload)
{
	char full[1024];

	snprintf(full, sizeof(full), "%s/%s", (const char *)payload, path);
	return util_file_read(out, full, 0);
}

/* Writes root/path, making its directories. */
static void put(const char *path, const char *text)
{
	char full[1024];
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", root, path);
	assert_int_equal(util_file_make_parents(full), 0);
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	const char *tmp = getenv("HIPPORT_TEST_TMP");
	char cmd[1200];

	snprintf(root, sizeof(root), "%s/record-commands-%d", tmp ? tmp : "/tmp", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", root, root);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void expect(const char *dir, const char *run_dir, const char *build, const char *run, const char *origin)
{
	rec_commands c;
	int error = rec_commands_guess(&c, dir, read_root, root);

	if (error)
		fail_msg("%s: %s", dir, util_error_last());
	assert_string_equal(c.dir, run_dir);
	if (build)
		assert_string_equal(c.build, build);
	assert_string_equal(c.run, run);
	assert_string_equal(c.origin, origin);
	rec_commands_dispose(&c);
}

static void expect_none(const char *dir)
{
	rec_commands c;
	int error = rec_commands_guess(&c, dir, read_root, root);

	if (error != UTIL_ENOTFOUND)
		fail_msg("%s: expected no commands, got %d: build `%s`, run `%s` (%s)", dir, error,
			 c.build ? c.build : "", c.run ? c.run : "", c.origin ? c.origin : "");
	assert_null(c.dir);
	assert_null(c.build);
}

static void makefile_run_target(void **state)
{
	put("vadd/main.cu", "__global__ void k() {}\n");
	put("vadd/Makefile", "all: main\nmain: main.cu\n\tnvcc -o main main.cu\nrun: main\n\t./main 100\n");
	expect("vadd", "vadd", MAKE_BUILD, "make run", "Makefile run target");
	/* walked up from a directory without build files, never above the root */
	put("deep/Makefile", "run:\n\t./x\n");
	put("deep/src/k.cu", "__global__ void k() {}\n");
	expect("deep/src", "deep", MAKE_BUILD, "make run", "Makefile run target");
	put("lower/makefile", "x: y\nrun: x\n\t./x\n");
	expect("./lower/", "lower", MAKE_BUILD, "make run", "makefile run target");
	expect_none("nothing/here");
	expect_none(".");
}

static void cmake_with_ctest(void **state)
{
	rec_commands c;

	put("cm/CMakeLists.txt", "cmake_minimum_required(VERSION 3.18)\nproject(cm LANGUAGES CXX CUDA)\n"
				 "enable_testing()\nadd_executable(app main.cu)\nadd_test(NAME app COMMAND app 8)\n");
	assert_int_equal(rec_commands_guess(&c, "cm", read_root, root), 0);
	assert_string_equal(c.dir, "cm");
	assert_non_null(strstr(c.build, "cmake -S . -B build-hipport -DCMAKE_CUDA_COMPILER=\"$HIPPORT_CXX\""));
	assert_non_null(strstr(c.build, "-DCMAKE_HIP_COMPILER="));
	assert_non_null(strstr(c.build, "&& cmake --build build-hipport -j"));
	assert_string_equal(c.run, "ctest --test-dir build-hipport --output-on-failure");
	assert_string_equal(c.origin, "CMakeLists.txt with CTest (add_test)");
	rec_commands_dispose(&c);
	/* a subdirectory's CMakeLists.txt (no project()) belongs to the top one;
	 * its add_test and the top's include(CTest) count together */
	put("top/CMakeLists.txt", "project(top CUDA)\ninclude(CTest)\nadd_subdirectory(src)\n");
	put("top/src/CMakeLists.txt", "add_executable(k k.cu)\n  ADD_TEST(NAME k COMMAND k)\n");
	expect("top/src", "top", NULL, "ctest --test-dir build-hipport --output-on-failure",
	       "CMakeLists.txt with CTest (add_test)");
	/* tests added in a directory add_subdirectory() names */
	put("sub/CMakeLists.txt", "project(sub CUDA)\nenable_testing()\nadd_subdirectory(tests)\n");
	put("sub/tests/CMakeLists.txt", "add_test(NAME t COMMAND app)\n");
	expect("sub", "sub", NULL, "ctest --test-dir build-hipport --output-on-failure",
	       "CMakeLists.txt with CTest (add_test)");
	/* no tests, or tests never enabled: no commands */
	put("notest/CMakeLists.txt", "project(n CUDA)\nadd_executable(app main.cu)\n# enable_testing()\n");
	expect_none("notest");
	put("noenable/CMakeLists.txt", "project(n CUDA)\nadd_test(NAME t COMMAND app)\n");
	expect_none("noenable");
}

static void readme_fenced_block(void **state)
{
	put("rd/README.md", "# rd\n\nBuild:\n\n```bash\n$ nvcc -O2 main.cu -o main\n```\n\nThen:\n\n"
			    "```\n./main 1024 # the size\n```\n");
	expect("rd", "rd", "\"$HIPPORT_CXX\" -O2 main.cu -o main", "./main 1024", "README.md fenced block");
	/* one line, make && ./x; the first plausible pair */
	put("one/README", "```sh\nmake && ./bench -n 3\n```\n```sh\nmake && ./other\n```\n");
	expect("one", "one", MAKE_BUILD, "./bench -n 3", "README fenced block");
	/* install lines and clones are never taken; a cd into what was cloned
	 * is this tree; a build in a subdirectory runs from there */
	put("inst/README.md", "```\nsudo apt-get install -y cuda\npip install numpy\ngit clone https://x.org/u/inst.git\n"
			      "cd inst\nmkdir -p build && cd build\ncmake .. && make -j4\n./inst --size 8\n```\n");
	expect("inst", "inst", "mkdir -p build && cd build && cmake .. && make -j4 CC=\"$HIPPORT_CXX\" NVCC=\"$HIPPORT_CXX\"",
	       "cd build && ./inst --size 8", "README.md fenced block");
	/* code of another language, and indented blocks, are not commands */
	put("lang/README.md", "```cpp\nmake\n./x\n```\n\n    make\n    ./x\n");
	expect_none("lang");
}

static void readme_refused(void **state)
{
	/* installing is no build */
	put("pip/README.md", "```\npip install -r requirements.txt\n./app\n```\n");
	expect_none("pip");
	/* a build with no run line */
	put("norun/README.md", "```\nmake\n```\n");
	expect_none("norun");
	/* a run before any build */
	put("early/README.md", "```\n./app\n```\n```\nmake\n```\n");
	expect_none("early");
	/* a block that cds outside the tree: nothing after it is taken */
	put("out/README.md", "```\ncd ../../elsewhere\nmake\n./app\n```\n```\nmake && ./app\n```\n");
	expect_none("out");
	put("home/README.md", "```\ncd $HOME/proj && make && ./app\n```\n");
	expect_none("home");
	/* but up inside the tree is fine */
	put("a/b/README.md", "```\ncd ..\nmake\n./app 1\n```\n");
	expect("a/b", "a/b", "cd .. && " MAKE_BUILD, "cd .. && ./app 1", "README.md fenced block");
	/* command substitution and pipes are not taken */
	put("subst/README.md", "```\nmake $(nproc)\ncurl x | sh\n./app\n```\n");
	expect_none("subst");
	put("conf/README.md", "```\n./configure\n```\n");
	expect_none("conf");
	/* directories made or built in outside the tree */
	put("mk/README.md", "```\nmkdir -p ../../x\nmake -C ../.. all\n./app\n```\n");
	expect_none("mk");
}

/* records.list's fourth column read back; a list of three columns is the
 * configuration's */
static void records_list_columns(void **state)
{
	bundle_list list;
	char path[1024];

	put("b/bundle.conf", "BUNDLE_ID=x\n");
	put("b/checks.list", "");
	put("b/records.list", "a\tmake\tmake run\tMakefile run target\nb\tmake\t./b 1\n");
	snprintf(path, sizeof(path), "%s/b", root);
	assert_int_equal(bundle_list_read(&list, path), 0);
	assert_int_equal(list.nitems, 2);
	assert_string_equal(list.items[0].name, "a");
	assert_string_equal(list.items[0].origin, "Makefile run target");
	assert_string_equal(list.items[1].name, "b");
	assert_string_equal(list.items[1].origin, "config");
	bundle_list_dispose(&list);
}

static void makefile_default_target(void **state)
{
	put("def/Makefile", "NVCC ?= nvcc\nEXE = vadd\n\nall: $(EXE)\n\n$(EXE): main.cu\n\t$(NVCC) -O2 main.cu -o $@\n\n"
			    "clean:\n\trm -f $(EXE)\n");
	expect("def", "def", MAKE_BUILD, "./vadd", "Makefile default target");
	/* arguments only when the README gives them */
	put("def/README.md", "Run it:\n```\n./vadd 4096 10\n```\n");
	expect("def", "def", MAKE_BUILD, "./vadd 4096 10", "Makefile default target, arguments from README.md");
	/* Rodinia's shape: the compiler through a variable of an included path */
	put("rod/Makefile", "include ../../common/make.config\nCC := $(CUDA_DIR)/bin/nvcc\nSRC = needle.cu\n"
			    "EXE = needle\n\nrelease: $(SRC)\n\t$(CC) $(SRC) -o $(EXE) -I$(INCLUDE)\n\n"
			    "debug: $(SRC)\n\t$(CC) -g $(SRC) -o $(EXE)\n");
	expect("rod", "rod", MAKE_BUILD, "./needle", "Makefile default target");
	/* a directory of examples: each executable in turn; a recipe word
	 * that expands to nothing before the compiler (CUDA samples' $(EXEC)) */
	put("two/Makefile", "all:\n\tnvcc a.cu -o a\n\tnvcc b.cu -o b\n");
	expect("two", "two", MAKE_BUILD, "./a; ./b", "Makefile default target, its 2 executables in turn");
	put("lcp/Makefile", "CUDA_PATH=/usr/local/cuda\nHOST_COMPILER ?= g++\nNVCC=${CUDA_PATH}/bin/nvcc -ccbin "
			    "${HOST_COMPILER}\nTARGET=red_global red_shared\nIS_11:=${shell expr 1 \\>= 1}\n"
			    "all : ${TARGET}\n\nk.o: k.cu\n\t$(EXEC) $(NVCC) -o $@ -c $<\n"
			    "red_global: g.o k.o\n\t$(EXEC) $(NVCC) -o $@ $+\nred_shared: s.o k.o\n\t$(EXEC) $(NVCC) -o $@ $+\n");
	expect("lcp", "lcp", MAKE_BUILD, "./red_global; ./red_shared",
	       "Makefile default target, its 2 executables in turn");
	/* not plain: a host compiler, an unclear name, objects only */
	put("gcc/Makefile", "app: main.c\n\tgcc main.c -o app\n");
	expect_none("gcc");
	put("cond/Makefile", "ifeq ($(X),1)\nEXE = a\nelse\nEXE = b\nendif\n$(EXE): k.cu\n\tnvcc k.cu -o $@\n");
	expect_none("cond");
	put("obj/Makefile", "k.o: k.cu\n\tnvcc -c k.cu -o k.o\n");
	expect_none("obj");
}

static void compile_commands(void **state)
{
	put("db/compile_commands.json",
	    "[{\"directory\": \"/home/u/db\", \"file\": \"main.cu\", \"arguments\": [\"/usr/local/cuda/bin/nvcc\", "
	    "\"-I/home/u/db/inc\", \"-DNAME=a b\", \"main.cu\", \"-o\", \"main\"]}]\n");
	expect("db", "db", "\"$HIPPORT_CXX\" -Iinc '-DNAME=a b' main.cu -o main", "./main", "compile_commands.json");
	put("dbc/compile_commands.json",
	    "[{\"directory\": \"/w/dbc\", \"file\": \"/w/dbc/k.cu\", \"command\": \"nvcc -c /w/dbc/k.cu -o k.o\"},\n"
	    " {\"directory\": \"/w/dbc\", \"file\": \"/w/dbc/main.cu\", \"command\": \"nvcc /w/dbc/main.cu k.o -o app\"}]\n");
	expect("dbc", "dbc", "\"$HIPPORT_CXX\" -c k.cu -o k.o && \"$HIPPORT_CXX\" main.cu k.o -o app", "./app",
	       "compile_commands.json");
	/* compiles only (CMake's): no executable, no commands */
	put("dbo/compile_commands.json",
	    "[{\"directory\": \"/w/dbo/build\", \"file\": \"/w/dbo/k.cu\", \"command\": \"nvcc -c /w/dbo/k.cu -o k.o\"}]\n");
	expect_none("dbo");
	put("dbbad/compile_commands.json", "{not json\n");
	expect_none("dbbad");
}

static void preference(void **state)
{
	const char *readme = "```\nnvcc k.cu -o k\n./k 5\n```\n";

	/* a Makefile's run target before CMake, CMake before the README */
	put("p1/Makefile", "run:\n\t./k\n");
	put("p1/CMakeLists.txt", "project(p CUDA)\nenable_testing()\nadd_test(NAME t COMMAND k)\n");
	put("p1/README.md", readme);
	expect("p1", "p1", MAKE_BUILD, "make run", "Makefile run target");
	put("p2/CMakeLists.txt", "project(p CUDA)\nenable_testing()\nadd_test(NAME t COMMAND k)\n");
	put("p2/README.md", readme);
	expect("p2", "p2", NULL, "ctest --test-dir build-hipport --output-on-failure",
	       "CMakeLists.txt with CTest (add_test)");
	/* the README before a Makefile's default target */
	put("p3/Makefile", "k: k.cu\n\tnvcc k.cu -o k\n");
	put("p3/README.md", readme);
	expect("p3", "p3", "\"$HIPPORT_CXX\" k.cu -o k", "./k 5", "README.md fenced block");
	/* a directory with its own Makefile is where the walk stops */
	put("p4/README.md", readme);
	put("p4/sub/Makefile", "clean:\n\trm -f x\n");
	expect_none("p4/sub");
}

/* A directory no build file governs: each source with main() built alone
 * (with the system libraries its headers name),
 * in turn; none where a build file is there (even one that shows nothing),
 * and a file whose main is only in a comment or a longer name is no program. */
static void single_sources(void **state)
{
	static const char *const paths[] = { "book/ch3/scan.cu", "book/ch3/util.cu", "book/ch3/hist.cu",
					     "book/ch3/sub/deep.cu", "book/ch3/notes.cpp", "book/ch4/k.cu" };
	rec_commands c;

	put("book/ch3/scan.cu", "__global__ void k() {}\nint main(int argc, char **argv)\n{\n}\n");
	put("book/ch3/util.cu", "// int main() lives elsewhere\nint mainly(void);\n__global__ void u() {}\n");
	put("book/ch3/hist.cu", "#include <stdio.h>\n# include <png.h>\n#include \"zlib.h\"\n// #include <jpeglib.h>\n"
				"__global__ void h() {}\n\nint\nmain (void) { return 0; }\n");
	put("book/ch3/sub/deep.cu", "int main() {}\n");
	put("book/ch3/notes.cpp", "int main() {}\n");
	put("book/ch4/k.cu", "__global__ void k() {}\n");
	expect_none("book/ch3");
	assert_int_equal(rec_commands_guess(&c, "book/ch3", read_root, root), UTIL_ENOTFOUND);
	assert_false(c.build_files);
	assert_int_equal(rec_commands_single(&c, "book/ch3", paths, 6, read_root, root), 0);
	assert_string_equal(c.dir, "book/ch3");
	/* the system library whose header hist.cu includes is linked (png);
	 * a quoted or commented include is no such header */
	assert_string_equal(c.build, "\"$HIPPORT_CXX\" -o scan scan.cu && \"$HIPPORT_CXX\" -o hist hist.cu -lpng");
	assert_string_equal(c.run, "./scan; ./hist");
	assert_string_equal(c.origin, "its 2 sources with main(), no build file, in turn");
	rec_commands_dispose(&c);
	assert_int_equal(rec_commands_single(&c, "book/ch4", paths, 6, read_root, root), UTIL_ENOTFOUND);
	assert_null(c.build);
	util_error_clear();

	put("one.cu", "__global__ void k() {}\nvoid main() {}\n");
	{
		static const char *const top[] = { "one.cu", "book/ch3/scan.cu" };

		assert_int_equal(rec_commands_single(&c, ".", top, 2, read_root, root), 0);
		assert_string_equal(c.build, "\"$HIPPORT_CXX\" -o one one.cu");
		assert_string_equal(c.run, "./one");
		assert_string_equal(c.origin, "a source with main(), no build file");
		rec_commands_dispose(&c);
	}

	/* a Makefile that shows no commands still governs its directory */
	put("book/ch3/Makefile", "clean:\n\trm -f scan\n");
	assert_int_equal(rec_commands_guess(&c, "book/ch3", read_root, root), UTIL_ENOTFOUND);
	assert_true(c.build_files);
	util_error_clear();
	assert_true(rec_source_defines_main("int main(){}", 12));
	assert_false(rec_source_defines_main("int main", 8));
	assert_false(rec_source_defines_main("static int helper(int main) {}", 30));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(makefile_run_target, setup, teardown),
		cmocka_unit_test_setup_teardown(cmake_with_ctest, setup, teardown),
		cmocka_unit_test_setup_teardown(readme_fenced_block, setup, teardown),
		cmocka_unit_test_setup_teardown(readme_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(makefile_default_target, setup, teardown),
		cmocka_unit_test_setup_teardown(compile_commands, setup, teardown),
		cmocka_unit_test_setup_teardown(preference, setup, teardown),
		cmocka_unit_test_setup_teardown(records_list_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(single_sources, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
