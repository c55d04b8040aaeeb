// The system SQLite library for QuerydPersistence, plus helpers for what Swift cannot import
// from sqlite3.h (the SQLITE_TRANSIENT destructor is a cast macro).
#ifndef QUERYD_CSQLITE_SHIM_H
#define QUERYD_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Binds `length` bytes of UTF-8 text, copied by SQLite before this returns; NULL `text` binds "".
static inline int csqlite_bind_text_copy(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text ? text : "", text ? length : 0, SQLITE_TRANSIENT);
}

#endif
