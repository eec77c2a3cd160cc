/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Heap blocks and their allocation sites (docs/vpmu.md, "Heap blocks"). Run as the tool
 * vpmuheap, whose preload (vgpreload_vpmuheap-amd64-linux.so, Valgrind's malloc replacement
 * library) sends the client's malloc, calloc, realloc, memalign, free, new and delete here, as
 * under memcheck and massif: blocks come from Valgrind's client arena, and each live one is
 * kept with the code that allocated it. A sample whose data address lies in a live block
 * names the block and its site; the site's name goes to the stream once, before the first
 * sample that names it. Run as vpmu, no preload exists and nothing here is called.
 */
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_oset.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_stacktrace.h"
#include "vpmu.h"

/* Frames looked at for the first caller outside the allocator (the replacement function,
 * and operator new's own frames where it calls malloc). */
#define SITE_DEPTH 8
#define SITE_NAME_MAX 256

struct vp_site {
	Addr ra; /* the key: the allocating call's return address */
	UInt id;
	Bool sent;
};

struct vp_block {
	Addr start; /* the key */
	SizeT size;
	struct vp_site *site; /* OSet nodes stay where they were allocated */
};

static OSet *blocks, *sites;
static UInt nr_sites;

/* A block holds the addresses [start, start + size); a block of 0 bytes holds its start, so
 * that every live block has a distinct, non-empty range. */
static Word block_cmp(const void *key, const void *elem)
{
	Addr a = *(const Addr *)key;
	const struct vp_block *b = elem;

	if (a < b->start)
		return -1;
	return a - b->start >= (b->size ? b->size : 1) ? 1 : 0;
}

static void heap_init(void)
{
	if (blocks)
		return;
	blocks = VG_(OSetGen_Create)(offsetof(struct vp_block, start), block_cmp, VG_(malloc),
				     "vpmu.heap.blocks", VG_(free));
	sites = VG_(OSetGen_Create)(offsetof(struct vp_site, ra), NULL, VG_(malloc),
				    "vpmu.heap.sites", VG_(free));
}

/* Is ip in Valgrind's preload objects (the replacement functions)? */
static Bool in_preload(Addr ip)
{
	NSegment const *seg = VG_(am_find_nsegment)(ip);
	const HChar *path = seg ? VG_(am_get_filename)(seg) : NULL;

	return path && VG_(strstr)(path, "/vgpreload_") != NULL;
}

/* The site of the allocation under way: the first caller outside the preload. */
static struct vp_site *site_of(ThreadId tid)
{
	Addr ips[SITE_DEPTH], ra = 0;
	UInt n = VG_(get_StackTrace)(tid, ips, SITE_DEPTH, NULL, NULL, 0), i;
	struct vp_site *s;

	for (i = 1; i < n; i++)
		if (!in_preload(ips[i])) {
			ra = ips[i] + 1; /* the unwinder gives return address - 1 */
			break;
		}
	s = VG_(OSetGen_Lookup)(sites, &ra);
	if (s)
		return s;
	s = VG_(OSetGen_AllocNode)(sites, sizeof(*s));
	s->ra = ra;
	s->id = ++nr_sites;
	s->sent = False;
	VG_(OSetGen_Insert)(sites, s);
	return s;
}

static void track(ThreadId tid, void *p, SizeT n)
{
	struct vp_block *b;

	if (!p)
		return;
	heap_init();
	b = VG_(OSetGen_AllocNode)(blocks, sizeof(*b));
	b->start = (Addr)p;
	b->size = n;
	b->site = site_of(tid);
	VG_(OSetGen_Insert)(blocks, b);
}

static void untrack(void *p)
{
	Addr a = (Addr)p;
	struct vp_block *b = blocks ? VG_(OSetGen_Lookup)(blocks, &a) : NULL;

	if (b && b->start == a)
		VG_(OSetGen_FreeNode)(blocks, VG_(OSetGen_Remove)(blocks, &a));
}

static void *alloc(ThreadId tid, SizeT n, SizeT align)
{
	void *p = VG_(cli_malloc)(align, n);

	track(tid, p, n);
	return p;
}

static void *vp_malloc(ThreadId tid, SizeT n)
{
	return alloc(tid, n, VG_(clo_alignment));
}

static void *vp_new_aligned(ThreadId tid, SizeT n, SizeT align)
{
	return alloc(tid, n, align);
}

static void *vp_memalign(ThreadId tid, SizeT align, SizeT n)
{
	return alloc(tid, n, align);
}

static void *vp_calloc(ThreadId tid, SizeT nmemb, SizeT size1)
{
	void *p;

	if (size1 && nmemb > ~(SizeT)0 / size1)
		return NULL;
	p = alloc(tid, nmemb * size1, VG_(clo_alignment));
	if (p)
		VG_(memset)(p, 0, nmemb * size1);
	return p;
}

static void vp_free(ThreadId tid, void *p)
{
	(void)tid;
	if (!p)
		return;
	untrack(p);
	VG_(cli_free)(p);
}

static void vp_delete_aligned(ThreadId tid, void *p, SizeT align)
{
	(void)align;
	vp_free(tid, p);
}

/* realloc(p, 0) frees p and returns NULL, as glibc's; a block this allocator did not make is
 * refused (NULL), as massif does. */
static void *vp_realloc(ThreadId tid, void *p, SizeT n)
{
	Addr a = (Addr)p;
	struct vp_block *b;
	void *q;

	if (!p)
		return vp_malloc(tid, n);
	if (!n) {
		vp_free(tid, p);
		return NULL;
	}
	b = blocks ? VG_(OSetGen_Lookup)(blocks, &a) : NULL;
	if (!b || b->start != a)
		return NULL;
	q = VG_(cli_malloc)(VG_(clo_alignment), n);
	if (!q)
		return NULL;
	VG_(memcpy)(q, p, b->size < n ? b->size : n);
	vp_free(tid, p);
	track(tid, q, n);
	return q;
}

static SizeT vp_usable_size(ThreadId tid, void *p)
{
	(void)tid;
	return VG_(cli_malloc_usable_size)(p);
}

void vp_heap_pre_clo_init(void)
{
	VG_(needs_malloc_replacement)
	(vp_malloc, vp_malloc, vp_new_aligned, vp_malloc, vp_new_aligned, vp_memalign, vp_calloc,
	 vp_free, vp_free, vp_delete_aligned, vp_free, vp_delete_aligned, vp_realloc,
	 vp_usable_size, 0);
}

/* "func+0xOFF (file.c:LINE)" (the file's name without its folder) of the call before the return
 * address ra, as far as debug information tells, else the address. */
static void site_name(Addr ra, HChar *buf, Int len)
{
	DiEpoch ep = VG_(current_DiEpoch)();
	const HChar *fn, *file, *plus;
	HChar func[SITE_NAME_MAX];
	UInt line;
	Int n;

	if (!ra || !VG_(get_fnname_w_offset)(ep, ra - 1, &fn)) {
		vp_snprintf(buf, len, "0x%lx", ra);
		return;
	}
	/* fn is "name+N" (N decimal, the call's last byte) or "name": offsets are of ra */
	plus = VG_(strrchr)(fn, '+');
	n = plus ? (Int)(plus - fn) : (Int)VG_(strlen)(fn);
	if (n >= SITE_NAME_MAX)
		n = SITE_NAME_MAX - 1;
	VG_(memcpy)(func, fn, n);
	func[n] = 0;
	n = vp_snprintf(buf, len, "%s+0x%llx", func,
			plus ? VG_(strtoull10)(plus + 1, NULL) + 1ULL : 1ULL);
	if (n < len && VG_(get_filename_linenum)(ep, ra - 1, &file, NULL, &line)) {
		const HChar *slash = VG_(strrchr)(file, '/');

		vp_snprintf(buf + n, len - n, " (%s:%u)", slash ? slash + 1 : file, line);
	}
}

static void send_site(struct vp_site *s)
{
	UChar rec[sizeof(struct vpmu_rec_site) + SITE_NAME_MAX + 8];
	struct vpmu_rec_site *r = (struct vpmu_rec_site *)rec;
	UInt size;

	VG_(memset)(rec, 0, sizeof(rec));
	site_name(s->ra, r->name, SITE_NAME_MAX);
	size = (sizeof(*r) + VG_(strlen)(r->name) + 1 + 7) & ~7u;
	vp_hdr_init(&r->hdr, VPMU_MAGIC_RECORD, VPMU_REC_SITE, size);
	r->id = s->id;
	r->ip = s->ra;
	vp_out_write(rec, size);
	s->sent = True;
}

/* Fills the sample's block fields when addr is in a live block, first sending its site. */
void vp_heap_sample(struct vpmu_rec_sample *s, Addr addr)
{
	struct vp_block *b;

	if (!blocks || !VG_(OSetGen_Size)(blocks))
		return;
	b = VG_(OSetGen_Lookup)(blocks, &addr);
	if (!b)
		return;
	if (!b->site->sent)
		send_site(b->site);
	s->flags |= VPMU_SAMPLE_HAS_BLOCK;
	s->block_addr = b->start;
	s->block_size = b->size;
	s->block_site = b->site->id;
}
