/* hipport review [PATH...]: the review TUI, on the terminal or from a script.
 * A sync from the review (S) makes it again in place once it wrote files,
 * as a new hipport review would open them. */
#include <curses.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/toolchain/arch.h"
#include "check/kernel/draft.h"
#include "check/kernel/spec_list.h"
#include "cmd/check_resources.h"
#include "cmd/check_compile.h"
#include "cmd/commit.h"
#include "cmd/propose.h"
#include "cmd/review_files.h"
#include "cmd/sync.h"
#include "review/session.h"
#include "sync/state.h"
#include "tui/view.h"
#include "vcs/config.h"
#include "util/error.h"

/* --script FILE, read on across the reviews a sync makes again. */
typedef struct review_script {
	const char *path;
	FILE *in;
	char line[4096];
	char *rest;               /* the keys of the line not typed yet: a sync ended the review before them */
	unsigned lineno;
} review_script;

typedef struct review {
	cmd_context *ctx;
	cmd_review_files files;   /* the files, proposed in the background */
	bool held;                /* a script's :hold: nothing is proposed before its :load */
	bool released;            /* the script let the proposals come */
	cmd_compile_env compile;  /* for b: made at the first build */
	bool compile_open;
	tc_arch_choice arch;
	cmd_commit_plan plan;     /* for c: made when the dialog opens */
	bool plan_made;
	bool restart;             /* a sync wrote files: the review is made again from them */
	char summary[256];        /* the sync's, for the status bar of the review made again */
	bool summary_is_error;
	review_script script;
} review;

/* What the review made of its files: the compile environment, the commit
 * plan, the files themselves (the workers stopped). */
static void review_close(review *r)
{
	if (r->compile_open)
		cmd_compile_env_close(&r->compile);
	r->compile_open = false;
	tc_arch_choice_dispose(&r->arch);
	if (r->plan_made)
		cmd_commit_plan_dispose(&r->plan);
	r->plan_made = false;
	cmd_review_files_dispose(&r->files);
}

static void review_dispose(review *r)
{
	review_close(r);
	if (r->script.in)
		fclose(r->script.in);
	r->script.in = NULL;
}

/* The TUI's re-proposal of a file after a fix was chosen: from its original,
 * with the fixes the session now lists. */
static int repropose(void *payload, size_t index, rv_proposal **out)
{
	cmd_review_files *rf = &((review *)payload)->files;
	rv_proposal *now = &rf->set.items[rf->index_of[index]], fresh;
	const rv_session_file *rec = rv_session_find(&rf->session, now->path);
	int error;

	if (!rec)
		return util_error_set(UTIL_ERROR, "%s: not in the session", now->path);
	if ((error = cmd_proposal_reviewed(rf->ctx, &rf->session, rec, now, &fresh, rf->lexer, rf->analyzer)) < 0) {
		rv_proposal_dispose(&fresh);
		return error;
	}
	rv_proposal_dispose(&rf->proposals[index]);
	rf->proposals[index] = fresh;
	rf->reviewed[index] = &rf->proposals[index];
	*out = &rf->proposals[index];
	return 0;
}

/* The kernels' resources in a compile of p's output as the lines of a
 * table (malloc'd), NULL when it reported none: hipport check
 * --resources's table, fixes and launch bound included. */
static char *resources_table(review *r, const rv_proposal *p, const char *output)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	if (!output || !(f = open_memstream(&text, &size)))
		return NULL;
	fprintf(f, "resources for %s, from the compiler's kernel-resource-usage remarks:\n",
		r->arch.value ? r->arch.value : "");
	if (cmd_resources_print(&r->compile, p, &r->files.session, output, f) < 0)
		util_error_clear();
	fclose(f);
	if (!strchr(strchr(text, '\n') + 1, '\n')) { /* no kernel */
		free(text);
		return NULL;
	}
	return text;
}

/* b: the file as the working tree holds it, compiled for the offload arch;
 * the result recorded in the session like hipport check's. */
static int build(void *payload, size_t index, void (*watch)(const char *data, size_t len, void *watch_payload),
		 void *watch_payload, tui_build_result *out)
{
	review *r = payload;
	const rv_proposal *reviewed = r->files.reviewed[index];
	rv_proposal now;
	tc_compile_result result;
	size_t i, k;
	int error;

	memset(out, 0, sizeof(*out));
	if (!r->compile_open) {
		if ((error = tc_offload_arch_resolve(r->ctx->offload_arch, r->files.set.walk.root, &r->arch)) < 0 ||
		    (error = cmd_compile_env_open(&r->compile, r->ctx, &r->files.set, r->arch.value)) < 0)
			return error;
		r->compile_open = true;
	} else {
		cmd_compile_env_refresh(&r->compile);
	}
	if (!cmd_compile_applies(reviewed->path))
		return util_error_set(UTIL_EINPUT, "%s: hipcc checks CUDA and HIP sources, not Triton or build files",
				      reviewed->path);
	if ((error = rv_proposal_read(&now, reviewed->path, reviewed->fs_path, true, 0)) < 0)
		return error;
	if (!cmd_compile_wanted(&r->files.session, &now)) {
		rv_proposal_dispose(&now);
		return util_error_set(UTIL_EINPUT, "%s: decide its hunks first: the check builds the file as the working "
						   "tree holds it", reviewed->path);
	}
	r->compile.o.watch = watch;
	r->compile.o.payload = watch_payload;
	r->compile.o.resources = true; /* the pane shows each kernel's resources */
	error = cmd_compile_one(&r->compile, &now, &r->files.session, &result);
	if (error >= 0) /* the fixes' compiles each say a line, not their output */
		out->resources = resources_table(r, &now, result.output);
	r->compile.o.watch = NULL;
	rv_proposal_dispose(&now);
	if (error < 0)
		return error;
	out->status = strdup(result.status);
	out->summary = strdup(result.summary);
	out->errors = calloc(result.ndiags + 1, sizeof(*out->errors));
	for (i = k = 0; out->errors && i < result.ndiags; i++) {
		const tc_diagnostic *d = &result.diags[i];
		util_buf where = UTIL_BUF_INIT, text = UTIL_BUF_INIT;

		if (!strstr(d->severity, "error"))
			continue;
		util_buf_printf(&where, "%s:%u:%u", d->file, d->line, d->col);
		util_buf_printf(&text, "%s: %s", d->severity, d->message);
		out->errors[k].where = util_buf_detach(&where);
		out->errors[k].text = util_buf_detach(&text);
		out->errors[k++].line = d->in_file ? d->line : 0;
	}
	out->nerrors = k;
	tc_compile_result_dispose(&result);
	if (!out->status || !out->summary || !out->errors) {
		tui_build_result_dispose(out);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	return 0;
}

/* s: the specs whose source is the file, drafted from its original when it
 * has none (an existing spec file is never overwritten). */
static int specs(void *payload, size_t index, char ***paths, size_t *n, size_t *drafted)
{
	review *r = payload;
	const rv_proposal *p = r->files.reviewed[index];
	chk_spec_list list;
	chk_spec *fresh = NULL;
	const char *names[64];
	size_t count, nfresh = 0, i;
	int error;

	*paths = NULL;
	*n = *drafted = 0;
	if ((error = chk_spec_list_load(&list, r->files.set.walk.root)) < 0)
		return error;
	count = chk_spec_list_covering(&list, p->path, names, 64);
	if (!count) {
		if ((error = chk_draft(&fresh, &nfresh, p->path, p->fs_path, p->source.ptr, p->source.len, NULL)) < 0) {
			chk_spec_list_dispose(&list);
			return error;
		}
	}
	*paths = calloc(count + nfresh + 1, sizeof(**paths));
	for (i = 0; *paths && i < count + nfresh; i++) {
		util_buf b = UTIL_BUF_INIT;

		if (i < count) {
			util_buf_printf(&b, "%s.hipport/checks/%s.check", r->files.set.walk.root, names[i]);
		} else if ((error = chk_draft_place(&b, r->files.set.walk.root, &fresh[i - count])) < 0 ||
			   (error == 0 && (error = chk_spec_write(&fresh[i - count], b.ptr)) < 0)) {
			util_buf_dispose(&b);
			break;
		} else if (error == 0) {
			(*drafted)++;
		}
		error = 0;
		if (!((*paths)[(*n)++] = util_buf_detach(&b)))
			error = util_error_set(UTIL_ENOMEM, "out of memory");
	}
	if (!*paths)
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; i < nfresh; i++)
		chk_spec_dispose(&fresh[i]);
	free(fresh);
	chk_spec_list_dispose(&list);
	if (error < 0) {
		for (i = 0; *paths && i < *n; i++)
			free((*paths)[i]);
		free(*paths);
		*paths = NULL;
		*n = 0;
	}
	return error;
}

/* c: which files a commit takes and whether each is validated. */
static int commit_prepare(void *payload, tui_commit_info *out)
{
	review *r = payload;
	util_buf message = UTIL_BUF_INIT;
	size_t i;
	int code;

	memset(out, 0, sizeof(*out));
	if (r->plan_made)
		cmd_commit_plan_dispose(&r->plan);
	r->plan_made = true;
	if ((code = cmd_commit_plan_make(r->ctx, &r->plan)) != 0)
		return util_error_set(UTIL_ERROR, "the commit could not be prepared (hipport commit says why)");
	out->nfiles = r->plan.n;
	out->refused = r->plan.refused;
	out->lines = calloc(r->plan.n + 1, sizeof(*out->lines));
	if (!out->lines || cmd_commit_message(r->ctx, &r->plan, &message) < 0)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	out->message = util_buf_detach(&message);
	for (i = 0; i < r->plan.n; i++) {
		const rv_validation *v = r->plan.validations[i];
		util_buf line = UTIL_BUF_INIT;

		if (v->committable && !v->compile)
			util_buf_printf(&line, "  %s  reviewed: no compile or kernel checks apply", r->plan.files[i].path);
		else if (v->committable)
			util_buf_printf(&line, "  %s  validated: compile for %s pass, %zu kernel check%s pass",
					r->plan.files[i].path, v->compile->arch, v->nkernels, v->nkernels == 1 ? "" : "s");
		else
			util_buf_printf(&line, "  %s  NOT validated: %s", r->plan.files[i].path, v->why);
		out->lines[out->nlines++] = util_buf_detach(&line);
	}
	return out->message ? 0 : util_error_set(UTIL_ENOMEM, "out of memory");
}

static int commit_run(void *payload, const char *message, char *done, size_t size)
{
	review *r = payload;
	char id[41], branch[256];
	size_t i;
	int error;

	if (!r->plan_made)
		return util_error_set(UTIL_ERROR, "no commit prepared");
	if ((error = cmd_commit_run(r->ctx, &r->plan, message, id, branch)) < 0)
		return error;
	/* the review's own session learns what the commit's recorded */
	for (i = 0; i < r->plan.n; i++)
		rv_session_mark_committed(&r->files.session, r->plan.files[i].path, r->plan.blobs[i], id);
	snprintf(done, size, "[%s %.7s] %.*s (%zu file%s)", branch, id, (int)strcspn(message, "\n"), message,
		 r->plan.n, r->plan.n == 1 ? "" : "s");
	return 0;
}

/* S: hipport sync, with nothing printed while the screen is up. Once it
 * wrote files the session on disk is the sync's, and a decision taken on
 * the review's copy would undo it: the review is made again (1), its
 * summary, or its error, shown then. */
static int sync_upstream(void *payload, const char *to, char *summary, size_t size)
{
	review *r = payload;
	bool wrote = false;
	int error = cmd_sync_run(r->ctx, to, summary, size, &wrote);

	if (!wrote)
		return error;
	r->restart = true;
	r->summary_is_error = error < 0;
	if (error < 0)
		snprintf(summary, size, "sync: %s", util_error_last());
	snprintf(r->summary, sizeof(r->summary), "%s", summary);
	return 1;
}

/* The proposals of a script's review: ":hold" (before any key) keeps them
 * from coming, ":load N" lets N more files be proposed (the selected one
 * first) and shows them, ":load-all" the rest; any other line lets them all
 * come first unless the script holds them. 1 when line was one of these, 0
 * when not, < 0 on an error (the message set). */
static int script_load(review *r, tui_core *core, const char *line)
{
	tui_model *m = tui_core_model(core);
	unsigned long n = 0;
	char *end = NULL;

	if (strcmp(line, ":hold") == 0) {
		r->held = !r->released;
		return 1;
	}
	if (strcmp(line, ":load-all") == 0 || strncmp(line, ":load ", 6) == 0) {
		if (line[5] == ' ' && ((n = strtoul(line + 6, &end, 10)) == 0 || *end))
			return util_error_set(UTIL_EINPUT, "':load N' takes a number of files, not '%s'", line + 6);
		r->released = true;
		return cmd_review_files_load(&r->files, m, line[5] == ' ' ? n : SIZE_MAX) < 0 ? -1 : 1;
	}
	if (!r->released && !r->held) {
		r->released = true;
		if (cmd_review_files_load(&r->files, m, SIZE_MAX) < 0)
			return -1;
	}
	return 0;
}

/* :save-screen and :save-attrs: the screen as drawn now, text or attributes. */
static int save_screen(tui_core *core, const char *path, bool attrs)
{
	FILE *out = fopen(path, "w");
	int error;

	if (!out)
		return -1;
	tui_core_draw(core);
	error = attrs ? tui_screen_dump_attrs(tui_core_screen(core), out) : tui_screen_dump(tui_core_screen(core), out);
	return fclose(out) != 0 || error < 0 ? -1 : 0;
}

/* A mouse event of a script, "<click ROW COL>", "<wheel-up ROW COL>" or
 * "<wheel-down ROW COL>": ROW and COL 1-based, as the terminal counts them
 * (and as the lines of a saved screen are numbered). */
static int parse_mouse(tui_mouse *out, const char *text)
{
	static const struct {
		const char *name;
		tui_mouse_kind kind;
	} kinds[] = {
		{ "click", TUI_MOUSE_CLICK },
		{ "wheel-up", TUI_MOUSE_WHEEL_UP },
		{ "wheel-down", TUI_MOUSE_WHEEL_DOWN },
	};
	char name[16], end;
	int row, col;
	size_t i;

	if (sscanf(text, "<%15[a-z-] %d %d%c", name, &row, &col, &end) != 4 || end != '>' || row < 1 || col < 1)
		return -1;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(name, kinds[i].name) == 0) {
			*out = (tui_mouse){ .kind = kinds[i].kind, .y = row - 1, .x = col - 1 };
			return 0;
		}
	}
	return -1;
}

/* One line of keys, from *at on: key names separated by blanks, mouse
 * events in <>. Returns the word that is neither (its end cut at the first
 * blank), or NULL; *at is left where the keys stopped, NULL at the line's
 * end (else the review is done: a sync ended it, the rest is for the
 * review made again). */
static char *script_keys(tui_core *core, char **at)
{
	char *word = *at;

	while (!tui_core_done(core)) {
		size_t len;
		tui_mouse ev;
		int key;

		word += strspn(word, " \t");
		if (!*word)
			break;
		if (word[0] == '<' && word[1] && !strchr(" \t", word[1])) { /* "<" alone is a key */
			char *end = strchr(word, '>'), after;

			if (!end)
				return word;
			after = end[1];
			end[1] = '\0';
			if (parse_mouse(&ev, word) < 0)
				return word;
			end[1] = after;
			len = (size_t)(end + 1 - word);
			/* the click lands on the screen as the terminal shows it */
			tui_core_draw(core);
			tui_core_mouse(core, &ev);
		} else {
			len = strcspn(word, " \t");
			if (word[len])
				word[len++] = '\0';
			if ((key = tui_key_parse(word)) < 0)
				return word;
			tui_core_key(core, key);
		}
		word += len;
	}
	*at = *word ? word : NULL;
	return NULL;
}

/* A line of a script that is not keys (*taken set): a comment,
 * :save-screen PATH, :save-attrs PATH, :redraw, or the proposals' :hold,
 * :load N, :load-all. Returns 0 or an exit code after printing why. */
static int script_command(review *r, tui_core *core, const char *line, bool *taken)
{
	review_script *sc = &r->script;
	int loaded;

	*taken = true;
	if (line[0] == '#' || line[0] == '\0')
		return 0;
	if ((loaded = script_load(r, core, line)) < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s:%u: %s", sc->path, sc->lineno, util_error_last());
	if (loaded)
		return 0;
	if (strncmp(line, ":save-screen ", 13) == 0 || strncmp(line, ":save-attrs ", 12) == 0) {
		bool attrs = line[6] == 'a';
		const char *to = line + (attrs ? 12 : 13);

		if (save_screen(core, to, attrs) < 0)
			return cmd_fail(CMD_EXIT_USAGE, "%s:%u: cannot write %s", sc->path, sc->lineno, to);
		return 0;
	}
	if (strcmp(line, ":redraw") == 0) { /* what the terminal does after every key */
		tui_core_draw(core);
		return 0;
	}
	if (line[0] == ':')
		return cmd_fail(CMD_EXIT_USAGE, "%s:%u: unknown command '%s'", sc->path, sc->lineno, line);
	*taken = false;
	return 0;
}

/* Keys and commands from a file: key names separated by blanks, mouse
 * events ("<click ROW COL>"), and lines ":save-screen PATH", ":save-attrs
 * PATH" and ":redraw". The script ends the review at its end; where a sync
 * ends it first, the review made again reads on. */
static int run_script(review *r, tui_core *core)
{
	review_script *sc = &r->script;
	const char *bad;
	int code;

	if (!sc->in && !(sc->in = fopen(sc->path, "r")))
		return cmd_fail(CMD_EXIT_USAGE, "--script %s: cannot open it", sc->path);
	while (!tui_core_done(core)) {
		bool taken;

		if (!sc->rest) {
			if (!fgets(sc->line, sizeof(sc->line), sc->in))
				break;
			sc->lineno++;
			sc->line[strcspn(sc->line, "\r\n")] = '\0';
			if ((code = script_command(r, core, sc->line, &taken)) != 0)
				return code;
			if (taken)
				continue;
			sc->rest = sc->line;
		}
		if ((bad = script_keys(core, &sc->rest)))
			return cmd_fail(CMD_EXIT_USAGE, "%s:%u: unknown %s '%s'", sc->path, sc->lineno,
					*bad == '<' ? "mouse event" : "key", bad);
	}
	return CMD_EXIT_OK;
}

/* While the screen is up, what goes to stderr (notes on skipped files, an
 * error) is kept in a temporary file and shown once the terminal is back. */
typedef struct stderr_capture {
	int saved;
	FILE *file;
} stderr_capture;

static void capture_begin(stderr_capture *c)
{
	fflush(stderr);
	c->saved = -1;
	if (!(c->file = tmpfile()))
		return;
	if ((c->saved = dup(STDERR_FILENO)) < 0 || dup2(fileno(c->file), STDERR_FILENO) < 0) {
		if (c->saved >= 0)
			close(c->saved);
		c->saved = -1;
		fclose(c->file);
		c->file = NULL;
	}
}

static void capture_end(stderr_capture *c)
{
	char chunk[4096];
	size_t n;

	if (!c->file)
		return;
	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	rewind(c->file);
	while ((n = fread(chunk, 1, sizeof(chunk), c->file)) > 0)
		fwrite(chunk, 1, n, stderr);
	fclose(c->file);
	c->file = NULL;
}

/* The progress of the proposals on the terminal's screen. */
typedef struct splash {
	tui_screen screen;
	const char *root;
} splash;

static void show_progress(size_t done, size_t total, void *payload)
{
	splash *sp = payload;

	tui_progress_draw(&sp->screen, sp->root, done, total);
	tui_terminal_show(&sp->screen);
}

/* Keys as they come; while proposals are made in the background, what the
 * workers finished is shown between keys (a key waits for no file). */
static int run_terminal(review *r, tui_core *core)
{
	while (!tui_core_done(core)) {
		bool loading = cmd_review_files_loading(&r->files);
		wint_t ch;
		int rc;

		if (loading && cmd_review_files_poll(&r->files, tui_core_model(core), false) < 0)
			tui_core_message(core, "%s", util_error_last());
		tui_core_show(core);
		timeout(cmd_review_files_loading(&r->files) ? 50 : -1);
		rc = get_wch(&ch);
		if (rc == ERR)
			continue;
		if (rc == KEY_CODE_YES && ch == KEY_RESIZE) {
			tui_screen_resize(tui_core_screen(core), COLS, LINES);
			clear();
			continue;
		}
		if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
			tui_mouse ev;

			if (tui_terminal_mouse(&ev) == 0)
				tui_core_mouse(core, &ev);
			continue;
		}
		tui_core_key(core, (int)ch);
	}
	return CMD_EXIT_OK;
}

/* The file list on the terminal at once, then the rules loaded and the
 * workers started; a script holds them until it lets them come (:load, or
 * its first key). The hooks are set. Returns 0 or an exit code after
 * printing why. */
static int start_work(review *r, tui_core *core)
{
	bool script = r->script.path != NULL;
	int code;

	if (!script)
		tui_core_show(core);
	if ((code = cmd_review_files_start(&r->files, script)) != 0)
		return code;
	tui_core_model(core)->lexer = r->files.lexer; /* colour of a fix's new proposal */
	tui_core_model(core)->hooks = (tui_hooks){
		.payload = r,
		.repropose = repropose,
		.build = build,
		.specs = specs,
		.commit_prepare = commit_prepare,
		.commit_run = commit_run,
		.sync = sync_upstream,
	};
	return 0;
}

/* keys.<action> = <key> of .hipport/config */
static int bind_keys(tui_core *core, const char *root)
{
	vcs_config cfg;
	size_t i;
	int error;

	if ((error = vcs_config_read(&cfg, root)) < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	for (i = 0; i < cfg.nkeys; i++) {
		if (tui_core_bind(core, cfg.key_names[i], cfg.key_values[i]) < 0) {
			vcs_config_dispose(&cfg);
			return cmd_fail(CMD_EXIT_USAGE, "%s.hipport/config: %s", root, util_error_last());
		}
	}
	vcs_config_dispose(&cfg);
	return 0;
}

/* The screen the review is drawn on: the terminal, up while the proposals
 * are made (what goes to stderr meanwhile kept for later), or a script's.
 * Returns 0 or an exit code after printing why. */
static int screen_open(cmd_context *ctx, splash *sp, stderr_capture *capture)
{
	if (!ctx->script && !(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)))
		return cmd_fail(CMD_EXIT_USAGE, "review: needs a terminal (or --script FILE)");
	if (tui_screen_init(&sp->screen, ctx->width ? ctx->width : 80, ctx->height ? ctx->height : 24) < 0)
		return cmd_fail(CMD_EXIT_USAGE, "out of memory");
	if (ctx->script)
		return 0;
	/* --color/--no-color and NO_COLOR decided the colour, --no-mouse the mouse */
	if (tui_terminal_open(&sp->screen, ctx->color, ctx->mouse) < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	capture_begin(capture);
	show_progress(0, 0, sp);
	ctx->progress = show_progress;
	ctx->progress_payload = sp;
	return 0;
}

/* The model over the files listed, their proposals still to come. */
static int model_make(review *r, tui_model *model)
{
	if (tui_model_init(model, &r->files.session, NULL, r->files.set.walk.root, r->files.reviewed, r->files.n) < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	return 0;
}

/* The files listed and the core over them on the splash's screen, the keys
 * bound, the work started. Returns 0 or an exit code after printing why. */
static int review_open(review *r, splash *sp, tui_core **core)
{
	tui_model model;
	int code = cmd_review_files_open(r->ctx, &r->files);

	r->ctx->progress = NULL;
	if (code != 0)
		return code;
	sp->root = r->files.set.walk.root;
	if ((code = model_make(r, &model)) != 0)
		return code;
	if (tui_core_new(core, &sp->screen, &model) < 0) {
		tui_model_dispose(&model);
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	}
	if ((code = bind_keys(*core, r->files.set.walk.root)) != 0 || (code = start_work(r, *core)) != 0)
		return code;
	if (r->files.rebased)
		tui_core_message(*core, "%zu files changed outside hipport: proposed again from what they hold",
				 r->files.rebased);
	else if (r->files.adopted)
		tui_core_message(*core, "%zu committed port%s changed by hand since: the changes are edits of the port",
				 r->files.adopted, r->files.adopted == 1 ? "" : "s");
	return 0;
}

/* The first file the sync left to decide selected: one with a conflict or
 * a hunk it proposed, or one it added. */
static void select_synced(review *r, tui_core *core)
{
	tui_model *m = tui_core_model(core);
	sy_state st;
	size_t i;

	if (sy_state_open(&st, r->files.set.walk.git_dir) > 0) {
		for (i = 0; i < m->nfiles; i++) {
			const sy_file *f = sy_state_find(&st, m->files[i].p->path);

			if (f && (f->conflicts || f->proposed || f->kind == SY_ADD)) {
				m->selected = i;
				break;
			}
		}
	}
	util_error_clear();
	sy_state_dispose(&st);
}

/* After a sync that wrote files: the review made again in place from what
 * they hold now, as a new hipport review opens them (the files the sync
 * merged or added proposed with their carried decisions and conflicts),
 * the sync's summary in the status bar. A script's proposals all come at
 * once. Returns 0 or an exit code after printing why. */
static int review_restart(review *r, tui_core *core)
{
	tui_model model;
	int code;

	r->restart = false;
	tui_core_unload(core); /* its files borrow the proposals about to go */
	review_close(r);
	if ((code = cmd_review_files_open(r->ctx, &r->files)) != 0 || (code = model_make(r, &model)) != 0)
		return code;
	if (tui_core_load(core, &model) < 0) {
		tui_model_dispose(&model);
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	}
	select_synced(r, core);
	if (r->summary_is_error)
		tui_core_error(core, "%s", r->summary);
	else
		tui_core_message(core, "%s", r->summary);
	if ((code = start_work(r, core)) != 0)
		return code;
	if (r->script.path && cmd_review_files_load(&r->files, tui_core_model(core), SIZE_MAX) < 0)
		return cmd_fail(CMD_EXIT_USAGE, "%s", util_error_last());
	return 0;
}

int cmd_review(cmd_context *ctx)
{
	review r;
	tui_core *core = NULL;
	splash sp;
	stderr_capture capture = { .saved = -1, .file = NULL };
	int code;

	setlocale(LC_ALL, "");
	memset(&r, 0, sizeof(r));
	memset(&sp, 0, sizeof(sp));
	r.ctx = ctx;
	r.script.path = ctx->script;
	if ((code = screen_open(ctx, &sp, &capture)) == 0)
		code = review_open(&r, &sp, &core);
	while (code == 0) {
		code = ctx->script ? run_script(&r, core) : run_terminal(&r, core);
		if (code != 0 || !r.restart)
			break;
		code = review_restart(&r, core);
	}
	if (core)
		tui_terminal_close(tui_core_screen(core));
	tui_terminal_close(&sp.screen);
	capture_end(&capture);
	tui_core_free(core);
	tui_screen_dispose(&sp.screen);
	review_dispose(&r);
	return code;
}
