"""The review store's two databases behind one small connection interface: SQLite (the default) and PostgreSQL.

The store's mixins write SQLite's dialect (`?` placeholders, `INSERT OR IGNORE` / `INSERT OR REPLACE`, the
schema in `models.SCHEMA`) and reach the database only through `execute`, `executemany`, `tuples`,
`transaction`, `lock` and `migrate`. `SQLiteBackend` runs that SQL unchanged, so the embedded default behaves
exactly as before; `PostgresBackend` translates it once per statement (placeholders, upserts against the
tables' primary keys, identity columns) and gives rows that read by name and by position like `sqlite3.Row`.
Keeping the dialect here, not in each mixin, is what lets one set of store tests run on both.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Conflict(RuntimeError):
    """Someone else saved the same memo section or finding after the caller read it (optimistic concurrency).

    `by` is who saved the newer version ('the agent' for a run's own revision); the message says it in plain
    words and is safe to show to the person whose save was refused."""

    def __init__(self, what: str, by: str, current_version: int):
        self.what, self.by, self.current_version = what, by, current_version
        who, pronoun = ("The agent", "its") if by == "the agent" else (by or "Someone", "their")
        super().__init__(f"{who} saved this {what} while you were editing; reload to see {pronoun} version. "
                         "Your change was not saved.")


def is_postgres_url(target: str) -> bool:
    return str(target).startswith(POSTGRES_SCHEMES)


class SQLiteBackend:
    """One SQLite file, WAL mode, autocommit outside `transaction()` (BEGIN IMMEDIATE: writers queue, so a
    read-check-write inside one is atomic across processes too)."""

    name = "sqlite"
    for_update = ""  # BEGIN IMMEDIATE already keeps other writers out until COMMIT
    integrity_errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)

    def __init__(self, path: Path | str):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA busy_timeout=30000")
        self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at checkpoints, no fsync per event

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._db.execute(sql, tuple(params))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any:
        return self._db.executemany(sql, rows)

    def tuples(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        cur = self._db.cursor()
        cur.row_factory = None  # plain tuples: sqlite3.Row objects cost most of the time on a 65,000-cell table
        return cur.execute(sql, tuple(params)).fetchall()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, or nothing when already inside one: the outer one commits."""
        if self._db.in_transaction:
            yield
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def lock(self, key: str) -> None:
        """Serialise writers of `key` until the transaction ends: BEGIN IMMEDIATE already holds the file's
        write lock, so there is nothing more to take."""

    def migrate(self, schema: str, migrations: list[tuple[str, str, str]], indexes: str) -> None:
        self._db.executescript(schema)
        for table, column, decl in migrations:
            if column not in {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
        self._db.executescript(indexes)

    def close(self) -> None:
        self._db.close()


class Row:
    """A result row read by column name or by position, like sqlite3.Row."""

    __slots__ = ("_index", "_values")

    def __init__(self, index: dict[str, int], values: Sequence[Any]):
        self._index, self._values = index, values

    def __getitem__(self, key: int | str | slice) -> Any:
        return self._values[self._index[key]] if isinstance(key, str) else self._values[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def keys(self) -> list[str]:
        return list(self._index)

    def __repr__(self) -> str:
        return f"Row({dict(zip(self._index, self._values))!r})"


class _Result:
    """A cursor as sqlite3's reads: fetching from an UPDATE or INSERT gives no rows instead of an error."""

    __slots__ = ("_cur",)

    def __init__(self, cur: Any):
        self._cur = cur

    @property
    def rowcount(self) -> int:
        return self._cur.rowcount

    def fetchall(self) -> list:
        return self._cur.fetchall() if self._cur.description else []

    def fetchone(self) -> Any:
        return self._cur.fetchone() if self._cur.description else None

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


def _row_factory(cursor: Any) -> Any:
    index = {d.name: i for i, d in enumerate(cursor.description or ())}
    return lambda values: Row(index, values)


_CREATED = re.compile(r"CREATE (?:UNIQUE )?(?:TABLE|INDEX) IF NOT EXISTS (\w+)", re.I)
_OR_IGNORE = re.compile(r"^\s*INSERT OR IGNORE INTO", re.I)
_OR_REPLACE = re.compile(r"^\s*INSERT OR REPLACE INTO\s+(\w+)\s*(\(([^)]*)\))?\s*VALUES", re.I)


class PostgresBackend:
    """One psycopg 3 connection in autocommit mode; `transaction()` is a real transaction (READ COMMITTED),
    `lock()` a transaction-scoped advisory lock, so a read-check-write is atomic across app processes and
    the run's worker as BEGIN IMMEDIATE makes it on SQLite."""

    name = "postgres"
    for_update = " FOR UPDATE"  # row lock: a concurrent decision on the same finding waits, then sees this one

    def __init__(self, url: str):
        import psycopg  # only team mode needs it

        self._psycopg = psycopg
        self.integrity_errors = (psycopg.errors.IntegrityError,)
        self._db = psycopg.connect(url, autocommit=True, row_factory=_row_factory)
        self._depth = 0
        self._tables: tuple = ()  # (table, columns in order, primary key) of each table, for the upserts

    # ------------------------------------------------------------------ SQL
    def _sql(self, sql: str) -> str:
        return _translate(sql, self._tables)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        # always a params tuple, even empty: psycopg then reads `%%` (a translated literal `%`) as `%`
        return _Result(self._db.execute(self._sql(sql), tuple(params)))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any:
        with self._db.cursor() as cur:
            cur.executemany(self._sql(sql), [tuple(r) for r in rows])
            return cur

    def tuples(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._db.cursor(row_factory=self._psycopg.rows.tuple_row) as cur:
            return cur.execute(self._sql(sql), tuple(params)).fetchall()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._depth = 1
        try:
            with self._db.transaction():
                yield
        finally:
            self._depth = 0

    def lock(self, key: str) -> None:
        """Hold an advisory lock on `key` until the current transaction ends (call inside `transaction()`)."""
        self._db.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (key,))

    def migrate(self, schema: str, migrations: list[tuple[str, str, str]], indexes: str) -> None:
        # DDL only when something is missing: even `IF NOT EXISTS` statements take table locks that would make
        # every store opened (the app opens one per request in places) wait for a run's open write transaction
        if not self._schema_current(schema, migrations, indexes):
            with self.transaction():
                # one process at a time: two workers creating the same tables at once collide in the catalogue
                self.lock("dataroom-review-store-schema")
                if not self._schema_current(schema, migrations, indexes):
                    for stmt in _statements(_pg_schema(schema)):
                        self._db.execute(stmt)
                    for table, column, decl in migrations:
                        self._db.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {_pg_schema(decl)}")
                    for stmt in _statements(indexes):
                        self._db.execute(stmt)
        self._tables = self._introspect()

    def _schema_current(self, schema: str, migrations: list[tuple[str, str, str]], indexes: str) -> bool:
        names = _CREATED.findall(schema + indexes)
        found = {r[0] for r in self._db.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema() AND c.relname = ANY(%s)", (names,))}
        if set(names) - found:
            return False
        cols = {(r[0], r[1]) for r in self._db.execute(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()")}
        return all((t, c) in cols for t, c, _ in migrations)

    def _introspect(self) -> tuple:
        cols: dict[str, list[str]] = {}
        for r in self._db.execute("SELECT table_name, column_name FROM information_schema.columns"
                                  " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"):
            cols.setdefault(r[0], []).append(r[1])
        keys: dict[str, list[str]] = {}
        for r in self._db.execute(
                "SELECT tc.table_name, kcu.column_name FROM information_schema.table_constraints tc"
                " JOIN information_schema.key_column_usage kcu ON tc.constraint_name = kcu.constraint_name"
                " AND tc.table_schema = kcu.table_schema AND tc.table_name = kcu.table_name"
                " WHERE tc.table_schema = current_schema() AND tc.constraint_type = 'PRIMARY KEY'"
                " ORDER BY tc.table_name, kcu.ordinal_position"):
            keys.setdefault(r[0], []).append(r[1])
        return tuple((t, tuple(c), tuple(keys.get(t, ()))) for t, c in sorted(cols.items()))

    def close(self) -> None:
        self._db.close()


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _pg_schema(sql: str) -> str:
    """SQLite DDL as PostgreSQL runs it: identity ids, 8-byte floats (SQLite's REAL), no PRAGMAs."""
    sql = re.sub(r"^\s*PRAGMA[^;]*;", "", sql, flags=re.M)
    sql = sql.replace("INTEGER PRIMARY KEY AUTOINCREMENT", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)


@lru_cache(maxsize=512)
def _translate(sql: str, tables: tuple) -> str:
    """One SQLite statement in PostgreSQL: `?` -> `%s` (a literal `%` doubled), and SQLite's conflict
    clauses as ON CONFLICT against the table's primary key (every unique constraint of the schema is one)."""
    out = sql.replace("%", "%%").replace("?", "%s")
    if _OR_IGNORE.match(out):
        return _OR_IGNORE.sub("INSERT INTO", out, count=1) + " ON CONFLICT DO NOTHING"
    m = _OR_REPLACE.match(out)
    if m:
        known = {t: (list(c), list(k)) for t, c, k in tables}
        table = m.group(1)
        if table not in known:
            raise KeyError(f"INSERT OR REPLACE into unknown table {table!r}")
        all_cols, key = known[table]
        cols = [c.strip() for c in m.group(3).split(",")] if m.group(3) else all_cols
        sets = ", ".join(f"{c}=EXCLUDED.{c}" for c in cols if c not in key)
        head = f"INSERT INTO {table} ({', '.join(cols)}) VALUES"
        action = f"DO UPDATE SET {sets}" if sets else "DO NOTHING"
        return head + out[m.end():] + f" ON CONFLICT ({', '.join(key)}) {action}"
    return out
