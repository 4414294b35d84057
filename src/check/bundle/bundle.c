#include "check/bundle/bundle.h"
#include "check/record/instrument.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/kernel/harness.h"
#include "check/kernel/host_free.h"
#include "check/kernel/source.h"
#include "check/bundle/defines.h"
#include "check/bundle/link_units.h"
#include "check/bundle/program.h"
#include "check/kernel/proxy.h"
#include "review/proposal.h"
#include "util/embedded.h"
#include "util/error.h"
#include "util/file.h"
#include "util/process.h"

extern const util_embedded_file chk_bundle_builtin[];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT ? -1 : 0;
}

int bundle_remove_tree(const char *path)
{
	if (access(path, F_OK) != 0)
		return 0;
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		return util_error_set(UTIL_ERROR, "%s: cannot remove: %s", path, strerror(errno));
	return 0;
}

/* dir/name, written (parents made). */
static int put(const char *dir, const char *name, const char *data, size_t len)
{
	util_buf path = UTIL_BUF_INIT;
	int error;

	util_buf_printf(&path, "%s/%s", dir, name);
	if (util_buf_oom(&path))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = util_file_make_parents(path.ptr)) == 0)
		error = util_file_write_fast(path.ptr, data, len);
	util_buf_dispose(&path);
	return error;
}

/* An empty directory, or one holding a previous bundle (replaced). */
static int prepare(const char *dir)
{
	util_buf conf = UTIL_BUF_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;
	int error = 0;

	if (!d) {
		if (errno != ENOENT)
			return util_error_set(UTIL_EINPUT, "%s: %s", dir, strerror(errno));
		util_buf_printf(&conf, "%s/x", dir);
		error = util_buf_oom(&conf) ? util_error_set(UTIL_ENOMEM, "out of memory")
					    : util_file_make_parents(conf.ptr);
		util_buf_dispose(&conf);
		return error;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = false;
	closedir(d);
	if (empty)
		return 0;
	util_buf_printf(&conf, "%s/bundle.conf", dir);
	if (util_buf_oom(&conf) || access(conf.ptr, F_OK) != 0)
		error = util_error_set(UTIL_EINPUT, "%s: not empty and not a check bundle: give a new directory", dir);
	else if ((error = bundle_remove_tree(dir)) == 0 && mkdir(dir, 0777) < 0)
		error = util_error_set(UTIL_EINPUT, "%s: %s", dir, strerror(errno));
	util_buf_dispose(&conf);
	return error;
}

int bundle_copy_files(const char *from, const char *to)
{
	util_buf src = UTIL_BUF_INIT, data = UTIL_BUF_INIT, dst = UTIL_BUF_INIT;
	DIR *d = opendir(from);
	struct dirent *e;
	int error = 0;

	if (!d)
		return 0;
	while (!error && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		util_buf_clear(&src);
		util_buf_printf(&src, "%s/%s", from, e->d_name);
		if ((error = util_file_read(&data, src.ptr, 0)) < 0)
			break;
		util_buf_clear(&dst);
		util_buf_printf(&dst, "%s/%s", to, e->d_name);
		if (util_buf_oom(&src) || util_buf_oom(&dst))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
		else if ((error = util_file_make_parents(dst.ptr)) == 0)
			error = util_file_write_fast(dst.ptr, data.ptr ? data.ptr : "", data.len);
	}
	closedir(d);
	util_buf_dispose(&src);
	util_buf_dispose(&data);
	util_buf_dispose(&dst);
	return error;
}

static const bundle_source *source_of(const bundle_input *in, const char *path)
{
	size_t i;

	for (i = 0; i < in->nsources; i++)
		if (strcmp(in->sources[i].path, path) == 0)
			return &in->sources[i];
	return NULL;
}

/* dir/(pattern with name): what b holds from start on (b gathers every
 * generated text, for the bundle's id). */
static int put_since(const char *dir, const char *pattern, const char *name, const util_buf *b, size_t start)
{
	util_buf path = UTIL_BUF_INIT;
	int error;

	util_buf_printf(&path, pattern, name);
	error = util_buf_oom(&path) ? util_error_set(UTIL_ENOMEM, "out of memory")
				    : put(dir, path.ptr, b->ptr + start, b->len - start);
	util_buf_dispose(&path);
	return error;
}

static const char readme[] =
	"A hipport check bundle. On a machine with hipcc and/or nvcc and a GPU:\n\n"
	"    sh run.sh\n\n"
	"builds each kernel check's harness (harness/) as the reference, from the\n"
	"original CUDA sources (orig/, nvcc), and as the port, from the proposed HIP\n"
	"sources (port/: hipcc for an AMD GPU, or nvcc through proxy/include/hip_compat.h\n"
	"on an NVIDIA GPU), runs both, compares the outputs and writes results.json.\n"
	"Bring results.json back and record it with: hipport check --import results.json\n"
	"Without a GPU every check ends no-device. specs/ holds the specs the harnesses\n"
	"were made from, golden/ reference outputs recorded earlier. run.sh's header\n"
	"lists the environment variables it reads.\n";

/* record/orig and record/port: every source again, launches of the
 * repository's kernels going through record/hipport_record.h. */
static int write_record_trees(const char *dir, const bundle_input *in)
{
	port_lexer *lexer = NULL;
	rec_kernel_set set;
	util_buf text = UTIL_BUF_INIT, name = UTIL_BUF_INIT, include = UTIL_BUF_INIT;
	size_t i, side, n;
	int error;

	memset(&set, 0, sizeof(set));
	if ((error = port_lexer_new(&lexer)) < 0)
		return error;
	for (i = 0; i < in->nsources && error == 0; i++)
		error = rec_kernel_set_add(&set, lexer, in->sources[i].path, in->sources[i].orig, in->sources[i].orig_len);
	for (i = 0; i < in->nsources && error == 0; i++)
		error = rec_kernel_set_overloads(&set, lexer, in->sources[i].path, in->sources[i].orig,
						 in->sources[i].orig_len);
	for (i = 0; i < in->nsources && error == 0; i++) {
		const bundle_source *s = &in->sources[i];
		const char *p;

		util_buf_clear(&include);
		for (p = s->path; *p; p++)
			if (*p == '/')
				util_buf_puts(&include, "../");
		util_buf_puts(&include, "../hipport_record.h");
		for (side = 0; side < 2 && error == 0; side++) {
			util_buf_clear(&text);
			util_buf_clear(&name);
			util_buf_printf(&name, "record/%s/%s", side ? "port" : "orig", s->path);
			if ((error = rec_instrument(&text, &n, lexer, &set, s->path, side ? s->port : s->orig,
						    side ? s->port_len : s->orig_len, include.ptr)) == 0)
				error = put(dir, name.ptr, text.ptr ? text.ptr : "", text.len);
		}
	}
	rec_kernel_set_dispose(&set);
	port_lexer_free(lexer);
	util_buf_dispose(&text);
	util_buf_dispose(&name);
	util_buf_dispose(&include);
	return error;
}

/* The program's other files, each side's text in its trees: orig/ and
 * port/ for the harnesses, record/orig and record/port for its own build. */
static int write_program(const char *dir, const bundle_input *in)
{
	static const char *const trees[2][2] = { { "orig", "port" }, { "record/orig", "record/port" } };
	util_buf text = UTIL_BUF_INIT, name = UTIL_BUF_INIT;
	size_t i, side, t;
	int error = 0;

	for (i = 0; in->program && i < in->program->n && !error; i++) {
		const bundle_program_file *f = &in->program->files[i];

		for (side = 0; side < 2 && !error; side++) {
			if ((error = in->read_program_file(&text, f->path, side == 1, in->payload)) == UTIL_ENOTFOUND) {
				util_error_clear(); /* tracked, and removed on that side (a sync's removal): not in its tree */
				error = 0;
				continue;
			}
			if (error < 0)
				break;
			for (t = 0; t < 2 && !error; t++) {
				if (!(f->trees & (t ? BUNDLE_PROGRAM_RECORD : BUNDLE_PROGRAM_HARNESS)))
					continue;
				util_buf_clear(&name);
				util_buf_printf(&name, "%s/%s", trees[t][side], f->path);
				error = util_buf_oom(&name) ? util_error_set(UTIL_ENOMEM, "out of memory")
							    : put(dir, name.ptr, text.ptr ? text.ptr : "", text.len);
			}
		}
	}
	util_buf_dispose(&text);
	util_buf_dispose(&name);
	return error;
}

/* A harness of spec including unit (NULL: the spec's own file), after the
 * defines of the program's build. */
static int harness_text(util_buf *b, const chk_spec *spec, const char *unit, const util_buf *defines)
{
	util_buf_put(b, defines->ptr ? defines->ptr : "", defines->len);
	return chk_harness_source_in(b, spec, unit);
}

/* Whether a spec checks a kernel of path. */
static bool checked(const bundle_input *in, const char *path)
{
	size_t i;

	for (i = 0; i < in->nspecs; i++)
		if (strcmp(in->specs[i].source, path) == 0)
			return true;
	return false;
}

/* A source's copies without host functions (orig/ and port/, beside it),
 * for the harnesses run.sh builds when the file as written does not; *made:
 * whether either side had a host function to leave out. */
static int write_host_free(const char *dir, const bundle_source *s, bool *made)
{
	util_buf path = UTIL_BUF_INIT, name = UTIL_BUF_INIT, orig = UTIL_BUF_INIT, port = UTIL_BUF_INIT;
	int error = 0;

	*made = chk_source_host_free(&orig, s->orig, s->orig_len);
	*made = chk_source_host_free(&port, s->port, s->port_len) || *made;
	chk_host_free_path(&path, s->path);
	util_buf_printf(&name, "orig/%s", path.ptr ? path.ptr : "");
	if (util_buf_oom(&path) || util_buf_oom(&name) || util_buf_oom(&orig) || util_buf_oom(&port))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else if (*made && (error = put(dir, name.ptr, orig.ptr ? orig.ptr : "", orig.len)) >= 0) {
		util_buf_clear(&name);
		util_buf_printf(&name, "port/%s", path.ptr);
		error = util_buf_oom(&name) ? util_error_set(UTIL_ENOMEM, "out of memory")
					    : put(dir, name.ptr, port.ptr ? port.ptr : "", port.len);
	}
	util_buf_dispose(&path);
	util_buf_dispose(&name);
	util_buf_dispose(&orig);
	util_buf_dispose(&port);
	return error;
}

/* What the checks of one source share, made once however many specs it has. */
typedef struct source_build {
	bool host_free;   /* a copy without host functions beside it */
	util_buf defines; /* the #define lines of its build */
	util_buf link;    /* the program's files its harnesses link (harness/NAME.link) */
} source_build;

/* Writes s's copies without host functions and reads what its build
 * defines and what its harnesses link, into out. */
static int source_build_make(source_build *out, const char *dir, const bundle_source *s, const bundle_input *in,
			     const bundle_link_index *idx)
{
	int error;

	if ((error = write_host_free(dir, s, &out->host_free)) < 0 ||
	    (error = bundle_build_defines(&out->defines, s->path, in)) < 0)
		return error;
	return bundle_link_units(&out->link, s, in, idx);
}

int bundle_write(const char *dir, const bundle_input *in)
{
	util_buf b = UTIL_BUF_INIT, list = UTIL_BUF_INIT, name = UTIL_BUF_INIT;
	const util_embedded_file *f;
	chk_proxy proxy;
	const char **texts = NULL, **origs = NULL;
	size_t *lens = NULL, *orig_lens = NULL, i, nt = 0;
	source_build *built = NULL;
	bundle_link_index index = { NULL, 0 };
	char id[17], orig_blob[41], port_blob[41];
	int error;

	memset(&proxy, 0, sizeof(proxy));
	if ((error = prepare(dir)) < 0)
		return error;
	texts = calloc(in->nsources + in->nspecs + 3, sizeof(*texts));
	lens = calloc(in->nsources + in->nspecs + 3, sizeof(*lens));
	origs = calloc(in->nsources + 1, sizeof(*origs));
	orig_lens = calloc(in->nsources + 1, sizeof(*orig_lens));
	built = calloc(in->nsources + 1, sizeof(*built));
	if (!texts || !lens || !origs || !orig_lens || !built) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	if ((error = bundle_link_index_make(&index, in)) < 0)
		goto done;
	for (i = 0; i < in->nsources; i++) {
		const bundle_source *s = &in->sources[i];

		util_buf_clear(&name);
		util_buf_printf(&name, "orig/%s", s->path);
		if ((error = put(dir, name.ptr, s->orig, s->orig_len)) < 0)
			goto done;
		util_buf_clear(&name);
		util_buf_printf(&name, "port/%s", s->path);
		if ((error = put(dir, name.ptr, s->port, s->port_len)) < 0)
			goto done;
		if (checked(in, s->path) && (error = source_build_make(&built[i], dir, s, in, &index)) < 0)
			goto done;
		texts[nt] = s->port;
		lens[nt++] = s->port_len;
		origs[i] = s->orig;
		orig_lens[i] = s->orig_len;
		util_buf_put(&b, s->port, s->port_len);
	}
	for (i = 0; i < in->nspecs; i++) {
		const chk_spec *spec = &in->specs[i];
		const bundle_source *src = source_of(in, spec->source);
		const source_build *sb = src ? &built[src - in->sources] : NULL;
		const char *unit = spec->source;
		size_t start = b.len;

		if (!src) {
			error = util_error_set(UTIL_EINPUT, "check %s: its source %s is not among the files checked",
					       spec->name, spec->source);
			goto done;
		}
		/* a unity build's part is checked inside the file that compiles it,
		 * its results still named by the spec's source */
		if (in->program)
			unit = bundle_program_unit(in->program, spec->source);
		/* the program's files that define the __device__ functions it declares */
		if (sb->link.len && (error = put_since(dir, "harness/%s.link", spec->name, &sb->link, 0)) < 0)
			goto done;
		if ((error = harness_text(&b, spec, unit, &sb->defines)) < 0 ||
		    (error = put_since(dir, "harness/%s.cu", spec->name, &b, start)) < 0)
			goto done;
		/* and the kernel's file alone, for run.sh when that file does not build */
		start = b.len;
		if (strcmp(unit, spec->source) != 0 &&
		    ((error = harness_text(&b, spec, NULL, &sb->defines)) < 0 ||
		     (error = put_since(dir, "harness/%s.alone.cu", spec->name, &b, start)) < 0))
			goto done;
		/* and the kernel's file without its host functions, for run.sh when
		 * the file as written does not build */
		start = b.len;
		if (sb->host_free) {
			util_buf_clear(&name);
			chk_host_free_path(&name, spec->source);
			if (util_buf_oom(&name) || (error = harness_text(&b, spec, name.ptr, &sb->defines)) < 0 ||
			    (error = put_since(dir, "harness/%s.kernels.cu", spec->name, &b, start)) < 0) {
				error = error ? error : util_error_set(UTIL_ENOMEM, "out of memory");
				goto done;
			}
		}
		start = b.len;
		if ((error = chk_spec_format(&b, spec)) < 0 ||
		    (error = put_since(dir, "specs/%s.check", spec->name, &b, start)) < 0)
			goto done;
		if (in->golden_root) {
			util_buf from = UTIL_BUF_INIT;

			util_buf_clear(&name);
			util_buf_printf(&name, "%s/golden/%s", dir, spec->name);
			util_buf_printf(&from, "%s/%s", in->golden_root, spec->name);
			error = util_buf_oom(&from) ? util_error_set(UTIL_ENOMEM, "out of memory")
						    : bundle_copy_files(from.ptr, name.ptr);
			util_buf_dispose(&from);
			if (error < 0)
				goto done;
		}
		rv_blob_id(orig_blob, src->orig, src->orig_len);
		rv_blob_id(port_blob, src->port, src->port_len);
		util_buf_printf(&list, "%s\t%s\t%s\t%u\t%s\t%s\t%d\n", spec->name, spec->source, spec->kernel,
				spec->timeout ? spec->timeout : 60, orig_blob, port_blob,
				chk_kernel_unchanged(src->orig, src->orig_len, src->port, src->port_len, spec->kernel));
	}
	for (f = chk_bundle_builtin; f->name; f++) {
		size_t len = strlen(f->name);
		/* the Triton hook, first in record.sh's PYTHONPATH: only where a program is recorded */
		bool hook = len > 3 && !strcmp(f->name + len - 3, ".py");
		const char *where = "harness/%s";

		if (hook && !in->nrecords)
			continue;
		if (hook)
			where = "record/triton/%s";
		else if (!strcmp(f->name, "run.sh") || !strcmp(f->name, "record.sh"))
			where = "%s";
		else if (!strcmp(f->name, "hipport_record.h") || !strcmp(f->name, "compiler.sh") ||
			 !strcmp(f->name, "cuda_legacy.h") || !strcmp(f->name, "hipport_clock.c"))
			where = "record/%s";

		util_buf_clear(&name);
		util_buf_printf(&name, where, f->name);
		if ((error = put(dir, name.ptr, f->data, f->len)) < 0)
			goto done;
		/* the harness runtime's HIP names, for the proxy to define */
		if (strcmp(f->name, "hipport_harness.h") == 0 || strcmp(f->name, "hipport_timing.h") == 0) {
			texts[nt] = f->data;
			lens[nt++] = f->len;
		}
	}
	texts[nt] = b.ptr ? b.ptr : "";
	lens[nt++] = b.len;
	if ((error = chk_proxy_make(&proxy, in->rules, texts, lens, nt, origs, orig_lens, in->nsources)) < 0)
		goto done;
	for (i = 0; i < proxy.nfiles; i++) {
		util_buf_clear(&name);
		util_buf_printf(&name, "proxy/include/%s", proxy.files[i].path);
		if ((error = put(dir, name.ptr, proxy.files[i].text.ptr, proxy.files[i].text.len)) < 0)
			goto done;
	}
	chk_checksum(id, b.ptr ? b.ptr : "", b.len);
	util_buf_clear(&b);
	/* the harnesses build with the -I directories the program's build names */
	util_buf_clear(&name);
	if (in->program)
		for (i = 0; i < in->program->ndirs; i++)
			if (strcmp(in->program->dirs[i], ".") != 0 && !strchr(in->program->dirs[i], '\''))
				util_buf_printf(&name, "%s%s", name.len ? " " : "", in->program->dirs[i]);
	util_buf_printf(&b,
			"# hipport check bundle settings, read by run.sh\n"
			"BUNDLE_ID=%s\n"
			"INCLUDES='%s'\n"
			"DEFAULT_OFFLOAD_ARCH=%s\n"
			"DEFAULT_BUILD_TIMEOUT=%u\n"
			"FLAGS=",
			id, in->program ? (name.ptr ? name.ptr : "") : in->includes ? in->includes : "",
			in->offload_arch ? in->offload_arch : "gfx90a", in->build_timeout ? in->build_timeout : 600);
	util_process_shell_quote(&b, in->flags ? in->flags : "");
	util_buf_putc(&b, '\n');
	if (in->tune)
		util_buf_puts(&b, "# hipport check tune: record.sh sweeps the port's Triton kernels\n"
				  "TUNE=${TUNE:-1}\nexport TUNE\n");
	if (util_buf_oom(&b) || util_buf_oom(&list) || util_buf_oom(&name)) {
		error = util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	util_buf_clear(&name);
	for (i = 0; i < in->nrecords; i++)
		util_buf_printf(&name, "%s\t%s\t%s\t%s\n", in->records[i].dir, in->records[i].build, in->records[i].run,
				in->records[i].origin ? in->records[i].origin : "config");
	if (util_buf_oom(&name) || (error = put(dir, "records.list", name.ptr ? name.ptr : "", name.len)) < 0) {
		error = error ? error : util_error_set(UTIL_ENOMEM, "out of memory");
		goto done;
	}
	if ((error = put(dir, "bundle.conf", b.ptr, b.len)) < 0 ||
	    (error = put(dir, "checks.list", list.ptr ? list.ptr : "", list.len)) < 0 ||
	    (error = put(dir, "README", readme, strlen(readme))) < 0)
		goto done;
	if ((error = write_record_trees(dir, in)) < 0 || (error = write_program(dir, in)) < 0)
		goto done;
	util_buf_clear(&name);
	util_buf_printf(&name, "%s/run.sh", dir);
	if (!util_buf_oom(&name))
		chmod(name.ptr, 0755);
	util_buf_clear(&name);
	util_buf_printf(&name, "%s/record.sh", dir);
	if (!util_buf_oom(&name))
		chmod(name.ptr, 0755);
done:
	chk_proxy_dispose(&proxy);
	free(texts);
	free(origs);
	free(orig_lens);
	for (i = 0; built && i < in->nsources; i++) {
		util_buf_dispose(&built[i].defines);
		util_buf_dispose(&built[i].link);
	}
	free(built);
	bundle_link_index_dispose(&index);
	free(lens);
	util_buf_dispose(&b);
	util_buf_dispose(&list);
	util_buf_dispose(&name);
	return error;
}
