#ifndef AUTH_SIDECAR_COPENSSL_SHIM_H
#define AUTH_SIDECAR_COPENSSL_SHIM_H
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

/* A macro built from an expression of other macros, which Swift does not import. */
static inline int auth_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }
#endif
