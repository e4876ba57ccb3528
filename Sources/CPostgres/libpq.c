#include "CPostgres.h"

#include "CShims.h"

// Each function of libpq the fleet store calls: its result, name, parameters and the arguments passed on.
// NMEA_LIBRARY makes each one's trampoline, checked against libpq-fe.h.
#define LIBPQ_FUNCTIONS(F, V)                                                                                          \
    F(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand),             \
      (keywords, values, expand))                                                                                      \
    F(ConnStatusType, PQstatus, (const PGconn *conn), (conn))                                                          \
    V(PQfinish, (PGconn * conn), (conn))                                                                               \
    F(char *, PQerrorMessage, (const PGconn *conn), (conn))                                                            \
    F(int, PQserverVersion, (const PGconn *conn), (conn))                                                              \
    F(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn * conn, PQnoticeProcessor proc, void *arg),                     \
      (conn, proc, arg))                                                                                               \
    F(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg))                 \
    V(PQconninfoFree, (PQconninfoOption * options), (options))                                                         \
    V(PQfreemem, (void *ptr), (ptr))                                                                                   \
    F(PGresult *, PQexec, (PGconn * conn, const char *query), (conn, query))                                          \
    F(PGresult *, PQexecParams,                                                                                        \
      (PGconn * conn, const char *command, int count, const Oid *types, const char *const *values,                    \
       const int *lengths, const int *formats, int resultFormat),                                                      \
      (conn, command, count, types, values, lengths, formats, resultFormat))                                           \
    F(PGresult *, PQgetResult, (PGconn * conn), (conn))                                                                \
    F(int, PQputCopyData, (PGconn * conn, const char *buffer, int count), (conn, buffer, count))                      \
    F(int, PQputCopyEnd, (PGconn * conn, const char *errormsg), (conn, errormsg))                                     \
    V(PQclear, (PGresult * res), (res))                                                                                \
    F(ExecStatusType, PQresultStatus, (const PGresult *res), (res))                                                    \
    F(char *, PQresultErrorMessage, (const PGresult *res), (res))                                                      \
    F(char *, PQresultErrorField, (const PGresult *res, int code), (res, code))                                        \
    F(char *, PQcmdTuples, (PGresult * res), (res))                                                                    \
    F(int, PQntuples, (const PGresult *res), (res))                                                                    \
    F(int, PQnfields, (const PGresult *res), (res))                                                                    \
    F(char *, PQgetvalue, (const PGresult *res, int row, int field), (res, row, field))                               \
    F(int, PQgetisnull, (const PGresult *res, int row, int field), (res, row, field))

NMEA_LIBRARY(LIBPQ_FUNCTIONS, nmea_libpq_load, "libpq.so.5", "the PostgreSQL client library libpq",
             "install it (Debian: apt install libpq5)")
