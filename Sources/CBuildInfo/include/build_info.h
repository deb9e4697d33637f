#ifndef AUTH_SIDECAR_BUILD_INFO_H
#define AUTH_SIDECAR_BUILD_INFO_H

/// The release version, from the repository's VERSION file (Package.swift reads it).
const char *auth_sidecar_version(void);
/// The commit the binary was built from, or "" when the build did not record one (scripts/release does).
const char *auth_sidecar_commit(void);

#endif
