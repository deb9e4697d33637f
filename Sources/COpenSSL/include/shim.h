#ifndef AUTH_SIDECAR_COPENSSL_SHIM_H
#define AUTH_SIDECAR_COPENSSL_SHIM_H
/* OpenSSL's declarations for AuthCrypto, which calls libcrypto's functions by their names. Nothing links libcrypto:
   libcrypto.c defines each of those names as a small function that forwards to the library opened with dlopen
   (auth_libcrypto_load), so a host that only validates never maps libcrypto, whose relocations and pages were
   most of what a cold start still paid for it. */
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#include <openssl/hmac.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/decoder.h>

/* OSSL_PARAM_BLD stores the key-name and value pointers it is given and reads them later (the names end up
   inside the built OSSL_PARAM array). A Swift string bridged to `const char *` dies when the call returns, so
   these hand Swift the library's own static strings instead. */
static inline const char *auth_ossl_param_rsa_n(void) { return OSSL_PKEY_PARAM_RSA_N; }
static inline const char *auth_ossl_param_rsa_e(void) { return OSSL_PKEY_PARAM_RSA_E; }
static inline const char *auth_ossl_param_group_name(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }
static inline const char *auth_ossl_param_public_key(void) { return OSSL_PKEY_PARAM_PUB_KEY; }
static inline const char *auth_ossl_group_p256(void) { return SN_X9_62_prime256v1; }
/* OSSL_DECODER_CTX_new_for_pkey keeps the input type's pointer too (OSSL_DECODER_CTX_set_input_type stores it, and
   OSSL_DECODER_from_data reads it): a bridged Swift string would be gone by then. The key type, for the same
   reason, in case a version keeps it. */
static inline const char *auth_ossl_input_type_pem(void) { return "PEM"; }
static inline const char *auth_ossl_key_type_rsa(void) { return "RSA"; }

/* A macro built from an expression of other macros, which Swift does not import. */
static inline int auth_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }

/* Opens libcrypto and resolves every function AuthCrypto calls, once per process (the first caller does it, every
   other waits for it). NULL when it is ready; else why not, for a person. AuthCrypto asks before its first call:
   a function called while the library is missing ends the process. */
const char *auth_libcrypto_load(void);

/* Wipes `count` bytes in a way the compiler may not drop: SecretBytes wipes with it on release, which happens
   anywhere, so it must not need libcrypto (glibc's explicit_bzero, the same guarantee OPENSSL_cleanse gives). */
void auth_secure_wipe(void *bytes, size_t count);
#endif
