// CFFI — libffi for the plugin host (docs/manifest.md, "configure").
//
// The ffi_type_* descriptors are C globals; Swift would see them as mutable global variables,
// which are awkward (and not concurrency-safe) to take addresses of. The inline accessors
// below return their stable addresses instead, and wrap the two calls the host needs so Swift
// does not have to spell FFI_DEFAULT_ABI or cast a data pointer to a function pointer.
#ifndef TRANSHOST_CFFI_SHIM_H
#define TRANSHOST_CFFI_SHIM_H

#include <ffi.h>

static inline ffi_type *cffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *cffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *cffi_type_sint8(void) { return &ffi_type_sint8; }
static inline ffi_type *cffi_type_uint16(void) { return &ffi_type_uint16; }
static inline ffi_type *cffi_type_sint16(void) { return &ffi_type_sint16; }
static inline ffi_type *cffi_type_uint32(void) { return &ffi_type_uint32; }
static inline ffi_type *cffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *cffi_type_uint64(void) { return &ffi_type_uint64; }
static inline ffi_type *cffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *cffi_type_float(void) { return &ffi_type_float; }
static inline ffi_type *cffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *cffi_type_pointer(void) { return &ffi_type_pointer; }

/// Size of ffi_arg: integer returns narrower than this are widened to a full ffi_arg by libffi.
static inline unsigned long cffi_sizeof_ffi_arg(void) { return (unsigned long)sizeof(ffi_arg); }

/// ffi_prep_cif with the platform's default ABI. Returns nonzero (an ffi_status) on failure.
static inline int cffi_prep_cif(ffi_cif *cif, unsigned int nargs, ffi_type *rtype, ffi_type **atypes) {
    return (int)ffi_prep_cif(cif, FFI_DEFAULT_ABI, nargs, rtype, atypes);
}

/// ffi_call on a function address obtained from dlsym.
static inline void cffi_call(ffi_cif *cif, void *fn, void *rvalue, void **avalue) {
    ffi_call(cif, FFI_FN(fn), rvalue, avalue);
}

#endif
