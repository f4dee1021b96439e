#ifndef LATCH_CCRYPTO_SHIM_H
#define LATCH_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/ecdsa.h>
#include <openssl/sha.h>
#include <openssl/hmac.h>
#include <openssl/asn1.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/// `STACK_OF(GENERAL_NAME)` is handled through macros Swift cannot import; these wrap the ones
/// a subjectAltName needs (RFC 5280 § 4.2.1.6).
static inline GENERAL_NAMES *latch_general_names_new(void) {
    return sk_GENERAL_NAME_new_null();
}
static inline int latch_general_names_push(GENERAL_NAMES *names, GENERAL_NAME *name) {
    return sk_GENERAL_NAME_push(names, name);
}

/// `OPENSSL_free` is a macro; frees memory libcrypto allocated (e.g. from `BN_bn2hex`).
static inline void latch_openssl_free(void *pointer) {
    OPENSSL_free(pointer);
}
#endif
