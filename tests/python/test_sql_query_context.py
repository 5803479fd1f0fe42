"""SQL query context of analysis errors: where in the statement an error arose, as Spark's own
Connect server reports it (start and stop character, the fragment) and the `line L pos P` its
message carries."""

from __future__ import annotations

import pytest


def error_of(session, query):
    try:
        session.sql(query).collect()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return e
    raise AssertionError(f"no error for {query!r}")


def contexts(e):
    return [(c.contextType().name, c.startIndex(), c.stopIndex(), c.fragment())
            for c in (e.getQueryContext() or [])]


def place(e):
    """The `line L pos P` that follows the SQLSTATE, if any."""
    text = str(e).split("\n")[0]
    marker = "; line "
    return text[text.index(marker) + 2:].rstrip(";") if marker in text else None


@pytest.mark.parametrize("query", [
    "SELECT nope FROM range(1)",
    "SELECT id, nope + 1 FROM range(1)",
    "SELECT * FROM missing_table_ctx",
    "SELECT id FROM range(1)\nWHERE\n  missing_col > 1",
    "SELECT sum(id) FROM range(3) GROUP BY nope2",
    "SELECT 'é', nope FROM range(1)",
    "SELECT id FROM range(2) t JOIN range(3) u ON t.id = u.nope",
    "SELECT abs(id, 2) FROM range(1)",
    # Inline tables: values evaluated once, at analysis.
    "SELECT * FROM VALUES (1), (rand(1)) AS t(x)",
    "SELECT * FROM VALUES (1, 'a'), (uuid(), 'b') AS t(x, y)",
    "SELECT * FROM VALUES (1), (1/0) AS t(x) LIMIT 1",
    "SELECT count(*) FROM\n  VALUES (1), (1/0) AS t(x)",
])
def test_query_context_matches_spark(oracle, connect_oracle, ember, query):
    # `oracle` first: a classic session cannot start in a process once a Connect one has.
    del oracle
    expected = error_of(connect_oracle, query)
    actual = error_of(ember, query)
    assert getattr(actual, "getCondition", lambda: None)() == getattr(expected, "getCondition", lambda: None)()
    assert contexts(actual) == contexts(expected), (contexts(expected), contexts(actual))
    assert place(actual) == place(expected), (place(expected), place(actual))
