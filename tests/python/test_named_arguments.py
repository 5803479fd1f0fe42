"""Named arguments of built-in functions (`mask(s, digitChar => 'D')`) against Apache Spark:
values and column names of calls that name some or all arguments in any order, defaults filled
in before a named argument, case-insensitive names, table-valued generators and window
functions called by name, and Spark's errors, messages included."""

from __future__ import annotations

import pytest

from harness import error_condition, error_text, run_for_error, session_mode


def test_mask_by_name(diff):
    diff(lambda s: s.sql(
        "SELECT mask('AbCd-12', digitChar => 'D') AS a, "
        "mask(str => 'AbCd-12', otherChar => '*', upperChar => 'U') AS b, "
        "mask('AbCd-12', 'Q', lowerChar => 'q') AS c, mask(STR => 'Ab1') AS d, "
        "mask('Ab1', upperchar => 'U') AS e, mask(s, otherChar => NULL, digitChar => '#') AS f "
        "FROM VALUES ('Xy-9'), (NULL) AS t(s)"))


def test_column_names_show_the_filled_in_defaults(diff):
    diff(lambda s: s.sql("SELECT mask('AbCd-12', digitChar => 'D'), mask('AbCd-12', 'Q', lowerChar => 'q'), "
                         "mask(str => 'x')"))


def test_generators_by_name(diff):
    diff(lambda s: s.sql("SELECT explode(collection => array(1, 2, 3))"))
    diff(lambda s: s.sql("SELECT posexplode(collection => map('a', 1, 'b', 2))"))
    diff(lambda s: s.sql("SELECT inline(input => array(struct(1, 'a'), struct(2, 'b')))"))
    diff(lambda s: s.sql("SELECT * FROM explode(collection => array(10, 20))"))
    diff(lambda s: s.sql("SELECT explode_outer(collection => CAST(NULL AS ARRAY<INT>))"))


def test_window_and_aggregate_functions_by_name(diff):
    diff(lambda s: s.sql("SELECT id, counter_diff(value => id * 2) OVER (ORDER BY id) AS d FROM range(4)"))
    diff(lambda s: s.sql(
        "SELECT count_min_sketch(column => id, seed => 1, epsilon => 0.5d, confidence => 0.5d) IS NOT NULL "
        "FROM range(3)"))
    diff(lambda s: s.sql(
        "SELECT tuple_sketch_estimate_double(tuple_sketch_agg_double(key => id % 7, summary => 1.0d)) AS a, "
        "tuple_sketch_estimate_double(tuple_sketch_agg_double(id % 5, 2.0d, mode => 'max')) AS b FROM range(50)"))


ERRORS = [
    # No named parameters at all.
    ("SELECT upper(str => 'a')", "NAMED_PARAMETERS_NOT_SUPPORTED"),
    ("SELECT sum(col => id) FROM range(3)", "NAMED_PARAMETERS_NOT_SUPPORTED"),
    ("SELECT array_contains(array(1), value => 1)", "NAMED_PARAMETERS_NOT_SUPPORTED"),
    # Positional after named.
    ("SELECT mask(upperChar => 'U', 'x')", "UNEXPECTED_POSITIONAL_ARGUMENT"),
    # Names assigned twice.
    ("SELECT mask('a', upperChar => 'U', upperChar => 'V')", "DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT"),
    ("SELECT mask('a', str => 'b')", "DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT"),
    ("SELECT mask('a', 'b', 'c', 'd', 'e', otherChar => 'f')", "DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT"),
    # Unknown names, with Spark's proposals.
    ("SELECT count_min_sketch(id, 0.5d, 0.5d, sed => 1) FROM range(3)", "UNRECOGNIZED_PARAMETER_NAME"),
    ("SELECT explode(collect => array(1))", "UNRECOGNIZED_PARAMETER_NAME"),
    ("SELECT tuple_sketch_agg_double(id, 1.0d, lgNom => 12) FROM range(3)", "UNRECOGNIZED_PARAMETER_NAME"),
    # Required parameters missing.
    ("SELECT mask(upperChar => 'U')", "REQUIRED_PARAMETER_NOT_FOUND"),
    ("SELECT count_min_sketch(column => id, seed => 1) FROM range(3)", "REQUIRED_PARAMETER_NOT_FOUND"),
    ("SELECT count_min_sketch(id, confidence => 0.5d, seed => 1) FROM range(3)", "REQUIRED_PARAMETER_NOT_FOUND"),
    ("SELECT count_min_sketch(id, 0.5d, 0.5d) FROM range(3)", "REQUIRED_PARAMETER_NOT_FOUND"),
]


@pytest.mark.parametrize("sql,error_class", ERRORS)
def test_errors_and_messages(ember, oracle, sql, error_class):
    with session_mode(oracle):
        expected = run_for_error("spark", lambda s: s.sql(sql).collect(), oracle)
    with session_mode(ember):
        actual = run_for_error("ember", lambda s: s.sql(sql).collect(), ember)
    assert error_condition(expected).startswith(error_class), error_text(expected)
    assert error_condition(actual) == error_condition(expected), f"{error_text(actual)}\nspark: {error_text(expected)}"
    assert error_text(actual) == error_text(expected)


def test_server_keeps_serving_after_errors(ember):
    with session_mode(ember):
        with pytest.raises(Exception):
            ember.sql("SELECT mask(nope => 'x')").collect()
        assert ember.sql("SELECT mask(str => 'Ab')").collect()[0][0] == "Xx"
