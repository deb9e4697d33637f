#ifndef AUTH_SIDECAR_CCURL_SHIM_H
#define AUTH_SIDECAR_CCURL_SHIM_H
/* libcurl's types and constants for AuthHTTP's client. No `link`: the library is opened with dlopen on the first
   remote request (LibCurl.swift), so a host that only validates never maps it, and a machine without libcurl
   still runs everything else. */
#define CURL_DISABLE_TYPECHECK 1
#define CURL_NO_OLDIES 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
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
static inline CURLMcode auth_curl_multi_setopt_pointer(void *fn, CURLM *multi, CURLMoption option, const void *value) {
  return ((auth_curl_multi_setopt_fn)fn)(multi, option, value);
}

/* The HTTP thread waits in epoll for the sockets and the timer libcurl asks for (its socket and timer callbacks).
   In C because `struct epoll_event` is packed on x86_64. */

/* Watches `fd` for libcurl's CURL_POLL_IN/OUT/INOUT, or stops watching it (CURL_POLL_REMOVE). */
static inline int auth_epoll_watch(int epoll, int fd, int what) {
  if (what == CURL_POLL_REMOVE) return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
  struct epoll_event event = {0};
  event.events = (what & CURL_POLL_IN ? EPOLLIN : 0) | (what & CURL_POLL_OUT ? EPOLLOUT : 0);
  event.data.fd = fd;
  if (epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0) return 0;
  return errno == EEXIST ? epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) : -1;
}

/* Waits for at most `capacity` (up to 16) ready descriptors, with no time limit (the timer is a descriptor too);
   fills their numbers and libcurl's CURL_CSELECT_* bits. A hang-up reads as readable: reading finds the end. */
static inline int auth_epoll_wait(int epoll, int *fds, int *bits, int capacity) {
  struct epoll_event events[16];
  int count = epoll_wait(epoll, events, capacity < 16 ? capacity : 16, -1);
  for (int i = 0; i < count; i++) {
    unsigned ready = events[i].events;
    fds[i] = events[i].data.fd;
    bits[i] = (ready & (EPOLLIN | EPOLLHUP) ? CURL_CSELECT_IN : 0) | (ready & EPOLLOUT ? CURL_CSELECT_OUT : 0)
      | (ready & EPOLLERR ? CURL_CSELECT_ERR : 0);
  }
  return count;
}

/* Arms the timer to fire once in `ms` milliseconds (0: at once), or disarms it (negative `ms`). */
static inline int auth_timer_arm(int timer, long ms) {
  struct itimerspec spec = {0};
  if (ms >= 0) {
    spec.it_value.tv_sec = ms / 1000;
    spec.it_value.tv_nsec = ms == 0 ? 1 : (ms % 1000) * 1000000L;
  }
  return timerfd_settime(timer, 0, &spec, NULL);
}

/* Consumes the timer's expiry, so that epoll stops reporting it. */
static inline void auth_timer_clear(int timer) {
  unsigned long long expirations;
  (void)!read(timer, &expirations, sizeof expirations);
}

/* A non-blocking, close-on-exec eventfd, or -1. */
static inline int auth_eventfd_create(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

/* Makes an eventfd readable (its counter goes up by one). */
static inline void auth_eventfd_signal(int fd) { (void)!eventfd_write(fd, 1); }

/* Resets an eventfd's counter, so that epoll stops reporting it. */
static inline void auth_eventfd_clear(int fd) {
  eventfd_t value;
  (void)!eventfd_read(fd, &value);
}

/* The calling thread's kernel id (gettid(2), which the Glibc module does not show): the HTTP thread records it so
   that its CPU time can be read from /proc/self/task/<id>/stat. */
static inline int auth_thread_id(void) { return (int)syscall(SYS_gettid); }

/* Names the calling thread (what ps, top and perf show, 15 bytes at most); unnamed, the HTTP thread showed the
   name of whichever thread started it. */
static inline void auth_thread_name(const char *name) { (void)prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL); }
#endif
