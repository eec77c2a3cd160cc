/* SPDX-License-Identifier: MIT */
/* container_of and array sizes, as the kernel spells them. */
#ifndef PMC_LIB_CORE_COMPILER_H
#define PMC_LIB_CORE_COMPILER_H

#include <stddef.h>

#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* PMC_LIB_CORE_COMPILER_H */
