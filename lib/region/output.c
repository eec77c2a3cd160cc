// SPDX-License-Identifier: MIT
/* Writing a process's region results when it exits (or flushes): to the runner or the user. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/log.h"
#include "region/region.h"

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Standalone mode: the record goes through the same reader the runner uses. */
static int report(const char *buf, size_t len)
{
	struct region_session *s = &pmc__region_session;
	struct pmc_region_data *data;
	int err = pmc_region_data__new(&data);

	if (!err)
		err = pmc_region_data__parse(data, buf, len);
	if (err >= 0) {
		if (s->sink == PMC_REGION_SINK_JSON)
			err = pmc__region_report_json(s->output, data);
		else
			err = pmc__region_report_text(stderr, data, s->per_thread);
	}
	pmc_region_data__delete(data);
	return err < 0 ? err : 0;
}

int pmc_region_flush(void)
{
	struct region_session *s = &pmc__region_session;
	int on = REGION_ON, err;
	char *buf = NULL;
	size_t len = 0;

	/* Only the first flush writes; markers return at once from now on. */
	if (!__atomic_compare_exchange_n(&s->state, &on, REGION_DONE, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return 0;
	pmc__region_lock();
	if (pmc__region_self)
		pmc__region_thread_settle(pmc__region_self);
	err = pmc__region_record(&buf, &len);
	pmc__region_unlock();
	if (!err) {
		switch (s->sink) {
		case PMC_REGION_SINK_FD:
			err = write_all(s->fd, buf, len);
			break;
		case PMC_REGION_SINK_STDERR:
		case PMC_REGION_SINK_JSON:
			err = report(buf, len);
			break;
		default:
			break;
		}
	}
	if (err)
		pr_err("regions: cannot write the results: %s\n", pmc_strerror(err));
	free(buf);
	return err;
}
