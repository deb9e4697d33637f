/* libcrypto, opened with dlopen on the first request that needs it instead of linked.

   Linked statically, OpenSSL's tables (object ids, parameter groups, ciphers, encoders, reason strings) carried
   about 20,000 of the binary's 48,000 relative relocations, and applying them wrote about 120 pages at every
   start (a quarter of a cold start's instructions and page faults, bench/README.md); linked dynamically, loading
   and relocating the library at start cost more. Opened here, a host that only validates never maps it; libcurl,
   itself opened on the first remote request, links the same libcrypto.so.3, so the process holds one copy; and
   OpenSSL's security fixes reach the sidecar with the system's package.

   Every function AuthCrypto calls is defined below under its own name, forwarding to the pointer dlsym found,
   so the Swift code calls OpenSSL as it always did. They are hidden: the executable never offers them to a
   library loaded later (libssl, under libcurl, must bind to the real libcrypto). A function Swift calls that is
   missing from the list fails the link, since nothing else defines it. */
#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AUTH_STRINGIFY(x) #x
#define AUTH_SONAME(major) "libcrypto.so." AUTH_STRINGIFY(major)
/* The soname of the major version whose headers we were built with: OpenSSL keeps its ABI within one. */
#define AUTH_LIBCRYPTO_SONAME AUTH_SONAME(OPENSSL_VERSION_MAJOR)

/* Each function: X_RETURNING(return type, name, (parameters), (arguments)), or X_VOID(name, ...) for one that
   returns nothing. The parameters are those of OpenSSL's headers, which the compiler holds each definition to. */
#define AUTH_LIBCRYPTO_FUNCTIONS(X_RETURNING, X_VOID) \
  X_RETURNING(BIGNUM *, BN_bin2bn, (const unsigned char *s, int len, BIGNUM *ret), (s, len, ret)) \
  X_VOID(BN_free, (BIGNUM *a), (a)) \
  X_RETURNING(int, CRYPTO_memcmp, (const void *in_a, const void *in_b, size_t len), (in_a, in_b, len)) \
  X_VOID(ECDSA_SIG_free, (ECDSA_SIG *sig), (sig)) \
  X_RETURNING(ECDSA_SIG *, ECDSA_SIG_new, (void), ()) \
  X_RETURNING(int, ECDSA_SIG_set0, (ECDSA_SIG *sig, BIGNUM *r, BIGNUM *s), (sig, r, s)) \
  X_VOID(ERR_clear_error, (void), ()) \
  X_VOID(ERR_error_string_n, (unsigned long e, char *buf, size_t len), (e, buf, len)) \
  X_RETURNING(unsigned long, ERR_get_error, (void), ()) \
  X_RETURNING(int, EVP_CIPHER_CTX_ctrl, (EVP_CIPHER_CTX *ctx, int type, int arg, void *ptr), (ctx, type, arg, ptr)) \
  X_VOID(EVP_CIPHER_CTX_free, (EVP_CIPHER_CTX *c), (c)) \
  X_RETURNING(EVP_CIPHER_CTX *, EVP_CIPHER_CTX_new, (void), ()) \
  X_RETURNING(EVP_CIPHER *, EVP_CIPHER_fetch, (OSSL_LIB_CTX *ctx, const char *algorithm, const char *properties), \
    (ctx, algorithm, properties)) \
  X_RETURNING(int, EVP_DecodeBlock, (unsigned char *t, const unsigned char *f, int n), (t, f, n)) \
  X_RETURNING(int, EVP_DecryptFinal_ex, (EVP_CIPHER_CTX *ctx, unsigned char *outm, int *outl), (ctx, outm, outl)) \
  X_RETURNING(int, EVP_DecryptInit_ex, (EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, ENGINE *impl, \
    const unsigned char *key, const unsigned char *iv), (ctx, cipher, impl, key, iv)) \
  X_RETURNING(int, EVP_DecryptUpdate, (EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl, const unsigned char *in, \
    int inl), (ctx, out, outl, in, inl)) \
  X_RETURNING(int, EVP_Digest, (const void *data, size_t count, unsigned char *md, unsigned int *size, \
    const EVP_MD *type, ENGINE *impl), (data, count, md, size, type, impl)) \
  X_RETURNING(int, EVP_DigestSign, (EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, \
    const unsigned char *tbs, size_t tbslen), (ctx, sigret, siglen, tbs, tbslen)) \
  X_RETURNING(int, EVP_DigestSignInit, (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, \
    EVP_PKEY *pkey), (ctx, pctx, type, e, pkey)) \
  X_RETURNING(int, EVP_DigestVerify, (EVP_MD_CTX *ctx, const unsigned char *sigret, size_t siglen, \
    const unsigned char *tbs, size_t tbslen), (ctx, sigret, siglen, tbs, tbslen)) \
  X_RETURNING(int, EVP_DigestVerifyInit, (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, \
    EVP_PKEY *pkey), (ctx, pctx, type, e, pkey)) \
  X_RETURNING(int, EVP_EncodeBlock, (unsigned char *t, const unsigned char *f, int n), (t, f, n)) \
  X_RETURNING(int, EVP_EncryptFinal_ex, (EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl), (ctx, out, outl)) \
  X_RETURNING(int, EVP_EncryptInit_ex, (EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, ENGINE *impl, \
    const unsigned char *key, const unsigned char *iv), (ctx, cipher, impl, key, iv)) \
  X_RETURNING(int, EVP_EncryptUpdate, (EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl, const unsigned char *in, \
    int inl), (ctx, out, outl, in, inl)) \
  X_VOID(EVP_MD_CTX_free, (EVP_MD_CTX *ctx), (ctx)) \
  X_RETURNING(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ()) \
  X_RETURNING(EVP_MD *, EVP_MD_fetch, (OSSL_LIB_CTX *ctx, const char *algorithm, const char *properties), (ctx, \
    algorithm, properties)) \
  X_RETURNING(int, EVP_PBE_scrypt, (const char *pass, size_t passlen, const unsigned char *salt, size_t saltlen, \
    uint64_t N, uint64_t r, uint64_t p, uint64_t maxmem, unsigned char *key, size_t keylen), (pass, passlen, salt, \
    saltlen, N, r, p, maxmem, key, keylen)) \
  X_VOID(EVP_PKEY_CTX_free, (EVP_PKEY_CTX *ctx), (ctx)) \
  X_RETURNING(EVP_PKEY_CTX *, EVP_PKEY_CTX_new_from_name, (OSSL_LIB_CTX *libctx, const char *name, \
    const char *propquery), (libctx, name, propquery)) \
  X_RETURNING(EVP_PKEY_CTX *, EVP_PKEY_CTX_new_from_pkey, (OSSL_LIB_CTX *libctx, EVP_PKEY *pkey, \
    const char *propquery), (libctx, pkey, propquery)) \
  X_RETURNING(int, EVP_PKEY_CTX_set_rsa_mgf1_md_name, (EVP_PKEY_CTX *ctx, const char *mdname, const char *mdprops), \
    (ctx, mdname, mdprops)) \
  X_RETURNING(int, EVP_PKEY_CTX_set_rsa_oaep_md_name, (EVP_PKEY_CTX *ctx, const char *mdname, const char *mdprops), \
    (ctx, mdname, mdprops)) \
  X_RETURNING(int, EVP_PKEY_CTX_set_rsa_padding, (EVP_PKEY_CTX *ctx, int pad_mode), (ctx, pad_mode)) \
  X_RETURNING(int, EVP_PKEY_encrypt, (EVP_PKEY_CTX *ctx, unsigned char *out, size_t *outlen, \
    const unsigned char *in, size_t inlen), (ctx, out, outlen, in, inlen)) \
  X_RETURNING(int, EVP_PKEY_encrypt_init, (EVP_PKEY_CTX *ctx), (ctx)) \
  X_VOID(EVP_PKEY_free, (EVP_PKEY *pkey), (pkey)) \
  X_RETURNING(int, EVP_PKEY_fromdata, (EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey, int selection, OSSL_PARAM param[]), \
    (ctx, ppkey, selection, param)) \
  X_RETURNING(int, EVP_PKEY_fromdata_init, (EVP_PKEY_CTX *ctx), (ctx)) \
  X_RETURNING(int, EVP_PKEY_get_bits, (const EVP_PKEY *pkey), (pkey)) \
  X_RETURNING(int, EVP_PKEY_get_raw_public_key, (const EVP_PKEY *pkey, unsigned char *pub, size_t *len), (pkey, pub, \
    len)) \
  X_RETURNING(EVP_PKEY *, EVP_PKEY_new_raw_private_key_ex, (OSSL_LIB_CTX *libctx, const char *keytype, \
    const char *propq, const unsigned char *priv, size_t len), (libctx, keytype, propq, priv, len)) \
  X_RETURNING(EVP_PKEY *, EVP_PKEY_new_raw_public_key_ex, (OSSL_LIB_CTX *libctx, const char *keytype, \
    const char *propq, const unsigned char *pub, size_t len), (libctx, keytype, propq, pub, len)) \
  X_RETURNING(unsigned char *, EVP_Q_mac, (OSSL_LIB_CTX *libctx, const char *name, const char *propq, \
    const char *subalg, const OSSL_PARAM *params, const void *key, size_t keylen, const unsigned char *data, \
    size_t datalen, unsigned char *out, size_t outsize, size_t *outlen), (libctx, name, propq, subalg, params, key, \
    keylen, data, datalen, out, outsize, outlen)) \
  X_RETURNING(const EVP_CIPHER *, EVP_aes_256_gcm, (void), ()) \
  X_RETURNING(const EVP_MD *, EVP_sha256, (void), ()) \
  X_VOID(OSSL_DECODER_CTX_free, (OSSL_DECODER_CTX *ctx), (ctx)) \
  X_RETURNING(OSSL_DECODER_CTX *, OSSL_DECODER_CTX_new_for_pkey, (EVP_PKEY **pkey, const char *input_type, \
    const char *input_struct, const char *keytype, int selection, OSSL_LIB_CTX *libctx, const char *propquery), \
    (pkey, input_type, input_struct, keytype, selection, libctx, propquery)) \
  X_RETURNING(int, OSSL_DECODER_from_data, (OSSL_DECODER_CTX *ctx, const unsigned char **pdata, size_t *pdata_len), \
    (ctx, pdata, pdata_len)) \
  X_VOID(OSSL_PARAM_BLD_free, (OSSL_PARAM_BLD *bld), (bld)) \
  X_RETURNING(OSSL_PARAM_BLD *, OSSL_PARAM_BLD_new, (void), ()) \
  X_RETURNING(int, OSSL_PARAM_BLD_push_BN, (OSSL_PARAM_BLD *bld, const char *key, const BIGNUM *bn), (bld, key, bn)) \
  X_RETURNING(int, OSSL_PARAM_BLD_push_octet_string, (OSSL_PARAM_BLD *bld, const char *key, const void *buf, \
    size_t bsize), (bld, key, buf, bsize)) \
  X_RETURNING(int, OSSL_PARAM_BLD_push_utf8_string, (OSSL_PARAM_BLD *bld, const char *key, const char *buf, \
    size_t bsize), (bld, key, buf, bsize)) \
  X_RETURNING(OSSL_PARAM *, OSSL_PARAM_BLD_to_param, (OSSL_PARAM_BLD *bld), (bld)) \
  X_VOID(OSSL_PARAM_free, (OSSL_PARAM *p), (p)) \
  X_RETURNING(int, PKCS5_PBKDF2_HMAC, (const char *pass, int passlen, const unsigned char *salt, int saltlen, \
    int iter, const EVP_MD *digest, int keylen, unsigned char *out), (pass, passlen, salt, saltlen, iter, digest, \
    keylen, out)) \
  X_RETURNING(int, RAND_bytes, (unsigned char *buf, int num), (buf, num)) \
  X_RETURNING(int, RAND_priv_bytes, (unsigned char *buf, int num), (buf, num)) \
  X_RETURNING(int, i2d_ECDSA_SIG, (const ECDSA_SIG *a, unsigned char **out), (a, out))

/* The resolved functions, typed by the headers' own declarations. */
#define AUTH_POINTER(name) static __typeof__(&name) auth_real_##name;
#define AUTH_POINTER_RETURNING(type, name, parameters, arguments) AUTH_POINTER(name)
#define AUTH_POINTER_VOID(name, parameters, arguments) AUTH_POINTER(name)
AUTH_LIBCRYPTO_FUNCTIONS(AUTH_POINTER_RETURNING, AUTH_POINTER_VOID)

static pthread_once_t auth_libcrypto_once = PTHREAD_ONCE_INIT;
/* NULL once loaded; set only inside the once routine, read after pthread_once, which orders the two. */
static const char *auth_libcrypto_failure = "libcrypto was not loaded";
static char auth_libcrypto_reason[512];

static int auth_resolve(void *library, const char *name, void **pointer) {
  *pointer = dlsym(library, name);
  if (*pointer != NULL) return 1;
  snprintf(auth_libcrypto_reason, sizeof auth_libcrypto_reason,
    "the installed %s has no %s; install OpenSSL %d: apt-get install libssl3 (Debian, Ubuntu)",
    AUTH_LIBCRYPTO_SONAME, name, OPENSSL_VERSION_MAJOR);
  return 0;
}

static void auth_libcrypto_open(void) {
  /* RTLD_LOCAL: its symbols serve these lookups only. Never closed: the pointers live as long as the process. */
  void *library = dlopen(AUTH_LIBCRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    snprintf(auth_libcrypto_reason, sizeof auth_libcrypto_reason,
      "libcrypto could not be loaded (%s); install OpenSSL %d: apt-get install libssl3 (Debian, Ubuntu), "
      "dnf install openssl-libs (Fedora)", AUTH_LIBCRYPTO_SONAME, OPENSSL_VERSION_MAJOR);
    auth_libcrypto_failure = auth_libcrypto_reason;
    return;
  }
#define AUTH_RESOLVE(name) \
  if (!auth_resolve(library, #name, (void **)&auth_real_##name)) { \
    auth_libcrypto_failure = auth_libcrypto_reason; \
    return; \
  }
#define AUTH_RESOLVE_RETURNING(type, name, parameters, arguments) AUTH_RESOLVE(name)
#define AUTH_RESOLVE_VOID(name, parameters, arguments) AUTH_RESOLVE(name)
  AUTH_LIBCRYPTO_FUNCTIONS(AUTH_RESOLVE_RETURNING, AUTH_RESOLVE_VOID)
  auth_libcrypto_failure = NULL;
}

const char *auth_libcrypto_load(void) {
  pthread_once(&auth_libcrypto_once, auth_libcrypto_open);
  return auth_libcrypto_failure;
}

/* Reached only when AuthCrypto called a function without asking auth_libcrypto_load first: a bug, and no
   answer would be right, so the process stops with the reason rather than jumping to a null pointer. */
static void auth_libcrypto_ready(void) {
  const char *failure = auth_libcrypto_load();
  if (failure == NULL) return;
  fprintf(stderr, "auth-sidecar: libcrypto is needed but %s\n", failure);
  abort();
}

/* The functions themselves. */
#define AUTH_FORWARD_RETURNING(type, name, parameters, arguments) \
  __attribute__((visibility("hidden"))) type name parameters { \
    auth_libcrypto_ready(); \
    return auth_real_##name arguments; \
  }
#define AUTH_FORWARD_VOID(name, parameters, arguments) \
  __attribute__((visibility("hidden"))) void name parameters { \
    auth_libcrypto_ready(); \
    auth_real_##name arguments; \
  }
AUTH_LIBCRYPTO_FUNCTIONS(AUTH_FORWARD_RETURNING, AUTH_FORWARD_VOID)

void auth_secure_wipe(void *bytes, size_t count) { explicit_bzero(bytes, count); }
