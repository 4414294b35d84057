#include "review/cache.h"

#include <git2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uthash.h>

#include "analyze/finding.h"
#include "util/error.h"
#include "util/file.h"

/* The cache of one set of options is one file, .git/hipport/cache/<key>.pack,
 * read once when opened and written once (atomically) when saved: a scan of a
 * thousand files costs two file operations, not two thousand. It holds
 * records "E <blob id> <length>\n" followed by an entry (CACHE_MAGIC ...). */
#define CACHE_MAGIC "hipport-cache 2"
#define PACK_MAGIC "hipport-cache-pack 1\n"
#define HEX_LEN GIT_OID_HEXSZ

typedef struct pack_entry {
	char id[HEX_LEN + 1];
	const char *text; /* in the loaded pack, or owned (new) */
	size_t len;
	bool owned;
	bool used; /* hit or added by this run */
	UT_hash_handle hh;
} pack_entry;

/* Past this size a save keeps only the entries this run used. */
#define PACK_LIMIT ((size_t)256 << 20)

struct rv_cache {
	char *path;         /* .../.git/hipport/cache/<key>.pack */
	const char *map;    /* the pack as found, mapped read-only */
	size_t map_len;
	pack_entry *entries;
	pthread_mutex_t lock; /* guards additions to entries */
	bool dirty;
};

static void add_entry(rv_cache *c, const char *id, const char *text, size_t len, bool owned)
{
	pack_entry *e = NULL;

	HASH_FIND(hh, c->entries, id, HEX_LEN, e);
	if (e) {
		if (owned)
			free((char *)text);
		return;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		if (owned)
			free((char *)text);
		return;
	}
	memcpy(e->id, id, HEX_LEN);
	e->text = text;
	e->len = len;
	e->owned = owned;
	e->used = owned;
	HASH_ADD(hh, c->entries, id, HEX_LEN, e);
}

/* Indexes the records of a loaded pack; a damaged pack is dropped whole. */
static void index_pack(rv_cache *c)
{
	const char *p = c->map, *end = p + c->map_len;

	if (c->map_len < sizeof(PACK_MAGIC) - 1 || memcmp(p, PACK_MAGIC, sizeof(PACK_MAGIC) - 1) != 0)
		return;
	p += sizeof(PACK_MAGIC) - 1;
	while (p < end) {
		char id[HEX_LEN + 1], *after;
		unsigned long len;
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		/* "E <40 hex> <length>\n", parsed by hand: sscanf would measure the whole pack */
		if (!nl || nl - p < HEX_LEN + 4 || nl - p > 80 || p[0] != 'E' || p[1] != ' ' ||
		    p[HEX_LEN + 2] != ' ')
			return;
		memcpy(id, p + 2, HEX_LEN);
		id[HEX_LEN] = '\0';
		len = strtoul(p + HEX_LEN + 3, &after, 10);
		if (after != nl || strspn(id, "0123456789abcdef") != HEX_LEN || len > (size_t)(end - nl - 1))
			return;
		add_entry(c, id, nl + 1, len, false);
		p = nl + 1 + len;
	}
}

/* Maps the pack (a save replaces the file, so the mapping stays valid). */
static void map_pack(rv_cache *c)
{
	struct stat st;
	void *map;
	int fd = open(c->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			c->map = map;
			c->map_len = (size_t)st.st_size;
			index_pack(c);
		}
	}
	close(fd);
}

/* Which build of hipport this is: the analyzer and the fix templates are
 * compiled in and change between builds of one version, so the cache is
 * keyed by the executable itself (its size and modification time). */
static void build_id(char *out, size_t size)
{
	struct stat st;

	if (stat("/proc/self/exe", &st) == 0)
		snprintf(out, size, "%lld.%lld.%ld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
			 (long)st.st_mtim.tv_nsec);
	else
		snprintf(out, size, "unknown");
}

/* Which tuning runs the session keeps (.git/hipport/tune.json): TRITON-009
 * reads them, so a new one makes the Triton files' analysis another. */
static void tune_id(char *out, size_t size, const char *git_dir)
{
	struct stat st;
	char path[4096];

	snprintf(path, sizeof(path), "%s/hipport/tune.json", git_dir);
	if (stat(path, &st) == 0)
		snprintf(out, size, "%lld.%lld.%ld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
			 (long)st.st_mtim.tv_nsec);
	else
		snprintf(out, size, "-");
}

int rv_cache_open(rv_cache **out, const char *git_dir, const port_rules *rules, const port_options *opts,
		  const char *variant)
{
	char build[96], tuned[96];
	rv_cache *c = calloc(1, sizeof(*c));
	util_buf b = UTIL_BUF_INIT;
	char key[HEX_LEN + 1];
	git_oid oid;

	*out = NULL;
	if (!c)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	build_id(build, sizeof(build));
	tune_id(tuned, sizeof(tuned), git_dir);
	util_buf_printf(&b, "%s|%s|%s|%s|%lu|%d|%d|%d|%d|%s|%s|%s%s", HIPPORT_VERSION, build, tuned, port_rules_digest(rules),
			opts->target_hip, (int)opts->launch, (int)opts->roc, (int)opts->experimental, (int)opts->torch,
			variant ? variant : "", opts->offload_arch ? opts->offload_arch : "",
			opts->single_source ? "single-source=" : "", opts->single_source ? opts->single_source : "");
	git_odb_hash(&oid, b.ptr, b.len, GIT_OBJECT_BLOB);
	git_oid_tostr(key, 17, &oid);
	util_buf_clear(&b);
	util_buf_printf(&b, "%s/hipport/cache/%s.pack", git_dir, key);
	if (util_buf_oom(&b)) {
		util_buf_dispose(&b);
		free(c);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	c->path = util_buf_detach(&b);
	pthread_mutex_init(&c->lock, NULL);
	map_pack(c);
	*out = c;
	return 0;
}

int rv_cache_save(rv_cache *c)
{
	util_buf text = UTIL_BUF_INIT;
	pack_entry *e, *tmp;
	int error = 0;
	if (!c->dirty)
		return 0;
	size_t total = 0;
	bool prune;

	HASH_ITER(hh, c->entries, e, tmp)
		total += e->len;
	prune = total > PACK_LIMIT;
	util_buf_puts(&text, PACK_MAGIC);
	HASH_ITER(hh, c->entries, e, tmp) {
		if (prune && !e->used)
			continue;
		util_buf_printf(&text, "E %s %zu\n", e->id, e->len);
		util_buf_put(&text, e->text, e->len);
	}
	if (util_buf_oom(&text))
		error = util_error_set(UTIL_ENOMEM, "out of memory");
	else if ((error = util_file_write_fast(c->path, text.ptr, text.len)) < 0 &&
		 util_file_make_parents(c->path) == 0)
		error = util_file_write_fast(c->path, text.ptr, text.len);
	util_buf_dispose(&text);
	if (error == 0)
		c->dirty = false;
	return error;
}

void rv_cache_free(rv_cache *cache)
{
	pack_entry *e, *tmp;

	if (!cache)
		return;
	HASH_ITER(hh, cache->entries, e, tmp) {
		HASH_DEL(cache->entries, e);
		if (e->owned)
			free((char *)e->text);
		free(e);
	}
	pthread_mutex_destroy(&cache->lock);
	if (cache->map)
		munmap((void *)cache->map, cache->map_len);
	free(cache->path);
	free(cache);
}

static char rule_class(const port_rule *r)
{
	if (strncmp(r->family, "torch-v", 7) == 0)
		return (char)((r->family[7] == '1' ? 'H' : 'J') + (r->kind != PORT_RULE_HEADER));
	return r->kind == PORT_RULE_HEADER ? 'h' : r->kind == PORT_RULE_NAMESPACE ? 'n' : 'i';
}

static const port_rule *find_rule(const port_rules *rules, char cls, const char *name)
{
	size_t n = strlen(name);

	if (cls == 'H' || cls == 'I' || cls == 'J' || cls == 'K') { /* the PyTorch rules: v1 H/I, v2 J/K */
		rules = port_rules_torch(rules, cls <= 'I' ? PORT_TORCH_V1 : PORT_TORCH_V2);
		if (!rules)
			return NULL;
		return cls == 'H' || cls == 'J' ? port_rules_find_header(rules, name, n) : port_rules_find(rules, name, n);
	}
	if (cls == 'h')
		return port_rules_find_header(rules, name, n);
	if (cls == 'n')
		return port_rules_find_namespace(rules, name, n);
	return port_rules_find(rules, name, n);
}

/* The analysis: "hits N" (or "hits -" when the file was not analyzed), then
 * per hit "ID SEVERITY OFFSET LENGTH LINE COL END_COL EDITS MESSAGE_LENGTH\n"
 * and the message, then per edit "OFFSET LENGTH HELPER_LENGTH TEXT_LENGTH\n"
 * and the helper's name and the text. */
static void store_hits(util_buf *text, const rv_proposal *p)
{
	size_t i, k;

	if (!p->analyzed) {
		util_buf_puts(text, "hits -\n");
		return;
	}
	util_buf_printf(text, "hits %zu\n", p->analysis.count);
	for (i = 0; i < p->analysis.count; i++) {
		const an_hit *h = &p->analysis.hits[i];

		util_buf_printf(text, "%s %d %u %u %u %u %u %zu %zu\n%s", h->id, (int)h->severity, h->offset, h->length,
				h->line, h->col, h->end_col, h->nedits, strlen(h->message), h->message);
		for (k = 0; k < h->nedits; k++) {
			const an_edit *e = &h->edits[k];
			const char *helper = e->helper ? e->helper : "";

			util_buf_printf(text, "%u %u %zu %zu\n%s%s", e->offset, e->length, strlen(helper), strlen(e->text),
					helper, e->text);
		}
	}
}

/* Copies n bytes at *line into a new string and moves past them. */
static char *take(char **line, const char *end, unsigned long n)
{
	char *s;

	if ((unsigned long)(end - *line) < n || !(s = strndup(*line, n)))
		return NULL;
	*line += n;
	return s;
}

static bool parse_hit(an_hit *h, char **line, const char *end)
{
	char id[32], *nl = memchr(*line, '\n', (size_t)(end - *line));
	int sev;
	unsigned long nedits, msglen, k;
	const an_catalog_entry *entry;

	if (!nl)
		return false;
	*nl = '\0';
	if (sscanf(*line, "%31s %d %u %u %u %u %u %lu %lu", id, &sev, &h->offset, &h->length, &h->line, &h->col,
		   &h->end_col, &nedits, &msglen) != 9 || sev < AN_NOTE || sev > AN_ERROR || nedits > 64 ||
	    !(entry = an_catalog_find(id)))
		return false;
	h->id = entry->id;
	h->severity = (an_severity)sev;
	*line = nl + 1;
	if (!(h->message = take(line, end, msglen)))
		return false;
	if (nedits && !(h->edits = calloc(nedits, sizeof(*h->edits))))
		return false;
	for (k = 0; k < nedits; k++) {
		an_edit *e = &h->edits[k];
		unsigned long hlen, tlen;

		if (!(nl = memchr(*line, '\n', (size_t)(end - *line))))
			return false;
		*nl = '\0';
		if (sscanf(*line, "%u %u %lu %lu", &e->offset, &e->length, &hlen, &tlen) != 4)
			return false;
		*line = nl + 1;
		h->nedits = k + 1;
		if (hlen && !(e->helper = take(line, end, hlen)))
			return false;
		if (!(e->text = take(line, end, tlen)))
			return false;
	}
	return true;
}

static bool parse_hits(rv_proposal *p, char **line, const char *end)
{
	unsigned long n, i;
	char *nl = memchr(*line, '\n', (size_t)(end - *line));

	if (!nl)
		return false;
	if (strncmp(*line, "hits -\n", 8) == 0) {
		*line = nl + 1;
		return true;
	}
	if (sscanf(*line, "hits %lu\n", &n) != 1 || n > (unsigned long)(end - *line))
		return false;
	*line = nl + 1;
	p->analyzed = true;
	if (n && !(p->analysis.hits = calloc(n, sizeof(an_hit))))
		return false;
	for (i = 0; i < n; i++) {
		p->analysis.count = i + 1;
		if (!parse_hit(&p->analysis.hits[i], line, end))
			return false;
	}
	return true;
}

/* Parses an entry into p, whose output takes over the entry's buffer (no
 * copy); false when it is damaged or names unknown rules. */
static bool parse_entry(rv_proposal *p, const port_rules *rules, util_buf *entry)
{
	char *text = entry->ptr;
	size_t len = entry->len;
	char *line = text, *end = text + len, *nl;
	unsigned long kernels, launches, inserted, lines, adds, dels, nrefs, fixes, i, outlen;

	if (len < sizeof(CACHE_MAGIC) || strncmp(text, CACHE_MAGIC "\n", sizeof(CACHE_MAGIC)) != 0)
		return false;
	line += sizeof(CACHE_MAGIC);
	if (sscanf(line, "%lu %lu %lu %lu %lu %lu %lu %lu\n", &kernels, &launches, &inserted, &lines, &adds, &dels,
		   &nrefs, &fixes) != 8 || nrefs > len)
		return false;
	if (!(nl = memchr(line, '\n', (size_t)(end - line))))
		return false;
	line = nl + 1;
	p->port.refs = calloc(nrefs ? nrefs : 1, sizeof(port_ref));
	if (!p->port.refs)
		return false;
	for (i = 0; i < nrefs; i++) {
		port_ref *r = &p->port.refs[i];
		unsigned long off, n, l, c, status;
		char cls, name[256];

		if (!(nl = memchr(line, '\n', (size_t)(end - line))))
			return false;
		*nl = '\0';
		if (sscanf(line, "%lu %lu %lu %lu %lu %c %255s", &off, &n, &l, &c, &status, &cls, name) != 7 ||
		    status > PORT_REF_LEGACY || !(r->rule = find_rule(rules, cls, name)))
			return false;
		r->offset = (uint32_t)off;
		r->length = (uint32_t)n;
		r->line = (unsigned)l;
		r->col = (unsigned)c;
		r->status = (port_ref_status)status;
		line = nl + 1;
	}
	p->port.nrefs = nrefs;
	if (!parse_hits(p, &line, end))
		return false;
	if (sscanf(line, "output %lu\n", &outlen) != 1 || !(nl = memchr(line, '\n', (size_t)(end - line))) ||
	    (size_t)(end - nl - 1) != outlen)
		return false;
	memmove(entry->ptr, nl + 1, outlen);
	entry->ptr[outlen] = '\0';
	entry->len = outlen;
	p->port.output = *entry;
	memset(entry, 0, sizeof(*entry));
	p->port.kernels = kernels;
	p->port.launches = launches;
	p->port.header_inserted = inserted != 0;
	p->lines = lines;
	p->additions = adds;
	p->deletions = dels;
	p->fixes_applied = fixes;
	return true;
}

int rv_cache_load(rv_cache *cache, rv_proposal *p, const port_rules *rules)
{
	util_buf entry = UTIL_BUF_INIT;
	pack_entry *e = NULL;
	int hit = 0;

	if (p->state != RV_PROPOSAL_OK)
		return 0;
	if (!p->blob_id[0])
		rv_blob_id(p->blob_id, p->source.ptr, p->source.len);
	pthread_mutex_lock(&cache->lock);
	HASH_FIND(hh, cache->entries, p->blob_id, HEX_LEN, e);
	if (e) {
		e->used = true;
		util_buf_put(&entry, e->text, e->len); /* parsing cuts its copy up */
	}
	pthread_mutex_unlock(&cache->lock);
	if (e && !util_buf_oom(&entry) && parse_entry(p, rules, &entry)) {
		p->from_cache = true;
		hit = 1;
	} else {
		/* a damaged entry may have filled part of p: back to as read */
		port_result_dispose(&p->port);
		an_analysis_dispose(&p->analysis);
		p->analyzed = false;
		p->fixes_applied = 0;
		p->lines = p->additions = p->deletions = 0;
	}
	util_buf_dispose(&entry);
	return hit;
}

void rv_cache_store(rv_cache *cache, const rv_proposal *p)
{
	util_buf text = UTIL_BUF_INIT;
	char id[HEX_LEN + 1];
	size_t i;

	if (p->blob_id[0])
		memcpy(id, p->blob_id, sizeof(id));
	else
		rv_blob_id(id, p->source.ptr, p->source.len);
	util_buf_printf(&text, CACHE_MAGIC "\n%zu %zu %d %zu %zu %zu %zu %zu\n", p->port.kernels, p->port.launches,
			p->port.header_inserted ? 1 : 0, p->lines, p->additions, p->deletions, p->port.nrefs,
			p->fixes_applied);
	for (i = 0; i < p->port.nrefs; i++) {
		const port_ref *r = &p->port.refs[i];

		util_buf_printf(&text, "%u %u %u %u %d %c %s\n", r->offset, r->length, r->line, r->col,
				(int)r->status, rule_class(r->rule), r->rule->cuda);
	}
	store_hits(&text, p);
	util_buf_printf(&text, "output %zu\n", p->port.output.len);
	util_buf_put(&text, p->port.output.ptr, p->port.output.len);
	if (util_buf_oom(&text)) {
		util_buf_dispose(&text);
		return;
	}
	pthread_mutex_lock(&cache->lock);
	{
		size_t len = text.len;

		add_entry(cache, id, util_buf_detach(&text), len, true);
		cache->dirty = true;
	}
	pthread_mutex_unlock(&cache->lock);
}
