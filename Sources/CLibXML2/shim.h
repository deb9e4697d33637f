#ifndef AUTH_SIDECAR_CLIBXML2_SHIM_H
#define AUTH_SIDECAR_CLIBXML2_SHIM_H
// libxml2's types and constants for AuthHTML, which walks the tree through the public struct fields of tree.h.
// No `link`: the library is opened with dlopen on first use (LibXML2.swift), so that the sidecar's start does
// not pay for loading libxml2 and ICU when no profile parses HTML.
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <dlfcn.h>
#endif
