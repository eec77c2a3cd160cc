// SPDX-License-Identifier: MIT
/* Data-address reconstruction on a program whose load is known, through a synthetic sample file. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pmc/report.h>
#include "perfdata/perfdata.h"
#include "symbol/symbol.h"
#include "elf-fixture.h"
#include "perfdata-fixture.h"

#define PROG PMC_PROGS_DIR "/sample-daddr"
#define BASE 0x10000000ull

/* File offset of the code at vaddr, from the program headers. */
static uint64_t vaddr_to_offset(uint64_t vaddr)
{
	return fixture_file_offset(PROG, vaddr);
}

static void write_file(const char *path, uint64_t ip, const uint64_t rdi[], int n)
{
	struct pmc__perfdata_writer *w;
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.sample_period = 10000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD |
			       PERF_SAMPLE_REGS_INTR,
		.sample_regs_intr = (1u << 4) | (1u << 5), /* si, di */
		.precise_ip = 2,
		.sample_id_all = 0,
	};
	cr_assert_eq(pmc__perfdata_writer_new(path, &w), 0);
	cr_assert_eq(pmc__perfdata_writer_add_attr(w, &a, "mem-loads:pp", NULL, 0), 0);
	cr_assert_eq(pmc__perfdata_writer_begin(w), 0);
	fixture_mmap2(w, 42, BASE, 1 << 24, PROG, 0);
	for (int i = 0; i < n; i++) {
		uint64_t regs[2] = {2 /* si */, rdi[i] /* di */};
		struct pmc__sample s = {.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP,
					.ip = ip,
					.pid = 42,
					.tid = 42,
					.period = 10000,
					.intr_regs_abi = PERF_SAMPLE_REGS_ABI_64,
					.intr_regs = regs};
		cr_assert_eq(pmc__perfdata_writer_write_sample(w, 0, &s), 0);
	}
	cr_assert_eq(pmc__perfdata_writer_finish(w), 0);
	pmc__perfdata_writer_delete(w);
}

Test(report_daddr, reconstructs_known_load_addresses)
{
	struct pmc__symtab *st;
	uint64_t start, size;
	char path[64];
	const uint64_t rdi[] = {0x7000, 0x9000, 0x9000, 0xb000};

	cr_assert_eq(pmc__symtab_new(NULL, &st), 0);
	cr_assert_eq(pmc__dso_find_symbol(pmc__symtab_dso(st, PROG), "daddr_load", &start, &size),
		     0);
	pmc__symtab_delete(st);
	snprintf(path, sizeof(path), "/tmp/pmc-daddr-%d.data", (int)getpid());
	write_file(path, BASE + vaddr_to_offset(start), rdi, 4);

	struct pmc_report_opts o = {.sz = sizeof(o), .sort = "daddr"};
	struct pmc_report *r;
	struct pmc_file_error err;
	struct pmc_report_entry e;
	cr_assert_eq(pmc_report__new(&o, &r), 0);
	cr_assert_eq(pmc_report__load(r, path, &err), 0, "%s", err.msg);
	cr_assert_eq(pmc_report__nr_reconstructed(r), 4);
	cr_assert_eq(pmc_report__nr_entries(r), 3);
	/* rdi + rsi*8 + 16 with rsi = 2: 0x9020 twice, then 0x7020 and 0xb020; * marks
	 * reconstruction. */
	cr_assert_eq(pmc_report__entry(r, 0, &e), 0);
	cr_assert_str_eq(e.key, "0x0000000000009020*");
	cr_assert_eq(e.samples, 2);
	cr_assert_eq(e.period, 20000);
	cr_assert_eq(pmc_report__entry(r, 1, &e), 0);
	cr_assert(!strcmp(e.key, "0x0000000000007020*") || !strcmp(e.key, "0x000000000000b020*"),
		  "%s", e.key);
	pmc_report__delete(r);

	/* With reconstruction off, the samples carry no data address. */
	o.no_reconstruct = true;
	cr_assert_eq(pmc_report__new(&o, &r), 0);
	cr_assert_eq(pmc_report__load(r, path, &err), 0);
	cr_assert_eq(pmc_report__nr_reconstructed(r), 0);
	cr_assert_eq(pmc_report__entry(r, 0, &e), 0);
	cr_assert_str_eq(e.key, "[no data address]");
	pmc_report__delete(r);
	unlink(path);
}

/* Symbols of the sampled code resolve through the mmap record and the ELF symbol table. */
Test(report_daddr, symbol_of_sampled_ip)
{
	struct pmc__symtab *st;
	uint64_t start, size;
	char path[64];
	const uint64_t rdi[] = {0x1000};

	cr_assert_eq(pmc__symtab_new(NULL, &st), 0);
	cr_assert_eq(pmc__dso_find_symbol(pmc__symtab_dso(st, PROG), "daddr_load", &start, &size),
		     0);
	pmc__symtab_delete(st);
	snprintf(path, sizeof(path), "/tmp/pmc-daddr-sym-%d.data", (int)getpid());
	write_file(path, BASE + vaddr_to_offset(start), rdi, 1);
	struct pmc_report_opts o = {.sz = sizeof(o), .sort = "symbol,dso"};
	struct pmc_report *r;
	struct pmc_file_error err;
	struct pmc_report_entry e;
	cr_assert_eq(pmc_report__new(&o, &r), 0);
	cr_assert_eq(pmc_report__load(r, path, &err), 0);
	cr_assert_eq(pmc_report__entry(r, 0, &e), 0);
	cr_assert_str_eq(e.key, "[.] daddr_load  sample-daddr");
	pmc_report__delete(r);
	unlink(path);
}
