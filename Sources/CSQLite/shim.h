#ifndef AUTH_SIDECAR_CSQLITE_SHIM_H
#define AUTH_SIDECAR_CSQLITE_SHIM_H
#include <sqlite3.h>

// sqlite3_bind_text/blob take a destructor; SQLITE_TRANSIENT is a macro Swift cannot import.
static inline int auth_sqlite3_bind_text_transient(sqlite3_stmt *s, int i, const char *p, int n) {
  return sqlite3_bind_text(s, i, p, n, SQLITE_TRANSIENT);
}
static inline int auth_sqlite3_bind_blob_transient(sqlite3_stmt *s, int i, const void *p, int n) {
  return sqlite3_bind_blob(s, i, p, n, SQLITE_TRANSIENT);
}

// sqlite3_db_config is variadic, which Swift cannot call; these wrap the two options AuthStorage sets.
// DEFENSIVE blocks writable_schema and other ways a statement could corrupt the file on purpose.
static inline int auth_sqlite3_db_config_defensive(sqlite3 *db, int on) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}
// NO_CKPT_ON_CLOSE keeps a damaged database byte-for-byte as found when we close it to quarantine it.
static inline int auth_sqlite3_db_config_no_checkpoint_on_close(sqlite3 *db, int on) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
#endif
