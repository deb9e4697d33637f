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

/* PR_SET_PDEATHSIG (1): `signal` is delivered when the thread that spawned this process exits. */
static inline int auth_set_parent_death_signal(int signal) {
#if defined(__linux__)
  return prctl(1, (unsigned long)signal, 0UL, 0UL, 0UL);
#else
  (void)signal;
  errno = ENOSYS;
  return -1;
#endif
}
#endif
