// SPDX-License-Identifier: MIT
/*
 * pmc report --format=pprof: the call chains as pprof's profile.proto (message Profile of
 * package perftools.profiles, as Debian's golang-github-google-pprof-dev installs it),
 * packed with protobuf-c and gzip-compressed with zlib, as the .proto file asks. The
 * mapping of pmc's report onto its messages is in docs/report.md, "pprof".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/bytes.h>
#include "core/grow.h"
#include "core/log.h"
#include "report/pprof-api.h"
#include "report/profile.pb-c.h"
#include "report/report.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/*
 * The tables being built. Each index maps an interned pointer (a string of r->st, a DSO, a
 * symbol result) to its 1-based position; ids in the profile are these positions.
 */
struct pp {
	struct pmc_report *r;
	struct pmc__addrmap str_idx, fn_idx, loc_idx, map_idx;
	char **strs;
	size_t nr_strs, alloc_strs;
	Function *fns;
	size_t nr_fns, alloc_fns;
	Location *locs;
	Line *lines; /* two per location: an inlined function and the function it is in */
	size_t nr_locs, alloc_locs, alloc_lines;
	Mapping *maps;
	size_t nr_maps, alloc_maps;
	bool oom;
};

static bool grow(void **v, size_t *alloc, size_t nr, size_t size)
{
	return !pmc__ensure_mem(v, alloc, size, nr + 1);
}

/* The string table index of s, made printable (valid UTF-8, as proto3 strings must be). */
static int64_t str(struct pp *p, const char *s)
{
	char *safe = pmc_printable(s ? s : "");
	const char *key = safe ? pmc__symtab_intern(p->r->st, safe) : NULL;
	uintptr_t idx;

	free(safe);
	if (!key) {
		p->oom = true;
		return 0;
	}
	idx = (uintptr_t)pmc__addrmap_get(&p->str_idx, (uintptr_t)key);
	if (idx)
		return (int64_t)idx - 1;
	if (!grow((void **)&p->strs, &p->alloc_strs, p->nr_strs, sizeof(*p->strs)) ||
	    pmc__addrmap_put(&p->str_idx, (uintptr_t)key, (void *)(p->nr_strs + 1))) {
		p->oom = true;
		return 0;
	}
	p->strs[p->nr_strs++] = (char *)key;
	return (int64_t)p->nr_strs - 1;
}

/* The id of function name in file (both strings' table indexes). */
static uint64_t function(struct pp *p, int64_t name, int64_t file)
{
	uint64_t key = (uint64_t)name << 32 | (uint64_t)file;
	uintptr_t id = (uintptr_t)pmc__addrmap_get(&p->fn_idx, key);
	Function *f;

	if (id)
		return id;
	if (!grow((void **)&p->fns, &p->alloc_fns, p->nr_fns, sizeof(*p->fns)) ||
	    pmc__addrmap_put(&p->fn_idx, key, (void *)(p->nr_fns + 1))) {
		p->oom = true;
		return 0;
	}
	f = &p->fns[p->nr_fns++];
	perftools__profiles__function__init(f);
	f->id = p->nr_fns;
	f->name = f->system_name = name;
	f->filename = file;
	return f->id;
}

/* The id of the DSO's mapping, its address range widened to hold vaddr. */
static uint64_t mapping(struct pp *p, struct pmc__dso *dso, uint64_t vaddr)
{
	uintptr_t id = (uintptr_t)pmc__addrmap_get(&p->map_idx, (uintptr_t)dso);
	char build_id[129];
	Mapping *m;

	if (id) {
		m = &p->maps[id - 1];
		if (vaddr < m->memory_start)
			m->memory_start = vaddr;
		if (vaddr >= m->memory_limit)
			m->memory_limit = vaddr + 1;
		return id;
	}
	if (!grow((void **)&p->maps, &p->alloc_maps, p->nr_maps, sizeof(*p->maps)) ||
	    pmc__addrmap_put(&p->map_idx, (uintptr_t)dso, (void *)(p->nr_maps + 1))) {
		p->oom = true;
		return 0;
	}
	m = &p->maps[p->nr_maps++];
	perftools__profiles__mapping__init(m);
	m->id = p->nr_maps;
	m->memory_start = vaddr;
	m->memory_limit = vaddr + 1;
	m->filename = str(p, dso->path);
	if (!dso->kernel && pmc__dso_build_id(dso, build_id, sizeof(build_id)))
		m->build_id = str(p, build_id);
	m->has_functions = true;
	m->has_filenames = m->has_line_numbers = m->has_inline_frames = p->r->opts.srclines;
	return m->id;
}

/*
 * The id of the frame's location: its lines are the innermost inlined function at the
 * address (with the address's source line) and then the function it was inlined into, as
 * pprof orders them (the caller last); without an inline, the symbol and the line.
 */
static uint64_t location(struct pp *p, const struct rframe *f)
{
	const struct pmc__symres *res = f->res;
	uintptr_t id = (uintptr_t)pmc__addrmap_get(&p->loc_idx, (uintptr_t)res);
	int64_t file;
	Location *l;
	Line *ln;

	if (id)
		return id;
	if (!grow((void **)&p->locs, &p->alloc_locs, p->nr_locs, sizeof(*p->locs)) ||
	    !grow((void **)&p->lines, &p->alloc_lines, 2 * p->nr_locs + 1, sizeof(*p->lines)) ||
	    pmc__addrmap_put(&p->loc_idx, (uintptr_t)res, (void *)(p->nr_locs + 1))) {
		p->oom = true;
		return 0;
	}
	file = str(p, res->srcfile);
	l = &p->locs[p->nr_locs++];
	perftools__profiles__location__init(l);
	l->id = p->nr_locs;
	l->address = res->addr;
	l->mapping_id = mapping(p, f->dso, res->addr);
	ln = &p->lines[2 * (l->id - 1)];
	perftools__profiles__line__init(&ln[0]);
	perftools__profiles__line__init(&ln[1]);
	ln[0].line = res->line;
	ln[0].function_id = function(p, str(p, pmc__report_frame_func(f)), file);
	/* The line of the call in the outer function is not known: 0, pprof's "unknown". */
	l->n_line = 1;
	if (res->inlined) {
		ln[1].function_id = function(p, str(p, res->sym->name), file);
		l->n_line = 2;
	}
	return l->id;
}

/* pprof's unit of a value: time for the clock events (their period is nanoseconds). */
static const char *unit(const struct perf_event_attr *a)
{
	bool clock = a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CPU_CLOCK ||
						       a->config == PERF_COUNT_SW_TASK_CLOCK);

	return clock ? "nanoseconds" : "count";
}

static void free_pp(struct pp *p, Sample *samples, Label *labels)
{
	pmc__addrmap_free(&p->str_idx);
	pmc__addrmap_free(&p->fn_idx);
	pmc__addrmap_free(&p->loc_idx);
	pmc__addrmap_free(&p->map_idx);
	free(p->strs);
	free(p->fns);
	free(p->locs);
	free(p->lines);
	free(p->maps);
	free(samples);
	free(labels);
}

/* Writes buf[0, len) gzip-compressed to out. */
static int gzip_to(const uint8_t *buf, size_t len, FILE *out)
{
	const struct pmc__z_api *zl = pmc__z_api();
	z_stream z = {0};
	uint8_t chunk[65536];
	int zr;

	/* windowBits 15 + 16: a gzip header and trailer around the deflate stream. */
	if (zl->deflate_init2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
			      ZLIB_VERSION, (int)sizeof(z)) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)buf;
	z.avail_in = (uInt)len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = zl->deflate(&z, Z_FINISH);
		fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out);
	} while (zr == Z_OK);
	zl->deflate_end(&z);
	return zr == Z_STREAM_END ? 0 : -EIO;
}

static int pack(Profile *prof, FILE *out)
{
	size_t len = perftools__profiles__profile__get_packed_size(prof);
	uint8_t *buf = malloc(len ? len : 1);
	int err;

	if (!buf)
		return -ENOMEM;
	perftools__profiles__profile__pack(prof, buf);
	err = gzip_to(buf, len, out);
	free(buf);
	return err;
}

/* A shared library's name, as pprof tells them from a program's: "x.so", "x.so.6". */
static bool is_library(const char *name)
{
	const char *so = strstr(name, ".so");

	for (; so; so = strstr(so + 1, ".so"))
		if (!so[3] || ((so[3] == '.' || so[3] == '_') && so[4] >= '0' && so[4] <= '9'))
			return true;
	return false;
}

/* How much frame f looks like the measured program: 2 when its file is the thread's command
 * (the comm is the executable's name, cut to 15 bytes), 1 for a file that is no library and
 * no pseudo-file ("[vdso]"), else 0. */
static int main_score(const struct rstack *s, const struct rframe *f)
{
	const char *name = f->dso->short_name;

	if (f->dso->kernel || !name || !*name || name[0] == '[')
		return 0;
	if (s->comm && *s->comm && !strncmp(name, s->comm, 15) && strlen(s->comm) <= 15)
		return 2;
	return is_library(name) ? 0 : 1;
}

/*
 * pprof takes the first mapping for the main binary (it names the profile, and "pprof
 * PROFILE" looks symbols up in it): the measured program's mapping goes first, the first
 * object named as the samples' command, else the first that is no library, not the first
 * one a stack reached (the dynamic loader, whose samples come first).
 */
static void main_mapping(struct pp *p)
{
	const struct rframe *best = NULL;
	int best_score = 0;

	for (size_t i = 0; i < p->r->nr_stacks && best_score < 2; i++) {
		const struct rstack *s = p->r->stack_list[i];

		for (size_t f = 0; f < s->nr && best_score < 2; f++) {
			int score = s->frames[f].dso ? main_score(s, &s->frames[f]) : 0;

			if (score > best_score) {
				best = &s->frames[f];
				best_score = score;
			}
		}
	}
	if (best)
		mapping(p, best->dso, best->res->addr);
}

/* Fills the samples: one per distinct stack and thread name, leaf first, values per event. */
static int fill_samples(struct pp *p, Sample *samples, Sample **sp, Label *labels, Label **lp,
			uint64_t *ids, int64_t *values)
{
	struct pmc_report *r = p->r;
	int64_t comm_key = str(p, "comm");

	main_mapping(p);
	for (size_t i = 0; i < r->nr_stacks; i++) {
		const struct rstack *s = r->stack_list[i];
		Sample *sa = &samples[i];
		perftools__profiles__sample__init(sa);
		perftools__profiles__label__init(&labels[i]);
		labels[i].key = comm_key;
		labels[i].str = str(p, s->comm);
		lp[i] = &labels[i];
		sa->n_label = 1;
		sa->label = &lp[i];
		sa->location_id = ids;
		sa->n_location_id = s->nr;
		for (size_t f = 0; f < s->nr; f++)
			*ids++ = location(p, &s->frames[f]);
		sa->value = values;
		sa->n_value = r->nr_attrs;
		for (size_t a = 0; a < r->nr_attrs; a++)
			*values++ = (int64_t)s->period[a];
		sp[i] = sa;
	}
	return p->oom ? -ENOMEM : 0;
}

/* Points the profile at its samples, value types, strings and one comment, and gives the
 * numbers of p's mappings, locations and functions (the caller sets their arrays). */
static void link_profile(Profile *prof, struct pp *p, Sample **sp, ValueType **vtp,
			 int64_t *comment)
{
	struct pmc_report *r = p->r;

	prof->n_sample_type = r->nr_attrs;
	prof->sample_type = vtp;
	prof->n_sample = r->nr_stacks;
	prof->sample = sp;
	prof->n_mapping = p->nr_maps;
	prof->n_location = p->nr_locs;
	prof->n_function = p->nr_fns;
	prof->n_string_table = p->nr_strs;
	prof->string_table = p->strs;
	prof->n_comment = 1;
	prof->comment = comment;
	if (r->nr_attrs) {
		prof->period_type = vtp[0];
		prof->period = r->attrs[0].freq ? 0 : (int64_t)r->attrs[0].sample_period;
		prof->default_sample_type = vtp[0]->type;
	}
}

static int write_profile(struct pp *p, Sample **sp, FILE *out)
{
	struct pmc_report *r = p->r;
	size_t na = r->nr_attrs;
	ValueType *vt = calloc(na + 1, sizeof(*vt));
	ValueType **vtp = calloc(na + 1, sizeof(*vtp));
	Function **fp = calloc(p->nr_fns + 1, sizeof(*fp));
	Location **locp = calloc(p->nr_locs + 1, sizeof(*locp));
	Mapping **mp = calloc(p->nr_maps + 1, sizeof(*mp));
	Line **lnp = calloc(2 * p->nr_locs + 1, sizeof(*lnp));
	Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	int64_t comment;
	int err = -ENOMEM;

	if (!vt || !vtp || !fp || !locp || !mp || !lnp)
		goto out;
	for (size_t a = 0; a < na; a++) {
		perftools__profiles__value_type__init(&vt[a]);
		vt[a].type = str(p, r->names[a]);
		vt[a].unit = str(p, unit(&r->attrs[a]));
		vtp[a] = &vt[a];
	}
	comment = str(p, "pmc report");
	for (size_t i = 0; i < p->nr_fns; i++)
		fp[i] = &p->fns[i];
	for (size_t i = 0; i < p->nr_maps; i++)
		mp[i] = &p->maps[i];
	for (size_t i = 0; i < p->nr_locs; i++) {
		locp[i] = &p->locs[i];
		lnp[2 * i] = &p->lines[2 * i];
		lnp[2 * i + 1] = &p->lines[2 * i + 1];
		p->locs[i].line = &lnp[2 * i];
	}
	if (p->oom)
		goto out;
	link_profile(&prof, p, sp, vtp, &comment);
	prof.mapping = mp;
	prof.location = locp;
	prof.function = fp;
	err = pack(&prof, out);
out:
	free(vt);
	free(vtp);
	free(fp);
	free(locp);
	free(mp);
	free(lnp);
	return err;
}

int pmc__report_write_pprof(struct pmc_report *r, FILE *out)
{
	struct pp p = {.r = r};
	size_t nr_frames = 0;
	Sample *samples = calloc(r->nr_stacks + 1, sizeof(*samples));
	Sample **sp = calloc(r->nr_stacks + 1, sizeof(*sp));
	Label *labels = calloc(r->nr_stacks + 1, sizeof(*labels));
	Label **lp = calloc(r->nr_stacks + 1, sizeof(*lp));
	uint64_t *ids = NULL;
	int64_t *values = NULL;
	const char *why;
	int err = pmc__pprof_api_load(&why);

	if (err) {
		pr_warn("cannot write pprof: %s; install libprotobuf-c1 and zlib1g\n", why);
		free(samples);
		free(sp);
		free(labels);
		free(lp);
		return err;
	}
	err = -ENOMEM;
	for (size_t i = 0; i < r->nr_stacks; i++)
		nr_frames += r->stack_list[i]->nr;
	ids = calloc(nr_frames + 1, sizeof(*ids));
	values = calloc(r->nr_stacks * r->nr_attrs + 1, sizeof(*values));
	/* The string table's first entry is "" (profile.proto). */
	if (samples && sp && labels && lp && ids && values && str(&p, "") == 0 && !p.oom)
		err = fill_samples(&p, samples, sp, labels, lp, ids, values);
	if (!err)
		err = write_profile(&p, sp, out);
	free(sp);
	free(lp);
	free(ids);
	free(values);
	free_pp(&p, samples, labels);
	return err;
}
