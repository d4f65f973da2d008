#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

/* SHA-256's plain functions (SHA256_Init and the like), which ChallengeCrypto's digests and HMAC use, are deprecated
   in OpenSSL 3 in favour of EVP, which looks algorithms up by name on every process's first use and costs several
   times as much per call; they are still built (the zip's OpenSSL too), and this keeps their use free of warnings. */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/* OpenSSL 3 spells the typed stack functions (sk_X509_new_null and the like) as macros, which Swift does not import;
   these are the three the attestation chain check needs. The stack does not own what is pushed onto it. */
static inline STACK_OF(X509) *copenssl_x509_stack_new(void) { return sk_X509_new_null(); }
static inline int copenssl_x509_stack_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate);
}
static inline void copenssl_x509_stack_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }

#endif
