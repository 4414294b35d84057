#include "check/record/record.h"

#include <stdlib.h>
#include <string.h>

#include "check/record/printed.h"
#include "util/error.h"

/* The k-th launch of kernel in log, or NULL. */
static const chk_rec_launch *nth(const chk_recording *log, const char *kernel, size_t k)
{
	size_t i;

	for (i = 0; log && i < log->n; i++)
		if (!strcmp(log->launches[i].kernel, kernel) && k-- == 0)
			return &log->launches[i];
	return NULL;
}

static size_t count_of(const chk_recording *log, const char *kernel)
{
	size_t i, n = 0;

	for (i = 0; i < log->n; i++)
		n += !strcmp(log->launches[i].kernel, kernel);
	return n;
}

static chk_dtype dtype_of(const char *name)
{
	int d = chk_dtype_parse(name);

	if (d >= 0)
		return (chk_dtype)d;
	return strcmp(name, "f16?") == 0 ? CHK_F16 : CHK_U8;
}

static void *load(const char *dir, const chk_rec_arg *a)
{
	return chk_rec_file_read(dir, a->file, a->bytes);
}

/* Memory the port left otherwise than the original did, judged equal
 * within tolerance: (port's hash, original's hash) pairs. A later launch
 * that reads it has the original's inputs, so a fix that changes rounding
 * leaves the kernels after it judged, within tolerance. */
typedef struct rec_equal {
	uint64_t (*pairs)[2];
	size_t n, cap;
} rec_equal;

static bool equal_state(const rec_equal *eq, uint64_t port, uint64_t ref)
{
	size_t i;

	for (i = 0; eq && i < eq->n; i++)
		if (eq->pairs[i][0] == port && eq->pairs[i][1] == ref)
			return true;
	return false;
}

static void add_equal(rec_equal *eq, uint64_t port, uint64_t ref)
{
	if (!eq || port == ref || equal_state(eq, port, ref))
		return;
	if (eq->n == eq->cap) {
		size_t cap = eq->cap ? 2 * eq->cap : 16;
		uint64_t(*p)[2] = realloc(eq->pairs, cap * sizeof(*p));

		if (!p)
			return; /* fewer launches judged, none judged wrongly */
		eq->pairs = p;
		eq->cap = cap;
	}
	eq->pairs[eq->n][0] = port;
	eq->pairs[eq->n][1] = ref;
	eq->n++;
}

/* Whether the inputs of two launches match; an argument the two runs of
 * the original disagree on (ref2) is not an input that can tell. */
static bool same_inputs(const chk_rec_launch *r, const chk_rec_launch *r2, const chk_rec_launch *p,
			const rec_equal *eq)
{
	size_t i;

	for (i = 0; i < r->nargs; i++) {
		const chk_rec_arg *a = &r->args[i], *b = &p->args[i];
		const chk_rec_arg *c = r2 && i < r2->nargs ? &r2->args[i] : NULL;

		if (a->kind == CHK_REC_SCALAR && strcmp(a->hex, b->hex) != 0 && !(c && strcmp(a->hex, c->hex)))
			return false;
		if (a->kind == CHK_REC_POINTER && b->kind == CHK_REC_POINTER && a->before != b->before &&
		    !equal_state(eq, b->before, a->before) && !(c && c->kind == CHK_REC_POINTER && c->before != a->before))
			return false;
	}
	return true;
}

/* k's launch now compared is where, from one compiler, its bytes first
 * differed from the original's: the divergence, whatever the verdict. */
static void mark_inexact(rec_kernel *k, const char *name, chk_dtype t, const char *what)
{
	k->inexact = true;
	k->inexact_launch = k->first_launch;
	k->inexact_seq = k->first_seq;
	snprintf(k->inexact_what, sizeof(k->inexact_what), "%s, %s: %s", name, chk_dtype_name(t), what);
}

/* Compares output i of a launch pair; false and k's verdict set when it differs. */
static bool output_matches(rec_kernel *k, const chk_recording *ref, const chk_recording *ref2,
			   const chk_recording *port, const chk_rec_launch *r, const chk_rec_launch *r2, const chk_rec_launch *p, size_t i, bool exact)
{
	const chk_rec_arg *a = &r->args[i], *b = &p->args[i];
	const chk_rec_arg *c = r2 && i < r2->nargs && r2->args[i].kind == CHK_REC_POINTER ? &r2->args[i] : NULL;
	bool nondet = c && c->after != a->after;
	chk_dtype t = dtype_of(a->dtype);
	chk_tolerance tol = chk_default_tolerance(t);
	void *x, *y;
	bool pass;
	char name[96];

	if (a->owner >= 0)
		snprintf(name, sizeof(name), "argument %zu (the pointer at byte %zu of argument %d)", i, a->at, a->owner);
	else
		snprintf(name, sizeof(name), "argument %zu", i);
	k->compared++;
	if (nondet)
		k->nondeterministic = true;
	/* the port's bytes are those of one of the original's two runs */
	if (a->bytes == b->bytes && (a->after == b->after || (nondet && c->bytes == b->bytes && c->after == b->after)))
		return true;
	k->arg = (int)i;
	k->dtype = t;
	if (a->bytes != b->bytes) {
		snprintf(k->message, sizeof(k->message), "%s: an allocation of %zu bytes in the original, %zu in the port",
			 name, a->bytes, b->bytes);
		k->verdict = REC_FAIL;
		return false;
	}
	if (!a->file[0] || !b->file[0] || !(x = load(ref->dir, a))) {
		/* no values to hold within a tolerance: the original's two runs
		 * differing leaves nothing the port's bytes can be judged by */
		if (nondet) {
			snprintf(k->message, sizeof(k->message),
				 "%s: nondeterministic in the original (two runs differ), hashed only (above "
				 "HIPPORT_RECORD_MAX), and the port differs from both: not comparable",
				 name);
			k->verdict = REC_ERROR;
			return false;
		}
		if (chk_dtype_is_float(t)) {
			/* rounding (another compiler, a precision fix) is no fault:
			 * only values can tell; from one compiler it still marks
			 * where the port first computed otherwise */
			snprintf(k->message, sizeof(k->message),
				 "%s: its %zu bytes differ, hashed only (above HIPPORT_RECORD_MAX): not comparable "
				 "within a tolerance; raise HIPPORT_RECORD_MAX to compare its values",
				 name, a->bytes);
			if (exact && !k->inexact)
				mark_inexact(k, name, t, "its bytes differ (hashed only)");
			k->verdict = REC_ERROR;
			return false;
		}
		snprintf(k->message, sizeof(k->message),
			 "%s: its %zu bytes differ (hashed only: above HIPPORT_RECORD_MAX, no values to compare)", name,
			 a->bytes);
		k->verdict = REC_FAIL;
		return false;
	}
	if (!(y = load(port->dir, b))) {
		free(x);
		snprintf(k->message, sizeof(k->message), "%s: %s/%s is missing", name, port->dir, b->file);
		k->verdict = REC_ERROR;
		return false;
	}
	if (nondet && ref2 && chk_dtype_is_float(t) && c->file[0] && c->bytes == a->bytes) {
		/* the port may differ from the original as much as the original
		 * differs from itself (atomics adding in another order): twice the
		 * spread of its two runs, as the port is a third draw of it */
		void *z = load(ref2->dir, c);
		chk_tolerance none = { 0, 0, 0 };
		chk_stats spread;

		if (z) {
			chk_compare(&spread, t, x, z, a->bytes / chk_dtype_size(t), &none);
			if (spread.max_abs > k->spread)
				k->spread = spread.max_abs;
			if (2 * spread.max_abs > tol.abs)
				tol.abs = 2 * spread.max_abs;
			free(z);
		}
	}
	pass = chk_compare(&k->stats, t, x, y, a->bytes / chk_dtype_size(t), &tol) != 0;
	free(x);
	free(y);
	if (pass && exact && !nondet && !k->inexact) {
		char what[64];

		snprintf(what, sizeof(what), "not bit-exact, max ulp %.0f, max abs %.3g", k->stats.max_ulp,
			 k->stats.max_abs);
		mark_inexact(k, name, t, what);
	}
	if (pass)
		return true;
	if (nondet && !chk_dtype_is_float(t)) {
		snprintf(k->message, sizeof(k->message),
			 "%s: nondeterministic in the original (two runs differ), and the port differs from both: "
			 "not comparable exactly",
			 name);
		k->verdict = REC_ERROR;
		return false;
	}
	snprintf(k->message, sizeof(k->message),
		 "%s, %s: %zu of %zu values beyond tolerance, first at %zu: expected %.9g, got %.9g; max abs %.3g, "
		 "max rel %.3g, max ulp %.0f%s",
		 name, chk_dtype_name(t), k->stats.mismatches, a->bytes / chk_dtype_size(t), k->stats.first_mismatch,
		 k->stats.expected_at_first, k->stats.got_at_first, k->stats.max_abs, k->stats.max_rel, k->stats.max_ulp,
		 nondet ? " (nondeterministic in the original too: beyond twice its own spread)" : "");
	k->verdict = REC_FAIL;
	return false;
}

/* What launch j printed, an output too where the launch printed anything:
 * the same as the original's, or as its second run's where the two differ. */
static bool printed_matches(rec_kernel *k, const chk_recording *ref, const chk_recording *ref2,
			    const chk_recording *port, const chk_rec_launch *r, const chk_rec_launch *r2,
			    const chk_rec_launch *p, size_t j)
{
	char why[384], why2[384];

	if (!r->printed && !p->printed)
		return true;
	k->compared++;
	if (rec_printed_same(ref->dir, r, port->dir, p, why, sizeof(why)))
		return true;
	if (r2 && ref2 && rec_printed_same(ref2->dir, r2, port->dir, p, why2, sizeof(why2)))
		return true;
	k->arg = -1;
	snprintf(k->message, sizeof(k->message), "launch %zu: %s", j, why);
	k->verdict = REC_FAIL;
	if (r2 && ref2 && !rec_printed_same(ref->dir, r, ref2->dir, r2, why2, sizeof(why2))) {
		snprintf(k->message, sizeof(k->message),
			 "launch %zu: what it printed differs between the original's two runs, and the port's from both "
			 "(%.300s): not comparable",
			 j, why);
		k->verdict = REC_ERROR;
	}
	return false;
}

/* The verdict of a kernel no launch failed or diverged in. */
static void summarize(rec_kernel *k, const chk_recording *ref, const chk_recording *port, size_t nr, size_t np,
		      size_t n, size_t differ)
{
	/* the side with fewer launches was stopped at its time limit */
	const chk_recording *cut = nr < np && ref->cut ? ref : np < nr && port->cut ? port : NULL;
	char more[160] = "";

	if (cut)
		snprintf(more, sizeof(more), "; the %s's run was stopped at HIPPORT_RECORD_TIMEOUT: its %zu launches "
					     "compared, the other's %zu more not",
			 cut == ref ? "original" : "port", n, (nr > np ? nr : np) - n);
	if (k->inexact) {
		size_t len = strlen(more);

		snprintf(more + len, sizeof(more) - len, "; not bit-exact from the same compiler: see below");
	}
	if (nr != np && !cut) {
		snprintf(k->message, sizeof(k->message), "launched %zu times in the original, %zu in the port", nr, np);
		k->verdict = REC_ERROR;
	} else if (differ && differ + k->uncaptured == n) {
		snprintf(k->message, sizeof(k->message),
			 "every launch had other inputs than the original's: the divergence is before this kernel");
		k->verdict = REC_INPUTS_DIFFER;
	} else if (!k->compared && k->clock_readings) {
		snprintf(k->message, sizeof(k->message),
			 "nothing compared: the outputs its launches changed hold clock readings (written from clock() or "
			 "a timer), which differ between runs and GPUs");
		k->verdict = REC_ERROR;
	} else if (!k->compared) {
		snprintf(k->message, sizeof(k->message),
			 "nothing compared: no launch with the original's inputs changed memory its arguments reach or printed, on "
			 "either side (it rewrote the values already there, or its outputs are __device__ globals or "
			 "host memory): a spec check can judge it");
		k->verdict = REC_ERROR;
	} else {
		char past[96] = "", nondet[128] = "", clocks[160] = "";

		if (k->uncaptured)
			snprintf(past, sizeof(past), " (%zu past HIPPORT_RECORD_LAUNCHES: status only)", k->uncaptured);
		if (k->nondeterministic && k->spread > 0)
			snprintf(nondet, sizeof(nondet),
				 "; nondeterministic in the original (its runs differ by up to %.3g), within twice that",
				 k->spread);
		else if (k->nondeterministic)
			snprintf(nondet, sizeof(nondet), "; nondeterministic in the original, within tolerance");
		if (k->clock_readings)
			snprintf(clocks, sizeof(clocks), "; %zu output%s holding clock readings not compared", k->clock_readings,
				 k->clock_readings == 1 ? "" : "s");
		snprintf(k->message, sizeof(k->message), "%zu launch%s%s, %zu output%s compared%s%s%s%s", n,
			 n == 1 ? "" : "es", past, k->compared, k->compared == 1 ? "" : "s",
			 differ ? ", some launches with other inputs skipped" : "", nondet, clocks, more);
	}
}

static void judge(rec_kernel *k, const chk_recording *ref, const chk_recording *ref2, const chk_recording *port,
		  bool exact, rec_equal *eq)
{
	size_t nr = count_of(ref, k->kernel), np = count_of(port, k->kernel), n = nr < np ? nr : np, j, i;
	size_t differ = 0;

	k->launches = n;
	k->arg = -1;
	k->verdict = REC_PASS;
	for (j = 0; j < n; j++) {
		const chk_rec_launch *r = nth(ref, k->kernel, j), *p = nth(port, k->kernel, j);
		const chk_rec_launch *r2 = nth(ref2, k->kernel, j);

		k->first_launch = j;
		k->first_seq = p->seq;
		if (r->time_us >= 0 && p->time_us > 0) {
			if (k->timed < sizeof(k->ratios) / sizeof(*k->ratios))
				k->ratios[k->timed] = (float)(r->time_us / p->time_us);
			k->ref_us += r->time_us;
			k->port_us += p->time_us;
			k->timed++;
		}
		if (p->launch_status != r->launch_status || p->sync_status != r->sync_status) {
			if (p->launch_status || p->sync_status)
				snprintf(k->message, sizeof(k->message),
					 "launch %zu failed in the port (status %d, %d; the original's %d, %d)", j,
					 p->launch_status, p->sync_status, r->launch_status, r->sync_status);
			else
				snprintf(k->message, sizeof(k->message),
					 "launch %zu failed in the original (status %d, %d), not in the port: the original's "
					 "run is the suspect (its program, inputs or machine), not the port",
					 j, r->launch_status, r->sync_status);
			k->verdict = REC_ERROR;
			break;
		}
		/* failing as the original does (an assert the program makes on
		 * purpose) is no fault of the port: its outputs still tell */
		if ((p->launch_status || p->sync_status) && !k->failed_alike++) {
			k->alike_launch = j;
			k->alike_status[0] = p->launch_status;
			k->alike_status[1] = p->sync_status;
		}
		if (r->uncaptured || p->uncaptured) {
			k->uncaptured++;
			continue;
		}
		if (r->nargs != p->nargs) {
			snprintf(k->message, sizeof(k->message), "launch %zu has %zu arguments in the original, %zu in the port", j,
				 r->nargs, p->nargs);
			k->verdict = REC_ERROR;
			break;
		}
		if (!same_inputs(r, r2, p, eq)) {
			differ++;
			continue;
		}
		for (i = 0; i < r->nargs; i++) {
			const chk_rec_arg *a = &r->args[i], *b = &p->args[i];

			if (a->kind != CHK_REC_POINTER || b->kind != CHK_REC_POINTER ||
			    (a->after == a->before && b->after == b->before))
				continue;
			if (a->owner < 0 && i < 64 && (k->clocked >> i & 1)) {
				k->clock_readings++;
				continue;
			}
			if (!output_matches(k, ref, ref2, port, r, r2, p, i, exact))
				break;
			add_equal(eq, b->after, a->after);
		}
		if (i < r->nargs || !printed_matches(k, ref, ref2, port, r, r2, p, j))
			break;
	}
	k->skipped = differ;
	if (k->verdict == REC_PASS)
		summarize(k, ref, port, nr, np, n, differ);
	if (k->failed_alike) {
		size_t len = strlen(k->message);
		char more[64] = "";

		if (k->failed_alike > 1)
			snprintf(more, sizeof(more), " (and %zu later ones)", k->failed_alike - 1);
		snprintf(k->message + len, sizeof(k->message) - len,
			 "; note: launch %zu%s failed in the original too, with equal statuses (%d, %d on both sides): "
			 "not the port's fault, outputs compared as usual",
			 k->alike_launch, more, k->alike_status[0], k->alike_status[1]);
	}
}

/* Whether k diverged first where, from one compiler, its bytes first
 * differed, rather than where it failed. */
static bool diverged_inexact(const rec_kernel *k)
{
	return k->inexact && (k->verdict != REC_FAIL || k->inexact_seq < k->first_seq);
}

/* The launches of a run that failed. */
static size_t failures(const chk_recording *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->launches[i].launch_status || r->launches[i].sync_status;
	return n;
}

int rec_compare(rec_report *out, const chk_recording *ref, const chk_recording *ref2, const chk_recording *port,
		rec_clocked_fn clocked, void *data)
{
	rec_equal eq = { NULL, 0, 0 };
	size_t i, k, pass, done;
	const chk_recording *both[2];
	unsigned long long best = 0;

	memset(out, 0, sizeof(*out));
	out->first_divergent = -1;
	out->first_failed = -1;
	/* an original that failed in one run and not in the other is flaky on
	 * this machine: its good run is the reference */
	if (ref2 && ref2->n && (out->ref_failures = failures(ref)) > (out->ref2_failures = failures(ref2))) {
		const chk_recording *t = ref;

		ref = ref2;
		ref2 = t;
		out->swapped = true;
	}
	both[0] = ref;
	both[1] = port;
	for (k = 0; k < 2; k++)
		for (i = 0; i < both[k]->n; i++) {
			const chk_rec_launch *l = &both[k]->launches[i];
			size_t j;

			for (j = 0; j < out->n && strcmp(out->kernels[j].kernel, l->kernel) != 0; j++)
				;
			if (j == out->n) {
				rec_kernel *m = realloc(out->kernels, (out->n + 1) * sizeof(*m));

				if (!m) {
					rec_report_dispose(out);
					return util_error_set(UTIL_ENOMEM, "out of memory");
				}
				out->kernels = m;
				memset(&m[out->n], 0, sizeof(*m));
				snprintf(m[out->n].kernel, sizeof(m->kernel), "%s", l->kernel);
				snprintf(m[out->n].site, sizeof(m->site), "%s", l->site);
				m[out->n].clocked = clocked ? clocked(l->kernel, l->site, data) : 0;
				out->n++;
			}
		}
	out->same_compiler = !strcmp(port->platform, "nvidia-proxy");
	/* kernels are judged in order of first launch, not of each launch: the
	 * memory found equal by one pass lets the next judge what reads it; a
	 * kernel that skipped no launch is judged as it would be again */
	for (pass = 0, done = 0; pass < 8 && (pass == 0 || eq.n > done); pass++) {
		done = eq.n;
		for (i = 0; i < out->n; i++) {
			rec_kernel *kn = &out->kernels[i];
			char name[sizeof(kn->kernel)], site[sizeof(kn->site)];
			uint64_t clocks = kn->clocked;

			if (pass > 0 && !kn->skipped)
				continue;
			memcpy(name, kn->kernel, sizeof(name));
			memcpy(site, kn->site, sizeof(site));
			memset(kn, 0, sizeof(*kn));
			memcpy(kn->kernel, name, sizeof(name));
			memcpy(kn->site, site, sizeof(site));
			kn->clocked = clocks;
			judge(kn, ref, ref2, port, out->same_compiler, &eq);
		}
	}
	free(eq.pairs);
	for (i = 0; i < out->n; i++) {
		rec_kernel *kn = &out->kernels[i];
		/* where it diverged first: a failure, or bytes within tolerance
		 * that the same compiler should have made equal */
		unsigned long long at;

		if (kn->verdict == REC_FAIL &&
		    (out->first_failed < 0 || kn->first_seq < out->kernels[out->first_failed].first_seq))
			out->first_failed = (int)i;
		if (kn->verdict != REC_FAIL && !kn->inexact)
			continue;
		at = diverged_inexact(kn) ? kn->inexact_seq : kn->first_seq;
		if (out->first_divergent < 0 || at < best) {
			out->first_divergent = (int)i;
			best = at;
		}
	}
	return 0;
}

void rec_report_dispose(rec_report *r)
{
	free(r->kernels);
	memset(r, 0, sizeof(*r));
}

static int by_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

bool rec_kernel_ratio(const rec_kernel *k, double *q1, double *median, double *q3)
{
	size_t n = k->timed < sizeof(k->ratios) / sizeof(*k->ratios) ? k->timed : sizeof(k->ratios) / sizeof(*k->ratios);
	float sorted[sizeof(k->ratios) / sizeof(*k->ratios)];

	if (!n)
		return false;
	memcpy(sorted, k->ratios, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_float);
	*q1 = sorted[(n - 1) / 4];
	*median = sorted[(n - 1) / 2];
	*q3 = sorted[(3 * (n - 1) + 3) / 4];
	return true;
}

bool rec_kernel_slow(const rec_kernel *k, double budget)
{
	double q1, median, q3;

	return k->timed >= REC_SPREAD_LAUNCHES && rec_kernel_ratio(k, &q1, &median, &q3) && q3 < budget;
}

void rec_report_print_times(FILE *f, const rec_report *r, double budget)
{
	size_t i, shown = 0;

	for (i = 0; i < r->n; i++) {
		const rec_kernel *k = &r->kernels[i];
		double q1, median, q3;

		if (!rec_kernel_ratio(k, &q1, &median, &q3))
			continue;
		if (!shown++)
			fprintf(f, "times (each launch once, as the program made it; ratio: original / port, the median of "
				   "the launches' and their quartiles; budget %.2fx):\n%-32s %8s %12s %12s %7s %13s\n",
				budget, "KERNEL", "TIMED", "ORIG us", "PORT us", "RATIO", "QUARTILES");
		fprintf(f, "%-32s %8zu %12.2f %12.2f %6.2fx %6.2f-%-6.2f%s\n", k->kernel, k->timed, k->ref_us, k->port_us,
			median, q1, q3, rec_kernel_slow(k, budget) ? "  slow: below the budget beyond the spread"
					: median < budget ? "  below the budget, in too few launches for a spread: time its check"
							  : "");
	}
}

static const char *verdict_name(rec_verdict v)
{
	static const char *const names[] = { "pass", "fail", "inputs-differ", "error" };
	return names[v];
}

void rec_report_print(FILE *f, const rec_report *r)
{
	size_t i;

	if (r->swapped)
		fprintf(f, "note: the original's first run had %zu failed launch%s, its second %zu: the second is the "
			   "reference (the original is flaky on this machine)\n",
			r->ref_failures, r->ref_failures == 1 ? "" : "es", r->ref2_failures);
	fprintf(f, "%-32s %-14s %-8s %s\n", "KERNEL", "RESULT", "LAUNCHES", "MESSAGE");
	for (i = 0; i < r->n; i++)
		fprintf(f, "%-32s %-14s %-8zu %s\n", r->kernels[i].kernel, verdict_name(r->kernels[i].verdict),
			r->kernels[i].launches, r->kernels[i].message);
	if (r->first_divergent >= 0) {
		const rec_kernel *k = &r->kernels[r->first_divergent];
		bool inexact = diverged_inexact(k);

		fprintf(f, "first divergence: %s (%s), its launch %zu (launch %llu of the port's run), from the original's "
			   "inputs: look here first\n",
			k->kernel, k->site, inexact ? k->inexact_launch : k->first_launch,
			inexact ? k->inexact_seq : k->first_seq);
		if (inexact)
			fprintf(f, "  %s, though one compiler built both sides for one GPU (nvidia-proxy) and the "
				   "original's two runs agree: the port's kernel computes otherwise (a fix taken, or a "
				   "wrong port)\n",
				k->inexact_what);
		/* a kernel within tolerance came first (a fix that rounds otherwise): name the failure too */
		if (r->first_failed >= 0 && r->first_failed != r->first_divergent) {
			const rec_kernel *bad = &r->kernels[r->first_failed];

			fprintf(f, "first failure: %s (%s), its launch %zu (launch %llu of the port's run): %s\n", bad->kernel,
				bad->site, bad->first_launch, bad->first_seq, bad->message);
		}
	} else {
		fprintf(f, "no kernel's outputs diverged from identical inputs\n");
	}
}
