// SPDX-License-Identifier: MIT
/* libprotobuf-c and zlib loaded on first use, for the pprof export (pprof-api.h). */
#include "core/dynlib.h"
#include "report/pprof-api.h"

static struct {
	size_t (*get_packed_size)(const ProtobufCMessage *m);
	size_t (*pack)(const ProtobufCMessage *m, uint8_t *out);
	size_t (*pack_to_buffer)(const ProtobufCMessage *m, ProtobufCBuffer *b);
	ProtobufCMessage *(*unpack)(const ProtobufCMessageDescriptor *d, ProtobufCAllocator *a,
				    size_t len, const uint8_t *data);
	void (*free_unpacked)(ProtobufCMessage *m, ProtobufCAllocator *a);
} pb;
static const char *const pb_names[] = {
	"protobuf_c_message_get_packed_size", "protobuf_c_message_pack",
	"protobuf_c_message_pack_to_buffer",  "protobuf_c_message_unpack",
	"protobuf_c_message_free_unpacked",
};
_Static_assert(sizeof(pb_names) / sizeof(pb_names[0]) == sizeof(pb) / sizeof(void *),
	       "one name per function pointer");
static struct pmc__dynlib pb_lib = PMC__DYNLIB_INIT(PMC_PROTOBUFC_SONAME, pb_names, &pb,
						    sizeof(pb_names) / sizeof(pb_names[0]));

static struct pmc__z_api z;
static const char *const z_names[] = {"deflateInit2_", "deflate", "deflateEnd"};
_Static_assert(sizeof(z_names) / sizeof(z_names[0]) == sizeof(z) / sizeof(void *),
	       "one name per function pointer");
static struct pmc__dynlib z_lib =
	PMC__DYNLIB_INIT(PMC_ZLIB_SONAME, z_names, &z, sizeof(z_names) / sizeof(z_names[0]));

int pmc__pprof_api_load(const char **why)
{
	int err = pmc__dynlib_load(&pb_lib);

	*why = pb_lib.why;
	if (err)
		return err;
	*why = z_lib.why;
	return pmc__dynlib_load(&z_lib);
}

const struct pmc__z_api *pmc__z_api(void)
{
	return &z;
}

/*
 * The names the generated code (profile.pb-c.c) calls. They are reached only after
 * pmc__pprof_api_load() succeeded: the pprof writer checks it before it packs.
 */
const char protobuf_c_empty_string[] = "";

size_t protobuf_c_message_get_packed_size(const ProtobufCMessage *m)
{
	return pb.get_packed_size(m);
}

size_t protobuf_c_message_pack(const ProtobufCMessage *m, uint8_t *out)
{
	return pb.pack(m, out);
}

size_t protobuf_c_message_pack_to_buffer(const ProtobufCMessage *m, ProtobufCBuffer *b)
{
	return pb.pack_to_buffer(m, b);
}

ProtobufCMessage *protobuf_c_message_unpack(const ProtobufCMessageDescriptor *d,
					    ProtobufCAllocator *a, size_t len, const uint8_t *data)
{
	return pb.unpack(d, a, len, data);
}

void protobuf_c_message_free_unpacked(ProtobufCMessage *m, ProtobufCAllocator *a)
{
	pb.free_unpacked(m, a);
}
