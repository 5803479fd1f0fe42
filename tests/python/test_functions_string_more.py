"""More string and binary functions against Apache Spark: implicit casts of position and length
arguments, instr with a position and occurrence, binary pads and reverse, regexp_instr's group
argument, charsets (encode/decode), to_binary, base32, UTF-8 validation, elt, quote and
jaro_winkler_similarity."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from harness import api_mode, session_conf

ROWS = [(1, "Spark SQL", 2, 3), (2, "héllo wörld", -3, 2), (3, "", 1, 1), (4, None, None, None),
        (5, "日本語テキスト", 0, 4), (6, "abcabcabc", 10, 1)]


def rows(s):
    return s.createDataFrame(ROWS, "k int, s string, p bigint, l bigint")


def test_bigint_positions_and_lengths(diff):
    diff(lambda s: rows(s).select(
        "k", F.left("s", "p"), F.right("s", "l"), F.substr("s", "p", "l"), F.substring("s", 2, "l"),
        F.repeat("s", "l"), F.split_part(F.lit("a,b,c"), F.lit(","), F.col("l")),
        F.position(F.lit("l"), "s", F.col("l")), F.split("s", " ", F.col("l")),
        F.lpad("s", F.col("l"), "*"), F.rpad("s", F.col("l"), "#")))


def test_double_and_decimal_lengths(diff):
    diff(lambda s: rows(s).select(
        "k", F.left("s", F.lit(2.7)), F.substring("s", 2, F.lit(3).cast("decimal(5,2)")),
        F.repeat("s", F.lit(2.0))))


def test_bigint_length_out_of_int_range(diff, diff_error, ember, oracle):
    diff_error(lambda s: rows(s).select(F.left("s", F.lit(3000000000))), "CAST_OVERFLOW")
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: rows(s).select("k", F.left("s", F.lit(3000000000))))


def test_instr_position_and_occurrence(diff):
    diff(lambda s: rows(s).select(
        "k", F.instr("s", "b"), F.instr("s", "b", 1, 2), F.instr("s", "c", -1),
        F.instr("s", "b", -1, 2), F.instr("s", "l", F.col("l")), F.instr("s", "", 3, 2), F.instr("s", "a", 0),
        F.instr("s", "a", 100), F.instr("s", "a", -100), F.instr("s", "本", -1)))
    diff(lambda s: s.createDataFrame([("aaaa",), ("aXaXa",)], "s string").select(
        F.instr("s", "aa", 1, 2), F.instr("s", "aa", -1, 2), F.instr("s", "a", 2, 2)))
    diff(lambda s: s.sql("SELECT instr('abcabc', 'c', -2, 1), instr('abc', 'b', 0), instr('abc', 'b', 2)"))


def test_instr_occurrence_must_be_positive(diff_error):
    diff_error(lambda s: rows(s).select(F.instr("s", "a", 1, 0)), "INVALID_PARAMETER_VALUE.OCCURRENCE")


def test_binary_pads_and_reverse(diff):
    diff(lambda s: s.createDataFrame([(bytearray(b"\x01\x02"), "abcd"), (bytearray(b""), "xy"), (None, None)],
                                     "b binary, s string").select(
        F.lpad("b", 5, F.lit(b"\x07\x08")), F.rpad("b", 3, F.lit(b"\x09")), F.lpad("s", 6, F.lit(b"uv")),
        F.rpad("s", 7, F.lit(b"uv")), F.reverse("b"), F.hex(F.reverse("b")), F.reverse("s")))


def test_regexp_instr_group_argument(diff):
    diff(lambda s: s.createDataFrame([("1a 2b 14m",), ("none",), (None,)], "s string").select(
        F.regexp_instr("s", F.lit(r"\d+(a|b|m)")), F.regexp_instr("s", F.lit(r"\d+(a|b|m)"), F.lit(1)),
        F.regexp_instr("s", F.lit(r"(\d)(\w)"), F.lit(2)), F.regexp_instr("s", F.lit("b")),
        F.regexp_instr("s", F.lit(r"\d+(a)"), F.lit(3))))


TEXT = [(1, "abc"), (2, "é日😀"), (3, ""), (4, None)]


def text(s):
    return s.createDataFrame(TEXT, "k int, s string")


def test_encode_charsets(diff):
    diff(lambda s: text(s).select(
        "k", *[F.encode("s", cs) for cs in ("UTF-8", "utf-16", "UTF-16BE", "utf-16le", "UTF-32")]))
    diff(lambda s: s.createDataFrame([("abc",), ("é",), (None,)], "s string").select(
        F.encode("s", "ISO-8859-1"), F.encode(F.lit("ab"), "US-ASCII")))


def test_encode_unmappable_and_unknown_charset(diff_error):
    diff_error(lambda s: text(s).select(F.encode("s", "US-ASCII")), "MALFORMED_CHARACTER_CODING")
    diff_error(lambda s: text(s).select(F.encode("s", "ISO-8859-1")), "MALFORMED_CHARACTER_CODING")
    diff_error(lambda s: text(s).select(F.encode("s", "latin1")), "INVALID_PARAMETER_VALUE.CHARSET")
    diff_error(lambda s: text(s).select(F.decode(F.encode("s", "UTF-8"), "UTF-32BE")),
               "INVALID_PARAMETER_VALUE.CHARSET")


def test_decode_charsets(diff):
    rows = [(bytearray(b"\xe9"), bytearray(b"\x00\xe9"), bytearray(b"\xfe\xff\x00\xe9"), bytearray(b"\xff\xfe\xe9\x00"),
             bytearray(b"\x00\x00\x00\xe9"), bytearray(b"\xd8\x3d\xde\x00")),
            (bytearray(b""), bytearray(b""), bytearray(b""), bytearray(b""), bytearray(b""), bytearray(b"")),
            (None, None, None, None, None, None)]
    diff(lambda s: s.createDataFrame(rows, "a binary, b binary, c binary, d binary, e binary, f binary").select(
        F.decode("a", "ISO-8859-1"), F.decode("b", "UTF-16"), F.decode("c", "UTF-16"), F.decode("d", "utf-16"),
        F.decode("b", "UTF-16BE"), F.decode("d", "UTF-16LE"), F.decode("e", "UTF-32"), F.decode("f", "UTF-16BE"),
        F.decode(F.encode(F.lit("日本"), "UTF-8"), "utf-8")))


def test_decode_malformed(diff_error):
    for data, cs in ((b"\xff", "UTF-8"), (b"\xff", "US-ASCII"), (b"\x00", "UTF-16"), (b"\xd8\x00", "UTF-16BE"),
                     (b"\xc3", "UTF-8"), (b"\xed\xa0\x80", "UTF-8")):
        diff_error(lambda s, data=data, cs=cs: s.createDataFrame([(bytearray(data),)], "b binary").select(
            F.decode("b", cs)), "MALFORMED_CHARACTER_CODING")


def test_decode_case_form(diff):
    diff(lambda s: s.sql(
        "SELECT decode(2, 1, 'a', 2, 'b', 'c'), decode(3, 1, 'a', 2, 'b'), decode(3, 1, 'a', 2, 'b', 'z'), "
        "decode(NULL, 1, 'a', NULL, 'n', 'z'), decode(1, 1.0, 'x', 'y'), decode('1', 1, 'x', 'y')"))
    diff(lambda s: s.createDataFrame([(1, "x"), (2, None), (None, "z"), (5, "w")], "i int, t string").select(
        F.expr("decode(i, 1, 'one', 2, t, NULL, 'none', 'other')"), F.expr("decode(i, 1, 10, 2, 20)"),
        F.expr("decode(t, 'x', i)"), F.expr("decode(i, 1, 1.5D)"), F.expr("decode(i, 1, CAST(2 AS DECIMAL(5,2)), 0)"),
        F.expr("decode(i, 1, DATE'2020-01-02')"), F.expr("decode(i, 1, NULL)")))


def test_to_binary(diff):
    diff(lambda s: s.createDataFrame([("abc", "616263", "YWJj"), ("é", "61626", "YW Jj"), ("", "", "YWJ"),
                                      (None, None, None)], "u string, h string, b string").select(
        F.to_binary("u", F.lit("utf-8")), F.to_binary("u", F.lit("UTF8")), F.to_binary("h", F.lit("hex")),
        F.to_binary("h"), F.to_binary("b", F.lit("base64")), F.to_binary("b", F.lit("BASE64")),
        F.try_to_binary("u", F.lit("hex")), F.try_to_binary("b", F.lit("base64")),
        F.try_to_binary("u", F.lit("foo")), F.to_binary("u", F.lit(None).cast("string"))))


BASE64_TEXTS = ["YQ", "Y Q", " YQ", "YQ==", "YQ=", "YQ===", "Y\nQ", "YWJj\r\nZA==", "YQ==YQ==", "a-b",
                "YQ=\n=", "abcde", "ab==cd", "YQ\t==", "YQ= =", "YWJ=", "Y", "====", "YQ==\n", "YQ==x", "ß",
                "aß", "YW=Jj", None]


def test_base64_decoding_as_java_mime_decoder(diff, ember, oracle):
    # unbase64 is Java's MIME decoder (bytes outside the alphabet skipped, its errors raised);
    # try_to_binary also wants only the alphabet and whitespace, then at most two '='.
    diff(lambda s: s.createDataFrame([(t,) for t in BASE64_TEXTS], "s string")
         .select("s", F.try_to_binary("s", F.lit("base64"))))
    valid = [t for t in BASE64_TEXTS if t in ("YQ", "Y Q", "YQ===", "a-b", "YQ==\n", "ß", "YWJ=", None)]
    diff(lambda s: s.createDataFrame([(t,) for t in valid], "s string").select("s", F.unbase64("s")))
    # The decoder's IllegalArgumentException reaches the client without an error class.
    for text, message in [("Y", "Last unit does not have enough valid bits"),
                          ("YQ=", "Input byte array has wrong 4-byte ending unit"),
                          ("YQ= =", "Input byte array has wrong 4-byte ending unit"),
                          ("====", "Input byte array has wrong 4-byte ending unit"),
                          ("ab==cd", "Input byte array has incorrect ending byte at 5")]:
        def program(s, text=text):
            return s.createDataFrame([(text,)], "s string").select(F.unbase64("s"))
        with api_mode(connect=False), pytest.raises(Exception) as expected:
            program(oracle).collect()
        with pytest.raises(Exception) as actual:
            program(ember).collect()
        assert message in str(expected.value), str(expected.value)[:300]
        assert type(actual.value).__name__ == "IllegalArgumentException", type(actual.value)
        assert message in str(actual.value), str(actual.value)


def test_to_binary_errors(diff_error):
    diff_error(lambda s: text(s).select(F.to_binary(F.lit("zz"), F.lit("hex"))), "CONVERSION_INVALID_INPUT")
    diff_error(lambda s: text(s).select(F.to_binary(F.lit("Y"), F.lit("base64"))), "CONVERSION_INVALID_INPUT")
    diff_error(lambda s: text(s).select(F.to_binary("s", F.lit("foo"))), "DATATYPE_MISMATCH.INVALID_ARG_VALUE")


def test_base32(diff):
    diff(lambda s: text(s).select("k", F.to_base32("s"), F.from_base32(F.to_base32("s")),
                                  F.to_base32(F.encode("s", "UTF-16"))))
    diff(lambda s: s.createDataFrame([("MFRGG===",), ("mfrgg",), ("!!",), ("MFRGGZA",), ("M",), (None,)],
                                     "s string").select(F.from_base32("s")))


def test_utf8_validation(diff):
    rows = [(bytearray(b"abc"),), (bytearray(b"a\xffb"),), (bytearray(b"a\xc0\xafb"),), (bytearray(b"\xed\xa0\x80"),),
            (bytearray(b"\xf0\x9f\x98"),), (bytearray(b"\xe2\x82A"),), (bytearray(b"\xf4\x90\x80\x80"),),
            (bytearray("é日😀".encode()),), (bytearray(b""),), (None,)]
    diff(lambda s: s.createDataFrame(rows, "b binary").select(
        F.is_valid_utf8("b"), F.make_valid_utf8("b"), F.try_validate_utf8("b")))
    diff(lambda s: text(s).select("k", F.validate_utf8("s"), F.is_valid_utf8("s")))


def test_validate_utf8_error(diff_error):
    diff_error(lambda s: s.createDataFrame([(bytearray(b"a\xff"),)], "b binary").select(F.validate_utf8("b")),
               "INVALID_UTF8_STRING")


def test_elt(diff, diff_error, ember, oracle):
    df = lambda s: s.createDataFrame([(1, "a", "b"), (2, "a", None), (None, "a", "b"), (3, "x", "y"), (0, "x", "y")],
                                     "i int, a string, b string")
    diff(lambda s: df(s).where("i between 1 and 2").select(F.elt("i", "a", "b"), F.elt(F.lit(2), "a", F.lit(7))))
    diff(lambda s: s.sql("SELECT elt(1, X'41', X'42'), elt(2L, 'a', 'b'), elt(NULL, 'a')"))
    diff_error(lambda s: df(s).select(F.elt("i", "a", "b")), "INVALID_ARRAY_INDEX")
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: df(s).select(F.elt("i", "a", "b")))


def test_quote(diff):
    diff(lambda s: s.createDataFrame([("it's",), ("a\\b",), ("",), ("é'",), (None,)], "s string").select(
        F.quote("s")))


def test_jaro_winkler_similarity(diff):
    pairs = [("abc", "abc"), ("martha", "marhta"), ("", ""), ("a", ""), ("dixon", "dicksonx"), ("日本語", "日本"),
             ("abcxyz", "abdefg"), ("crate", "trace"), ("jellyfish", "smellyfish"), (None, "x"), ("ab", "ba")]
    diff(lambda s: s.createDataFrame(pairs, "a string, b string").select(F.jaro_winkler_similarity("a", "b")))


SENTENCE_TEXTS = [
    "This is an example sentence.", "Hi there! Good morning. How are you?", "Mr. Smith went to e.g. the store.",
    "Don't stop: well-known rock'n'roll, 3.14 and 1,000 items; $100 or #5 at 50% off...", "abc123def 12abc x1.5y",
    "Is it?!  \"Yes.\" She said. (Really.) Ok", "   ", "", "!!!", "a.b.c. d", "Ünïcödé wörds ärë hërë. Zweiter Satz",
    "Line one\nline two.\nLine three", "end with space. ", None]


def test_sentences(diff, diff_show):
    def texts(s):
        return s.createDataFrame([(i, t) for i, t in enumerate(SENTENCE_TEXTS)], "k int, s string")
    diff(lambda s: texts(s).select("k", F.sentences("s"), F.sentences("s", F.lit("en"), F.lit("US")),
                                   F.sentences("s", F.lit("de")), F.sentences("s", F.lit(None), F.lit(None))))
    diff_show(lambda s: texts(s).where("k = 0").select("*", F.sentences("s", F.lit("en"), F.lit("US")),
                                                       F.sentences("s", F.lit("en")), F.sentences("s")),
              truncate=False)
    diff(lambda s: s.sql("SELECT sentences('Hello world. Bye now!'), sentences(NULL), sentences('a b', NULL, 'US')"))
