// SPDX-License-Identifier: MIT
/*
 * Dry runs: each perf_event_open(2) call described in the layout of perf's -vv output
 * (perf 6.1) instead of made, with placeholder fds. The layout is in docs/events.md,
 * "Dry runs".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend/perf/perf.h"
#include "event/evsel.h"

#define RULE "------------------------------------------------------------\n"

struct bit_name {
	uint64_t bit;
	const char *name;
};

static const struct bit_name sample_type_names[] = {
	{PERF_SAMPLE_IP, "IP"},
	{PERF_SAMPLE_TID, "TID"},
	{PERF_SAMPLE_TIME, "TIME"},
	{PERF_SAMPLE_ADDR, "ADDR"},
	{PERF_SAMPLE_READ, "READ"},
	{PERF_SAMPLE_CALLCHAIN, "CALLCHAIN"},
	{PERF_SAMPLE_ID, "ID"},
	{PERF_SAMPLE_CPU, "CPU"},
	{PERF_SAMPLE_PERIOD, "PERIOD"},
	{PERF_SAMPLE_STREAM_ID, "STREAM_ID"},
	{PERF_SAMPLE_RAW, "RAW"},
	{PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK"},
	{PERF_SAMPLE_REGS_USER, "REGS_USER"},
	{PERF_SAMPLE_STACK_USER, "STACK_USER"},
	{PERF_SAMPLE_WEIGHT, "WEIGHT"},
	{PERF_SAMPLE_DATA_SRC, "DATA_SRC"},
	{PERF_SAMPLE_IDENTIFIER, "IDENTIFIER"},
	{PERF_SAMPLE_TRANSACTION, "TRANSACTION"},
	{PERF_SAMPLE_REGS_INTR, "REGS_INTR"},
	{PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR"},
	{PERF_SAMPLE_CGROUP, "CGROUP"},
	{PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE"},
	{PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE"},
	{PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT"},
	{0, NULL},
};

static const struct bit_name read_format_names[] = {
	{PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED"},
	{PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING"},
	{PERF_FORMAT_ID, "ID"},
	{PERF_FORMAT_GROUP, "GROUP"},
	{PERF_FORMAT_LOST, "LOST"},
	{0, NULL},
};

static const struct bit_name branch_names[] = {
	{PERF_SAMPLE_BRANCH_USER, "USER"},
	{PERF_SAMPLE_BRANCH_KERNEL, "KERNEL"},
	{PERF_SAMPLE_BRANCH_HV, "HV"},
	{PERF_SAMPLE_BRANCH_ANY, "ANY"},
	{PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL"},
	{PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN"},
	{PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL"},
	{PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX"},
	{PERF_SAMPLE_BRANCH_IN_TX, "IN_TX"},
	{PERF_SAMPLE_BRANCH_NO_TX, "NO_TX"},
	{PERF_SAMPLE_BRANCH_COND, "COND"},
	{PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK"},
	{PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP"},
	{PERF_SAMPLE_BRANCH_CALL, "CALL"},
	{PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS"},
	{PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES"},
	{PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE"},
	{PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX"},
	{PERF_SAMPLE_BRANCH_PRIV_SAVE, "PRIV_SAVE"},
	{0, NULL},
};

/* "  name<pad to 32> value": perf's column layout. */
static void field(FILE *f, const char *name, const char *fmt, unsigned long long v)
{
	if (!v)
		return;
	fprintf(f, "  %-32s ", name);
	fprintf(f, fmt, v);
	fputc('\n', f);
}

/* Names of the set bits joined by '|'; bits without a name as one hex number at the end. */
static void bits(FILE *f, const char *name, uint64_t v, const struct bit_name *names)
{
	const char *sep = "";

	if (!v)
		return;
	fprintf(f, "  %-32s ", name);
	for (size_t i = 0; names[i].name; i++)
		if (v & names[i].bit) {
			fprintf(f, "%s%s", sep, names[i].name);
			v &= ~names[i].bit;
			sep = "|";
		}
	if (v)
		fprintf(f, "%s%#llx", sep, (unsigned long long)v);
	fputc('\n', f);
}

#define U(name) field(f, #name, "%llu", a->name)
#define X(name) field(f, #name, "%#llx", a->name)

static void flags(FILE *f, const struct perf_event_attr *a)
{
	U(disabled), U(inherit), U(pinned), U(exclusive), U(exclude_user), U(exclude_kernel);
	U(exclude_hv), U(exclude_idle), U(mmap), U(comm), U(freq), U(inherit_stat);
	U(enable_on_exec), U(task), U(watermark), U(precise_ip), U(mmap_data), U(sample_id_all);
	U(exclude_host), U(exclude_guest), U(exclude_callchain_kernel), U(exclude_callchain_user);
	U(mmap2), U(comm_exec), U(use_clockid), U(context_switch), U(write_backward);
	U(namespaces), U(ksymbol), U(bpf_event), U(aux_output), U(cgroup), U(text_poke);
	U(build_id), U(inherit_thread), U(remove_on_exec), U(sigtrap);
}

/* The fields in perf's order; unions under perf's "{ a, b }" names. */
static void attr_block(FILE *f, const struct perf_event_attr *a)
{
	fputs(RULE "perf_event_attr:\n", f);
	U(type), U(size), X(config);
	field(f, "{ sample_period, sample_freq }", "%llu", a->sample_period);
	bits(f, "sample_type", a->sample_type, sample_type_names);
	bits(f, "read_format", a->read_format, read_format_names);
	flags(f, a);
	field(f, "{ wakeup_events, wakeup_watermark }", "%llu", a->wakeup_events);
	U(bp_type);
	field(f, "{ bp_addr, config1 }", "%#llx", a->bp_addr);
	field(f, "{ bp_len, config2 }", "%#llx", a->bp_len);
	bits(f, "branch_sample_type", a->branch_sample_type, branch_names);
	X(sample_regs_user), U(sample_stack_user), U(clockid), X(sample_regs_intr);
	U(aux_watermark), U(sample_max_stack), U(aux_sample_size), U(sig_data);
	fputs(RULE, f);
}

#undef U
#undef X

void pmc__perf_dry_run_init(struct perf_dry_run *d, const struct pmc_evlist *evlist)
{
	*d = (struct perf_dry_run){.fn = evlist->dry_run,
				   .arg = evlist->dry_run_arg,
				   .attrs = evlist->dry_run_attrs,
				   .next_fd = 3};
}

static int describe(struct perf_dry_run *d, const struct perf_event_attr *a, pid_t pid, int cpu,
		    int group_fd, unsigned long flags)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return -ENOMEM;
	if (d->attrs && (d->next_fd == 3 || memcmp(&d->last, a, sizeof(*a))))
		attr_block(f, a);
	d->last = *a;
	if (pid == PMC__DRY_RUN_CHILD_PID)
		fputs("sys_perf_event_open: pid <command>", f);
	else
		fprintf(f, "sys_perf_event_open: pid %d", (int)pid);
	fprintf(f, "  cpu %d  group_fd %d  flags %#lx = %d\n", cpu, group_fd,
		flags | PERF_FLAG_FD_CLOEXEC, d->next_fd);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	d->fn(text, d->arg);
	free(text);
	return d->next_fd++;
}

int pmc__perf_open_call(struct perf_dry_run *d, struct perf_event_attr *attr, pid_t pid, int cpu,
			int group_fd, unsigned long flags)
{
	if (d && d->fn)
		return describe(d, attr, pid, cpu, group_fd, flags);
	return pmc__perf_event_open(attr, pid, cpu, group_fd, flags);
}
