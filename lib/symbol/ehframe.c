// SPDX-License-Identifier: MIT
/*
 * Function extents from .eh_frame: each FDE gives [initial_location, +address_range) in the
 * pointer encoding its CIE's 'R' augmentation names (the LSB's "Exception Frames"; GCC and
 * Clang use DW_EH_PE_pcrel | DW_EH_PE_sdata4 on x86-64). A stripped object keeps the section,
 * since unwinding needs it.
 */
#include <errno.h>
#include <string.h>
#include "symbol/ehframe.h"

#define MAX_CIES 64

struct cie_enc {
	Dwarf_Off off;
	int enc; /* the FDEs' pointer encoding; -1 when not understood */
};

/* Reads a value of encoding enc's format at *p (not past end); 0, or -1. */
static int read_value(int enc, const uint8_t **p, const uint8_t *end, int64_t *v)
{
	size_t n;
	bool sign = false;

	switch (enc & 0x0f) {
	case 0x00:
		n = 8;
		break; /* absptr on a 64-bit object */
	case 0x02:
		n = 2;
		break;
	case 0x03:
		n = 4;
		break;
	case 0x04:
		n = 8;
		break;
	case 0x0a:
		n = 2;
		sign = true;
		break;
	case 0x0b:
		n = 4;
		sign = true;
		break;
	case 0x0c:
		n = 8;
		sign = true;
		break;
	default:
		return -1;
	}
	if ((size_t)(end - *p) < n)
		return -1;
	if (n == 2) {
		uint16_t u;
		memcpy(&u, *p, 2);
		*v = sign ? (int64_t)(int16_t)u : (int64_t)u;
	} else if (n == 4) {
		uint32_t u;
		memcpy(&u, *p, 4);
		*v = sign ? (int64_t)(int32_t)u : (int64_t)u;
	} else {
		memcpy(v, *p, 8);
	}
	*p += n;
	return 0;
}

/* The 'R' encoding of a CIE ("zR", "zPLR", ...); absptr when it has none; -1 when unknown. */
static int fde_encoding(const Dwarf_CIE *cie)
{
	const uint8_t *d = cie->augmentation_data, *end = d + cie->augmentation_data_size;
	const char *a = cie->augmentation;

	if (!a || a[0] != 'z')
		return a && a[0] ? -1 : 0x00;
	for (a++; *a; a++) {
		if (*a == 'R')
			return d < end ? *d : -1;
		if (*a == 'L' && d < end) {
			d++;
		} else if (*a == 'P' && d < end) { /* C++'s personality routine: its encoding, */
			int64_t skip;		   /* then a pointer in that encoding */
			int enc = *d++;
			if ((enc & 0x70) == 0x50 || read_value(enc, &d, end, &skip))
				return -1; /* aligned pointers: not used on x86-64 */
		} else if (*a != 'S') {
			return -1;
		}
	}
	return 0x00;
}

/* The section named name, its data, and its address. */
static Elf_Data *section(const struct pmc__dw_api *dw, Elf *elf, const char *name, uint64_t *addr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (dw->elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = dw->elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *s;
		if (!dw->gelf_getshdr(scn, &sh) ||
		    !(s = dw->elf_strptr(elf, shstrndx, sh.sh_name)) || strcmp(s, name) ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		*addr = sh.sh_addr;
		return dw->elf_getdata(scn, NULL);
	}
	return NULL;
}

static int cie_enc_of(const struct cie_enc *cies, size_t nr, Dwarf_Off off)
{
	for (size_t i = 0; i < nr; i++)
		if (cies[i].off == off)
			return cies[i].enc;
	return -1;
}

int pmc__ehframe_range(const struct pmc__dw_api *dw, Elf *elf, uint64_t vaddr, uint64_t *start,
		       uint64_t *end)
{
	const unsigned char *ident =
		elf ? (const unsigned char *)dw->elf_getident(elf, NULL) : NULL;
	struct cie_enc cies[MAX_CIES];
	size_t nr_cies = 0;
	uint64_t base = 0;
	Elf_Data *data = ident ? section(dw, elf, ".eh_frame", &base) : NULL;
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry e;

	for (; data && data->d_buf && off < data->d_size; off = next) {
		const uint8_t *p;
		int64_t loc, len;
		int enc;
		if (dw->dwarf_next_cfi(ident, data, true, off, &next, &e) || next <= off)
			break;
		if (dwarf_cfi_cie_p(&e)) {
			if (nr_cies < MAX_CIES)
				cies[nr_cies++] = (struct cie_enc){off, fde_encoding(&e.cie)};
			continue;
		}
		enc = cie_enc_of(cies, nr_cies, e.fde.CIE_pointer);
		p = e.fde.start;
		if (enc < 0 || (enc & 0x70) > 0x10 || read_value(enc, &p, e.fde.end, &loc))
			continue;
		if (enc & 0x10) /* pcrel: from the field's own address, modulo 2^64 as addresses */
			loc = (int64_t)((uint64_t)loc + base +
					(uint64_t)(e.fde.start - (const uint8_t *)data->d_buf));
		if (read_value(enc & 0x0f, &p, e.fde.end, &len) || len <= 0)
			continue;
		if (vaddr >= (uint64_t)loc && vaddr - (uint64_t)loc < (uint64_t)len) {
			*start = (uint64_t)loc;
			*end = (uint64_t)loc + (uint64_t)len;
			return 0;
		}
	}
	return -ENOENT;
}
