#ifndef AUTH_SIDECAR_CSUBPROCESS_SHIM_H
#define AUTH_SIDECAR_CSUBPROCESS_SHIM_H
/* Two process-control calls Swift's Glibc module does not show: `posix_spawn_file_actions_addclosefrom_np`
   is declared only under _GNU_SOURCE, and `prctl` is variadic and lives in a header the module leaves out.
   Header-only: nothing is linked, so modules that import this cost nothing at start. */
#include <errno.h>
#include <signal.h>
#include <spawn.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
#endif
extern int prctl(int, ...);

/* Closes every descriptor from `from` up in the child, whatever its close-on-exec flag: a descriptor some
   library opened without O_CLOEXEC (a lock file above all) must not stay alive in the worker. ENOSYS where
   glibc predates 2.34; the caller then relies on close-on-exec alone. */
static inline int auth_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
#else
  (void)actions;
  (void)from;
  return ENOSYS;
#endif
}

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

/* PR_SET_PDEATHSIG (1): `signal` is delivered when the thread that spawned this process exits. */
static inline int auth_set_parent_death_signal(int signal) { return auth_prctl_set(1, (unsigned long)signal); }

/* PR_SET_DUMPABLE (4): 0 means no core dump and no ptrace or /proc/PID/mem access by other processes of
   the same user; the sidecar's memory holds passwords, tokens and the store key. */
static inline int auth_set_dumpable(int dumpable) { return auth_prctl_set(4, (unsigned long)dumpable); }
#endif
