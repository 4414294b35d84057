#include "check/toolchain/arch.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/toolchain/gpu.h"
#include "util/buf.h"
#include "util/error.h"
#include "vcs/config.h"

/* gfx + 3 or 4 hex digits (gfx90a, gfx1030), or a generic target
 * (gfx9-generic, gfx10-3-generic). */
static bool valid_processor(const char *p, size_t len)
{
	size_t i, digits;

	if (len < 6 || len >= sizeof(((tc_arch *)0)->processor) || strncmp(p, "gfx", 3) != 0)
		return false;
	if (len > 11 && memcmp(p + len - 8, "-generic", 8) == 0) {
		for (i = 3; i < len - 8; i++)
			if (!isdigit((unsigned char)p[i]) && !(p[i] == '-' && i > 3 && i + 1 < len - 8))
				return false;
		return true;
	}
	digits = len - 3;
	if (digits < 3 || digits > 4 || !isdigit((unsigned char)p[3]))
		return false;
	for (i = 3; i < len; i++)
		if (!isdigit((unsigned char)p[i]) && !(p[i] >= 'a' && p[i] <= 'f'))
			return false;
	return true;
}

int tc_arch_parse(tc_arch *out, const char *text)
{
	const char *p = text, *colon;
	size_t len;

	memset(out, 0, sizeof(*out));
	if (!text)
		return util_error_set(UTIL_EINPUT, "no arch");
	colon = strchr(p, ':');
	len = colon ? (size_t)(colon - p) : strlen(p);
	if (!valid_processor(p, len))
		return util_error_set(UTIL_EINPUT, "'%s' is not an AMD GPU arch like gfx90a or gfx942", text);
	memcpy(out->processor, p, len);
	out->processor[len] = '\0';
	while (colon) {
		const char *f = colon + 1;
		tc_feature *which = NULL;
		size_t n;

		colon = strchr(f, ':');
		n = colon ? (size_t)(colon - f) : strlen(f);
		if (n == 6 && strncmp(f, "xnack", 5) == 0)
			which = &out->xnack;
		else if (n == 8 && strncmp(f, "sramecc", 7) == 0)
			which = &out->sramecc;
		if (!which || (f[n - 1] != '+' && f[n - 1] != '-') || *which != TC_FEATURE_ANY)
			return util_error_set(UTIL_EINPUT,
					      "'%s': '%.*s' is not a target feature (xnack+, xnack-, sramecc+, sramecc-)",
					      text, (int)n, f);
		*which = f[n - 1] == '+' ? TC_FEATURE_ON : TC_FEATURE_OFF;
	}
	return 0;
}

static bool feature_fits(tc_feature target, tc_feature device)
{
	return target == TC_FEATURE_ANY || device == TC_FEATURE_ANY || target == device;
}

bool tc_arch_runs_on(const tc_arch *target, const tc_arch *device)
{
	return strcmp(target->processor, device->processor) == 0 && feature_fits(target->xnack, device->xnack) &&
	       feature_fits(target->sramecc, device->sramecc);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int tc_arch_from_gfx_version(char *out, size_t size, const char *version)
{
	unsigned long major, minor, stepping;
	char *end;
	const char *p = version;

	if (!version || !isdigit((unsigned char)*p))
		goto bad;
	major = strtoul(p, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		goto bad;
	minor = strtoul(end + 1, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		goto bad;
	stepping = strtoul(end + 1, &end, 10);
	if (*end || major < 1 || major > 99 || minor > 15 || stepping > 15)
		goto bad;
	snprintf(out, size, "gfx%lu%lx%lx", major, minor, stepping);
	return 0;
bad:
	return util_error_set(UTIL_EINPUT, "'%s' is not a gfx version like 9.4.2 or 10.3.0", version ? version : "");
}

int tc_arch_to_gfx_version(char *out, size_t size, const char *processor)
{
	size_t len = processor ? strlen(processor) : 0;
	int minor, stepping;

	if (!valid_processor(processor, len) || strstr(processor, "generic"))
		return util_error_set(UTIL_EINPUT, "'%s' is not a gfx processor", processor ? processor : "");
	minor = hex_digit(processor[len - 2]);
	stepping = hex_digit(processor[len - 1]);
	snprintf(out, size, "%.*s.%d.%d", (int)(len - 5), processor + 3, minor, stepping);
	return 0;
}

int tc_arch_list_split(char ***out, size_t *count, const char *text)
{
	char **list = NULL;
	size_t n = 0;
	const char *p = text ? text : "";

	*out = NULL;
	*count = 0;
	while (*p) {
		size_t len = strcspn(p, ";, \t");

		if (len) {
			char **grown = realloc(list, (n + 1) * sizeof(*grown));

			if (!grown || !(grown[n] = strndup(p, len))) {
				tc_arch_list_free(grown ? grown : list, n);
				return util_error_set(UTIL_ENOMEM, "out of memory");
			}
			list = grown;
			n++;
		}
		p += len;
		p += strspn(p, ";, \t");
	}
	*out = list;
	*count = n;
	return 0;
}

void tc_arch_list_free(char **list, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(list[i]);
	free(list);
}

const char *tc_arch_source_name(tc_arch_source source)
{
	switch (source) {
	case TC_ARCH_FROM_OPTION:
		return "option";
	case TC_ARCH_FROM_CONFIG:
		return "config";
	case TC_ARCH_FROM_DEVICE:
		return "device";
	default:
		return "none";
	}
}

/* UTIL_EINPUT: "where: why text is no arch". */
static int bad_arch(const char *where)
{
	char *why = strdup(util_error_last());
	int error = util_error_set(why ? UTIL_EINPUT : UTIL_ENOMEM, "%s: %s", where, why ? why : "out of memory");

	free(why);
	return error;
}

int tc_offload_arch_choose(tc_arch_choice *out, const char *cli_arch, const char *config_arch,
			    const char *device_arch)
{
	tc_arch parsed;
	const char *value;

	memset(out, 0, sizeof(*out));
	if (cli_arch) {
		if (tc_arch_parse(&parsed, cli_arch) < 0)
			return bad_arch("--offload-arch");
		value = cli_arch;
		out->source = TC_ARCH_FROM_OPTION;
	} else if (config_arch) {
		if (tc_arch_parse(&parsed, config_arch) < 0)
			return bad_arch(".hipport/config: check.offloadArch");
		value = config_arch;
		out->source = TC_ARCH_FROM_CONFIG;
	} else if (device_arch && tc_arch_parse(&parsed, device_arch) == 0) {
		value = device_arch;
		out->source = TC_ARCH_FROM_DEVICE;
	} else {
		return 0;
	}
	if (!(out->value = strdup(value))) {
		out->source = TC_ARCH_FROM_NONE;
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	return 0;
}

int tc_offload_arch_resolve(const char *cli_arch, const char *repo_root, tc_arch_choice *out)
{
	vcs_config cfg;
	tc_gpu_list gpus;
	int error;

	memset(&cfg, 0, sizeof(cfg));
	memset(&gpus, 0, sizeof(gpus));
	if (!cli_arch && repo_root && (error = vcs_config_read(&cfg, repo_root)) < 0)
		return error;
	if (!cli_arch && !cfg.check_offload_arch)
		tc_gpu_probe(&gpus); /* what it could not find is no error here */
	error = tc_offload_arch_choose(out, cli_arch, cfg.check_offload_arch, tc_gpu_list_amd_arch(&gpus));
	tc_gpu_list_dispose(&gpus);
	vcs_config_dispose(&cfg);
	return error;
}

void tc_arch_choice_dispose(tc_arch_choice *choice)
{
	free(choice->value);
	memset(choice, 0, sizeof(choice[0]));
}
