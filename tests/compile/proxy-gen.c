/* Writes the nvidia-proxy headers (src/check/kernel/proxy.c) that a bundle of the
 * given port sources would get, for test-proxy.sh to build them with nvcc.
 * usage: proxy-gen [-r RULES_DIR] OUTDIR FILE...   exit 0, or 1 with a message
 * (-r: the rules of a folder, as --rules gives them, not the built-in ones) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/kernel/proxy.h"
#include "util/error.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (text = malloc((size_t)n + 1)) && fread(text, 1, (size_t)n, f) == (size_t)n) {
		text[n] = '\0';
		*len = (size_t)n;
	} else {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/* Makes the folders of path (a file's path) as needed. */
static int make_parents(char *path)
{
	char *slash;

	for (slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			perror(path);
			return -1;
		}
		*slash = '/';
	}
	return 0;
}

int main(int argc, char **argv)
{
	port_rules *rules = NULL;
	chk_proxy proxy;
	const char **texts, *rules_dir = NULL;
	size_t *lens, i;
	int n, k, code = 0;

	if (argc > 2 && strcmp(argv[1], "-r") == 0) {
		rules_dir = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: proxy-gen [-r RULES_DIR] OUTDIR FILE...\n");
		return 2;
	}
	n = argc - 2;
	texts = calloc((size_t)n, sizeof(*texts));
	lens = calloc((size_t)n, sizeof(*lens));
	if (!texts || !lens)
		return 1;
	for (k = 0; k < n; k++)
		if (!(texts[k] = slurp(argv[k + 2], &lens[k]))) {
			perror(argv[k + 2]);
			return 1;
		}
	if ((rules_dir ? port_rules_load_dir(&rules, rules_dir) : port_rules_load_builtin(&rules)) < 0 ||
	    chk_proxy_make(&proxy, rules, texts, lens, (size_t)n, NULL, NULL, 0) < 0) {
		fprintf(stderr, "proxy-gen: %s\n", util_error_last());
		return 1;
	}
	for (i = 0; i < proxy.nfiles && !code; i++) {
		size_t len = strlen(argv[1]) + strlen(proxy.files[i].path) + 2;
		char *path = malloc(len);
		FILE *f;

		if (!path)
			return 1;
		snprintf(path, len, "%s/%s", argv[1], proxy.files[i].path);
		if (make_parents(path) < 0 || !(f = fopen(path, "wb"))) {
			perror(path);
			code = 1;
		} else if ((fwrite(proxy.files[i].text.ptr, 1, proxy.files[i].text.len, f) != proxy.files[i].text.len) |
			   (fclose(f) != 0)) {
			perror(path);
			code = 1;
		}
		free(path);
	}
	chk_proxy_dispose(&proxy);
	port_rules_free(rules);
	for (k = 0; k < n; k++)
		free((char *)texts[k]);
	free(texts);
	free(lens);
	return code;
}
