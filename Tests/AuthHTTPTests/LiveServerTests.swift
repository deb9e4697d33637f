import Testing

/// Every test that starts a fixture server or touches the environment, one at a time.
///
/// libcurl reads proxy variables with `getenv` on each transfer and `Process` copies `environ`,
/// while `HTTPEnvironmentTests` calls `setenv`/`unsetenv`; glibc does not make those safe together.
/// Serial, the whole group still takes a few seconds.
@Suite(.serialized) enum LiveServerTests {}
