/* SPDX-License-Identifier: MIT */
/* The perf.data file format (the subset in docs/sample-file.md): reader and writer. */
#ifndef PMC_LIB_PERFDATA_PERFDATA_H
#define PMC_LIB_PERFDATA_PERFDATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pmc/sample.h>

#define PERFDATA_MAGIC2 0x32454c4946524550ULL	   /* "PERFILE2", little endian */
#define PERFDATA_MAGIC2_SWAP 0x50455246494c4532ULL /* the same written big endian */
#define PERFDATA_MAGIC_V1 0x454c494652455050ULL	   /* "PERFFILE", format 1 */
#define PERFDATA_HEADER_SIZE 104
#define PERFDATA_PIPE_HEADER_SIZE 16
#define PERFDATA_FEAT_BITS 256

/* Feature sections pmc writes or reads (perf's HEADER_* numbers). */
enum perfdata_feat {
	PERFDATA_FEAT_TRACING_DATA = 1,
	PERFDATA_FEAT_BUILD_ID = 2,
	PERFDATA_FEAT_HOSTNAME = 3,
	PERFDATA_FEAT_OSRELEASE = 4,
	PERFDATA_FEAT_VERSION = 5,
	PERFDATA_FEAT_ARCH = 6,
	PERFDATA_FEAT_NRCPUS = 7,
	PERFDATA_FEAT_CMDLINE = 11,
	PERFDATA_FEAT_EVENT_DESC = 12,
	PERFDATA_FEAT_SAMPLE_TIME = 21,
};

/* The BUILD_ID feature's entries (buildid.c): an object's name and its GNU build id. */
struct pmc__perfdata_build_id {
	char *name;   /* a path, "[vdso]", "[kernel.kallsyms]" or a module's "[name]" */
	char hex[41]; /* lower-case hex, up to 20 bytes */
	bool kernel;  /* PERF_RECORD_MISC_KERNEL */
};

struct pmc__perfdata_build_ids {
	struct pmc__perfdata_build_id *v;
	size_t nr;
};

/* Adds an entry (a name already there keeps its first id). 0, -EINVAL, -ENOMEM. */
int pmc__perfdata_build_ids_add(struct pmc__perfdata_build_ids *v, const char *name,
				const char *hex, bool kernel);
void pmc__perfdata_build_ids_free(struct pmc__perfdata_build_ids *v);
/* The id (hex) of the entry named name, or NULL. */
const char *pmc__perfdata_build_ids_find(const struct pmc__perfdata_build_ids *v, const char *name);
/* The feature's bytes: their number, and the entries written to out (that many bytes). */
size_t pmc__perfdata_build_ids_size(const struct pmc__perfdata_build_ids *v);
void pmc__perfdata_build_ids_encode(const struct pmc__perfdata_build_ids *v, uint8_t *out);
/* The entries of a BUILD_ID section added to v. 0, or -ENOMEM. */
int pmc__perfdata_build_ids_decode(const uint8_t *p, size_t len, struct pmc__perfdata_build_ids *v);

/* Record types perf's tools add to the kernel's (PERF_RECORD_USER_TYPE_START and up). */
enum {
	PERFDATA_RECORD_HEADER_ATTR = 64,	  /* pipe mode: an attr, then its ids */
	PERFDATA_RECORD_HEADER_TRACING_DATA = 66, /* pipe mode: u32 size; that many bytes follow */
	PERFDATA_RECORD_HEADER_BUILD_ID = 67,
	PERFDATA_RECORD_FINISHED_ROUND = 68,
	PERFDATA_RECORD_EVENT_UPDATE = 78,   /* pipe mode: u64 type (2: name), u64 id, the name */
	PERFDATA_RECORD_HEADER_FEATURE = 80, /* pipe mode: u64 feature number; its section */
	PERFDATA_RECORD_COMPRESSED = 81,
	PERFDATA_RECORD_COMPRESSED2 = 83, /* perf 6.8: a u64 data_size before the zstd bytes */
};

struct perfdata_section {
	uint64_t offset;
	uint64_t size;
};

struct perfdata_file_header {
	uint64_t magic;
	uint64_t size;	    /* of this header: 104 */
	uint64_t attr_size; /* of one attrs entry: attr.size + 16 */
	struct perfdata_section attrs;
	struct perfdata_section data;
	struct perfdata_section event_types; /* unused, zero */
	uint64_t features[PERFDATA_FEAT_BITS / 64];
};

/*
 * A decoded PERF_RECORD_SAMPLE. Arrays point into the record (or into the reader's
 * scratch copy) and stay valid until the next pmc__perfdata_next(). sample_type says
 * which fields are present.
 */
struct pmc__sample {
	uint64_t sample_type;
	uint16_t misc; /* the header's misc: cpumode, exact-ip */
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	uint64_t nr_callchain;
	const uint64_t *callchain;
	uint32_t raw_size;
	const void *raw;
	uint64_t nr_branch;
	uint64_t branch_hw_idx; /* when branch_sample_type has PERF_SAMPLE_BRANCH_HW_INDEX */
	const struct perf_branch_entry *branch;
	uint64_t user_regs_abi;	 /* PERF_SAMPLE_REGS_ABI_*; 0: no registers in this sample */
	uint64_t user_regs_mask; /* attr.sample_regs_user */
	const uint64_t *user_regs;
	uint64_t user_stack_size;
	const uint8_t *user_stack;
	uint64_t user_stack_dyn_size;
	uint64_t weight; /* PERF_SAMPLE_WEIGHT, or the low 32 bits of WEIGHT_STRUCT */
	uint64_t data_src;
	uint64_t transaction;
	uint64_t intr_regs_abi;
	uint64_t intr_regs_mask;
	const uint64_t *intr_regs;
	uint64_t phys_addr;
};

/* The sample fields pmc can decode and encode; others are rejected with a clear error. */
#define PMC_SAMPLE_KNOWN                                                                           \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |             \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | \
	 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT |                     \
	 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |                  \
	 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_WEIGHT_STRUCT)

/*
 * Decodes the body of a PERF_RECORD_SAMPLE (rec points at its perf_event_header, which
 * the caller has checked for size) as attr describes. Returns 0, or -PMC_E_FORMAT with
 * err->msg saying which field overran (err->offset is relative to rec).
 */
int pmc__sample_decode(const struct perf_event_attr *attr, const void *rec, size_t len,
		       struct pmc__sample *s, struct pmc_file_error *err);
/*
 * Encodes s as a PERF_RECORD_SAMPLE for attr into buf (capacity cap). Returns the
 * record's size, -ENOSPC when cap is too small, or -EINVAL when s lacks a field.
 */
int pmc__sample_encode(const struct perf_event_attr *attr, const struct pmc__sample *s, void *buf,
		       size_t cap);
/* The sample_id trailer and the side-band records: records.h. */

/* ---- reader ---- */

struct pmc__perfdata;

/* One record of the data section, as found in the file. */
struct pmc__perfdata_event {
	const struct perf_event_header *hdr; /* 8-byte aligned; hdr->size bytes */
	uint64_t offset;		     /* file offset of the record */
	size_t attr_idx;		     /* for samples and sample_id trailers; 0 if one */
};

/*
 * Opens and validates a perf.data file: maps it, checks the header, the attrs and the
 * feature index. Every record is checked when it is read. Returns 0, or
 * -PMC_E_FORMAT / -PMC_E_TRUNCATED / -PMC_E_VERSION with err saying where and what
 * was expected, or a negative errno.
 */
int pmc__perfdata_open(const char *path, struct pmc__perfdata **out, struct pmc_file_error *err);
/* The same over a caller's buffer, which must outlive the reader (fuzzing, tests). */
int pmc__perfdata_open_mem(const void *buf, size_t len, struct pmc__perfdata **out,
			   struct pmc_file_error *err);
void pmc__perfdata_close(struct pmc__perfdata *f);

size_t pmc__perfdata_nr_attrs(const struct pmc__perfdata *f);
const struct perf_event_attr *pmc__perfdata_attr(const struct pmc__perfdata *f, size_t idx);
/* The event's name from the EVENT_DESC feature, or NULL. */
const char *pmc__perfdata_attr_name(const struct pmc__perfdata *f, size_t idx);
/* The [vdso] build id (hex) of the BUILD_ID feature, or NULL. */
const char *pmc__perfdata_vdso_build_id(const struct pmc__perfdata *f);
/* The build id (hex) the BUILD_ID feature names for the object at path, or NULL. */
const char *pmc__perfdata_build_id(const struct pmc__perfdata *f, const char *path);
/* True when the header's data size was 0 and the rest of the file was taken as data. */
bool pmc__perfdata_was_interrupted(const struct pmc__perfdata *f);

/*
 * Reads the next record. Returns 1 with *ev filled, 0 at the end of the data section,
 * or -PMC_E_FORMAT / -PMC_E_TRUNCATED with err naming the offset.
 */
int pmc__perfdata_next(struct pmc__perfdata *f, struct pmc__perfdata_event *ev,
		       struct pmc_file_error *err);
/*
 * The record at offset again, as pmc__perfdata_next() returned it before (with its
 * attr_idx): for readers that queue records and replay them later in another order. Only
 * offsets that pmc__perfdata_next() returned are valid; the record is not checked again.
 * A misaligned record is copied to the reader's scratch, valid until the next call.
 */
void pmc__perfdata_event_at(struct pmc__perfdata *f, uint64_t offset, size_t attr_idx,
			    struct pmc__perfdata_event *ev);
/*
 * The records a reader holds to replay: pmc__perfdata_event_at() will be asked for no record
 * before offset (UINT64_MAX: none; the default). Records of a perf record -z file are inflated
 * as they are read, into memory that holds them from the oldest held (docs/sample-file.md);
 * a mapped file's stay in the file.
 */
void pmc__perfdata_keep(struct pmc__perfdata *f, uint64_t offset);
/*
 * The most bytes of data from the oldest record held to the newest read that a reader should
 * hold: past it, replay the oldest. UINT64_MAX for a file, whose records stay in the file.
 */
uint64_t pmc__perfdata_hold_max(const struct pmc__perfdata *f);
/* Decodes a PERF_RECORD_SAMPLE read by pmc__perfdata_next() or pmc__perfdata_event_at(). */
int pmc__perfdata_sample(struct pmc__perfdata *f, const struct pmc__perfdata_event *ev,
			 struct pmc__sample *s, struct pmc_file_error *err);

/* ---- tracing data (tracing-data.c) ---- */

/* A tracepoint by its tracefs names: events/<subsys>/<name>/format. */
struct pmc__tp_path {
	const char *subsys, *name;
};

/*
 * perf's TRACING_DATA (version "0.6") for the tracepoints tps[nr] (repeats are written once):
 * magic, version, endianness, sizeof(long), page size, tracefs's header_page and
 * header_event, the formats of the tracepoints of subsystem ftrace, those of the others by
 * subsystem, an empty kallsyms, printk_formats and saved_cmdlines (each empty when tracefs
 * lacks it). It is the body of the perf.data feature TRACING_DATA and, padded to 8 bytes, what
 * follows pipe mode's PERF_RECORD_HEADER_TRACING_DATA record. *out is a new buffer of *len
 * bytes (free() it). Returns 0, -PMC_E_NOTRACEFS, -EINVAL (a name that is no tracefs folder
 * name), -ENOMEM, or the negative errno of a tracefs file that could not be read.
 */
int pmc__perfdata_tracing_data(const struct pmc__tp_path *tps, size_t nr, char **out, size_t *len);

/* ---- writer ---- */

/*
 * Recipe (pmc record, and any module that produces samples, such as vpmu's converter):
 *
 *	pmc__perfdata_writer_new("perf.data", &w);          // writes a temporary file beside
 *perf.data pmc__perfdata_writer_add_attr(w, &attr, "cpu-clock", ids, nr_ids);  // each event
 *	pmc__perfdata_writer_begin(w);                       // header + attrs written
 *	pmc__perfdata_writer_write(w, rec, len);             // raw records, or:
 *	pmc__perfdata_writer_write_sample(w, 0, &sample);    // encoded samples
 *	pmc__perfdata_writer_finish(w);                      // features, header, rename
 *	pmc__perfdata_writer_delete(w);
 *
 * To "-" or an output that cannot seek (a FIFO), the writer writes perf's pipe mode
 * instead (pipe.c): the header and attrs as records at begin, records in order.
 * A writer deleted without finish removes its temporary file. Records must carry the
 * sample_id trailer their attr implies (attr.sample_id_all) — the kernel's do, and
 * pmc__record_encode() (records.h) writes it.
 */
struct pmc__perfdata_writer;

int pmc__perfdata_writer_new(const char *path, struct pmc__perfdata_writer **out);
int pmc__perfdata_writer_add_attr(struct pmc__perfdata_writer *w,
				  const struct perf_event_attr *attr, const char *name,
				  const uint64_t *ids, size_t nr_ids);
/* The command line stored in the CMDLINE feature. */
int pmc__perfdata_writer_set_cmdline(struct pmc__perfdata_writer *w, int argc, char *const argv[]);
int pmc__perfdata_writer_begin(struct pmc__perfdata_writer *w);
int pmc__perfdata_writer_write(struct pmc__perfdata_writer *w, const void *rec, size_t len);
int pmc__perfdata_writer_write_sample(struct pmc__perfdata_writer *w, size_t attr_idx,
				      const struct pmc__sample *s);
/*
 * An object's build id (hex), written as an entry of the BUILD_ID feature (buildid.c), as
 * perf does for each object with samples: the vDSO as "[vdso]" (symbol/vdso.h keeps the
 * image), the kernel as "[kernel.kallsyms]" (kernel). 0, -EINVAL, -ENOMEM.
 */
int pmc__perfdata_writer_add_build_id(struct pmc__perfdata_writer *w, const char *name,
				      const char *hex, bool kernel);
/*
 * The tracepoints recorded (subsystem and name in tracefs, each once or more): their
 * formats are read from tracefs now and written at finish as the TRACING_DATA feature
 * (pmc__perfdata_tracing_data()), which perf script and perf report need to read tracepoint
 * samples. Returns 0 or pmc__perfdata_tracing_data()'s error; the writer is unchanged then.
 */
int pmc__perfdata_writer_set_tracepoints(struct pmc__perfdata_writer *w,
					 const struct pmc__tp_path *tps, size_t nr);
/* Bytes of data written so far. */
uint64_t pmc__perfdata_writer_data_size(const struct pmc__perfdata_writer *w);
/*
 * The end of a round of records (FINISHED_ROUND, docs/sample-file.md). To a pipe (pipe.c)
 * the records are then written out, for a reader that reads as they come. 0, or -EPIPE
 * (also with no record: round 0) once the reader of a pipe has gone away.
 */
int pmc__perfdata_writer_round(struct pmc__perfdata_writer *w, bool round);
int pmc__perfdata_writer_finish(struct pmc__perfdata_writer *w);
void pmc__perfdata_writer_delete(struct pmc__perfdata_writer *w);

#endif /* PMC_LIB_PERFDATA_PERFDATA_H */
