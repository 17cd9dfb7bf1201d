/* The driver of the large-program rows (bench/sections/30-driver.sh): creates a
 * table in an in-memory SQLite database, inserts some thousand rows, queries
 * them (an index lookup per row, a group-by, a sort) and prints a checksum.
 * Linked with the SQLite amalgamation from the npm package better-sqlite3@12
 * (fetched by the bench, never committed); run natively, by mini-lli, lli-22
 * and llvm-jitlink, which must all print the same line. Rows and rounds:
 * argv[1] (default 4000). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite3.h"

static sqlite3 *Db;

static void check(int Rc, const char *What) {
  if (Rc != SQLITE_OK && Rc != SQLITE_ROW && Rc != SQLITE_DONE) {
    fprintf(stderr, "sqlite-driver: %s: %s\n", What, sqlite3_errmsg(Db));
    exit(2);
  }
}

static void exec(const char *Sql) {
  char *Err = 0;
  if (sqlite3_exec(Db, Sql, 0, 0, &Err) != SQLITE_OK) {
    fprintf(stderr, "sqlite-driver: %s: %s\n", Sql, Err ? Err : "?");
    exit(2);
  }
}

/* FNV-1a over everything the queries return. */
static unsigned long long Sum = 1469598103934665603ULL;
static void mix(const void *P, size_t N) {
  const unsigned char *B = P;
  for (size_t I = 0; I < N; ++I)
    Sum = (Sum ^ B[I]) * 1099511628211ULL;
}
static void mixInt(long long V) { mix(&V, sizeof V); }

int main(int argc, char **argv) {
  int Rows = argc > 1 ? atoi(argv[1]) : 4000;
  check(sqlite3_open(":memory:", &Db), "open");
  exec("CREATE TABLE t(id INTEGER PRIMARY KEY, grp INTEGER, name TEXT, val "
       "REAL)");
  exec("CREATE INDEX t_name ON t(name)");

  sqlite3_stmt *Ins;
  check(sqlite3_prepare_v2(
            Db, "INSERT INTO t(id, grp, name, val) VALUES(?, ?, ?, ?)", -1,
            &Ins, 0),
        "prepare insert");
  exec("BEGIN");
  unsigned X = 12345;
  char Name[32];
  for (int I = 0; I < Rows; ++I) {
    X = X * 1103515245u + 12345u;
    snprintf(Name, sizeof Name, "name-%08x", X);
    sqlite3_bind_int(Ins, 1, I);
    sqlite3_bind_int(Ins, 2, (int)(X >> 8) % 37);
    sqlite3_bind_text(Ins, 3, Name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(Ins, 4, (double)(X % 100000) / 7.0);
    check(sqlite3_step(Ins), "insert");
    sqlite3_reset(Ins);
  }
  sqlite3_finalize(Ins);
  exec("COMMIT");

  /* One index lookup per row, by name. */
  sqlite3_stmt *Sel;
  check(sqlite3_prepare_v2(Db, "SELECT id, val FROM t WHERE name = ?", -1, &Sel,
                           0),
        "prepare select");
  X = 12345;
  long long Found = 0;
  for (int I = 0; I < Rows; ++I) {
    X = X * 1103515245u + 12345u;
    snprintf(Name, sizeof Name, "name-%08x", X);
    sqlite3_bind_text(Sel, 1, Name, -1, SQLITE_TRANSIENT);
    while (sqlite3_step(Sel) == SQLITE_ROW) {
      mixInt(sqlite3_column_int64(Sel, 0));
      mixInt((long long)(sqlite3_column_double(Sel, 1) * 1000));
      ++Found;
    }
    sqlite3_reset(Sel);
  }
  sqlite3_finalize(Sel);

  /* Aggregates and a sort over the whole table. */
  static const char *const Queries[] = {
      "SELECT grp, count(*), sum(val), min(name), max(name) FROM t GROUP BY "
      "grp ORDER BY grp",
      "SELECT id, name FROM t ORDER BY val DESC, id LIMIT 100",
      "SELECT count(*), sum(length(name)), total(id * val) FROM t WHERE name "
      "LIKE '%a%'",
      "SELECT a.grp, count(*) FROM t a JOIN t b ON a.id = b.id + 1 AND a.grp = "
      "b.grp GROUP BY a.grp",
  };
  for (size_t Q = 0; Q < sizeof Queries / sizeof *Queries; ++Q) {
    sqlite3_stmt *S;
    check(sqlite3_prepare_v2(Db, Queries[Q], -1, &S, 0), Queries[Q]);
    while (sqlite3_step(S) == SQLITE_ROW)
      for (int C = 0; C < sqlite3_column_count(S); ++C) {
        const unsigned char *T = sqlite3_column_text(S, C);
        if (T)
          mix(T, strlen((const char *)T));
      }
    sqlite3_finalize(S);
  }
  sqlite3_close(Db);
  printf("sqlite-driver: %d rows, %lld found, checksum %016llx\n", Rows, Found,
         Sum);
  return 0;
}
