// Gives the Swift runtime the process's arguments without its Linux fallback, which costs every start of a binary
// linked with --static-swift-stdlib about 110,000 instructions and five system calls: the runtime's own
// `_swift_stdlib_getUnsafeArgvArgc` (behind `CommandLine`) lives in an object whose constructor finds argv by
// reading /proc/self/maps and sscanf-ing every line of it to locate the stack. glibc passes argc and argv to every
// .init_array function of the executable, so they are kept here, and this definition of the accessor, linked
// before the runtime's archive, keeps that object (and its constructor) out of the link. Against a shared Swift
// runtime (debug builds) the runtime calls its own accessor and this one is never used.
#include <stddef.h>

static int captured_argc;
static char **captured_argv;

static void capture_arguments(int argc, char **argv, char **envp) {
  (void)envp;
  captured_argc = argc;
  captured_argv = argv;
}

__attribute__((section(".init_array"), used)) static void (*const capture_arguments_entry)(int, char **, char **) =
  capture_arguments;

// The runtime declares it `SWIFT_CC(swift)`: Swift's calling convention, spelled for clang.
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
  *outArgLen = captured_argc;
  return captured_argv;
}
