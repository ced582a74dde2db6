"""What differs in the SQL text between SQLite and PostgreSQL, written once.

The repositories write one SQL for both engines: ``?`` placeholders, ``ON CONFLICT`` upserts,
``RETURNING``, times and JSON as text (:mod:`db.connection` converts them). What cannot be said
the same way in both is here, as a :class:`Dialect` whose methods return SQL fragments (a JSON
list of rows, a local day, a substring test, the greater of two values), and in the two
translations of a whole text: :func:`postgresql_statement` (placeholders) and
:func:`postgresql_schema` (a portable migration's types). Nothing here runs SQL.

Decisions (PostgreSQL):

- **Times stay text** (``YYYY-MM-DD HH:MM:SS.fff`` UTC), as on SQLite: the columns are ``TEXT`` on
  both, the repositories see the same values, text order is time order, and a copy between the
  engines moves them unchanged. SQL that reads a time as a time casts it
  (``answered_at::timestamp``).
- **JSON stays text**: SQL never looks inside the engines' states; the few queries that build a
  JSON list (a match's seats, a game's turns) return text on both (asyncpg decodes ``json`` as
  ``str``).
- **Integers are BIGINT** (Discord ids need 64 bits), ``REAL`` is ``DOUBLE PRECISION`` (SQLite's
  REAL is 8 bytes), ``INTEGER PRIMARY KEY`` is an identity column, ``COLLATE NOCASE`` is an ICU
  collation that ignores case (created before the first migration), ``WITHOUT ROWID`` and
  ``STRICT`` are SQLite's storage details and go.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: The collation PostgreSQL uses for SQLite's NOCASE: ICU, case-insensitive, accent-sensitive.
NOCASE_COLLATION = (
    "DO $$ BEGIN"
    " IF NOT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'nocase') THEN"
    " CREATE COLLATION nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);"
    " END IF; END $$"
)


# --- The catalogue (the copy tool reads the tables it moves) --------------------------------------


class Catalogue:
    """SQL that lists the tables, their columns and the tables they refer to (SQLite)."""

    #: Rows (name): every table of the database.
    tables = ("SELECT name FROM sqlite_master WHERE type = 'table'"
              " AND name NOT LIKE 'sqlite%' ORDER BY name")
    #: Rows (column, place in the primary key from 1, else 0) of the table given as parameter.
    columns = "SELECT name, pk FROM pragma_table_info(?) ORDER BY cid"
    #: Rows (table) that the table given as parameter refers to by a foreign key.
    references = 'SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)'
    #: Rows (column) of the table's identity columns (none on SQLite: its rowid goes on by itself).
    identities: str | None = None


class PostgresCatalogue(Catalogue):
    tables = ("SELECT table_name FROM information_schema.tables"
              " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
              " ORDER BY table_name")
    columns = (
        "SELECT a.attname, coalesce((SELECT k.n FROM pg_index i,"
        " unnest(i.indkey) WITH ORDINALITY AS k (attnum, n)"
        " WHERE i.indrelid = a.attrelid AND i.indisprimary AND k.attnum = a.attnum), 0)"
        " FROM pg_attribute a WHERE a.attrelid = ?::text::regclass AND a.attnum > 0"
        " AND NOT a.attisdropped ORDER BY a.attnum")
    references = ("SELECT DISTINCT confrelid::regclass::text FROM pg_constraint"
                  " WHERE conrelid = ?::text::regclass AND contype = 'f'")
    identities = ("SELECT column_name FROM information_schema.columns"
                  " WHERE table_schema = current_schema() AND table_name = ?"
                  " AND is_identity = 'YES'")



class Dialect:
    """SQLite's fragments; :class:`PostgresDialect` overrides those PostgreSQL says otherwise."""

    name = "sqlite"
    catalogue = Catalogue()

    def json_rows(self, columns: str, source: str, order: str) -> str:
        """A scalar subquery: the JSON list (text) of ``[columns…]`` per row of ``source`` (a
        table and its WHERE), in ``order``; ``[]`` when there is none."""
        return (
            f"(SELECT json_group_array(json_array({columns}))"
            f" FROM (SELECT * FROM {source} ORDER BY {order}) AS ordered)"
        )

    def json_values(self, column: str, source: str) -> str:
        """A scalar subquery: the JSON list (text) of one column of ``source``'s rows."""
        return f"(SELECT json_group_array({column}) FROM {source})"

    def json_list(self, expression: str) -> str:
        """A JSON list (text) of one value."""
        return f"json_array({expression})"

    def local_day(self, column: str, *, week: bool = False) -> str:
        """The day (``YYYY-MM-DD`` text) of a time column once shifted by a parameter
        ``'±N minutes'``, or with ``week`` the Monday starting its week."""
        if week:
            # 'weekday 0' goes to the next Sunday (a Sunday stays), '-6 days' to its Monday.
            return f"date({column}, ?, 'weekday 0', '-6 days')"
        return f"date({column}, ?)"

    def contains(self, text: str) -> str:
        """Whether the parameter is a substring of ``text`` (an SQL boolean)."""
        return f"instr({text}, ?) > 0"

    def greatest(self, *values: str) -> str:
        """The greatest of the values (SQLite's many-argument ``max``)."""
        return f"max({', '.join(values)})"

    def clock(self) -> str:
        """The database's own time moved by a parameter ``'+N seconds'`` (or ``'-N seconds'``),
        as the schema's time text (``YYYY-MM-DD HH:MM:SS.fff`` UTC): what leases are measured
        with, so that the clocks of two machines never disagree about them."""
        return "strftime('%Y-%m-%d %H:%M:%f', 'now', ?)"

    def lock_table(self, table: str) -> str | None:
        """A statement that makes the transaction's writers of ``table`` take turns from its
        start, or None where ``BEGIN IMMEDIATE`` already does (SQLite: one writer at a time)."""
        return None


class PostgresDialect(Dialect):
    name = "postgresql"
    catalogue = PostgresCatalogue()

    def json_rows(self, columns: str, source: str, order: str) -> str:
        return (
            f"(SELECT coalesce(json_agg(json_build_array({columns}) ORDER BY {order}), '[]')"
            f" FROM {source})"
        )

    def json_values(self, column: str, source: str) -> str:
        return f"(SELECT coalesce(json_agg({column}), '[]') FROM {source})"

    def json_list(self, expression: str) -> str:
        return f"json_build_array({expression})"

    def local_day(self, column: str, *, week: bool = False) -> str:
        shifted = f"({column}::timestamp + ?::text::interval)"
        if week:
            return f"date_trunc('week', {shifted})::date::text"
        return f"{shifted}::date::text"

    def contains(self, text: str) -> str:
        return f"strpos({text}, ?) > 0"

    def greatest(self, *values: str) -> str:
        return f"greatest({', '.join(values)})"

    def clock(self) -> str:
        # now() is the transaction's start: every statement of one transaction reads one time.
        return ("to_char(timezone('UTC', now()) + ?::text::interval,"
                " 'YYYY-MM-DD HH24:MI:SS.MS')")

    def lock_table(self, table: str) -> str | None:
        # A mode that conflicts with itself (and not with readers): two transactions that look
        # at the table and then write it run one after the other, so neither writes on a reading
        # the other has made false.
        return f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE"


SQLITE = Dialect()
POSTGRESQL = PostgresDialect()


# --- Whole texts -------------------------------------------------------------------------------

# A string literal, a quoted name, a comment, or a placeholder: literals and comments are copied
# as they are (a '?' inside one is text, not a parameter).
_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|\?")
# "x IS ?" in SQLite compares with NULL as a value; PostgreSQL says IS NOT DISTINCT FROM.
_IS_PARAM = re.compile(r"\bIS\s+(NOT\s+)?\?", re.IGNORECASE)
# "? IS NULL": PostgreSQL cannot tell the type of a parameter only tested for NULL.
_NULL_TEST = re.compile(r"\?(\s+IS\s+(?:NOT\s+)?NULL\b)", re.IGNORECASE)


@lru_cache(maxsize=2048)
def postgresql_statement(sql: str) -> tuple[str, tuple[int, ...]]:
    """One repository statement for PostgreSQL: ``?`` becomes ``$1, $2…``, ``IS [NOT] ?``
    becomes ``IS [NOT] DISTINCT FROM``; and the positions (from 0) of the parameters that are
    only tested for NULL (``? IS NULL``), which are cast to text (their value is passed as text,
    or NULL, by the connection). Cached: the repositories' statements are constants."""
    sql = _IS_PARAM.sub(lambda m: "IS DISTINCT FROM ?" if m[1] else "IS NOT DISTINCT FROM ?", sql)
    sql = _NULL_TEST.sub(r"?::ardoise_null_test\1", sql)
    out: list[str] = []
    null_tests: list[int] = []
    count = 0
    position = 0
    for token in _TOKENS.finditer(sql):
        out.append(sql[position:token.start()])
        position = token.end()
        if token[0] == "?":
            count += 1
            out.append(f"${count}")
            if sql.startswith("::ardoise_null_test", position):
                null_tests.append(count - 1)
                out.append("::text")
                position += len("::ardoise_null_test")
        else:
            out.append(token[0])
    out.append(sql[position:])
    return "".join(out), tuple(null_tests)


_TYPES = [
    (re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\b", re.IGNORECASE),
     "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b", re.IGNORECASE), "BIGINT"),
    (re.compile(r"\bREAL\b", re.IGNORECASE), "DOUBLE PRECISION"),
    (re.compile(r"\bCOLLATE\s+NOCASE\b", re.IGNORECASE), "COLLATE nocase"),
    (re.compile(r"\)\s*WITHOUT\s+ROWID\b", re.IGNORECASE), ")"),
    (re.compile(r"\)\s*STRICT\b", re.IGNORECASE), ")"),
]


def postgresql_schema(sql: str) -> str:
    """A migration in the portable subset (``db/migrations``' README in ``db/migrate.py``),
    for PostgreSQL: the types translated, SQLite's table options dropped. Comments are left
    alone but for these words (harmless there)."""
    for pattern, replacement in _TYPES:
        sql = pattern.sub(replacement, sql)
    return sql

