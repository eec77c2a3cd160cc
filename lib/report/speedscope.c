// SPDX-License-Identifier: MIT
/*
 * pmc report --format=speedscope: speedscope's JSON file format (its file-format-spec.ts,
 * https://www.speedscope.app/file-format-schema.json): shared frames, and one "sampled"
 * profile per event whose samples are the distinct call chains, root first, weighted by
 * their period. docs/report.md, "speedscope", says which frame is which.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/jsonstr.h"
#include "report/report.h"

struct ss {
	struct pmc_report *r;
	struct pmc__addrmap by_res;  /* struct pmc__symres * → frame index + 1 */
	struct pmc__addrmap by_name; /* interned "name\1dso" → frame index + 1 */
	json_t *frames;
	bool oom;
};

static size_t add_frame(struct ss *s, const char *key, const char *name, const char *file)
{
	const char *k = pmc__symtab_intern(s->r->st, key);
	uintptr_t idx = k ? (uintptr_t)pmc__addrmap_get(&s->by_name, (uintptr_t)k) : 0;
	json_t *f;

	if (idx)
		return idx - 1;
	idx = json_array_size(s->frames);
	f = json_object();
	if (!k || !f || pmc__addrmap_put(&s->by_name, (uintptr_t)k, (void *)(idx + 1))) {
		json_decref(f);
		s->oom = true;
		return 0;
	}
	json_object_set_new(f, "name", pmc__json_bytes(name));
	if (file)
		json_object_set_new(f, "file", pmc__json_bytes(file));
	json_array_append_new(s->frames, f);
	return idx;
}

/* A frame per function and DSO (a function's lines are one frame, as in a flame graph). */
static size_t frame_idx(struct ss *s, const struct rframe *f)
{
	uintptr_t idx = (uintptr_t)pmc__addrmap_get(&s->by_res, (uintptr_t)f->res);
	const char *name = pmc__report_frame_func(f);
	char key[4096];

	if (idx)
		return idx - 1;
	snprintf(key, sizeof(key), "%s\1%s", name, f->dso->path);
	idx = add_frame(s, key, name, f->res->srcfile);
	if (pmc__addrmap_put(&s->by_res, (uintptr_t)f->res, (void *)(idx + 1)))
		s->oom = true;
	return idx;
}

/* The thread's name is the root frame, as in the folded output. */
static size_t comm_idx(struct ss *s, const char *comm)
{
	char key[128];

	snprintf(key, sizeof(key), "%s\2", comm);
	return add_frame(s, key, comm, NULL);
}

static json_t *profile(struct ss *s, size_t ai)
{
	struct pmc_report *r = s->r;
	const struct perf_event_attr *a = &r->attrs[ai];
	bool clock = a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CPU_CLOCK ||
						       a->config == PERF_COUNT_SW_TASK_CLOCK);
	json_t *p = json_object(), *samples = json_array(), *weights = json_array();

	json_object_set_new(p, "type", json_string("sampled"));
	json_object_set_new(p, "name", pmc__json_bytes(r->names[ai]));
	json_object_set_new(p, "unit", json_string(clock ? "nanoseconds" : "none"));
	json_object_set_new(p, "startValue", json_integer(0));
	json_object_set_new(p, "endValue", json_integer((json_int_t)r->total_period[ai]));
	for (size_t i = 0; i < r->nr_stacks; i++) {
		const struct rstack *st = r->stack_list[i];
		json_t *stack;
		if (!st->samples[ai])
			continue;
		stack = json_array();
		json_array_append_new(stack, json_integer((json_int_t)comm_idx(s, st->comm)));
		for (size_t f = st->nr; f-- > 0;)
			json_array_append_new(
				stack, json_integer((json_int_t)frame_idx(s, &st->frames[f])));
		json_array_append_new(samples, stack);
		json_array_append_new(weights, json_integer((json_int_t)st->period[ai]));
	}
	json_object_set_new(p, "samples", samples);
	json_object_set_new(p, "weights", weights);
	return p;
}

int pmc__report_write_speedscope(struct pmc_report *r, FILE *out)
{
	struct ss s = {.r = r, .frames = json_array()};
	json_t *root = json_object(), *shared = json_object(), *profiles = json_array();
	int ret = -ENOMEM;

	json_object_set_new(root, "$schema",
			    json_string("https://www.speedscope.app/file-format-schema.json"));
	for (size_t ai = 0; ai < r->nr_attrs; ai++)
		json_array_append_new(profiles, profile(&s, ai));
	json_object_set_new(shared, "frames", s.frames);
	json_object_set_new(root, "shared", shared);
	json_object_set_new(root, "profiles", profiles);
	json_object_set_new(root, "name", pmc__json_bytes(r->path ? r->path : "pmc report"));
	json_object_set_new(root, "activeProfileIndex", json_integer(0));
	json_object_set_new(root, "exporter", json_string("pmc@" PMC_VERSION_STRING));
	if (!s.oom && !json_dumpf(root, out, JSON_COMPACT)) {
		fputc('\n', out);
		ret = 0;
	}
	json_decref(root);
	pmc__addrmap_free(&s.by_res);
	pmc__addrmap_free(&s.by_name);
	return ret;
}
