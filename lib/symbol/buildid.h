/* SPDX-License-Identifier: MIT */
/*
 * GNU build ids (buildid.c): read from ELF files, images and the kernel's notes, and perf's
 * build-id cache (bidcache.c), where pmc record keeps a copy of each sampled object under
 * its build id and pmc report (and perf report) finds it again (docs/sample-file.md).
 */
#ifndef PMC_LIB_SYMBOL_BUILDID_H
#define PMC_LIB_SYMBOL_BUILDID_H

#include <stddef.h>
#include <stdint.h>

#define PMC_BUILD_ID_HEX 41 /* up to 20 bytes in hex, and the NUL */

struct pmc__dso;

/* The NT_GNU_BUILD_ID note among the ELF notes notes[0..len), in hex. 0, or -ENOENT. */
int pmc__build_id_of_notes(const uint8_t *notes, size_t len, char hex[PMC_BUILD_ID_HEX]);
/* The build id in a 64-bit ELF image's PT_NOTE segments, in hex. 0, or -ENOENT. */
int pmc__build_id_of_image(const uint8_t *img, size_t size, char hex[PMC_BUILD_ID_HEX]);
/*
 * The build id of the ELF file at path (opened as an input: a regular file only). 0, or a
 * negative errno (-ENOENT when the file has none).
 */
int pmc__build_id_of_file(const char *path, char hex[PMC_BUILD_ID_HEX]);
/* The running kernel's build id, from /sys/kernel/notes. 0, or a negative errno. */
int pmc__build_id_of_kernel(char hex[PMC_BUILD_ID_HEX]);
/* A loaded module's, from /sys/module/NAME/notes/.note.gnu.build-id. 0, or a negative errno. */
int pmc__build_id_of_module(const char *name, char hex[PMC_BUILD_ID_HEX]);

/*
 * Keeps a copy of the object at path, whose build id is hex, in the cache as perf does:
 * DIR/PATH/ID/elf, and the link DIR/.build-id/ID[0..2]/ID[2..] -> ../../PATH/ID. Folders are
 * made 0755 (perf's), each below DIR opened without following links; the file is written
 * whole (a temporary file renamed) with mode 0600 and never through a link. An entry
 * already there is kept. 0, or a negative errno.
 */
int pmc__buildid_cache_add(const char *path, const char *hex);
/*
 * Keeps a copy of /proc/kallsyms as the kernel's of build id hex, as perf does:
 * DIR/[kernel.kallsyms]/ID/kallsyms, linked from DIR/.build-id as objects are; not when one
 * is there, nor when the file shows no addresses (-EPERM: kptr_restrict). 0, or a negative
 * errno.
 */
int pmc__buildid_cache_add_kallsyms(const char *hex);
/*
 * Checks that dso's file carries the build id the recording names (hex); when it does not,
 * a copy that does (the build-id cache, then /usr/lib/debug/.build-id) is read in its place,
 * and when none is found the DSO is marked: its samples are named "[build id mismatch]"
 * and a warning names the file. Once per DSO. 0 (the file or a copy), -ESTALE (marked).
 */
int pmc__dso_expect_build_id(struct pmc__dso *dso, const char *hex);

/*
 * Checks that the running kernel is the one the recording names (hex): when it is not, its
 * samples are named from the cached kallsyms of that kernel, and without one the kernel
 * DSO is marked as above, with a warning. Nothing is checked when the user named a
 * kallsyms file or the running kernel's id is unknown. Once. 0, -ESTALE (marked), -ENOMEM.
 */
struct pmc__symtab;
int pmc__symtab_expect_kernel(struct pmc__symtab *st, const char *hex);

#endif /* PMC_LIB_SYMBOL_BUILDID_H */
