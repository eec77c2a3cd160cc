/* SPDX-License-Identifier: MIT */
/*
 * The perf.data reader's state and the calls its files make to each other. Each file calls only
 * files below it: reader.c (errors, bounds, record lengths, pages), attrs.c, features.c,
 * pipe-read.c, compressed.c, next.c, read.c (opening).
 */
#ifndef PMC_LIB_PERFDATA_READER_H
#define PMC_LIB_PERFDATA_READER_H

#include "perfdata/perfdata.h"

/* String features kept by the reader are indexed by their feature number. */
#define PERFDATA_NR_STR_FEATS 12

struct perfdata_idmap {
	uint64_t id;
	size_t idx;
};

struct pmc__perfdata {
	const uint8_t *buf;
	size_t len;
	bool mapped;
	/* perf record -z: the records are read from the inflated data (compressed.c) */
	struct pmc__perfdata_zstream *zs;
	bool interrupted;
	bool pipe;	 /* a pipe-mode stream (pipe-read.c): header and attrs are records */
	uint8_t *stream; /* the stream read into memory (mapped, stream_cap bytes) or NULL */
	size_t stream_cap;
	struct perfdata_file_header h;
	size_t nr_attrs;
	struct perf_event_attr *attrs; /* zero-extended to this build's struct size */
	char **names;		       /* [nr_attrs], from EVENT_DESC, or NULL */
	struct perfdata_idmap *idmap;  /* sorted by id */
	size_t nr_idmap;
	int id_pos; /* u64 index of the id in a sample body; -1 when samples have none */
	char *feat_str[PERFDATA_NR_STR_FEATS];
	struct pmc__perfdata_build_ids build_ids; /* the BUILD_ID feature's entries */
	uint64_t pos, data_end;
	uint64_t released; /* mapped pages below this offset were handed back (reader.c) */
	/*
	 * A misaligned record is copied here so that decoders see 8-byte aligned arrays. Last, and
	 * not zeroed at open (read.c): nothing reads it before a record is copied in.
	 */
	uint64_t scratch[65536 / 8];
};

/*
 * A mapped file's pages, once read, stay resident and count in the reader's memory: a report
 * of an 840 MB file peaked at 844 MiB (bench/RESULTS.md). Each pass over the records calls
 * this with its position: pages more than 16 MiB behind pos are handed back (madvise
 * MADV_DONTNEED), 16 MiB at a time. Records still queued for time order (read again with
 * pmc__perfdata_event_at) may lie there: a private mapping of a file not written to is read
 * from the file again on access, so they stay readable, at the cost of a page fault. A pass
 * that starts again from the beginning sets released to 0 first.
 */
/* reader.c */
void pmc__perfdata_release_behind(struct pmc__perfdata *f, uint64_t pos);
/* reader.c: err filled (when not NULL) with off and the message; returns code. */
int pmc__perfdata_fail(struct pmc_file_error *err, int code, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* attrs.c: appends an event (its attr, size bytes at off, and its ids) to f's events. */
int pmc__perfdata_add_attr(struct pmc__perfdata *f, uint64_t off, size_t size,
			   const struct perfdata_section *ids, struct pmc_file_error *err);
/* attrs.c: the checks once every event is known (one id position for all samples). */
int pmc__perfdata_check_sample_types(struct pmc__perfdata *f, struct pmc_file_error *err);
/* features.c: one feature section s, of feature bit. */
int pmc__perfdata_read_feature(struct pmc__perfdata *f, int bit, const struct perfdata_section *s,
			       struct pmc_file_error *err);
/*
 * pipe-read.c: a pipe-mode stream (perf record -o -, pmc record -o -) read from fd to its end,
 * into a mapping of *cap bytes that the caller unmaps.
 */
int pmc__perfdata_read_stream(int fd, uint8_t **out, size_t *len, size_t *cap);
/* pipe-read.c: the header records of a pipe-mode stream (attrs, features); 0 or an error. */
int pmc__perfdata_pipe_open(struct pmc__perfdata *f, struct pmc_file_error *err);
/*
 * reader.c: the bytes the record at rec (its header h, at least h->size bytes) takes, h.size but
 * for a pipe stream's TRACING_DATA, whose data follow it. The caller checks it against the
 * bytes left.
 */
uint64_t pmc__perfdata_rec_len(const struct pmc__perfdata *f, const uint8_t *rec,
			       const struct perf_event_header *h);
/* features.c: the feature sections pmc keeps (single strings, EVENT_DESC, BUILD_ID's
 * entries). 0, or an error naming the section. */
int pmc__perfdata_read_features(struct pmc__perfdata *f, struct pmc_file_error *err);
/*
 * compressed.c: a data section with compressed records (perf record -z) is read as their
 * inflated records, inflated as next.c asks for them (f->zs). 0 (also when there are none),
 * or an error.
 */
#define PERFDATA_INFLATE_RATIO 256
#define PERFDATA_INFLATE_SLACK ((uint64_t)64 << 20)
/* What pmc__perfdata_hold_max() says of inflated data: the records a user may hold. */
#define PERFDATA_HOLD_MAX ((uint64_t)128 << 20)
int pmc__perfdata_inflate(struct pmc__perfdata *f, struct pmc_file_error *err);
/*
 * compressed.c: the inflated data at off, at least want bytes of them unless they end before
 * (*left says how many there are from off: all that is left when fewer than want). *p is
 * valid until the next call. 0, or an error naming the compressed record (said again by every
 * later call).
 */
int pmc__perfdata_zstream_get(struct pmc__perfdata *f, uint64_t off, uint64_t want,
			      const uint8_t **p, uint64_t *left, struct pmc_file_error *err);
/* compressed.c: the inflated record at off, which the window still holds. */
const uint8_t *pmc__perfdata_zstream_at(const struct pmc__perfdata *f, uint64_t off);
void pmc__perfdata_zstream_free(struct pmc__perfdata_zstream *zs);
/* reader.c: is [off, off + size) inside the file? */
bool pmc__perfdata_in_file(const struct pmc__perfdata *f, uint64_t off, uint64_t size);

#endif /* PMC_LIB_PERFDATA_READER_H */
