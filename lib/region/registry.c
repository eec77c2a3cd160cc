// SPDX-License-Identifier: MIT
/*
 * Region names and ids, shared by every thread: append-only, looked up without a lock
 * (an open-addressing hash of ids, published with release stores); only a new name takes
 * the mutex, copies the name and publishes it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "region/region.h"

#define HASH_SIZE 1024 /* a power of two, at least twice the named capacity */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *names[PMC_REGION_MAX]; /* named ids only; published with release */
static int hash[HASH_SIZE];	    /* id + 1, 0 for an empty slot */
static unsigned next_id = PMC_REGION_NUMBERED;
static void (*follower)(unsigned id, const char *name);

static unsigned fnv1a(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static bool same(unsigned id, const char *name)
{
	/* Never a pointer shortcut: a caller's buffer may hold another name next time. */
	return !strcmp(__atomic_load_n(&names[id], __ATOMIC_ACQUIRE), name);
}

/* Probes for name; returns its id, or -(slot + 1) of the empty slot where it would go. */
static int find(const char *name, unsigned h)
{
	for (unsigned i = 0; i < HASH_SIZE; i++) {
		unsigned slot = (h + i) & (HASH_SIZE - 1);
		int v = __atomic_load_n(&hash[slot], __ATOMIC_ACQUIRE);

		if (!v)
			return -(int)slot - 1;
		if (same((unsigned)v - 1, name))
			return v - 1;
	}
	return -HASH_SIZE - 1;
}

static int insert(const char *name, unsigned h)
{
	int id = find(name, h);
	char *copy;

	if (id >= 0)
		return id; /* another thread registered it meanwhile */
	if (id < -HASH_SIZE || next_id >= PMC_REGION_MAX) {
		static bool said;

		if (!said) /* once: the markers of every later new name fail the same way */
			pr_warn("regions: '%s' and every later new region name go uncounted: a "
				"process can name at most %d regions (PMC_REGION_MAX %d, less the "
				"%d "
				"numbered ones; docs/regions.md)\n",
				name, PMC_REGION_MAX - PMC_REGION_NUMBERED, PMC_REGION_MAX,
				PMC_REGION_NUMBERED);
		said = true;
		return -ENOSPC;
	}
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	id = (int)next_id++;
	__atomic_store_n(&names[id], copy, __ATOMIC_RELEASE);
	__atomic_store_n(&hash[-find(name, h) - 1], id + 1, __ATOMIC_RELEASE);
	if (follower)
		follower((unsigned)id, copy);
	return id;
}

int pmc__region_id(const char *name)
{
	unsigned h;
	int id;

	if (!name)
		return -EINVAL;
	h = fnv1a(name);
	id = find(name, h);
	if (id >= 0)
		return id;
	pthread_mutex_lock(&lock);
	id = insert(name, h);
	pthread_mutex_unlock(&lock);
	return id;
}

bool pmc__region_known(unsigned id)
{
	return id < PMC_REGION_NUMBERED ||
	       (id < PMC_REGION_MAX && __atomic_load_n(&names[id], __ATOMIC_ACQUIRE));
}

const char *pmc__region_name(unsigned id, char *buf, size_t len)
{
	if (id < PMC_REGION_NUMBERED) {
		snprintf(buf, len, "%u", id);
		return buf;
	}
	return id < PMC_REGION_MAX ? __atomic_load_n(&names[id], __ATOMIC_ACQUIRE) : NULL;
}

void pmc__region_names_follow(void (*fn)(unsigned id, const char *name))
{
	pthread_mutex_lock(&lock);
	follower = fn;
	for (unsigned id = PMC_REGION_NUMBERED; fn && id < next_id; id++)
		fn(id, names[id]);
	pthread_mutex_unlock(&lock);
}
