#ifndef AUTH_SIDECAR_CCURL_SHIM_H
#define AUTH_SIDECAR_CCURL_SHIM_H
/* libcurl's types and constants for AuthHTTP's client. No `link`: the library is opened with dlopen on the first
   remote request (LibCurl.swift), so a host that only validates never maps it, and a machine without libcurl
   still runs everything else. */
#define CURL_DISABLE_TYPECHECK 1
#define CURL_NO_OLDIES 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call through a
   function pointer. These take the pointer dlsym returned and make the call from C, so the variadic calling
   convention is the compiler's business. */
typedef CURLcode (*auth_curl_easy_setopt_fn)(CURL *, CURLoption, ...);
typedef CURLcode (*auth_curl_easy_getinfo_fn)(CURL *, CURLINFO, ...);
typedef CURLMcode (*auth_curl_multi_setopt_fn)(CURLM *, CURLMoption, ...);

static inline CURLcode auth_curl_setopt_long(void *fn, CURL *handle, CURLoption option, long value) {
  return ((auth_curl_easy_setopt_fn)fn)(handle, option, value);
}
static inline CURLcode auth_curl_setopt_off(void *fn, CURL *handle, CURLoption option, curl_off_t value) {
  return ((auth_curl_easy_setopt_fn)fn)(handle, option, value);
}
static inline CURLcode auth_curl_setopt_pointer(void *fn, CURL *handle, CURLoption option, const void *value) {
  return ((auth_curl_easy_setopt_fn)fn)(handle, option, value);
}
static inline CURLcode auth_curl_getinfo_long(void *fn, CURL *handle, CURLINFO info, long *value) {
  return ((auth_curl_easy_getinfo_fn)fn)(handle, info, value);
}
static inline CURLMcode auth_curl_multi_setopt_long(void *fn, CURLM *multi, CURLMoption option, long value) {
  return ((auth_curl_multi_setopt_fn)fn)(multi, option, value);
}

/* The calling thread's kernel id (gettid(2), which the Glibc module does not show): the HTTP thread records it so
   that its CPU time can be read from /proc/self/task/<id>/stat. */
static inline int auth_thread_id(void) { return (int)syscall(SYS_gettid); }
#endif
