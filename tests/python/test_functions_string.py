"""String functions against Apache Spark: values, types, column names, NULLs, UTF-8 and errors."""

from __future__ import annotations

from pyspark.sql import functions as F

WORDS = [(1, "Spark SQL", "a,b,,c,"), (2, "  héllo wörld  ", "x"), (3, "", ""),
         (4, None, None), (5, "日本語テキスト", "日,本"), (6, "ABC abc 123", "a1b22c333"),
         (7, "xxhixx", ",,,")]


def words(s):
    return s.createDataFrame(WORDS, "k int, s string, t string")


def test_concat_and_lengths(diff):
    diff(lambda s: words(s).select(
        "k", F.concat("s", "t"), F.concat("s", F.lit("-"), "k"), F.concat_ws("|", "s", "t"),
        F.concat_ws("", "s", F.lit(None), "t"), F.length("s"), F.char_length("s"),
        F.character_length("s"), F.octet_length("s"), F.bit_length("s")))


def test_case_functions(diff):
    diff(lambda s: words(s).select("k", F.upper("s"), F.lower("s"), F.initcap("s"),
                                   F.ucase("t"), F.lcase("t")))
    diff(lambda s: s.createDataFrame([("hello WORLD foo",), ("élan vital",), ("a  b",), ("x-y z",),
                                      ("straße ÄÖÜ",), ("ΣΊΣΥΦΟΣ",)],
                                     "s string").select(F.initcap("s"), F.upper("s")))


def test_trim(diff):
    diff(lambda s: words(s).select("k", F.trim("s"), F.ltrim("s"), F.rtrim("s"),
                                   F.trim("s", F.lit("x")), F.ltrim("s", F.lit("x ")),
                                   F.rtrim("s", F.lit("xh")),
                                   F.btrim("s"), F.btrim("s", F.lit("x"))))


def test_pad(diff):
    diff(lambda s: words(s).select("k", F.lpad("s", 12, "*"), F.rpad("s", 12, "ab"),
                                   F.lpad("s", 3, "#"), F.rpad("s", 0, "#"), F.lpad("s", -1, "#"),
                                   F.lpad("s", 5, ""), F.rpad("s", 20, "é")))


def test_substring_left_right(diff):
    diff(lambda s: words(s).select(
        "k", F.substring("s", 1, 3), F.substring("s", -3, 2), F.substring("s", 0, 2),
        F.substring("s", 100, 2), F.substring("s", 2, -1), F.col("s").substr(2, 4),
        F.left("s", F.lit(3)), F.right("s", F.lit(3)), F.left("s", F.lit(0)),
        F.right("s", F.lit(-2)), F.substr("s", F.lit(3))))


def test_positions(diff):
    diff(lambda s: words(s).select(
        "k", F.instr("s", "l"), F.instr("s", ""), F.locate("l", "s"), F.locate("l", "s", 5),
        F.locate("l", "s", 0), F.position(F.lit("本"), "s"), F.position(F.lit("c"), "s", F.lit(3))))


def test_locate_null_position_nullability(diff):
    # A NULL start position gives 0: the result is nullable only through the two strings.
    diff(lambda s: s.sql(
        "SELECT locate('a', 'abc', NULL), position('a', 'abc', NULL), locate('a', 'abc', CAST(NULL AS INT)), "
        "locate('a', CAST(NULL AS STRING), NULL), locate(NULL, 'abc', 2), position('b', 'abc'), "
        "locate('b', 'abc', 2)"))
    diff(lambda s: words(s).select("k", F.position(F.lit("l"), F.coalesce("s", F.lit("")), F.lit(None)),
                                   F.position(F.lit("l"), "s", F.lit(None)),
                                   F.position(F.lit("l"), F.lit("hello"), F.lit(None).cast("int"))))


def test_btrim_names(diff):
    diff(lambda s: words(s).select("k", F.btrim("s", F.lit("x")), F.btrim("s", "t"), F.btrim(F.lit("xhix"), "t"),
                                   F.btrim("s", F.lit(None)), F.btrim("s", F.lit("x").cast("string"))))
    diff(lambda s: s.sql("SELECT btrim(s, 'x'), btrim(s, t), btrim(s, NULL), btrim('xabx', 'x'), btrim(s) "
                         "FROM VALUES ('xax', 'x'), (NULL, 'a') AS v(s, t)"))


def test_replace_translate_overlay(diff):
    diff(lambda s: words(s).select(
        "k", F.replace("s", F.lit("l"), F.lit("L")), F.replace("s", F.lit(" ")),
        F.replace("s", F.lit(""), F.lit("z")), F.translate("s", "lo ", "01"),
        F.translate("s", "日", "x"), F.overlay("s", F.lit("__"), 3),
        F.overlay("s", F.lit("__"), 3, 0), F.overlay("s", F.lit("X"), 1, 20)))


def test_split(diff):
    diff(lambda s: words(s).select("k", F.split("t", ","), F.split("t", ",", 2),
                                   F.split("t", ",", -1), F.split("t", "[0-9]+"),
                                   F.split("s", ""), F.split("t", ",", 0)))


def test_split_part_repeat_reverse(diff):
    diff(lambda s: words(s).select(
        "k", F.split_part("t", F.lit(","), F.lit(1)), F.split_part("t", F.lit(","), F.lit(-1)),
        F.split_part("t", F.lit(","), F.lit(9)), F.split_part("t", F.lit(""), F.lit(1)),
        F.repeat("s", 2), F.repeat("t", 0), F.reverse("s"), F.reverse(F.split("t", ","))))


def test_split_part_zero_index(diff_error):
    diff_error(lambda s: words(s).select(F.split_part("t", F.lit(","), F.lit(0))),
               "INVALID_INDEX_OF_ZERO")


def test_case_mappings_beyond_one_code_point(diff):
    # Java's full case mappings: İ lowers to i and a combining dot, ß title-cases to Ss; initcap
    # keeps a word's first letter as it was (İ) in title case (ǆ to ǅ); mask takes title-case
    # letters for neither upper nor lower case.
    diff(lambda s: s.createDataFrame([("İ",), ("ßa ﬁx",), ("ǆemal ǅ",), ("ΑΣ ΣΑΣ",), ("İstanbul",), ("aİ",), (None,)],
                                     "s string")
         .select("s", F.lower("s"), F.initcap("s"), F.upper("s"), F.mask("s"),
                 F.mask("s", F.lit("U"), F.lit("l"), F.lit("#"), F.lit("*"))))


def test_ascii_chr_base64(diff):
    diff(lambda s: words(s).select("k", F.ascii("s"), F.base64("s"), F.unbase64(F.base64("s"))))
    diff(lambda s: s.createDataFrame([("U3Bhcms=",), ("U3Bh\ncms=",), ("",), ("QQ",), (None,)],
                                     "b string").select(F.unbase64("b")))
    diff(lambda s: s.createDataFrame([(65,), (233,), (256 + 66,), (-1,), (0,), (None,)], "n long")
         .select("n", F.chr("n"), F.char("n")))
    diff(lambda s: s.range(1).select(F.base64(F.repeat(F.lit("abcdefghij"), 10))))


def test_like_ilike_rlike(diff):
    diff(lambda s: words(s).select(
        "k", F.col("s").like("%l%"), F.col("s").like("_p%"), F.col("s").ilike("%SQL"),
        F.col("s").rlike("[0-9]+"), F.col("s").like("%"), F.like("s", F.lit("x%")),
        F.ilike("s", F.lit("ABC%")), F.rlike("s", F.lit("^S")), F.regexp_like("s", F.lit("l+")),
        F.regexp("s", F.lit("^$"))))
    diff(lambda s: s.createDataFrame([("a_b",), ("a%b",), ("axb",), ("a\\b",)], "s string")
         .select("s", F.col("s").like("a\\_b"), F.like("s", F.lit("a/%b"), F.lit("/")),
                 F.col("s").like("a\\\\b")))


def test_like_bad_escape(diff_error):
    diff_error(lambda s: words(s).select(F.col("s").like("a\\b")), "INVALID_FORMAT")


def test_startswith_endswith_contains(diff):
    diff(lambda s: words(s).select("k", F.startswith("s", F.lit("Sp")),
                                   F.endswith("s", F.lit("  ")), F.contains("s", F.lit("本")),
                                   F.startswith("s", F.lit("")), F.col("s").contains("l"),
                                   F.col("s").startswith("A"), F.col("s").endswith("x")))


def test_regexp_functions(diff):
    diff(lambda s: words(s).select(
        "k", F.regexp_extract("t", r"([a-z])(\d+)", 2), F.regexp_extract("t", r"(\d+)", 0),
        F.regexp_extract("s", r"(l+)(x)?", 2), F.regexp_extract_all("t", F.lit(r"(\d+)")),
        F.regexp_extract_all("t", F.lit(r"([a-z])(\d)"), F.lit(2)),
        F.regexp_replace("s", r"l+", "L"), F.regexp_replace("t", r"(\d)", "<$1>"),
        F.regexp_replace("s", "", "-"), F.regexp_count("t", F.lit(r"\d")),
        F.regexp_count("s", F.lit("")), F.regexp_substr("t", F.lit(r"\d+")),
        F.regexp_instr("t", F.lit(r"\d+"))))


def test_regexp_substr_of_an_empty_first_match_is_null(diff):
    diff(lambda s: s.sql("SELECT regexp_substr('abc', 'x*'), regexp_substr('abc', 'b*'), regexp_substr('', ''), "
                         "regexp_substr('abc', 'c|'), regexp_substr('abc', 'b+'), regexp_substr('abc', '')"))


def test_regexp_errors(diff_error):
    diff_error(lambda s: words(s).select(F.regexp_extract("t", r"(\d+)", 3)),
               "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX")
    diff_error(lambda s: words(s).select(F.regexp_replace("t", r"(\d+", "x")),
               "INVALID_PARAMETER_VALUE.PATTERN")


def test_levenshtein_soundex_mask(diff):
    diff(lambda s: words(s).select("k", F.levenshtein("s", "t"), F.levenshtein("s", "t", 3),
                                   F.soundex("s"), F.mask("s"),
                                   F.mask("s", F.lit("U"), F.lit("l"), F.lit("#"), F.lit("*"))))
    diff(lambda s: s.createDataFrame([("Robert",), ("Rupert",), ("Tymczak",), ("Ashcraft",),
                                      ("Pfister",), ("1abc",), ("lloyd",), ("AbC😀x",), ("Ab-b",),
                                      ("Tym czak",)], "s string")
         .select("s", F.soundex("s")))
    # A negative threshold: no distance is within it.
    diff(lambda s: words(s).select("k", F.levenshtein("s", "t", -1), F.levenshtein("s", "s", -3),
                                   F.levenshtein("s", "t", 0)))
    # A NULL threshold reads as 0.
    diff(lambda s: s.sql("SELECT levenshtein(s, t, n), levenshtein(s, t, NULL) FROM VALUES "
                         "('a', 'b', CAST(NULL AS INT)), ('a', 'a', NULL), (NULL, 'a', NULL), ('a', NULL, 3), "
                         "('abc', '', NULL), ('ab', 'abc', 2) AS x(s, t, n)"))


def test_string_functions_in_sql(diff):
    diff(lambda s: s.sql(
        "SELECT substr('Spark SQL', 5), substring('Spark SQL', 5, 1), left('abc', 2), "
        "concat_ws('-', 'a', NULL, 'b'), locate('b', 'abcb', 3), lpad('hi', 5), "
        "'abc' LIKE 'a%', regexp_extract('a1b2', '([a-z])(\\\\d)', 1), replace('aaa', 'a'), "
        "split_part('a.b.c', '.', 2), char_length('日本'), initcap('sPARK sql')"))


def test_format_number(diff):
    diff(lambda s: s.createDataFrame(
        [(1234567.891, 5), (0.125, -3), (-0.5, 7), (2.675, None), (None, 1), (1e15, 0)],
        "d double, i int").select("d", F.format_number("d", 2), F.format_number("d", 0),
                                  F.format_number("i", 3), F.format_number("d", 5)))
    diff(lambda s: s.sql("SELECT format_number(12332.123456, 4), format_number(-0.125, 2), "
                         "format_number(0.135, 2), format_number(123456789.5, 0), "
                         "format_number(1.5, 3), format_number(-7.0, 1), format_number(-0.001, 2)"))


def test_format_string(diff):
    diff(lambda s: words(s).select(
        "k", F.format_string("%s-%d", "s", "k"), F.format_string("%5d|%-6s|", "k", "t"),
        F.format_string("%05d %x %X %o", "k", "k", "k", "k"), F.printf(F.lit("%s and %s"), "s", "t"),
        F.format_string("%.2f %10.3f %,d", F.col("k") / 3, F.col("k") * 1.0005,
                        F.col("k") * 1000000)))
    diff(lambda s: s.sql("SELECT format_string('%s %b %%', NULL, true), "
                         "printf('%.1f', 0.25D), format_string('%2$s %1$s', 'a', 'b')"))


def test_unknown_function(diff_error):
    diff_error(lambda s: words(s).select(F.call_function("no_such_function", "s")),
               "UNRESOLVED_ROUTINE")
    diff_error(lambda s: s.sql("SELECT uper('a')"), "UNRESOLVED_ROUTINE")


def test_substring_index_find_in_set_space(diff):
    diff(lambda s: s.createDataFrame(
        [("www.apache.org", "b", 2), ("a.b.c", "a,b,c", -1), ("", "", 3), (None, "x", 1),
         ("a..b", "x,,y", -2), ("日.本.語", "本,日", 5)], "s string, t string, n int")
        .select("s", F.substring_index("s", ".", 2), F.substring_index("s", ".", -2),
                F.substring_index("s", "..", 1),
                F.substring_index("s", ".", 0), F.find_in_set(F.lit("b"), "t"),
                F.find_in_set(F.lit(""), "t"), F.find_in_set(F.lit("a,b"), "t")))
    diff(lambda s: s.sql("SELECT concat('[', space(3), ']'), space(-1), space(0)"))


def test_trim_in_sql(diff):
    diff(lambda s: s.sql(
        "SELECT trim(BOTH 'x' FROM 'xxaxx'), trim(LEADING 'x' FROM 'xxaxx'), "
        "trim(TRAILING FROM '  a  '), trim('x' FROM 'xax'), trim('xy', 'yxaxy'), "
        "ltrim('  a '), position('b' IN 'abc'), substring('Spark' FROM 2 FOR 3)"))


def test_binary_inputs(diff):
    diff(lambda s: words(s).select(
        "k", F.length(F.col("s").cast("binary")), F.octet_length(F.col("s").cast("binary")),
        F.concat(F.col("s").cast("binary"), F.col("t").cast("binary")),
        F.substring(F.col("s").cast("binary"), 2, 3), F.base64(F.col("s").cast("binary"))))


def test_left_and_overlay_of_binary_are_binary(diff):
    # Bytes, not characters: left is a substring of bytes, overlay replaces bytes.
    diff(lambda s: s.sql(
        "SELECT left(b, n), overlay(b, r, n), overlay(b, r, n, 1), overlay(b, r, 1, 5), typeof(left(b, n)), "
        "typeof(overlay(b, r, n)) "
        "FROM VALUES (X'FF0041', X'0102', 2), (X'E697A5', X'', 0), (X'', X'01', -1), (X'FF00', X'01', 5), "
        "(NULL, X'01', 1) AS t(b, r, n)"))


def test_len(diff):
    # len counts characters (multi-byte UTF-8 as one each, trailing spaces too) and the bytes of
    # a binary value.
    diff(lambda s: words(s).select("k", F.expr("len(s)"), F.expr("len(t)"), F.expr("len(CAST(s AS BINARY))"),
                                   F.expr("len(concat(s, '  '))")))
    diff(lambda s: s.sql("SELECT len('Spark SQL '), len(''), len(NULL), len(X'00FF'), len('😀é'), len(12.50BD), "
                         "len(-0.0D), len(DATE'2024-02-29')"))
    diff(lambda s: words(s).where("false").select(F.expr("len(s)")))
