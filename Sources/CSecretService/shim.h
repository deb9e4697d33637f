#ifndef AUTH_SIDECAR_CSECRETSERVICE_SHIM_H
#define AUTH_SIDECAR_CSECRETSERVICE_SHIM_H
/* The few libsecret and GLib types AuthStorage's keyring needs, declared here as libsecret-1.so.0 and
   libglib-2.0.so.0 lay them out (both ABIs have been stable for over ten years), so that building needs neither
   libsecret's nor GLib's headers. No `link`: libsecret is opened with dlopen the first time a store key is kept
   in the keyring (LibSecret.swift), so a sidecar that never does so never maps libsecret, GLib or GIO. */
#include <dlfcn.h>
#include <stddef.h>

/* SecretSchemaAttribute and SecretSchema (secret-schema.h). */
typedef struct {
  const char *name;
  int type; /* SECRET_SCHEMA_ATTRIBUTE_STRING = 0 */
} auth_secret_schema_attribute;

typedef struct {
  const char *name;
  int flags; /* SECRET_SCHEMA_NONE = 0 */
  auth_secret_schema_attribute attributes[32];
  int reserved;
  void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} auth_secret_schema;

/* GError (gerror.h): the domain is a GQuark. */
typedef struct {
  unsigned int domain;
  int code;
  char *message;
} auth_g_error;

/* GList (glist.h). */
typedef struct auth_g_list {
  void *data;
  struct auth_g_list *next, *prev;
} auth_g_list;

/* secret_password_store_sync, _lookup_sync, _search_sync and _clear_sync take their attributes as NULL-terminated
   varargs, which Swift cannot pass through a function pointer. These make the call from C with the two
   attributes every store key item has, so the variadic calling convention is the compiler's business. */
typedef int (*auth_secret_store_fn)(const auth_secret_schema *, const char *, const char *, const char *, void *,
                                    auth_g_error **, ...);
typedef char *(*auth_secret_lookup_fn)(const auth_secret_schema *, void *, auth_g_error **, ...);
typedef auth_g_list *(*auth_secret_search_fn)(const auth_secret_schema *, int, void *, auth_g_error **, ...);
typedef int (*auth_secret_clear_fn)(const auth_secret_schema *, void *, auth_g_error **, ...);

static inline int auth_secret_store(void *fn, const auth_secret_schema *schema, const char *collection,
                                    const char *label, const char *password, void *cancellable, auth_g_error **error,
                                    const char *name1, const char *value1, const char *name2, const char *value2) {
  return ((auth_secret_store_fn)fn)(schema, collection, label, password, cancellable, error, name1, value1, name2,
                                    value2, (const char *)NULL);
}

static inline char *auth_secret_lookup(void *fn, const auth_secret_schema *schema, void *cancellable,
                                       auth_g_error **error, const char *name1, const char *value1,
                                       const char *name2, const char *value2) {
  return ((auth_secret_lookup_fn)fn)(schema, cancellable, error, name1, value1, name2, value2, (const char *)NULL);
}

static inline auth_g_list *auth_secret_search(void *fn, const auth_secret_schema *schema, int flags,
                                              void *cancellable, auth_g_error **error, const char *name1,
                                              const char *value1, const char *name2, const char *value2) {
  return ((auth_secret_search_fn)fn)(schema, flags, cancellable, error, name1, value1, name2, value2,
                                     (const char *)NULL);
}

static inline int auth_secret_clear(void *fn, const auth_secret_schema *schema, void *cancellable,
                                    auth_g_error **error, const char *name1, const char *value1, const char *name2,
                                    const char *value2) {
  return ((auth_secret_clear_fn)fn)(schema, cancellable, error, name1, value1, name2, value2, (const char *)NULL);
}
#endif
