#include "analyze/finding.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static const an_catalog_entry catalog[] = {
	{ "API-001", AN_ERROR, "CUDA runtime API without a HIP equivalent",
	  "A CUDA runtime name that HIP lacks (or that the target HIP version lacks) was left as is: "
	  "the port will not build until it is replaced by hand." },
	{ "API-002", AN_ERROR, "CUDA driver API without a HIP equivalent",
	  "A CUDA driver API name that HIP lacks for the target was left as is." },
	{ "API-003", AN_ERROR, "CUDA device function or type without a HIP equivalent",
	  "A device intrinsic, math function or device type that HIP lacks for the target was left as is." },
	{ "API-004", AN_ERROR, "cuComplex API without a HIP equivalent", "A cuComplex name HIP lacks was left as is." },
	{ "API-005", AN_ERROR, "cuBLAS API without a hipBLAS/rocBLAS equivalent",
	  "A cuBLAS name that hipBLAS (or rocBLAS with --roc) lacks for the target was left as is." },
	{ "API-006", AN_ERROR, "cuRAND API without a hipRAND/rocRAND equivalent",
	  "A cuRAND name without an equivalent was left as is." },
	{ "API-007", AN_ERROR, "cuDNN API without a MIOpen/hipDNN equivalent",
	  "A cuDNN name without an equivalent was left as is." },
	{ "API-008", AN_ERROR, "cuFFT API without a hipFFT equivalent", "A cuFFT name without an equivalent was left as is." },
	{ "API-009", AN_ERROR, "cuSPARSE API without a hipSPARSE/rocSPARSE equivalent",
	  "A cuSPARSE name without an equivalent was left as is." },
	{ "API-010", AN_ERROR, "cuSOLVER API without a hipSOLVER/rocSOLVER equivalent",
	  "A cuSOLVER name without an equivalent was left as is." },
	{ "API-011", AN_ERROR, "CUB API without a hipCUB equivalent", "A CUB name without an equivalent was left as is." },
	{ "API-012", AN_ERROR, "NVRTC API without a hipRTC equivalent", "An NVRTC name without an equivalent was left as is." },
	{ "API-099", AN_ERROR, "CUDA API without a HIP equivalent", "A CUDA name without an equivalent was left as is." },
};

const an_catalog_entry *an_catalog_find(const char *id)
{
	size_t i;

	for (i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++)
		if (strcmp(catalog[i].id, id) == 0)
			return &catalog[i];
	return NULL;
}

const an_catalog_entry *an_catalog_all(size_t *count)
{
	*count = sizeof(catalog) / sizeof(catalog[0]);
	return catalog;
}

int an_findings_of(an_finding **out, size_t *count, const rv_proposal *p, const port_options *opts)
{
	an_finding *f = NULL;
	size_t i, n = 0;
	util_buf msg = UTIL_BUF_INIT;

	*out = NULL;
	*count = 0;
	if (p->state != RV_PROPOSAL_OK)
		return 0;
	for (i = 0; i < p->port.nrefs; i++)
		n += port_ref_is_problem(&p->port.refs[i]);
	if (!n)
		return 0;
	f = calloc(n, sizeof(*f));
	if (!f)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	n = 0;
	for (i = 0; i < p->port.nrefs; i++) {
		const port_ref *r = &p->port.refs[i];

		if (!port_ref_is_problem(r))
			continue;
		util_buf_clear(&msg);
		port_ref_message(&msg, r, opts);
		f[n].id = port_ref_finding_id(r);
		f[n].severity = an_catalog_find(f[n].id)->severity;
		f[n].line = r->line;
		f[n].col = r->col;
		f[n].end_col = r->col + r->length;
		f[n].message = strdup(msg.ptr ? msg.ptr : "");
		f[n].name = r->rule->cuda;
		f[n].family = r->rule->family;
		if (!f[n].message) {
			an_findings_free(f, n);
			util_buf_dispose(&msg);
			return util_error_set(UTIL_ENOMEM, "out of memory");
		}
		n++;
	}
	util_buf_dispose(&msg);
	*out = f;
	*count = n;
	return 0;
}

void an_findings_free(an_finding *findings, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(findings[i].message);
	free(findings);
}

const char *an_severity_name(an_severity s)
{
	return s == AN_ERROR ? "error" : s == AN_WARNING ? "warning" : "note";
}

int an_severity_parse(const char *text)
{
	if (strcmp(text, "error") == 0)
		return AN_ERROR;
	if (strcmp(text, "warning") == 0)
		return AN_WARNING;
	if (strcmp(text, "note") == 0)
		return AN_NOTE;
	return -1;
}
