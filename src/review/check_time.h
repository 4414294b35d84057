/* A kernel check's times as the session keeps them: each side's median, the
 * ratio and its range, the port's bandwidth and its share of the device's
 * peak, judged against the budget when the check's results came in
 * (docs/checks.md, "Timing"). hipport status, the review's check view and
 * the commit message show them without the bundle's results. */
#ifndef HIPPORT_REVIEW_CHECK_TIME_H
#define HIPPORT_REVIEW_CHECK_TIME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct rv_check_time {
	bool timed;              /* both sides measured: the rest holds figures */
	double ref_us, port_us;  /* each side's median (a record run: the launches' sums) */
	double ratio, low, high; /* reference / port (above 1 the port is faster), its range */
	double gbps;             /* the port's bandwidth, 0 when its bytes are unknown */
	double peak_share;       /* of its device's peak, 0 when the device is in no row */
	double budget;           /* check.perfBudget then */
	bool slow;               /* the whole range below the budget */
	char ref_device[128], port_device[128]; /* "" when not said */
} rv_check_time;

/* {"ref_us", ...} of a timed check, NULL for one not timed (or out of memory). */
json_t *rv_check_time_to_json(const rv_check_time *t);

/* From the object rv_check_time_to_json made (NULL: not timed); false
 * when it is not such an object. */
bool rv_check_time_from_json(rv_check_time *out, const json_t *object);

/* "0.61x (0.58-0.64) of the reference: 20.10 us vs 12.30 us, 812 GB/s (17%
 * of peak), NVIDIA H200 vs NVIDIA H200" or "not timed"; slow ones say so. */
void rv_check_time_format(char *out, size_t size, const rv_check_time *t);

#endif
