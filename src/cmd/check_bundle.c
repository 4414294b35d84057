/* hipport check [run] [PATH...] and check bundle DIR (--bundle): the
 * bundle of the kernel checks and the programs to record, written for a GPU
 * machine, or written under .git/hipport/checks/ and run here (compile
 * checks first, then the bundle's run.sh, its results recorded, then
 * check.command). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build/build.h"
#include "check/bundle/bundle.h"
#include "check/bundle/program.h"
#include "check/kernel/spec.h"
#include "check/kernel/spec_list.h"
#include "check/record/commands.h"
#include "check/toolchain/arch.h"
#include "cmd/check.h"
#include "cmd/check_compile.h"
#include "cmd/check_slurm.h"
#include "cmd/propose.h"
#include "review/check_scope.h"
#include "review/session.h"
#include "review/single_source.h"
#include "util/error.h"
#include "util/file.h"
#include "vcs/config.h"
#include "vcs/head.h"

#define DEFAULT_OFFLOAD_ARCH "gfx90a"

/* The sources of the bundle: each walked file as the original and as the port. */
typedef struct sources {
	bundle_source *items;
	util_buf *origs; /* originals the session keeps */
	util_buf *ports; /* --single-source: the guarded branches, hipified */
	size_t n;
} sources;

static void sources_dispose(sources *s, size_t n)
{
	size_t i;

	for (i = 0; s->origs && i < n; i++)
		util_buf_dispose(&s->origs[i]);
	for (i = 0; s->ports && i < n; i++)
		util_buf_dispose(&s->ports[i]);
	free(s->origs);
	free(s->ports);
	free(s->items);
}

/* --single-source: the port a check builds is the guarded branch, as the
 * build's hipify makes it, with the guard macro defined. */
static int hipify_single_sources(sources *s, const cmd_proposals *set, const cmd_context *ctx)
{
	port_lexer *lexer = NULL;
	size_t i;
	int error = 0;

	if (!ctx->port.single_source)
		return 0;
	if (!(s->ports = calloc(set->n + 1, sizeof(*s->ports))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	if ((error = port_lexer_new(&lexer)) < 0)
		return error;
	for (i = 0; i < s->n && !error; i++) {
		bundle_source *item = &s->items[i];

		if (!rv_proposal_looks_like_cuda(item->port, item->port_len))
			continue;
		error = rv_single_source_port(&s->ports[i], lexer, ctx->rules, &ctx->port, item->path, item->port,
					      item->port_len);
		item->port = s->ports[i].ptr ? s->ports[i].ptr : "";
		item->port_len = s->ports[i].len;
	}
	port_lexer_free(lexer);
	return error;
}

static int collect_sources(sources *out, const cmd_proposals *set, const rv_session *session)
{
	size_t i;
	int error;

	out->n = 0;
	out->items = calloc(set->n + 1, sizeof(*out->items));
	out->origs = calloc(set->n + 1, sizeof(*out->origs));
	if (!out->items || !out->origs)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; i < set->n; i++) {
		const rv_proposal *p = &set->items[i];
		const rv_session_file *rec = session ? rv_session_find(session, p->path) : NULL;
		bundle_source *s = &out->items[out->n];

		if (p->state == RV_PROPOSAL_BAD_INPUT || !p->source.ptr)
			continue;
		s->path = p->path;
		s->orig = s->port = p->source.ptr;
		s->orig_len = s->port_len = p->source.len;
		if (rec) { /* decided on: the working tree is the port, the session has the original */
			if ((error = rv_session_original(session, rec, &out->origs[i])) < 0)
				return error;
			s->orig = out->origs[i].ptr ? out->origs[i].ptr : "";
			s->orig_len = out->origs[i].len;
		} else if (p->state == RV_PROPOSAL_OK) {
			s->port = p->port.output.ptr ? p->port.output.ptr : "";
			s->port_len = p->port.output.len;
		}
		out->n++;
	}
	return 0;
}

/* Reads a program file for the bundle: the original as the session keeps it
 * (a file apply wrote), else as HEAD holds it, else as the work tree does;
 * the port as the work tree holds it, or, for a build file not yet applied,
 * as hipport proposes it. */
typedef struct program_reader {
	const char *root;
	const rv_session *session; /* NULL outside a repository */
	vcs_head *head;
	const char *offload_arch;
	util_buf orig;
} program_reader;

static int read_original(util_buf *out, program_reader *r, const char *path)
{
	const rv_session_file *rec = r->session ? rv_session_find(r->session, path) : NULL;
	util_buf wt = UTIL_BUF_INIT;
	int error;

	util_buf_clear(out);
	if (rec)
		return rv_session_original(r->session, rec, out);
	if (r->head && (error = vcs_head_read(out, r->head, path)) != UTIL_ENOTFOUND)
		return error;
	util_error_clear();
	util_buf_printf(&wt, "%s%s", r->root, path);
	error = util_buf_oom(&wt) ? util_error_set(UTIL_ENOMEM, "out of memory")
				  : util_file_read(out, wt.ptr, (size_t)256 << 20);
	util_buf_dispose(&wt);
	return error;
}

static int read_program_file(util_buf *out, const char *path, bool port, void *payload)
{
	program_reader *r = payload;
	util_buf wt = UTIL_BUF_INIT;
	an_analysis hits;
	int error;

	if (!port)
		return read_original(out, r, path);
	util_buf_clear(out);
	util_buf_printf(&wt, "%s%s", r->root, path);
	if (util_buf_oom(&wt) || (error = util_file_read(out, wt.ptr, (size_t)256 << 20)) < 0) {
		error = util_buf_oom(&wt) ? util_error_set(UTIL_ENOMEM, "out of memory") : error;
		goto done;
	}
	/* a build file the work tree still holds as the original: its proposal */
	if (bld_kind_of(path) == BLD_NONE || (error = read_original(&r->orig, r, path)) < 0 ||
	    r->orig.len != out->len || memcmp(r->orig.ptr ? r->orig.ptr : "", out->ptr ? out->ptr : "", out->len) != 0)
		goto done;
	memset(&hits, 0, sizeof(hits));
	util_buf_clear(out);
	error = bld_translate(out, &hits, bld_kind_of(path), r->orig.ptr ? r->orig.ptr : "", r->orig.len, r->offload_arch);
	an_analysis_dispose(&hits);
done:
	util_buf_dispose(&wt);
	return error;
}

static int read_for_records(util_buf *out, const char *path, void *payload)
{
	return read_original(out, payload, path);
}

/* Without [record] sections: for each directory of a source that defines a
 * kernel, the build and run its project shows (rec_commands_guess), or,
 * where no build file governs it, its sources with main() built alone
 * (rec_commands_single); once per directory they run in. */
static int default_records(vcs_config *out, program_reader *reader, const sources *src)
{
	rec_commands c;
	char *last = NULL; /* the directory looked up last: sources of one directory come together */
	const char **paths = calloc(src->n + 1, sizeof(*paths));
	size_t i, k;
	int error = 0;

	if (!paths)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; i < src->n; i++)
		paths[i] = src->items[i].path;
	for (i = 0; i < src->n && error == 0; i++) {
		const char *slash = strrchr(src->items[i].path, '/');
		char *dir;
		struct vcs_record *m;

		if (!memmem(src->items[i].orig, src->items[i].orig_len, "__global__", 10))
			continue;
		if (!(dir = slash ? strndup(src->items[i].path, (size_t)(slash - src->items[i].path)) : strdup("."))) {
			error = util_error_set(UTIL_ENOMEM, "out of memory");
			break;
		}
		if (last && !strcmp(last, dir)) {
			free(dir);
			continue;
		}
		free(last);
		last = dir;
		error = rec_commands_guess(&c, dir, read_for_records, reader);
		if (error == UTIL_ENOTFOUND && !c.build_files) {
			util_error_clear();
			error = rec_commands_single(&c, dir, paths, src->n, read_for_records, reader);
		}
		if (error == UTIL_ENOTFOUND) {
			util_error_clear();
			error = 0;
			continue;
		}
		for (k = 0; error == 0 && k < out->nrecords && strcmp(out->records[k].dir, c.dir) != 0; k++)
			;
		if (error == 0 && k == out->nrecords) {
			if (!(m = realloc(out->records, (out->nrecords + 1) * sizeof(*m)))) {
				rec_commands_dispose(&c);
				error = util_error_set(UTIL_ENOMEM, "out of memory");
				break;
			}
			out->records = m;
			m[out->nrecords].dir = c.dir;
			m[out->nrecords].build = c.build;
			m[out->nrecords].run = c.run;
			m[out->nrecords++].origin = c.origin;
			memset(&c, 0, sizeof(c));
		}
		rec_commands_dispose(&c);
	}
	free(last);
	free(paths);
	return error;
}

/* The program's other files: of the checked sources' and recorded directories. */
static int collect_program(bundle_program *out, const bundle_input *in, const chk_spec_list *specs, const char *root)
{
	bundle_program_input pin;
	const char **checked = calloc(specs->n + 1, sizeof(*checked));
	size_t i;
	int error;

	if (!checked)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; i < specs->n; i++)
		checked[i] = specs->items[i].source;
	memset(&pin, 0, sizeof(pin));
	pin.root = root;
	pin.sources = in->sources;
	pin.nsources = in->nsources;
	pin.checked = checked;
	pin.nchecked = specs->n;
	pin.records = in->records;
	pin.nrecords = in->nrecords;
	pin.includes = in->includes;
	error = bundle_program_collect(out, &pin);
	free(checked);
	return error;
}

/* With paths named, the specs of their files only. */
static void keep_named(chk_spec_list *specs, const vcs_walk *named)
{
	size_t i, k, n = 0;

	for (i = 0; i < specs->n; i++) {
		for (k = 0; k < named->nfiles; k++)
			if (strcmp(named->files[k].path, specs->items[i].source) == 0)
				break;
		if (k < named->nfiles)
			specs->items[n++] = specs->items[i];
		else
			chk_spec_dispose(&specs->items[i]);
	}
	specs->n = n;
}

/* The specs whose source is no longer in the work tree (a sync's removal)
 * left out, each said: nothing to check them on. */
static void drop_gone(chk_spec_list *specs, const char *root)
{
	util_buf fs = UTIL_BUF_INIT;
	size_t i, n = 0;

	for (i = 0; i < specs->n; i++) {
		util_buf_clear(&fs);
		util_buf_printf(&fs, "%s%s", root, specs->items[i].source);
		if (!util_buf_oom(&fs) && access(fs.ptr, F_OK) != 0) {
			fprintf(stderr, "hipport: check %s: its source %s is gone: left out (remove %s.hipport/checks/%s.check)\n",
				specs->items[i].name, specs->items[i].source, root, specs->items[i].name);
			chk_spec_dispose(&specs->items[i]);
			continue;
		}
		specs->items[n++] = specs->items[i];
	}
	specs->n = n;
	util_buf_dispose(&fs);
}

/* --stale: the specs whose checks do not hold for their files as they are
 * now (never run, or run on an earlier content of their kernel's scope). */
static void keep_stale(chk_spec_list *specs, const sources *src, const rv_session *session, const char *root)
{
	rv_tree_reader tree = { root, session };
	size_t i, k, n = 0;

	for (i = 0; i < specs->n; i++) {
		const chk_spec *spec = &specs->items[i];
		const rv_session_check *c = rv_session_check_find(session, spec->source, spec->name);
		rv_check_content now;

		for (k = 0; k < src->n && strcmp(src->items[k].path, spec->source) != 0; k++)
			;
		if (c && k < src->n) {
			rv_check_content_init(&now, spec->source, src->items[k].orig, src->items[k].orig_len,
					      src->items[k].port, src->items[k].port_len, rv_tree_read, &tree);
			if (rv_check_current(c, &now)) {
				chk_spec_dispose(&specs->items[i]);
				continue;
			}
		}
		specs->items[n++] = specs->items[i];
	}
	specs->n = n;
}

/* Runs argv in dir, without a shell; its exit status, or -1. */
static int spawn(char *const argv[], const char *dir, const char *timeout)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		if ((dir && chdir(dir) < 0) || (timeout && setenv("CHECK_TIMEOUT", timeout, 1) < 0))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* check.command, in the work tree: the project's own tests. */
static int project_command(const char *root, const char *command)
{
	char *argv[] = { "sh", "-c", (char *)command, NULL };
	int rc;

	printf("check.command: %s\n", command);
	fflush(stdout);
	rc = spawn(argv, root, NULL);
	printf("check.command: exit %d%s\n", rc, rc == 0 ? "" : " (failed)");
	return rc == 0 ? CMD_EXIT_OK : CMD_EXIT_FINDINGS;
}

static int run_here(cmd_context *ctx, const char *dir, const char *root, const char *command)
{
	util_buf script = UTIL_BUF_INIT, results = UTIL_BUF_INIT;
	char timeout[16], *argv[3];
	int rc, code;

	util_buf_printf(&script, "%s/run.sh", dir);
	util_buf_printf(&results, "%s/results.json", dir);
	snprintf(timeout, sizeof(timeout), "%u", ctx->check_timeout);
	argv[0] = "sh";
	argv[1] = script.ptr;
	argv[2] = NULL;
	fflush(stdout);
	if (util_buf_oom(&script) || util_buf_oom(&results)) {
		code = cmd_fail(CMD_EXIT_USAGE, "out of memory");
	} else if ((rc = spawn(argv, NULL, ctx->check_timeout ? timeout : NULL)) != 0) {
		code = cmd_fail(rc == 127 ? CMD_EXIT_TOOLCHAIN : CMD_EXIT_USAGE, "%s: exit %d (no results)", script.ptr,
				rc);
	} else {
		printf("\n");
		code = cmd_check_import(ctx, results.ptr, dir);
		if (command && code != CMD_EXIT_USAGE && project_command(root, command) != CMD_EXIT_OK)
			code = CMD_EXIT_FINDINGS;
	}
	util_buf_dispose(&script);
	util_buf_dispose(&results);
	return code;
}

int cmd_check_bundle(cmd_context *ctx)
{
	cmd_proposals set;
	vcs_walk named;
	char *whole[2] = { NULL, NULL };
	rv_session session;
	vcs_config cfg;
	chk_spec_list specs;
	sources src;
	bundle_input in;
	util_buf dir = UTIL_BUF_INIT, golden = UTIL_BUF_INIT;
	vcs_config defaults;
	bundle_program program = { .n = 0 };
	program_reader reader = { .root = NULL };
	tc_arch_choice arch = { NULL, TC_ARCH_FROM_NONE };
	char *includes = NULL;
	const char *root;
	size_t compile_failed = 0, i;
	int code, error;

	memset(&session, 0, sizeof(session));
	memset(&cfg, 0, sizeof(cfg));
	memset(&defaults, 0, sizeof(defaults));
	memset(&specs, 0, sizeof(specs));
	memset(&src, 0, sizeof(src));
	memset(&in, 0, sizeof(in));
	memset(&named, 0, sizeof(named));
	memset(&set, 0, sizeof(set));
	/* the paths choose the specs; the bundle holds every file of the
	 * repository, which the checked files may include */
	if ((error = vcs_walk_paths(&named, ctx->args, (size_t)ctx->nargs)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
		goto done;
	}
	whole[0] = named.root;
	if (named.root) {
		char **args = ctx->args;
		int nargs = ctx->nargs;

		ctx->args = whole;
		ctx->nargs = 1;
		code = cmd_proposals_make(ctx, &set);
		ctx->args = args;
		ctx->nargs = nargs;
	} else {
		code = cmd_proposals_make(ctx, &set);
	}
	if (code != 0)
		goto done;
	root = set.walk.root ? set.walk.root : "";
	if (!ctx->bundle && !set.walk.git_dir) {
		code = cmd_fail(CMD_EXIT_USAGE, "check: not inside a git repository: give --bundle DIR");
		goto done;
	}
	if ((set.walk.git_dir && (error = rv_session_open(&session, set.walk.git_dir)) < 0) ||
	    (error = vcs_config_read(&cfg, root)) < 0 || (error = chk_spec_list_load(&specs, root)) < 0 ||
	    (error = collect_sources(&src, &set, set.walk.git_dir ? &session : NULL)) < 0 ||
	    (error = hipify_single_sources(&src, &set, ctx)) < 0 ||
	    (error = tc_offload_arch_resolve(ctx->offload_arch, set.walk.root, &arch)) < 0 ||
	    !(includes = cmd_check_includes(root, &cfg))) {
		code = cmd_fail(cmd_exit_for(error), "%s", error ? util_error_last() : "out of memory");
		goto done;
	}
	/* the compile checks first: each reviewed file as the working tree holds it */
	if (!ctx->bundle &&
	    (error = cmd_check_compile(ctx, &set, ctx->nargs ? &named : NULL, &session, arch.value,
				       &compile_failed)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
		goto done;
	}
	/* --resources is the compiler's report: no kernel is run for it */
	if (ctx->resources && !ctx->bundle) {
		code = compile_failed ? CMD_EXIT_FINDINGS : CMD_EXIT_OK;
		goto done;
	}
	drop_gone(&specs, root);
	if (ctx->nargs)
		keep_named(&specs, &named);
	if (ctx->stale) {
		size_t all = specs.n;

		keep_stale(&specs, &src, &session, root);
		if (ctx->verbosity >= 0)
			printf("%zu of %zu kernel check%s to run again; the others hold for the files as they are\n",
			       specs.n, all, all == 1 ? "" : "s");
	}
	if (!specs.n && !ctx->bundle) {
		code = compile_failed ? CMD_EXIT_FINDINGS : CMD_EXIT_OK;
		if (ctx->verbosity >= 0 && !ctx->stale)
			fprintf(stderr, "hipport: no kernel check specs (hipport check --draft-spec FILE drafts them)\n");
		goto done;
	}
	if (ctx->bundle)
		util_buf_puts(&dir, ctx->bundle);
	else
		util_buf_printf(&dir, "%s/hipport/checks/bundle", set.walk.git_dir);
	util_buf_printf(&golden, "%s.hipport/golden", root);
	in.specs = specs.items;
	in.nspecs = specs.n;
	in.sources = src.items;
	in.nsources = src.n;
	in.includes = includes;
	in.flags = cfg.check_flags;
	in.rules = ctx->rules;
	in.offload_arch = arch.value ? arch.value : DEFAULT_OFFLOAD_ARCH;
	in.tune = ctx->tune;
	reader.root = root;
	reader.session = set.walk.git_dir ? &session : NULL;
	reader.offload_arch = in.offload_arch;
	if ((error = vcs_head_open(&reader.head, root)) < 0 ||
	    (!cfg.nrecords && (error = default_records(&defaults, &reader, &src)) < 0)) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
		goto done;
	}
	in.records = cfg.nrecords ? cfg.records : defaults.records;
	in.nrecords = cfg.nrecords ? cfg.nrecords : defaults.nrecords;
	for (i = 0; i < in.nrecords && ctx->verbosity >= 0; i++)
		printf("record %s: build `%s`, run `%s` (from %s)\n", in.records[i].dir, in.records[i].build,
		       in.records[i].run, in.records[i].origin ? in.records[i].origin : ".hipport/config");
	/* record-and-compare alone is a bundle too: the program's launches are its checks */
	if (!specs.n && !in.nrecords && ctx->stale) {
		code = CMD_EXIT_OK; /* said above: every check holds, nothing to bundle */
		goto done;
	}
	if (!specs.n && !in.nrecords) {
		code = cmd_fail(CMD_EXIT_USAGE, "check: no kernel check specs in %s.hipport/checks/ "
				"(draft them with: hipport check --draft-spec FILE) and no program to record "
				"([record \"DIR\"] in .hipport/config, or build and run commands its files show: "
				"docs/checks.md)", root);
		goto done;
	}
	if ((error = collect_program(&program, &in, &specs, root)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
		goto done;
	}
	in.program = &program;
	in.read_program_file = read_program_file;
	in.payload = &reader;
	in.golden_root = golden.ptr;
	if (util_buf_oom(&dir) || util_buf_oom(&golden)) {
		code = cmd_fail(CMD_EXIT_USAGE, "out of memory");
		goto done;
	}
	if (ctx->slurm && (code = cmd_check_slurm_precheck(root)) != CMD_EXIT_OK)
		goto done;
	if ((error = bundle_write(dir.ptr, &in)) < 0) {
		code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
		goto done;
	}
	if (ctx->bundle) {
		printf("%s: bundle of %zu kernel check%s and %zu program%s to record; run it with: sh %s/run.sh\n", dir.ptr,
		       specs.n, specs.n == 1 ? "" : "s", in.nrecords, in.nrecords == 1 ? "" : "s", dir.ptr);
		if (ctx->slurm)
			code = cmd_check_slurm_write(dir.ptr, root, in.offload_arch);
		goto done;
	}
	code = run_here(ctx, dir.ptr, root, cfg.check_command);
	if (code == CMD_EXIT_OK && compile_failed)
		code = CMD_EXIT_FINDINGS;
done:
	tc_arch_choice_dispose(&arch);
	free(includes);
	util_buf_dispose(&dir);
	util_buf_dispose(&golden);
	sources_dispose(&src, set.n);
	chk_spec_list_dispose(&specs);
	vcs_config_dispose(&cfg);
	vcs_config_dispose(&defaults);
	bundle_program_dispose(&program);
	vcs_head_free(reader.head);
	util_buf_dispose(&reader.orig);
	rv_session_dispose(&session);
	cmd_proposals_dispose(&set);
	vcs_walk_dispose(&named);
	return code;
}
