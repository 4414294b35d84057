#include "review/cache.h"

#include <errno.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/error.h"
#include "util/file.h"

#define CACHE_MAGIC "hipport-cache 1"

struct rv_cache {
	char *dir;      /* .../.git/hipport/cache */
	char key[64];   /* digest of rules, options and version */
};

int rv_cache_open(rv_cache **out, const char *git_dir, const port_rules *rules, const port_options *opts)
{
	rv_cache *c = calloc(1, sizeof(*c));
	util_buf b = UTIL_BUF_INIT;
	git_oid oid;

	*out = NULL;
	if (!c)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	util_buf_printf(&b, "%s/hipport/cache", git_dir);
	c->dir = util_buf_detach(&b);
	util_buf_printf(&b, "%s|%s|%lu|%d|%d|%d", HIPPORT_VERSION, port_rules_digest(rules),
			opts->target_hip, (int)opts->launch, (int)opts->roc, (int)opts->experimental);
	git_odb_hash(&oid, b.ptr, b.len, GIT_OBJECT_BLOB);
	git_oid_tostr(c->key, 17, &oid);
	util_buf_dispose(&b);
	if (!c->dir) {
		free(c);
		return util_error_set(UTIL_ENOMEM, "out of memory");
	}
	*out = c;
	return 0;
}

void rv_cache_free(rv_cache *cache)
{
	if (!cache)
		return;
	free(cache->dir);
	free(cache);
}

static void entry_path(const rv_cache *c, util_buf *out, const char *data, size_t len)
{
	git_oid oid;
	char hex[GIT_OID_HEXSZ + 1];

	git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &oid);
	util_buf_printf(out, "%s/%.2s/%s-%s", c->dir, hex, hex + 2, c->key);
}

static char rule_class(const port_rule *r)
{
	return r->kind == PORT_RULE_HEADER ? 'h' : r->kind == PORT_RULE_NAMESPACE ? 'n' : 'i';
}

static const port_rule *find_rule(const port_rules *rules, char cls, const char *name)
{
	size_t n = strlen(name);

	if (cls == 'h')
		return port_rules_find_header(rules, name, n);
	if (cls == 'n')
		return port_rules_find_namespace(rules, name, n);
	return port_rules_find(rules, name, n);
}

/* Parses an entry into p, whose output takes over the entry's buffer (no
 * copy); false when it is damaged or names unknown rules. */
static bool parse_entry(rv_proposal *p, const port_rules *rules, util_buf *entry)
{
	char *text = entry->ptr;
	size_t len = entry->len;
	char *line = text, *end = text + len, *nl;
	unsigned long kernels, launches, inserted, lines, adds, dels, nrefs, i, outlen;

	if (len < sizeof(CACHE_MAGIC) || strncmp(text, CACHE_MAGIC "\n", sizeof(CACHE_MAGIC)) != 0)
		return false;
	line += sizeof(CACHE_MAGIC);
	if (sscanf(line, "%lu %lu %lu %lu %lu %lu %lu\n", &kernels, &launches, &inserted, &lines, &adds, &dels,
		   &nrefs) != 7 || nrefs > len)
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
		    status > PORT_REF_EXPERIMENTAL || !(r->rule = find_rule(rules, cls, name)))
			return false;
		r->offset = (uint32_t)off;
		r->length = (uint32_t)n;
		r->line = (unsigned)l;
		r->col = (unsigned)c;
		r->status = (port_ref_status)status;
		line = nl + 1;
	}
	p->port.nrefs = nrefs;
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
	return true;
}

int rv_cache_load(rv_cache *cache, rv_proposal *p, const port_rules *rules, const char *path,
		  const char *fs_path, bool named, size_t max_size)
{
	util_buf entry_name = UTIL_BUF_INIT, entry = UTIL_BUF_INIT;
	int hit = 0;

	memset(p, 0, sizeof(*p));
	p->path = path;
	p->fs_path = fs_path;
	if (util_file_read(&p->source, fs_path, max_size) < 0)
		goto miss;
	if (!named && !rv_proposal_looks_like_cuda(p->source.ptr, p->source.len)) {
		p->state = RV_PROPOSAL_NOT_CUDA;
		hit = 1;
		goto done;
	}
	entry_path(cache, &entry_name, p->source.ptr, p->source.len);
	if (util_buf_oom(&entry_name) || util_file_read(&entry, entry_name.ptr, 0) < 0)
		goto miss;
	if (parse_entry(p, rules, &entry)) {
		p->from_cache = true;
		hit = 1;
		goto done;
	}
miss:
	rv_proposal_dispose(p);
	util_error_clear();
done:
	util_buf_dispose(&entry_name);
	util_buf_dispose(&entry);
	return hit;
}

void rv_cache_store(rv_cache *cache, const rv_proposal *p)
{
	util_buf name = UTIL_BUF_INIT, text = UTIL_BUF_INIT;
	size_t i;

	entry_path(cache, &name, p->source.ptr, p->source.len);
	util_buf_printf(&text, CACHE_MAGIC "\n%zu %zu %d %zu %zu %zu %zu\n", p->port.kernels, p->port.launches,
			p->port.header_inserted ? 1 : 0, p->lines, p->additions, p->deletions, p->port.nrefs);
	for (i = 0; i < p->port.nrefs; i++) {
		const port_ref *r = &p->port.refs[i];

		util_buf_printf(&text, "%u %u %u %u %d %c %s\n", r->offset, r->length, r->line, r->col,
				(int)r->status, rule_class(r->rule), r->rule->cuda);
	}
	util_buf_printf(&text, "output %zu\n", p->port.output.len);
	util_buf_put(&text, p->port.output.ptr, p->port.output.len);
	if (!util_buf_oom(&name) && !util_buf_oom(&text)) {
		/* the directories exist after the first entries: make them on failure only */
		if (util_file_write_fast(name.ptr, text.ptr, text.len) < 0) {
			if (util_file_make_parents(name.ptr) < 0 ||
			    util_file_write_fast(name.ptr, text.ptr, text.len) < 0)
				util_error_clear();
		}
	}
	util_buf_dispose(&name);
	util_buf_dispose(&text);
}
