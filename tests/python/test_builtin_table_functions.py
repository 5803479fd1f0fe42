"""The built-in table-valued functions against Apache Spark: sql_keywords() (the keywords and
which ones ANSI mode reserves), collations() (the collations and how Spark describes them) and
variant_explode / variant_explode_outer, from SQL (FROM, LATERAL) and from spark.tvf."""

import pytest
from pyspark.sql import functions as F

from harness import session_mode


def test_sql_keywords(diff):
    diff(lambda s: s.sql("SELECT * FROM sql_keywords()"), ordered=True)
    diff(lambda s: s.tvf.sql_keywords(), ordered=True)
    diff(lambda s: s.sql("SELECT keyword FROM sql_keywords() WHERE keyword LIKE 'A%' OR keyword = 'JOIN'"),
         ordered=True)
    diff(lambda s: s.sql("SELECT count(*), count_if(reserved) FROM sql_keywords()"))


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_sql_keywords_reserved_when_enforced(ember, oracle, ansi):
    results = []
    for spark in (ember, oracle):
        with session_mode(spark):
            spark.conf.set("spark.sql.ansi.enforceReservedKeywords", "true")
            spark.conf.set("spark.sql.ansi.enabled", ansi)
            try:
                results.append([tuple(r) for r in spark.sql("SELECT * FROM sql_keywords()").collect()])
                results.append([tuple(r) for r in spark.tvf.sql_keywords().where("reserved").collect()])
            finally:
                spark.conf.unset("spark.sql.ansi.enforceReservedKeywords")
                spark.conf.unset("spark.sql.ansi.enabled")
    assert results[:2] == results[2:]


def test_table_functions_without_arguments_take_none(diff_error):
    diff_error(lambda s: s.sql("SELECT * FROM sql_keywords(1)"), "WRONG_NUM_ARGS")
    diff_error(lambda s: s.sql("SELECT * FROM collations('x')"), "WRONG_NUM_ARGS")


# Collations whose locales both ICU releases know; their rows are compared whole but for the ICU
# version, which is the ICU Ember was built with (Spark ships its own).
NAMES = ["UTF8_BINARY", "UTF8_LCASE", "UNICODE", "UNICODE_CI", "UNICODE_AI", "UNICODE_CI_AI", "de", "de_CI_AI",
         "en_USA", "en_USA_CI", "sr_Cyrl_SRB", "zh_Hant_TWN_AI", "fr_CAN", "ja"]
COLUMNS = "CATALOG, SCHEMA, NAME, LANGUAGE, COUNTRY, ACCENT_SENSITIVITY, CASE_SENSITIVITY, PAD_ATTRIBUTE"


def test_collations(diff):
    names = ", ".join(f"'{n}'" for n in NAMES)
    diff(lambda s: s.sql(f"SELECT {COLUMNS} FROM collations() WHERE NAME IN ({names})"), ordered=True)
    diff(lambda s: s.tvf.collations().where(F.col("NAME").isin(NAMES)).drop("ICU_VERSION"), ordered=True)
    diff(lambda s: s.sql("SELECT NAME, ICU_VERSION IS NULL FROM collations() WHERE NAME LIKE 'UTF8%'"), ordered=True)


# Locales of Spark's ICU4J (78) that the ICU Ember is built with may lack (Debian 12's is 72).
NEWER_ICU_LOCALES = {"blo", "kk_Arab", "lij", "nso", "st", "tn"}
SPECIFIERS = ("_CI", "_AI", "_RTRIM")


def test_collations_are_sparks_for_every_locale_ember_has(ember, oracle):
    listings = []
    for spark in (ember, oracle):
        with session_mode(spark):
            listings.append([tuple(r) for r in spark.sql(f"SELECT {COLUMNS} FROM collations()").collect()])
    ember_rows, spark_rows = listings
    ember_names = {r[2] for r in ember_rows}
    # The same rows in the same order, but for the collations of locales Ember's ICU lacks.
    assert ember_rows == [r for r in spark_rows if r[2] in ember_names]
    missing = {r[2] for r in spark_rows} - ember_names
    locales = {n for n in missing if not n.endswith(SPECIFIERS)}
    assert locales <= NEWER_ICU_LOCALES, locales
    assert len(missing) == 8 * len(locales)


def test_collations_schema_and_every_name_resolves(ember, oracle):
    schemas = []
    for spark in (ember, oracle):
        with session_mode(spark):
            schemas.append(spark.tvf.collations().schema)
    assert schemas[0] == schemas[1]
    with session_mode(ember):
        rows = ember.sql("SELECT NAME, ICU_VERSION FROM collations()").collect()
        names = [r[0] for r in rows]
        assert len(names) == len(set(names)) > 100
        assert all((r[1] is None) == r[0].startswith("UTF8_") for r in rows)
        # Every listed name is a collation COLLATE accepts, under the same normalized name.
        sample = names[::max(1, len(names) // 40)] + names[-4:]
        for n in sample:
            got = ember.sql(f"SELECT collation('a' COLLATE {n})").collect()[0][0]
            assert got == f"SYSTEM.BUILTIN.{n}"


VARIANTS = [
    '{"b": 1, "a": [1, null], "c": null, "d": {"x": "y"}}',
    '[1, "two", null, [3], {"k": 4.5}]',
    '{}',
    '[]',
    '7',
    '"text"',
    'null',
]


@pytest.mark.parametrize("fn", ["variant_explode", "variant_explode_outer"])
def test_variant_explode(diff, fn):
    rows = ", ".join(f"({i}, '{v}')" for i, v in enumerate(VARIANTS))
    diff(lambda s: s.sql(f"SELECT * FROM {fn}(parse_json('{VARIANTS[0]}'))"), ordered=True)
    diff(lambda s: s.sql(f"SELECT pos, key, to_json(value) FROM {fn}(parse_json('{VARIANTS[1]}'))"),
         ordered=True)
    for v in VARIANTS[2:]:
        diff(lambda s, v=v: s.sql(f"SELECT *, to_json(value) FROM {fn}(parse_json('{v}'))"))
    diff(lambda s: s.sql(f"SELECT * FROM {fn}(CAST(NULL AS VARIANT))"))
    diff(lambda s: s.sql(f"SELECT t.i, e.pos, e.key, to_json(e.value) FROM VALUES {rows} t(i, j), "
                         f"LATERAL {fn}(parse_json(t.j)) e"))
    diff(lambda s: s.sql(f"SELECT e.* FROM {fn}(parse_json('{VARIANTS[0]}')) AS e(p, k, v) WHERE p > 1"))


def test_variant_explode_from_the_dataframe_api(diff):
    data = '{"b": 1, "a": [1, null]}'
    diff(lambda s: s.tvf.variant_explode(F.parse_json(F.lit(data))).select("pos", "key", F.to_json("value")),
         ordered=True)
    diff(lambda s: s.tvf.variant_explode_outer(F.parse_json(F.lit("5"))))
    diff(lambda s: s.createDataFrame([(1, '[10, 20]'), (2, '{"k": 1}'), (3, None)], "i int, j string")
         .lateralJoin(s.tvf.variant_explode_outer(F.parse_json(F.col("j").outer())))
         .select("i", "pos", "key", F.to_json("value")))


def test_variant_explode_of_null(diff):
    diff(lambda s: s.sql("SELECT * FROM variant_explode(NULL)"))
    diff(lambda s: s.sql("SELECT * FROM variant_explode_outer(NULL)"))


def test_variant_explode_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT * FROM variant_explode('x')"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.sql("SELECT * FROM variant_explode()"), "REQUIRED_PARAMETER_NOT_FOUND")
    # Table functions only: not among expressions, and not in LATERAL VIEW, which looks among
    # scalar functions and then persistent ones.
    diff_error(lambda s: s.sql("SELECT variant_explode(parse_json('[1]'))"), "NOT_A_SCALAR_FUNCTION")
    diff_error(lambda s: s.sql("SELECT sql_keywords()"), "NOT_A_SCALAR_FUNCTION")
    diff_error(lambda s: s.sql("SELECT 1 + collations()"), "NOT_A_SCALAR_FUNCTION")
    diff_error(lambda s: s.sql("SELECT * FROM VALUES (1) t(x) LATERAL VIEW variant_explode(parse_json('[1]')) v"),
               "ROUTINE_NOT_FOUND")
