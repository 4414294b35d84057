/* [slurm] of .hipport/config, read with libgit2's config parser like the
 * rest of the configuration, so a site's conventions need no code. */
#include "check/slurm/slurm.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/toolchain/arch.h"
#include "util/error.h"
#include "vcs/config.h"

static const char *git_message(void)
{
	return git_error_last() ? git_error_last()->message : "cannot read";
}

/* A whole number from lo to hi; unset leaves *out. */
static int get_number(unsigned *out, git_config *cfg, const char *name, const char *path, long lo, long hi)
{
	int64_t v;
	int rc = git_config_get_int64(&v, cfg, name);

	if (rc == GIT_ENOTFOUND)
		return 0;
	if (rc < 0 || v < lo || v > hi)
		return util_error_set(UTIL_EINPUT, "%s: %s must be a whole number from %ld to %ld", path, name, lo, hi);
	*out = (unsigned)v;
	return 0;
}

typedef struct lines {
	char ***items;
	size_t *n;
} lines;

static int add_line(const git_config_entry *entry, void *payload)
{
	lines *l = payload;
	char **m = realloc(*l->items, (*l->n + 1) * sizeof(*m));

	if (!m)
		return -1;
	*l->items = m;
	if (!(m[*l->n] = strdup(entry->value ? entry->value : "")))
		return -1;
	(*l->n)++;
	return 0;
}

static int get_lines(char ***items, size_t *n, git_config *cfg, const char *name, const char *path)
{
	lines l = { items, n };
	int rc = git_config_get_multivar_foreach(cfg, name, NULL, add_line, &l);

	if (rc == GIT_ENOTFOUND)
		return 0;
	return rc < 0 ? util_error_set(UTIL_EINPUT, "%s: %s: %s", path, name, git_message()) : 0;
}

/* The targets: offload archs (target ids, as --offload-arch takes them) or
 * nvidia-proxy, words that go into file names and job names. */
static int split_targets(slurm_config *out, const char *text, const char *path)
{
	size_t i;
	int error = tc_arch_list_split(&out->targets, &out->ntargets, text);

	for (i = 0; i < out->ntargets && !error; i++) {
		tc_arch arch;

		if (strcmp(out->targets[i], "nvidia-proxy") == 0 || tc_arch_parse(&arch, out->targets[i]) == 0)
			continue;
		util_error_clear();
		error = util_error_set(UTIL_EINPUT, "%s: slurm.targets: '%s' is not an offload arch (gfx90a, gfx942) "
				       "or nvidia-proxy", path, out->targets[i]);
	}
	return error;
}

/* Values that go into #SBATCH lines must stay one line and one word. */
static int one_word(const char *value, const char *name, const char *path)
{
	if (value && (!*value || strpbrk(value, " \t\r\n")))
		return util_error_set(UTIL_EINPUT, "%s: %s: '%s' must be one word", path, name, value);
	return 0;
}

int slurm_config_read(slurm_config *out, const char *path)
{
	git_config *cfg = NULL;
	char *targets = NULL;
	struct stat st;
	size_t i;
	int error = 0;

	memset(out, 0, sizeof(*out));
	out->group_size = SLURM_GROUP_SIZE;
	out->gpus_per_task = 1;
	out->build_seconds = SLURM_BUILD_SECONDS;
	out->poll_seconds = SLURM_POLL_SECONDS;
	if (stat(path, &st) < 0)
		return 0;
	if (git_config_open_ondisk(&cfg, path) < 0)
		return util_error_set(UTIL_EINPUT, "%s: %s", path, git_message());
	if ((error = vcs_config_get_string(&out->partition, cfg, "slurm.partition", path)) < 0 ||
	    (error = vcs_config_get_string(&out->nvidia_partition, cfg, "slurm.nvidiaPartition", path)) < 0 ||
	    (error = vcs_config_get_string(&out->account, cfg, "slurm.account", path)) < 0 ||
	    (error = vcs_config_get_string(&out->qos, cfg, "slurm.qos", path)) < 0 ||
	    (error = vcs_config_get_string(&out->host, cfg, "check.slurmHost", path)) < 0 ||
	    (error = vcs_config_get_string(&targets, cfg, "slurm.targets", path)) < 0 ||
	    (error = get_lines(&out->extra, &out->nextra, cfg, "slurm.extra", path)) < 0 ||
	    (error = get_lines(&out->setup, &out->nsetup, cfg, "slurm.setup", path)) < 0 ||
	    (error = get_number(&out->group_size, cfg, "slurm.groupSize", path, 1, 100000)) < 0 ||
	    (error = get_number(&out->gpus_per_task, cfg, "slurm.gpusPerTask", path, 0, 64)) < 0 ||
	    (error = get_number(&out->build_seconds, cfg, "slurm.buildSeconds", path, 1, 86400)) < 0 ||
	    (error = get_number(&out->poll_seconds, cfg, "slurm.pollSeconds", path, 1, 3600)) < 0 ||
	    (error = one_word(out->partition, "slurm.partition", path)) < 0 ||
	    (error = one_word(out->nvidia_partition, "slurm.nvidiaPartition", path)) < 0 ||
	    (error = one_word(out->account, "slurm.account", path)) < 0 ||
	    (error = one_word(out->qos, "slurm.qos", path)) < 0 ||
	    (error = one_word(out->host, "check.slurmHost", path)) < 0 ||
	    (targets && (error = split_targets(out, targets, path)) < 0))
		goto done;
	for (i = 0; i < out->nextra; i++)
		if (strpbrk(out->extra[i], "\r\n") || out->extra[i][0] != '-') {
			error = util_error_set(UTIL_EINPUT, "%s: slurm.extra: '%s' is not an sbatch option (--constraint=mi300x)",
					       path, out->extra[i]);
			goto done;
		}
	for (i = 0; i < out->nsetup; i++)
		if (strpbrk(out->setup[i], "\r\n")) {
			error = util_error_set(UTIL_EINPUT, "%s: slurm.setup: one shell line per value", path);
			goto done;
		}
done:
	free(targets);
	git_config_free(cfg);
	if (error < 0)
		slurm_config_dispose(out);
	return error;
}

static void free_lines(char **items, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

void slurm_config_dispose(slurm_config *cfg)
{
	free(cfg->partition);
	free(cfg->nvidia_partition);
	free(cfg->account);
	free(cfg->qos);
	free(cfg->host);
	free_lines(cfg->extra, cfg->nextra);
	free_lines(cfg->setup, cfg->nsetup);
	free_lines(cfg->targets, cfg->ntargets);
	memset(cfg, 0, sizeof(*cfg));
}
