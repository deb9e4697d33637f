#ifndef AUTH_SIDECAR_CPROCESSCONTROL_SHIM_H
#define AUTH_SIDECAR_CPROCESSCONTROL_SHIM_H
/* `prctl`, which Swift's Glibc module does not show: it is variadic and lives in a header the module leaves
   out. Header-only: nothing is linked, so modules that import this cost nothing at start. */
#include <errno.h>

extern int prctl(int, ...);

/* prctl(option, value) with the unused arguments zero; ENOSYS off Linux. */
static inline int auth_prctl_set(int option, unsigned long value) {
#if defined(__linux__)
  return prctl(option, value, 0UL, 0UL, 0UL);
#else
  (void)option;
  (void)value;
  errno = ENOSYS;
  return -1;
#endif
}

/* PR_SET_DUMPABLE (4): 0 means no core dump and no ptrace or /proc/PID/mem access by other processes of
   the same user; the sidecar's memory holds passwords, tokens and the store key. */
static inline int auth_set_dumpable(int dumpable) { return auth_prctl_set(4, (unsigned long)dumpable); }

/* posix_spawn_file_actions_addclosefrom_np (glibc 2.34+) is declared only under _GNU_SOURCE, which Swift's Glibc
   module is not built with: a spawned delivery command must inherit no descriptor above stderr. */
#include <spawn.h>
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
static inline int auth_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
/* Lowers the calling thread's scheduling priority to `nice` (0-19, higher is lower). On Linux nice is a property
   of each thread, and setpriority(PRIO_PROCESS, tid) sets only that thread, so the other threads of the process
   keep theirs. gettid is declared only under _GNU_SOURCE, hence the raw system call. */
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
static inline int auth_set_thread_nice(int nice) {
#if defined(__linux__)
  return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
#else
  (void)nice;
  errno = ENOSYS;
  return -1;
#endif
}
#endif
