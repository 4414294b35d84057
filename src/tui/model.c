/* The review's model: each file's hunks, decisions, edits and lines, kept in
 * step with the session. */
#include "tui/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/pylex.h"
#include "build/build.h"
#include "review/validate.h"
#include "util/error.h"
#include "util/file.h"

static int split_lines(const char *text, size_t len, tui_line **out, size_t *count)
{
	size_t n = 0, cap = 64, i = 0;
	tui_line *lines = malloc(cap * sizeof(*lines));

	if (!lines)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (n == cap) {
			tui_line *m = realloc(lines, (cap *= 2) * sizeof(*lines));

			if (!m) {
				free(lines);
				return util_error_set(UTIL_ENOMEM, "out of memory");
			}
			lines = m;
		}
		lines[n].text = text + i;
		lines[n].len = end - i - (end > i && text[end - 1] == '\r');
		n++;
		i = end + 1;
	}
	*out = lines;
	*count = n;
	return 0;
}

static void undo_dispose(tui_undo *u)
{
	free(u->text);
	free(u->base);
	u->text = u->base = NULL;
}

static void free_edits(tui_file *f)
{
	size_t i;

	for (i = 0; f->edits && i < f->hunks.count; i++)
		free(f->edits[i].lines);
	for (i = 0; f->bases && i < f->hunks.count; i++)
		free(f->bases[i].lines);
	free(f->edits);
	free(f->bases);
	free(f->clean);
	f->edits = f->bases = NULL;
	f->clean = NULL;
	f->side = 0;
}

/* The lines of hunk h's edited text, shown instead of its proposed lines;
 * the session owns the text, so this follows every decision on the hunk. */
static int load_edit(tui_model *m, tui_file *f, size_t h)
{
	const char *texts[1] = { NULL };
	rv_hunks one = { .items = &f->hunks.items[h], .count = 1 };
	const rv_session_file *rec = rv_session_find(m->session, f->p->path);
	const rv_session_hunk *sh;
	rv_decision d;
	int error;

	free(f->edits[h].lines);
	free(f->bases[h].lines);
	memset(&f->edits[h], 0, sizeof(f->edits[h]));
	memset(&f->bases[h], 0, sizeof(f->bases[h]));
	f->clean[h] = false;
	rv_session_decisions(rec, &one, &d, texts);
	if (d == RV_CONFLICT && (sh = rv_session_hunk_of(rec, f->hunks.items[h].key))) {
		f->clean[h] = sh->clean;
		if (sh->base && sh->base[0] &&
		    (error = split_lines(sh->base, strlen(sh->base), &f->bases[h].lines, &f->bases[h].n)) < 0)
			return error;
	}
	if (!rv_has_text(d) || !texts[0] || !texts[0][0])
		return 0;
	return split_lines(texts[0], strlen(texts[0]), &f->edits[h].lines, &f->edits[h].n);
}

/* Hunks, decisions, edits and state of one file from the session, from
 * the proposal's whole hunks (taken; made here when NULL). */
static int load_file(tui_model *m, tui_file *f, rv_hunks *given)
{
	const rv_proposal *p = f->p;
	const rv_session_file *rec = rv_session_find(m->session, p->path);
	rv_hunks whole;
	size_t h;
	int error;

	free_edits(f);
	rv_hunks_dispose(&f->hunks);
	free(f->decisions);
	f->decisions = NULL;
	/* the proposal's hunks, those split in the review as their pieces */
	if (given) {
		whole = *given;
		memset(given, 0, sizeof(*given));
	} else if ((error = rv_hunks_make(&whole, p->source.ptr, p->source.len, p->port.output.ptr,
					  p->port.output.len)) < 0) {
		return error;
	}
	error = rv_session_hunks(rec, &whole, &f->hunks);
	f->reviewed = rv_session_reviewed(rec, &whole);
	rv_hunks_dispose(&whole);
	if (error < 0)
		return error;
	f->decisions = calloc(f->hunks.count + 1, sizeof(*f->decisions));
	f->edits = calloc(f->hunks.count + 1, sizeof(*f->edits));
	f->bases = calloc(f->hunks.count + 1, sizeof(*f->bases));
	f->clean = calloc(f->hunks.count + 1, sizeof(*f->clean));
	if (!f->decisions || !f->edits || !f->bases || !f->clean)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	rv_session_decisions(rec, &f->hunks, f->decisions, NULL);
	for (h = 0; h < f->hunks.count; h++)
		if (rv_has_text(f->decisions[h]) && (error = load_edit(m, f, h)) < 0)
			return error;
	return 0;
}

void tui_prepared_dispose(tui_prepared *prep)
{
	rv_hunks_dispose(&prep->hunks);
	free(prep->old_lines);
	free(prep->new_lines);
	free(prep->old_tokens);
	free(prep->new_tokens);
	memset(prep, 0, sizeof(*prep));
}

/* The lines and tokens of both sides (tokens only for colour: a file the
 * lexer refuses is shown without). */
static int prepare_sides(tui_prepared *out, const rv_proposal *p, port_lexer *lexer)
{
	int error;

	if ((error = split_lines(p->source.ptr, p->source.len, &out->old_lines, &out->nold)) < 0 ||
	    (error = split_lines(p->port.output.ptr, p->port.output.len, &out->new_lines, &out->nnew)) < 0)
		return error;
	/* colour from the file's own language: C++ tokens, Python tokens, and
	 * none for CMake and make, whose "#" comments C++ would read as directives */
	if (an_is_python(p->path)) {
		if (an_python_tokenize(p->source.ptr, p->source.len, &out->old_tokens, &out->nold_tokens) < 0 ||
		    an_python_tokenize(p->port.output.ptr, p->port.output.len, &out->new_tokens, &out->nnew_tokens) < 0)
			util_error_clear();
	} else if (lexer && bld_kind_of(p->path) == BLD_NONE &&
		   (port_lexer_tokenize(lexer, p->path, p->source.ptr, p->source.len, &out->old_tokens,
					&out->nold_tokens) < 0 ||
		    port_lexer_tokenize(lexer, p->path, p->port.output.ptr, p->port.output.len, &out->new_tokens,
					&out->nnew_tokens) < 0)) {
		util_error_clear();
	}
	return 0;
}

int tui_file_prepare(tui_prepared *out, const rv_proposal *p, port_lexer *lexer)
{
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = rv_hunks_make(&out->hunks, p->source.ptr, p->source.len, p->port.output.ptr,
				   p->port.output.len)) < 0 ||
	    (error = prepare_sides(out, p, lexer)) < 0)
		tui_prepared_dispose(out);
	return error;
}

/* The lines and tokens of prep (taken) as f's. */
static void take_sides(tui_file *f, tui_prepared *prep)
{
	free(f->old_lines);
	free(f->new_lines);
	free(f->old_tokens);
	free(f->new_tokens);
	f->old_lines = prep->old_lines;
	f->new_lines = prep->new_lines;
	f->nold = prep->nold;
	f->nnew = prep->nnew;
	f->old_tokens = prep->old_tokens;
	f->new_tokens = prep->new_tokens;
	f->nold_tokens = prep->nold_tokens;
	f->nnew_tokens = prep->nnew_tokens;
	prep->old_lines = prep->new_lines = NULL;
	prep->old_tokens = prep->new_tokens = NULL;
}

/* The lines and tokens of both sides, made again (a new proposal). */
static int split_file(tui_model *m, tui_file *f)
{
	tui_prepared prep;
	int error;

	memset(&prep, 0, sizeof(prep));
	if ((error = prepare_sides(&prep, f->p, m->lexer)) == 0)
		take_sides(f, &prep);
	tui_prepared_dispose(&prep);
	return error;
}

static void refresh_state(tui_model *m, tui_file *f)
{
	util_buf tree = UTIL_BUF_INIT;

	if (util_file_read(&tree, f->p->fs_path, 0) < 0) {
		f->state = RV_STATE_STALE;
		util_error_clear();
	} else {
		rv_check_content now;

		f->state = rv_session_state(rv_session_find(m->session, f->p->path), &f->hunks, tree.ptr ? tree.ptr : "",
					    tree.len);
		rv_tree_reader files = { m->root, m->session };
		util_buf original = UTIL_BUF_INIT;

		rv_check_content_of(&now, &original, &files, f->p->path, tree.ptr ? tree.ptr : "", tree.len);
		f->validated = f->state == RV_STATE_ACCEPTED && rv_checks_passed(m->session, f->p->path, &now);
		util_buf_dispose(&original);
	}
	util_buf_dispose(&tree);
}

int tui_model_init(tui_model *m, rv_session *session, port_lexer *lexer, const char *root, rv_proposal **files,
		   size_t count)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->session = session;
	m->lexer = lexer;
	m->root = root;
	if (!(m->files = calloc(count + 1, sizeof(*m->files))))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	for (i = 0; i < count; i++)
		m->files[i].p = files[i];
	m->nfiles = count;
	return 0;
}

int tui_model_ready(tui_model *m, size_t index, rv_proposal *p, tui_prepared *prep, const size_t findings[3],
		    const unsigned char *marks)
{
	tui_file *f = &m->files[index];
	int error;

	if (f->ready || f->why)
		return util_error_set(UTIL_ERROR, "%s: its proposal is here already", f->p->path);
	f->p = p;
	memcpy(f->findings, findings, sizeof(f->findings));
	f->marks = marks;
	take_sides(f, prep);
	error = load_file(m, f, &prep->hunks);
	tui_prepared_dispose(prep);
	if (error < 0)
		return error;
	f->ready = true;
	m->nready++;
	refresh_state(m, f);
	return 0;
}

int tui_model_failed(tui_model *m, size_t index, const char *why)
{
	tui_file *f = &m->files[index];

	if (f->ready || f->why)
		return 0;
	if (!(f->why = strdup(why)))
		return util_error_set(UTIL_ENOMEM, "out of memory");
	m->nready++;
	return 0;
}

/* What a decision on a file still being computed gets. */
static int not_ready(const tui_file *f)
{
	return util_error_set(UTIL_EINPUT, "%s: %s", f->p->path,
			      f->why ? f->why : "its proposal is still being computed");
}

void tui_model_dispose(tui_model *m)
{
	size_t i;

	for (i = 0; i < m->nfiles; i++) {
		free_edits(&m->files[i]);
		rv_hunks_dispose(&m->files[i].hunks);
		free(m->files[i].decisions);
		free(m->files[i].old_lines);
		free(m->files[i].new_lines);
		free(m->files[i].old_tokens);
		free(m->files[i].new_tokens);
		free(m->files[i].why);
	}
	free(m->files);
	for (i = 0; i < m->nundo; i++)
		undo_dispose(&m->undo[i]);
	free(m->undo);
	tui_build_result_dispose(&m->build);
	memset(m, 0, sizeof(*m));
}

tui_file *tui_model_current(tui_model *m)
{
	return m->nfiles ? &m->files[m->selected] : NULL;
}

size_t tui_model_first_pending(const tui_file *f, size_t from)
{
	size_t i;

	for (i = from; i < f->hunks.count; i++)
		if (!rv_decided(f->decisions[i]))
			return i;
	for (i = 0; i < from && i < f->hunks.count; i++)
		if (!rv_decided(f->decisions[i]))
			return i;
	return from < f->hunks.count ? from : 0;
}

size_t tui_model_pending(const tui_file *f)
{
	size_t k, n = 0;

	for (k = 0; k < f->hunks.count; k++)
		n += !rv_decided(f->decisions[k]);
	return n;
}

/* What undo puts back of hunk index: its decision as the session has it. */
static int remember_hunk(tui_model *m, tui_file *f, size_t index)
{
	const rv_session_hunk *was = rv_session_hunk_of(rv_session_find(m->session, f->p->path), f->hunks.items[index].key);
	tui_undo *n = realloc(m->undo, (m->nundo + 1) * sizeof(*n)), *u;

	if (!n)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	m->undo = n;
	u = &m->undo[m->nundo];
	*u = (tui_undo){ .file = m->selected, .hunk = index, .decision = f->decisions[index] };
	memcpy(u->key, f->hunks.items[index].key, sizeof(u->key));
	if (was && ((was->text && !(u->text = strdup(was->text))) || (was->base && !(u->base = strdup(was->base))))) {
		free(u->text);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	u->clean = was && was->clean;
	m->nundo++;
	return 0;
}

/* Decides hunk index as `as` says (a decision, an edit's text, a conflict). */
static int decide_as(tui_model *m, size_t index, const rv_session_hunk *as, bool remember)
{
	tui_file *f = tui_model_current(m);
	const rv_proposal *p = f->p;
	int error;

	if (!f->ready)
		return not_ready(f);
	if (remember && (error = remember_hunk(m, f, index)) < 0)
		return error;
	if ((error = rv_session_decide_as(m->session, p->path, p->fs_path, p->source.ptr, p->source.len,
					  p->port.output.ptr, p->port.output.len, &f->hunks, index, as)) < 0) {
		if (remember)
			undo_dispose(&m->undo[--m->nundo]);
		return error;
	}
	f->decisions[index] = as->decision;
	error = load_edit(m, f, index);
	refresh_state(m, f);
	return error;
}

int tui_model_decide(tui_model *m, size_t index, rv_decision d, const char *text, bool remember)
{
	rv_session_hunk as;

	memset(&as, 0, sizeof(as));
	as.decision = d;
	as.text = (char *)text;
	return decide_as(m, index, &as, remember);
}

int tui_model_decide_pending(tui_model *m, rv_decision d, size_t *n)
{
	tui_file *f = tui_model_current(m);
	size_t i;
	int error;

	*n = 0;
	for (i = 0; f && i < f->hunks.count; i++)
		if (f->decisions[i] == RV_PENDING) {
			if ((error = tui_model_decide(m, i, d, NULL, true)) < 0)
				return error;
			(*n)++;
		}
	return 0;
}

/* The bytes of lines [start, start + n) of text: from the first line's
 * start to the last one's end; false when there are none. */
static bool span_of(const tui_line *lines, size_t nlines, const char *text, size_t start, size_t n, size_t *from,
		    size_t *to)
{
	if (!n || start + n > nlines)
		return false;
	*from = (size_t)(lines[start].text - text);
	*to = (size_t)(lines[start + n - 1].text - text) + lines[start + n - 1].len;
	return true;
}

bool tui_model_rename_only(const tui_file *f, size_t index)
{
	const rv_hunk *h = &f->hunks.items[index];
	const rv_proposal *p = f->p;
	size_t from, to, nfrom, nto, at, i, renames = 0;
	util_buf renamed = UTIL_BUF_INIT;
	bool same;

	if (!span_of(f->old_lines, f->nold, p->source.ptr, h->old_start, h->old_lines, &from, &to) ||
	    !span_of(f->new_lines, f->nnew, p->port.output.ptr, h->new_start, h->new_lines, &nfrom, &nto))
		return false;
	for (i = h->old_start; f->marks && i < h->old_start + h->old_lines; i++)
		if (f->marks[i])
			return false;
	/* the source's lines with each reference in them renamed must be the
	 * port's lines exactly: anything else (a fix, a call rewritten) differs */
	at = from;
	for (i = 0; i < p->port.nrefs; i++) {
		const port_ref *r = &p->port.refs[i];

		if (r->offset < from || r->offset >= to)
			continue;
		if (r->status != PORT_REF_CONVERTED || !r->rule || !r->rule->hip || r->rule->call ||
		    r->offset < at || r->offset + r->length > to) {
			util_buf_dispose(&renamed);
			return false;
		}
		util_buf_put(&renamed, p->source.ptr + at, r->offset - at);
		util_buf_puts(&renamed, r->rule->hip);
		at = r->offset + r->length;
		renames++;
	}
	util_buf_put(&renamed, p->source.ptr + at, to - at);
	same = renames && !util_buf_oom(&renamed) && renamed.len == nto - nfrom &&
	       memcmp(renamed.ptr, p->port.output.ptr + nfrom, renamed.len) == 0;
	util_buf_dispose(&renamed);
	return same;
}

void tui_model_bulk_count(const tui_model *m, size_t *hunks, size_t *files)
{
	size_t i, k, n;

	*hunks = *files = 0;
	for (i = 0; i < m->nfiles; i++) {
		const tui_file *f = &m->files[i];

		if (!f->ready || f->state == RV_STATE_STALE)
			continue;
		for (k = n = 0; k < f->hunks.count; k++)
			n += f->decisions[k] == RV_PENDING && tui_model_rename_only(f, k);
		*hunks += n;
		*files += n > 0;
	}
}

int tui_model_accept_bulk(tui_model *m, size_t *hunks, size_t *files)
{
	size_t i, k, n;
	int error = 0;

	*hunks = *files = 0;
	for (i = 0; i < m->nfiles && !error; i++) {
		tui_file *f = &m->files[i];
		const rv_proposal *p = f->p;
		size_t *at;
		tui_undo *u;

		if (!f->ready || f->state == RV_STATE_STALE)
			continue;
		if (!(at = malloc((f->hunks.count + 1) * sizeof(*at))) ||
		    !(u = realloc(m->undo, (m->nundo + f->hunks.count + 1) * sizeof(*u)))) {
			free(at);
			return util_error_set(UTIL_ENOMEM, "out of memory");
		}
		m->undo = u;
		for (k = n = 0; k < f->hunks.count; k++)
			if (f->decisions[k] == RV_PENDING && tui_model_rename_only(f, k))
				at[n++] = k;
		if (n && (error = rv_session_decide_bulk(m->session, p->path, p->fs_path, p->source.ptr, p->source.len,
							 p->port.output.ptr, p->port.output.len, &f->hunks, at, n,
							 "rename-only")) == 0) {
			for (k = 0; k < n; k++) {
				m->undo[m->nundo] = (tui_undo){ .file = i, .hunk = at[k], .decision = RV_PENDING };
				memcpy(m->undo[m->nundo++].key, f->hunks.items[at[k]].key, sizeof(m->undo[0].key));
				f->decisions[at[k]] = RV_ACCEPTED;
			}
			refresh_state(m, f);
			*hunks += n;
			(*files)++;
		}
		free(at);
	}
	return error;
}

int tui_model_undo(tui_model *m, tui_undo *undone)
{
	tui_undo u;
	tui_file *f;
	int error;

	if (!m->nundo)
		return 1;
	u = m->undo[--m->nundo];
	f = &m->files[u.file];
	for (u.hunk = 0; u.hunk < f->hunks.count && strcmp(f->hunks.items[u.hunk].key, u.key) != 0; u.hunk++)
		;
	if (u.hunk == f->hunks.count)
		return util_error_set(UTIL_ENOTFOUND, "%s: the hunk decided last was split or joined since", f->p->path);
	m->selected = u.file;
	m->hunk = u.hunk;
	{
		rv_session_hunk was = { .decision = u.decision, .text = u.text, .base = u.base, .clean = u.clean };

		error = decide_as(m, u.hunk, &was, false);
	}
	undo_dispose(&u);
	if (error < 0)
		return error;
	*undone = u;
	return 0;
}

int tui_model_split(tui_model *m, size_t index, size_t *at)
{
	tui_file *f = tui_model_current(m);
	const rv_proposal *p = f->p;
	char parent[17];
	size_t i;
	int error;

	if (!f->ready)
		return not_ready(f);
	/* a joined hunk goes where its first piece was */
	memcpy(parent, f->hunks.items[index].parent, sizeof(parent));
	for (i = index; parent[0] && i > 0 && strcmp(f->hunks.items[i - 1].parent, parent) == 0; i--)
		;
	if ((error = rv_session_split(m->session, p->path, p->fs_path, p->source.ptr, p->source.len, p->port.output.ptr,
				      p->port.output.len, &f->hunks, index)) < 0 ||
	    (error = load_file(m, f, NULL)) < 0)
		return error;
	refresh_state(m, f);
	*at = parent[0] ? i : index;
	return 0;
}

int tui_model_mark_reviewed(tui_model *m, bool reviewed)
{
	tui_file *f = tui_model_current(m);
	const rv_proposal *p = f->p;
	int error;

	if (!f->ready)
		return not_ready(f);
	if ((error = rv_session_mark_reviewed(m->session, p->path, p->fs_path, p->source.ptr, p->source.len, &f->hunks,
					      reviewed)) < 0)
		return error;
	f->reviewed = reviewed;
	refresh_state(m, f);
	return 0;
}

bool tui_model_unfinished(const tui_file *f)
{
	return (!f->ready && !f->why) || tui_model_pending(f) > 0 ||
	       (!f->reviewed && f->findings[2] + f->findings[1] > 0);
}

int tui_model_repropose(tui_model *m, size_t index, rv_proposal *p)
{
	tui_file *f = &m->files[index];
	int error;

	if (!f->ready)
		return not_ready(f);
	f->p = p;
	if ((error = load_file(m, f, NULL)) < 0 || (error = split_file(m, f)) < 0)
		return error;
	refresh_state(m, f);
	return 0;
}

void tui_model_refresh_states(tui_model *m)
{
	size_t i;

	for (i = 0; i < m->nfiles; i++)
		if (m->files[i].ready)
			refresh_state(m, &m->files[i]);
}

void tui_build_result_dispose(tui_build_result *r)
{
	size_t i;

	for (i = 0; i < r->nerrors; i++) {
		free(r->errors[i].where);
		free(r->errors[i].text);
	}
	free(r->errors);
	free(r->status);
	free(r->summary);
	free(r->resources);
	memset(r, 0, sizeof(*r));
}

void tui_commit_info_dispose(tui_commit_info *info)
{
	size_t i;

	for (i = 0; i < info->nlines; i++)
		free(info->lines[i]);
	free(info->lines);
	free(info->message);
	memset(info, 0, sizeof(*info));
}
