/* Stage timer for bench/stage_times.py: loaded into a sidecar with LD_PRELOAD, it times the stages of each remote
   call on the sidecar's own threads, from the system calls that bound them, and writes the samples when the
   sidecar exits. Nothing of the sidecar changes; each wrapped call costs a clock read (about 20 ns).

   Stages, per thread (a stage ends only on the thread it began on):
     0 request read -> first HTTP request sent   read(0) returned a request; the next send()/sendto()
     1 network wake -> response read             epoll_wait() returned events; the next recv() with bytes
     2 response read -> next HTTP request sent   from a response's first recv() with bytes, the next send() or
                                                 sendto() (a login's user request)
     3 response read -> answer written           from a response's first recv() with bytes, the next write() of a
                                                 JSON-RPC answer (a line starting {"jsonrpc":"2.0","id"), not of a
                                                 notification
   The samples go, one "stage microseconds" line each, to the file named by STAGE_TIMER_OUT, written at
   _exit() (the sidecar leaves with _exit) or exit(). Linux and glibc only: the wrapped functions are found with
   dlsym(RTLD_NEXT). Compiled by the bench with `cc -O2 -shared -fPIC`. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { STAGES = 4, CAPACITY = 1 << 16 };

static float samples[STAGES][CAPACITY];
static unsigned counts[STAGES];

/* When the thread's current stages began, in ns; 0: not running. */
static __thread long request_read, network_wake, response_read;

static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void record(int stage, long *began) {
  if (*began == 0) return;
  unsigned slot = __atomic_fetch_add(&counts[stage], 1, __ATOMIC_RELAXED);
  if (slot < CAPACITY) samples[stage][slot] = (float)(now_ns() - *began) / 1000.0f;
  *began = 0;
}

/* The wrapped libc function, found once: our definition has its signature. */
#define REAL(function) \
  static __typeof__(&function) real; \
  if (!real) real = (__typeof__(&function))dlsym(RTLD_NEXT, #function)

ssize_t read(int fd, void *buffer, size_t count) {
  REAL(read);
  ssize_t result = real(fd, buffer, count);
  if (fd == 0 && result > 0) request_read = now_ns();
  return result;
}

int epoll_wait(int epoll, struct epoll_event *events, int capacity, int timeout) {
  REAL(epoll_wait);
  int result = real(epoll, events, capacity, timeout);
  if (result > 0) network_wake = now_ns();
  return result;
}

ssize_t recv(int fd, void *buffer, size_t length, int flags) {
  REAL(recv);
  ssize_t result = real(fd, buffer, length, flags);
  if (result > 0) {
    record(1, &network_wake);
    /* The first read of a response; one that arrived while the thread was busy (no wake) counts from here too. */
    if (response_read == 0) response_read = now_ns();
  }
  return result;
}

static void sending(void) {
  record(0, &request_read);
  record(2, &response_read);
}

ssize_t send(int fd, const void *buffer, size_t length, int flags) {
  REAL(send);
  sending();
  return real(fd, buffer, length, flags);
}

ssize_t sendto(int fd, const void *buffer, size_t length, int flags, const struct sockaddr *to, socklen_t size) {
  REAL(sendto);
  sending();
  return real(fd, buffer, length, flags, to, size);
}

ssize_t write(int fd, const void *buffer, size_t length) {
  REAL(write);
  static const char answer[] = "{\"jsonrpc\":\"2.0\",\"id\"";
  if (response_read != 0 && length >= sizeof answer - 1 && memcmp(buffer, answer, sizeof answer - 1) == 0)
    record(3, &response_read);
  return real(fd, buffer, length);
}

static void report(void) {
  static int done;
  const char *path = getenv("STAGE_TIMER_OUT");
  if (done || !path) return;
  done = 1;
  FILE *out = fopen(path, "w");
  if (!out) return;
  for (int stage = 0; stage < STAGES; stage++) {
    unsigned count = counts[stage] < CAPACITY ? counts[stage] : CAPACITY;
    for (unsigned i = 0; i < count; i++) fprintf(out, "%d %.1f\n", stage, samples[stage][i]);
  }
  fclose(out);
}

void _exit(int status) {
  REAL(_exit);
  report();
  real(status);
  __builtin_unreachable();
}

__attribute__((destructor)) static void at_exit(void) { report(); }
