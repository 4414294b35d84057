/* When a tuning run's best config is worth TRITON-009's fix
 * (an_tuned_improves): faster by 5% and beyond the spread of the repeats,
 * and another config than the launch's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analyze/analysis.h"

static an_tuned_kernel kernel(long program_warps, long best_warps, double program_ms, double program_q1,
			      double best_ms, double best_q3, an_tuned_option *o)
{
	an_tuned_kernel k = { 0 };

	o->name = "num_warps";
	o->program = program_warps;
	o->best = best_warps;
	k.options = o;
	k.noptions = 1;
	k.program_ms = program_ms;
	k.program_q1 = program_q1;
	k.best_ms = best_ms;
	k.best_q3 = best_q3;
	return k;
}

static void test_improves(void **state)
{
	an_tuned_option o;
	an_tuned_kernel k;

	(void)state;
	k = kernel(1, 8, 0.1023, 0.1020, 0.0965, 0.0966, &o);
	assert_true(an_tuned_improves(&k)); /* 6% faster, the repeats apart */
	k = kernel(1, 8, 0.1023, 0.1020, 0.0990, 0.0995, &o);
	assert_false(an_tuned_improves(&k)); /* 3%: within what timing tells */
	k = kernel(1, 8, 2.0, 1.9, 1.8, 1.95, &o);
	assert_false(an_tuned_improves(&k)); /* 10% by the medians, the repeats overlap: noise */
	k = kernel(8, 8, 2.0, 1.9, 1.0, 1.1, &o);
	assert_false(an_tuned_improves(&k)); /* the launch's own config */
	k = kernel(1, 8, 0, 0, 1.0, 1.1, &o);
	assert_false(an_tuned_improves(&k)); /* the launch's config was not timed */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_improves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
