/* SPDX-License-Identifier: MIT */
/* Validates a vpmu --out-fd stream: record framing, BEGIN first and END last, side-band
 * records, samples, and that the total counts equal the sum of the per-thread counts.
 * Usage: stream-check FILE [min-threads] [min-samples] [path-substring-of-an-mmap]
 * With STREAM_CANON=OUT in the environment, also writes the stream with its process and
 * thread ids and sampled registers zeroed, so that two runs can be compared byte for byte.
 * With STREAM_FREQ=F (the tool ran with --freq=F, precise, counter CLOCK_CTR counting
 * cycles), checks frequency mode: in every thread the periods of each counter's samples sum
 * to the counter's value at its last sample, and the cycles counter took about F samples per
 * second of modelled time (docs/vpmu.md, "Frequency mode"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vpmu/protocol.h>

/* Zeroes the pid/ppid/tid/ptid fields (the only run-to-run differences). */
static void zero_ids(unsigned char *rec)
{
	const struct vpmu_hdr *h = (const void *)rec;
	size_t off = sizeof(*h), n = 0;

	switch (h->type) {
	case VPMU_REC_BEGIN:
		off += 8;
		n = 4;
		break;
	case VPMU_REC_COMM:
	case VPMU_REC_SAMPLE:
	case VPMU_REC_COUNTS:
		n = 8;
		break;
	case VPMU_REC_MMAP:
		n = 4;
		break;
	case VPMU_REC_FORK:
	case VPMU_REC_THREAD:
	case VPMU_REC_EXIT:
		n = 16;
		break;
	default:
		break;
	}
	memset(rec + off, 0, n);
	/* Sampled registers may hold values the guest read from the clock (ld.so reads the TSC);
	 * everything else in a sample must repeat exactly. */
	if (h->type == VPMU_REC_SAMPLE)
		memset(((struct vpmu_rec_sample *)rec)->regs, 0,
		       sizeof(((struct vpmu_rec_sample *)rec)->regs));
}

#define CLOCK_CTR 1
#define MAX_SLOTS 256

/* Per thread and counter: samples, the sum of their periods, the value at the last one. */
static struct {
	unsigned tid, ctr, n;
	unsigned long psum, last;
} slot[MAX_SLOTS];
static unsigned nslots;
static unsigned long thread_cycles; /* the cycles counter's per-thread COUNTS, summed */

static void freq_sample(const struct vpmu_rec_sample *s)
{
	unsigned i;

	for (i = 0; i < nslots && (slot[i].tid != s->tid || slot[i].ctr != s->counter); i++)
		;
	if (i == MAX_SLOTS)
		return;
	nslots += i == nslots;
	slot[i].tid = s->tid;
	slot[i].ctr = s->counter;
	slot[i].n++;
	slot[i].psum += s->period;
	slot[i].last = s->counter_value;
}

static int freq_check(unsigned long freq)
{
	unsigned long n = 0;
	double want = (double)freq * (double)thread_cycles / 1e9;

	for (unsigned i = 0; i < nslots; i++) {
		if (slot[i].psum != slot[i].last) {
			fprintf(stderr, "tid %u counter %u: periods sum to %lu, value %lu\n",
				slot[i].tid, slot[i].ctr, slot[i].psum, slot[i].last);
			return 1;
		}
		n += slot[i].ctr == CLOCK_CTR ? slot[i].n : 0;
	}
	printf("frequency mode: %lu cycles samples in %lu cycles, %.1f at %lu a second\n", n,
	       thread_cycles, want, freq);
	/* The first periods are short (1, then growing an eighth of the way each time). */
	if (n < 0.9 * want || n > want + 20 * nslots)
		return fprintf(stderr, "not about F samples a modelled second\n"), 1;
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char buf[64 << 20];
	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
	size_t len, off = 0;
	unsigned nthreads = 0, nsamples = 0, nmmap = 0, last = 0, first = 0, mmap_match = 0;
	unsigned long sum[VPMU_MAX_COUNTERS] = {0}, total[VPMU_MAX_COUNTERS] = {0};
	unsigned nr = 0;
	int have_total = 0;

	if (!f) {
		fprintf(stderr, "usage: stream-check FILE [threads] [samples] [mmap-path]\n");
		return 2;
	}
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + sizeof(struct vpmu_hdr) <= len) {
		const struct vpmu_hdr *h = (const void *)(buf + off);

		if (h->magic != VPMU_MAGIC_RECORD || h->version != VPMU_PROTO_VERSION ||
		    h->size < sizeof(*h) || h->size % 8 || off + h->size > len) {
			fprintf(stderr, "bad record at offset %zu\n", off);
			return 1;
		}
		if (!first)
			first = h->type;
		last = h->type;
		if (h->type == VPMU_REC_SAMPLE) {
			nsamples++;
			freq_sample((const void *)h);
		}
		if (h->type == VPMU_REC_MMAP) {
			const struct vpmu_rec_mmap *m = (const void *)h;

			nmmap++;
			mmap_match += argc > 4 && strstr(m->path, argv[4]) != NULL;
		}
		if (h->type == VPMU_REC_COUNTS) {
			const struct vpmu_rec_counts *c = (const void *)h;

			nr = c->nr;
			if (c->tid && c->nr > CLOCK_CTR)
				thread_cycles += c->value[CLOCK_CTR];
			for (unsigned k = 0; k < c->nr && k < VPMU_MAX_COUNTERS; k++) {
				if (c->tid)
					sum[k] += c->value[k];
				else
					total[k] = c->value[k];
			}
			if (c->tid)
				nthreads++;
			else
				have_total = 1;
		}
		zero_ids((unsigned char *)h);
		off += h->size;
	}
	if (getenv("STREAM_CANON")) {
		FILE *o = fopen(getenv("STREAM_CANON"), "wb");

		if (!o || fwrite(buf, 1, len, o) != len || fclose(o))
			return fprintf(stderr, "cannot write %s\n", getenv("STREAM_CANON")), 1;
	}
	printf("records ok: %u threads, %u samples, %u mmaps\n", nthreads, nsamples, nmmap);
	if (off != len || first != VPMU_REC_BEGIN || last != VPMU_REC_END || !have_total) {
		fprintf(stderr, "stream not framed BEGIN..END with a total\n");
		return 1;
	}
	for (unsigned k = 0; k < nr; k++)
		if (sum[k] != total[k]) {
			fprintf(stderr, "counter %u: threads sum to %lu, total %lu\n", k, sum[k],
				total[k]);
			return 1;
		}
	if (argc > 2 && nthreads < (unsigned)atoi(argv[2]))
		return fprintf(stderr, "too few threads\n"), 1;
	if (argc > 3 && nsamples < (unsigned)atoi(argv[3]))
		return fprintf(stderr, "too few samples\n"), 1;
	if (argc > 4 && !mmap_match)
		return fprintf(stderr, "no mmap record for %s\n", argv[4]), 1;
	if (getenv("STREAM_FREQ"))
		return freq_check(strtoul(getenv("STREAM_FREQ"), NULL, 10));
	return 0;
}
