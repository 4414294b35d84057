/* hipport check draft FILE... (--draft-spec): a spec per kernel of the
 * named files into .hipport/checks/, from each kernel's signature and the
 * program's launch sites; with --from-record DIR, from the launches a
 * record run logged there. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/kernel/draft.h"
#include "check/kernel/draft_unread.h"
#include "check/kernel/draft_record.h"
#include "check/kernel/spec.h"
#include "cmd/check.h"
#include "cmd/check_compile.h"
#include "cmd/check_draft_includers.h"
#include "review/apply.h"
#include "review/session.h"
#include "util/error.h"
#include "util/file.h"
#include "vcs/config.h"
#include "vcs/walk.h"

/* The original of a file: a spec describes the original's launches, which
 * both sides must build (a port's HIPPORT_WAVEFRONT_SIZE means nothing to
 * nvcc). The session's original of a file under review, else the copy
 * apply kept, else the file as the work tree holds it. */
static int read_original(util_buf *out, const vcs_walk *walk, const rv_session *session, const vcs_file *f)
{
	const rv_session_file *rec = session ? rv_session_find(session, f->path) : NULL;
	char *backups;
	util_buf kept = UTIL_BUF_INIT;
	int error;

	util_buf_clear(out);
	if (rec)
		return rv_session_original(session, rec, out);
	if (walk->git_dir && (backups = rv_backup_dir(walk->git_dir))) {
		util_buf_printf(&kept, "%s/%s", backups, f->path);
		free(backups);
		if (!util_buf_oom(&kept) && util_file_read(out, kept.ptr, UTIL_FILE_DEFAULT_MAX_SIZE) == 0) {
			util_buf_dispose(&kept);
			return 0;
		}
		util_error_clear();
		util_buf_dispose(&kept);
	}
	error = util_file_read(out, f->fs_path, UTIL_FILE_DEFAULT_MAX_SIZE);
	return error;
}

typedef struct original_reader {
	const vcs_walk *walk;
	const rv_session *session;
} original_reader;

static int read_original_of(util_buf *out, const vcs_file *f, void *payload)
{
	const original_reader *r = payload;

	return read_original(out, r->walk, r->session, f);
}

/* A spec kept as it is, and where the kernel's parameters are no longer
 * the spec's arguments (upstream changed them), said: it no longer builds. */
static void kept_said(const char *path, const chk_spec *drafted)
{
	chk_spec kept;
	size_t i;
	bool same;

	memset(&kept, 0, sizeof(kept));
	if (chk_spec_read(&kept, path) < 0) {
		util_error_clear();
		printf("%s: kept (exists; remove it to draft it again)\n", path);
		return;
	}
	same = kept.nargs == drafted->nargs;
	for (i = 0; same && i < kept.nargs; i++)
		same = strcmp(kept.args[i].name, drafted->args[i].name) == 0;
	if (same) {
		printf("%s: kept (exists; remove it to draft it again)\n", path);
	} else {
		printf("%s: kept, but %s's parameters are now", path, drafted->kernel);
		for (i = 0; i < drafted->nargs; i++)
			printf(" %s", drafted->args[i].name);
		printf(", the spec's");
		for (i = 0; i < kept.nargs; i++)
			printf(" %s", kept.args[i].name);
		printf(": remove it to draft it again\n");
	}
	chk_spec_dispose(&kept);
}

int cmd_check_draft(cmd_context *ctx)
{
	rv_session session, *opened = NULL;
	vcs_walk walk, all;
	original_reader reader;
	bool walked = false;
	util_buf text = UTIL_BUF_INIT, path = UTIL_BUF_INIT;
	chk_recording rec, *recorded = NULL;
	chk_draft_options options = { NULL, NULL, NULL, NULL, NULL };
	vcs_config cfg;
	char *includes = NULL;
	size_t i, k;
	int code = CMD_EXIT_OK, error;
	bool unread = false;

	memset(&cfg, 0, sizeof(cfg));
	memset(&session, 0, sizeof(session));
	memset(&all, 0, sizeof(all));
	if (ctx->nargs < 1)
		return cmd_fail(CMD_EXIT_USAGE, "check --draft-spec: name the CUDA files whose kernels to draft specs for");
	if (cmd_check_from_record()) {
		if ((error = chk_recording_read(&rec, cmd_check_from_record())) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "check --from-record: %s", util_error_last());
		recorded = &rec;
	}
	if ((error = vcs_walk_paths(&walk, ctx->args, (size_t)ctx->nargs)) < 0) {
		if (recorded)
			chk_recording_dispose(recorded);
		return cmd_fail(cmd_exit_for(error), "%s", util_error_last());
	}
	/* parsed with the include directories the harnesses are built with */
	if ((error = vcs_config_read(&cfg, walk.root ? walk.root : "")) < 0 ||
	    !(includes = cmd_check_includes(walk.root ? walk.root : "", &cfg))) {
		code = cmd_fail(cmd_exit_for(error), "%s", error ? util_error_last() : "out of memory");
		goto done;
	}
	if (walk.git_dir && rv_session_open(&session, walk.git_dir) == 0)
		opened = &session;
	util_error_clear();
	options.rec = recorded;
	options.root = walk.root;
	options.includes = includes;
	options.unread = &unread;
	reader.walk = &walk;
	reader.session = opened;
	for (i = 0; i < walk.nfiles; i++) {
		const vcs_file *f = &walk.files[i];
		chk_spec *specs = NULL;
		size_t n = 0;
		bool missed;

		if ((error = read_original(&text, &walk, opened, f)) < 0 ||
		    (error = chk_draft_with(&specs, &n, f->path, f->fs_path, text.ptr, text.len, &options)) < 0) {
			code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			continue;
		}
		missed = unread; /* the includers' parses set it too */
		if (missed) { /* some not read (or none): drafted again from the file without its host code */
			char *names = NULL;

			if ((error = chk_draft_unread(&specs, &n, f->path, f->fs_path, text.ptr, text.len, &options,
						      &names)) < 0) {
				code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			} else if (names) {
				code = cmd_fail(CMD_EXIT_FINDINGS,
						"%s: no spec drafted for %s: the drafter's parse did not read %s (in a branch "
						"it skips, or after a declaration it cannot parse without the file's headers)",
						f->path, names, strchr(names, ',') ? "them" : "it");
				free(names);
			}
		}
		/* a header's kernels are launched by the sources that include it */
		if (walk.root && !walked) {
			char *top[] = { walk.root };

			walked = true;
			if (vcs_walk_paths(&all, top, 1) < 0) {
				util_error_clear();
				memset(&all, 0, sizeof(all));
			}
		}
		if (all.files && (error = cmd_draft_from_includers(&specs, &n, f, &all, read_original_of, &reader,
								  &options)) < 0) {
			code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			for (k = 0; k < n; k++)
				chk_spec_dispose(&specs[k]);
			free(specs);
			continue;
		}
		/* __global__ in the file's code and no kernel read: the drafter failed, not the file */
		if (!n && f->named && missed)
			code = cmd_fail(CMD_EXIT_FINDINGS,
					"%s: the drafter read no kernel where the file spells __global__ (a drafter "
					"failure: a declaration it cannot parse without the file's headers?)",
					f->path);
		else if (!n && f->named)
			fprintf(stderr, "hipport: %s: no __global__ function defined here\n", f->path);
		for (k = 0; k < n; k++) {
			if (specs[k].undraftable) {
				fprintf(stderr, "hipport: %s: %s: no spec drafted: %s\n", f->path, specs[k].kernel,
					specs[k].undraftable);
			} else if ((error = chk_draft_place(&path, walk.root, &specs[k])) < 0) {
				code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			} else if (error == 1) {
				kept_said(path.ptr, &specs[k]);
			} else if ((error = chk_draft_write(&specs[k], path.ptr)) < 0) {
				code = cmd_fail(cmd_exit_for(error), "%s", util_error_last());
			} else {
				bool elsewhere = strcmp(specs[k].source, f->path) != 0;

				printf("%s: drafted for %s in %s%s%s%s%s\n", path.ptr, specs[k].kernel, f->path,
				       elsewhere ? " (from its launch at " : "", elsewhere ? specs[k].launch : "",
				       elsewhere ? ", checked in that file)" : "",
				       recorded && specs[k].comment && strstr(specs[k].comment, "recorded launch") ? " (recorded)"
														     : "");
			}
			chk_spec_dispose(&specs[k]);
		}
		free(specs);
	}
done:
	rv_session_dispose(&session);
	util_buf_dispose(&text);
	util_buf_dispose(&path);
	vcs_walk_dispose(&all);
	vcs_walk_dispose(&walk);
	vcs_config_dispose(&cfg);
	free(includes);
	if (recorded)
		chk_recording_dispose(recorded);
	return code;
}
