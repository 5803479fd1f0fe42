"""The string functions that search text, under each family of collations, against Apache
Spark: instr (with position and occurrence), locate / position, replace, split_part,
substring_index, translate, find_in_set, trim / ltrim / rtrim / btrim with a character set,
levenshtein and contains / startswith / endswith, for UTF8_BINARY, UTF8_LCASE, ICU collations
(UNICODE, UNICODE_CI, accent-insensitive ones) and the RTRIM variants, with case differences,
the dotted I (İ and i + U+0307), ß, the Greek sigmas, accents, empty strings and patterns,
NULLs, multi-byte text and trailing spaces; and the analysis errors Spark raises for
case-sensitive accent-insensitive collations."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F
from pyspark.sql.types import StringType, StructField, StructType

COLLATIONS = ["UTF8_BINARY", "UTF8_LCASE", "UNICODE", "UNICODE_CI", "UNICODE_CI_AI", "de_CI_AI",
              "UTF8_BINARY_RTRIM", "UTF8_LCASE_RTRIM", "UNICODE_CI_RTRIM"]

# (text, pattern): the pattern is searched for in the text, or is the set of characters to trim.
PAIRS = [
    ("Hello World", "o"), ("Hello World", "O"), ("aBcAbC", "abc"), ("aBcAbC", "BCA"),
    ("İstanbul", "i"), ("İstanbul", "i̇"), ("i̇stanbul", "İ"), ("xİy", "İ"), ("xi̇y", "i̇"),
    ("i̇i̇", "i"), ("İi", "İi"), ("straße", "SS"), ("STRASSE", "ß"), ("straße", "ß"),
    ("ΣΑΣ ς", "σ"), ("ὈΔΥΣΣΕΎΣ", "ς"), ("σς", "Σ"), ("Éclair café", "e"), ("Éclair café", "É"),
    ("Éclair café", "CAFE"), ("", ""), ("abc", ""), ("", "a"), (None, "a"), ("a", None),
    ("a,b,A,B", "b"), ("x  ", "x "), ("a b  c  ", "  "), ("a b  c  ", "b "), ("日本語日本", "本"),
    ("🙂a🙂A", "a"), ("aaa", "AA"), ("aXbxcX", "x"), ("abc  ", "C  "), ("  ", " "),
    ("Ǆemal ǅ", "ǆ"), ("K Kelvin", "k"), ("ﬁle", "FI"),
]

# (text, characters to trim).
TRIMS = [
    ("xXabcXx", "x"), ("xXabcXx", "X"), ("İiIxI", "İ"), ("i̇i̇xİ", "İ"), ("iixii", "İi"),
    ("ii", "İi"), ("i̇ix", "İi"), ("xi̇i", "İi"), ("  abc  ", "a "), ("aab  ", "a"),
    ("baa  ", "a"), ("ßxSS", "ß"), ("ÉéeabcE", "e"), ("ΣσςabΣ", "ς"), ("", "a"), ("abc", ""),
    ("xxab  ", "x"), ("abxx  ", "x"), ("abxx  ", "x "), ("   ", "x"), ("日日本語日", "日"),
    ("aé  ", "é"), (None, "a"), ("a", None),
]


def pairs(s, collation, rows=PAIRS):
    schema = StructType([StructField("s", StringType(collation), True),
                         StructField("p", StringType(collation), True)])
    return s.createDataFrame(rows, schema)


ICU = {"UNICODE", "UNICODE_CI", "UNICODE_CI_AI", "de_CI_AI", "UNICODE_CI_RTRIM"}


@pytest.mark.parametrize("collation", COLLATIONS)
def test_positions(diff, collation):
    diff(lambda s: pairs(s, collation).select(
        "s", "p", F.instr("s", F.col("p")).alias("instr"),
        F.expr("instr(s, p, 2, 1)").alias("instr_2"), F.expr("instr(s, p, 1, 2)").alias("instr_1_2"),
        F.expr("instr(s, p, -1, 1)").alias("instr_neg"), F.expr("instr(s, p, -2, 2)").alias("instr_neg2"),
        F.expr("locate(p, s)").alias("locate"), F.expr("locate(p, s, 3)").alias("locate_3"),
        F.expr("locate(p, s, 0)").alias("locate_0"), F.expr("locate(p, s, -2)").alias("locate_neg"),
        F.expr("position(p IN s)").alias("position")))


# Backward searches where ICU's overlapping steps matter: repeated and overlapping matches,
# contractions and expansions (ß, ﬁ), combining marks, supplementary characters, positions at
# and past either end, and occurrences beyond the matches.
BACKWARD = [
    ("aaaa", "aa"), ("abab", "AB"), ("xßssß", "ss"), ("ﬁfifi", "FI"), ("caféCAFE", "cafe"),
    ("a\u0301a\u0301", "á"), ("🙂a🙂A🙂a", "a"), ("İi̇İ", "i̇"), ("Abc abc ABC", "abc"),
    ("x", "x"), ("xy", "yz"), ("σςΣ", "σ"),
]


@pytest.mark.parametrize("collation", sorted(ICU))
def test_instr_backward_under_icu(diff, collation):
    diff(lambda s: pairs(s, collation, BACKWARD).select(
        "s", "p", *[F.expr(f"instr(s, p, {pos}, {occ})").alias(f"i{-pos}_{occ}")
                    for pos in [-1, -2, -3, -4, -6, -20] for occ in [1, 2, 3, 4]]))


@pytest.mark.parametrize("collation", COLLATIONS)
def test_affixes(diff, collation):
    diff(lambda s: pairs(s, collation).select(
        "s", "p", F.col("s").contains(F.col("p")).alias("c"), F.col("s").startswith(F.col("p")).alias("sw"),
        F.col("s").endswith(F.col("p")).alias("ew"), F.expr("contains(p, s)").alias("rc")))


@pytest.mark.parametrize("collation", COLLATIONS)
def test_replace_and_split(diff, collation):
    diff(lambda s: pairs(s, collation).select(
        "s", "p", F.expr("replace(s, p, '<>')").alias("r"), F.expr("replace(s, p)").alias("r0"),
        F.expr("split_part(s, p, 1)").alias("sp1"), F.expr("split_part(s, p, 2)").alias("sp2"),
        F.expr("split_part(s, p, -1)").alias("spm1"), F.expr("split_part(s, p, 5)").alias("sp5"),
        F.expr("substring_index(s, p, 1)").alias("si1"), F.expr("substring_index(s, p, 2)").alias("si2"),
        F.expr("substring_index(s, p, -1)").alias("sim1"), F.expr("substring_index(s, p, -2)").alias("sim2"),
        F.expr("substring_index(s, p, 0)").alias("si0")))


@pytest.mark.parametrize("collation", COLLATIONS)
def test_translate_find_in_set_levenshtein(diff, collation):
    diff(lambda s: pairs(s, collation).select(
        "s", "p", F.expr("translate(s, p, '12')").alias("t"), F.expr("translate(s, p, '')").alias("t0"),
        F.expr("find_in_set(p, s)").alias("f"), F.expr("find_in_set(p, 'x,a,B,b ,ss,i̇,É')").alias("f2"),
        F.expr("levenshtein(s, p)").alias("l"), F.expr("levenshtein(s, p, 3)").alias("l3")))


@pytest.mark.parametrize("collation", COLLATIONS)
def test_translate_dictionaries(diff, collation):
    rows = [("aBcAb", "bB"), ("aBcAb", "Bb"), ("éEe", "éE"), ("éEe", "Eé"), ("İi̇I", "İ"), ("İi̇Ii", "İi"),
            ("ii̇", "iİ"), ("ab", "AB"), ("Σσς", "ςΣ"), ("straße", "ßs"), ("日本", "本日")]
    diff(lambda s: pairs(s, collation, rows).select(
        "s", "p", F.expr("translate(s, p, 'xyz')").alias("t"), F.expr("translate(s, p, 'x')").alias("t1")))


@pytest.mark.parametrize("collation", COLLATIONS)
def test_trims_with_characters(diff, collation):
    diff(lambda s: pairs(s, collation, TRIMS).select(
        "s", "p", F.expr("trim(BOTH p FROM s)").alias("t"), F.expr("trim(LEADING p FROM s)").alias("l"),
        F.expr("trim(TRAILING p FROM s)").alias("r"), F.expr("btrim(s, p)").alias("b"),
        F.expr("ltrim(p, s)").alias("l2"), F.expr("rtrim(p, s)").alias("r2"), F.expr("trim(s)").alias("t1")))


def test_sql_literals_and_result_types(diff):
    diff(lambda s: s.sql(
        "SELECT instr('aBc' COLLATE UTF8_LCASE, 'b'), locate('b', 'aBc' COLLATE UNICODE_CI, 1), "
        "replace('aBc' COLLATE UNICODE_CI, 'b', 'x'), typeof(replace('aBc' COLLATE UNICODE_CI, 'b', 'x')), "
        "split_part('aXbxc' COLLATE UTF8_LCASE, 'x', 2), typeof(split_part('a' COLLATE UTF8_LCASE, 'x', 1)), "
        "substring_index('aXbxc' COLLATE UTF8_LCASE, 'x', 2), translate('aBc' COLLATE UTF8_LCASE, 'b', 'x'), "
        "find_in_set('B' COLLATE UTF8_LCASE, 'a,b'), trim('a' COLLATE UTF8_LCASE FROM 'AbA'), "
        "typeof(trim('a' COLLATE UTF8_LCASE FROM 'AbA')), btrim('AbA' COLLATE UNICODE_CI, 'a') AS b, "
        "contains('abc ' COLLATE UNICODE_RTRIM, 'c  '), startswith('abc' COLLATE de_CI_AI, 'Á'), "
        "endswith('abc  ' COLLATE UTF8_LCASE_RTRIM, 'C'), levenshtein('abc' COLLATE UNICODE_AI, 'ábc'), "
        "find_in_set('b' COLLATE UNICODE_AI, 'a,B,b'), instr('abc' COLLATE UNICODE_CI_AI_RTRIM, 'B ')"))
    diff(lambda s: s.sql(
        "SELECT locate('', 'abc' COLLATE UTF8_LCASE, 3), locate('' COLLATE UNICODE, 'abc', 5), "
        "locate('' COLLATE UTF8_LCASE, 'abc', 0), locate('a' COLLATE UNICODE, 'abc', 4), "
        "instr('abc' COLLATE UNICODE_CI, 'b', 0, 1)"))


def test_filters_on_collated_columns(diff):
    # The functions as predicates over a column whose collation the schema sets.
    diff(lambda s: pairs(s, "UNICODE_CI").where(F.col("s").contains("A")).select("s"))
    diff(lambda s: pairs(s, "UTF8_LCASE").where(F.col("s").startswith("İ")).select("s"))
    diff(lambda s: pairs(s, "UTF8_LCASE_RTRIM").where(F.col("s").endswith("X ")).select("s"))


def test_instr_occurrence_error(diff_error):
    diff_error(lambda s: s.sql("SELECT instr('abc' COLLATE UTF8_LCASE, 'b', 1, 0)").collect(),
               "INVALID_PARAMETER_VALUE.OCCURRENCE")


@pytest.mark.parametrize("sql", [
    "instr('abc' COLLATE UNICODE_AI, 'b')", "instr('abc', 'b' COLLATE UNICODE_AI)",
    "locate('b', 'abc' COLLATE UNICODE_AI)", "position('b' IN 'abc' COLLATE UNICODE_AI)",
    "replace('abc' COLLATE UNICODE_AI, 'b', 'x')", "split_part('abc' COLLATE de_AI, 'b', 1)",
    "substring_index('abc' COLLATE UNICODE_AI, 'b', 1)", "translate('abc' COLLATE UNICODE_AI, 'b', 'x')",
    "trim('a' COLLATE UNICODE_AI FROM 'abc')", "ltrim('a' COLLATE UNICODE_AI, 'abc')",
    "rtrim('a', 'abc' COLLATE UNICODE_AI)", "btrim('abc' COLLATE UNICODE_AI, 'a')",
    "trim('abc ' COLLATE UNICODE_AI)", "contains('abc' COLLATE UNICODE_AI, 'B')",
    "startswith('abc' COLLATE UNICODE_CS_AI, 'a')", "endswith('abc' COLLATE UNICODE_AI_RTRIM, 'c')",
])
def test_case_sensitive_accent_insensitive_is_refused(diff_error, sql):
    diff_error(lambda s: s.sql(f"SELECT {sql}"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
