/* What two recorded launches printed (device printf, hipport_record.h's
 * SEQ.printf), compared as the lines of each sorted, since threads print
 * in no fixed order; numbers within 1e-5, so that a float printed from
 * another compiler's rounding still says the same. */
#ifndef HIPPORT_CHECK_PRINTED_H
#define HIPPORT_CHECK_PRINTED_H

#include <stdbool.h>
#include <stddef.h>

#include "check/kernel/launch_log.h"

/* Whether launch a (of the run in dir_a) and b (dir_b) printed the same;
 * else why says how they differ (a file that cannot be read included). */
bool rec_printed_same(const char *dir_a, const chk_rec_launch *a, const char *dir_b, const chk_rec_launch *b,
		      char *why, size_t size);

#endif
