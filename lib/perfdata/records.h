/* SPDX-License-Identifier: MIT */
/*
 * The side-band records of perf.data (docs/sample-file.md, "Records"), encoded and decoded in
 * one place (records.c): COMM, MMAP, MMAP2, FORK, EXIT, LOST, LOST_SAMPLES, THROTTLE and
 * UNTHROTTLE, each with the sample_id trailer its event's attr implies (sample_id_all), laid
 * out as perf's __perf_evsel__parse_id_sample reads it. Samples have their own codec
 * (sample-codec.c, sample-encode.c).
 */
#ifndef PMC_LIB_PERFDATA_RECORDS_H
#define PMC_LIB_PERFDATA_RECORDS_H

#include "perfdata/perfdata.h"

/* The longest string (comm, file name) pmc writes into a record, without its NUL. */
#define PMC_RECORD_STR_MAX 4095

/*
 * The sample_id trailer: pid/tid (PERF_SAMPLE_TID), time, id, stream_id, cpu, then the
 * identifier again (PERF_SAMPLE_IDENTIFIER, written from id), each present as the attr's
 * sample_type says.
 */
struct pmc__sample_id {
	uint32_t pid, tid;
	uint64_t time, id, stream_id;
	uint32_t cpu;
};

/*
 * One side-band record. Which fields a type has:
 *   COMM: pid, tid, str (misc PERF_RECORD_MISC_COMM_EXEC after an exec)
 *   MMAP: pid, tid, start, len, pgoff, str; MMAP2: those and maj, min, ino, ino_generation,
 *         prot, flags (with PERF_RECORD_MISC_MMAP_BUILD_ID, the kernel's build id lies over
 *         maj..ino_generation, which pmc does not read)
 *   FORK, EXIT: pid, ppid, tid, ptid, time
 *   LOST: id, lost; LOST_SAMPLES: lost
 *   THROTTLE, UNTHROTTLE: time, id, stream_id
 * Decoded, str points into the record, NUL-terminated inside its body (a string without its
 * NUL there is refused), str_len bytes long; to encode, str_len bounds str (0: up to its NUL,
 * at most PMC_RECORD_STR_MAX).
 */
struct pmc__record {
	uint32_t type;
	uint16_t misc;
	uint32_t pid, tid, ppid, ptid;
	uint64_t time;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	uint64_t id, stream_id, lost;
	const char *str;
	size_t str_len;
	bool has_sid; /* decoded: the attr has sample_id_all, and sid holds the trailer */
	struct pmc__sample_id sid;
};

/* Bytes of the sample_id trailer attr implies (0 without sample_id_all). */
size_t pmc__sample_id_size(const struct perf_event_attr *attr);
/*
 * Decodes the sample_id trailer at the end of a non-sample record of len bytes (rec points at
 * its header). Returns 0, or -PMC_E_FORMAT when the record is too short to carry it or attr
 * has no sample_id_all.
 */
int pmc__sample_id_decode(const struct perf_event_attr *attr, const void *rec, size_t len,
			  struct pmc__sample_id *id);
/*
 * The time of a record read from a file, when it has one: a sample's with PERF_SAMPLE_TIME,
 * another's from its sample_id trailer. False without (or when the record is too short to
 * hold it: decoding it then reports the fault).
 */
bool pmc__record_time(const struct perf_event_attr *attr, const struct perf_event_header *h,
		      uint64_t *time);

/*
 * Encodes r (of one of the types above) for attr into buf (capacity cap, 8-byte aligned):
 * header, body, the string NUL-padded to 8 bytes, and the trailer r->sid when attr has
 * sample_id_all. Returns the record's size, -ENOSPC when cap (or a record's 64 KiB) is too
 * small, or -EINVAL for a type the codec does not know or a string missing.
 */
int pmc__record_encode(const struct perf_event_attr *attr, const struct pmc__record *r, void *buf,
		       size_t cap);
/*
 * Decodes the record rec of len bytes (its header's size, which the reader checked against
 * the data) as attr describes its trailer. A type the codec does not know is decoded as its
 * header only. attr NULL: the trailer's layout is not known (a reader of records from
 * several events), and the record's own fields, which precede it, are decoded alone (a
 * string is then bounded by the whole record). Returns 0, or -PMC_E_FORMAT with err->msg
 * naming the field that overran (err->offset relative to rec; err may be NULL).
 */
int pmc__record_decode(const struct perf_event_attr *attr, const void *rec, size_t len,
		       struct pmc__record *r, struct pmc_file_error *err);
/*
 * Decodes a side-band record read by pmc__perfdata_next() or pmc__perfdata_event_at(), with
 * its event's attr. As pmc__record_decode(), but err->offset is the file's.
 */
int pmc__perfdata_record(struct pmc__perfdata *f, const struct pmc__perfdata_event *ev,
			 struct pmc__record *r, struct pmc_file_error *err);

#endif /* PMC_LIB_PERFDATA_RECORDS_H */
