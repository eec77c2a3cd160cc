// SPDX-License-Identifier: MIT
/*
 * GNU build ids (buildid.h) as perf reads them: the NT_GNU_BUILD_ID note of an ELF file's
 * PT_NOTE segments, of the kernel's /sys/kernel/notes and of a module's notes in sysfs.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/infile.h>
#include "symbol/buildid.h"

int pmc__build_id_of_notes(const uint8_t *p, size_t len, char hex[PMC_BUILD_ID_HEX])
{
	size_t off = 0;

	while (len - off >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		size_t name, desc;

		memcpy(&nh, p + off, sizeof(nh));
		name = (nh.n_namesz + 3u) & ~(size_t)3;
		desc = (nh.n_descsz + 3u) & ~(size_t)3;
		off += sizeof(nh);
		if (name > len - off || desc > len - off - name)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(p + off, "GNU", 4) && nh.n_descsz && nh.n_descsz <= 20) {
			for (unsigned j = 0; j < nh.n_descsz; j++)
				snprintf(hex + 2 * j, 3, "%02x", p[off + name + j]);
			return 0;
		}
		off += name + desc;
	}
	return -ENOENT;
}

int pmc__build_id_of_image(const uint8_t *img, size_t size, char hex[PMC_BUILD_ID_HEX])
{
	const Elf64_Ehdr *eh = (const void *)img;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    eh->e_phoff > size || eh->e_phnum > (size - eh->e_phoff) / sizeof(Elf64_Phdr))
		return -ENOENT;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, img + eh->e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_NOTE || ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			continue;
		if (!pmc__build_id_of_notes(img + ph.p_offset, ph.p_filesz, hex))
			return 0;
	}
	return -ENOENT;
}

int pmc__build_id_of_file(const char *path, char hex[PMC_BUILD_ID_HEX])
{
	int fd = pmc_open_input(path), ret;
	struct stat st;
	void *img;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !st.st_size) {
		ret = st.st_size ? -errno : -ENOENT;
		close(fd);
		return ret;
	}
	img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	ret = img == MAP_FAILED ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	ret = pmc__build_id_of_image(img, (size_t)st.st_size, hex);
	munmap(img, (size_t)st.st_size);
	return ret;
}

/* The notes in a sysfs file (no size until read). */
static int notes_file(const char *path, char hex[PMC_BUILD_ID_HEX])
{
	uint8_t buf[8192]; /* /sys/kernel/notes holds a handful of notes */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -errno;
	return pmc__build_id_of_notes(buf, (size_t)n, hex);
}

int pmc__build_id_of_kernel(char hex[PMC_BUILD_ID_HEX])
{
	return notes_file("/sys/kernel/notes", hex);
}

int pmc__build_id_of_module(const char *name, char hex[PMC_BUILD_ID_HEX])
{
	char path[320];

	if (strchr(name, '/') ||
	    snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", name) >=
		    (int)sizeof(path))
		return -EINVAL;
	return notes_file(path, hex);
}
