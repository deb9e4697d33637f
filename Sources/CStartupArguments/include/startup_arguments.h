// Nothing to import: the target only defines, for the Swift runtime, the accessor of the process's arguments
// (see startup_arguments.c). SwiftPM wants a public header directory for every C target.
#ifndef STARTUP_ARGUMENTS_H
#define STARTUP_ARGUMENTS_H
#endif
