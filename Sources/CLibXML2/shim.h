#ifndef AUTH_SIDECAR_CLIBXML2_SHIM_H
#define AUTH_SIDECAR_CLIBXML2_SHIM_H
// libxml2's HTML parser (HTML 4 tag-soup rules with recovery), the only part AuthHTML uses. The tree is walked
// through the public struct fields of tree.h; nothing here is wrapped because nothing is variadic or a macro.
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#endif
