/* Server timer for bench/remote_login.py --server-times: loaded into the Django test server with LD_PRELOAD, it
   times each HTTP request the server handles, from the read that brought its first bytes to the first send of its
   answer, and appends one line per request, "microseconds\n", to the file named by SERVER_TIMER_OUT.

   Why: the server's own time (a login's password hash above all) varies by milliseconds from call to call, much
   more than what the sidecar adds; the bench subtracts each call's server time from its end-to-end time, which
   leaves what happens outside the server: each side's own work, the wake-ups and the loopback, compared pairwise.

   Per socket rather than per thread: waitress reads a request on its main thread and a worker thread may send the
   answer. A request starts with a read returning bytes that begin with an HTTP method (GET, POST, PUT, HEAD,
   DELETE, PATCH, OPTIONS) while none is open on that socket. Linux and glibc only: the wrapped functions are found
   with dlsym(RTLD_NEXT). Compiled by the bench with `cc -O2 -shared -fPIC`. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { SOCKETS = 4096 };

/* When the open request on each socket began, in ns; 0: none. */
static long started[SOCKETS];
static FILE *out;

static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

#define REAL(function) \
  static __typeof__(&function) real; \
  if (!real) real = (__typeof__(&function))dlsym(RTLD_NEXT, #function)

static int starts_request(const void *bytes, ssize_t length) {
  static const char *const methods[] = {"GET ", "POST ", "PUT ", "HEAD ", "DELETE ", "PATCH ", "OPTIONS "};
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
    size_t size = strlen(methods[i]);
    if ((size_t)length >= size && memcmp(bytes, methods[i], size) == 0) return 1;
  }
  return 0;
}

static void received(int fd, const void *bytes, ssize_t length) {
  if (fd < 0 || fd >= SOCKETS || length <= 0) return;
  long none = 0;
  if (starts_request(bytes, length))
    __atomic_compare_exchange_n(&started[fd], &none, now_ns(), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static void sending(int fd) {
  if (fd < 0 || fd >= SOCKETS) return;
  long began = __atomic_exchange_n(&started[fd], 0, __ATOMIC_RELAXED);
  if (began == 0) return;
  long elapsed = now_ns() - began;
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&lock);
  if (!out) {
    const char *path = getenv("SERVER_TIMER_OUT");
    if (path) out = fopen(path, "a");
  }
  if (out) {
    fprintf(out, "%.1f\n", elapsed / 1000.0);
    fflush(out);
  }
  pthread_mutex_unlock(&lock);
}

ssize_t recv(int fd, void *buffer, size_t length, int flags) {
  REAL(recv);
  ssize_t result = real(fd, buffer, length, flags);
  received(fd, buffer, result);
  return result;
}

ssize_t recvfrom(int fd, void *buffer, size_t length, int flags, struct sockaddr *from, socklen_t *size) {
  REAL(recvfrom);
  ssize_t result = real(fd, buffer, length, flags, from, size);
  received(fd, buffer, result);
  return result;
}

ssize_t send(int fd, const void *buffer, size_t length, int flags) {
  REAL(send);
  sending(fd);
  return real(fd, buffer, length, flags);
}

ssize_t sendto(int fd, const void *buffer, size_t length, int flags, const struct sockaddr *to, socklen_t size) {
  REAL(sendto);
  sending(fd);
  return real(fd, buffer, length, flags, to, size);
}
