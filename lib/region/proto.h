/* SPDX-License-Identifier: MIT */
/* The region record's constants, shared by the writer (proto.c) and the reader (data.c). */
#ifndef PMC_LIB_REGION_PROTO_H
#define PMC_LIB_REGION_PROTO_H

/* "PMC-REGIONS <version> <body bytes>\n", then the body (docs/regions.md). */
#define PMC_REGION_MAGIC "PMC-REGIONS"
#define PMC_REGION_VERSION 1

#endif /* PMC_LIB_REGION_PROTO_H */
