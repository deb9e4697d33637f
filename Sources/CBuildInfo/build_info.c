// A C target because a C macro can carry a value from the build into the binary, which a Swift compilation
// condition cannot: Package.swift defines both from the VERSION file and the AUTH_SIDECAR_COMMIT variable.
#include "build_info.h"

#ifndef AUTH_SIDECAR_VERSION
#error "Package.swift defines AUTH_SIDECAR_VERSION from the VERSION file"
#endif
#ifndef AUTH_SIDECAR_COMMIT
#define AUTH_SIDECAR_COMMIT ""
#endif

const char *auth_sidecar_version(void) { return AUTH_SIDECAR_VERSION; }
const char *auth_sidecar_commit(void) { return AUTH_SIDECAR_COMMIT; }
