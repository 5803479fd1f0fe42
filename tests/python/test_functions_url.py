"""URL functions and str_to_map against Apache Spark: parse_url / try_parse_url over every part
and query keys, url_encode, url_decode / try_url_decode, invalid input under ANSI on and off,
and str_to_map's regular-expression delimiters and duplicate keys."""

from __future__ import annotations

import pytest
from harness import session_conf, session_mode

from pyspark.sql import functions as F

URLS = [
    ("http://user:pw@spark.apache.org:8080/path/p2?query=1&b=2#Ref",),
    ("https://spark.apache.org",),
    ("http://spark.apache.org?x",),
    ("http://spark.apache.org/a?x=1&x=2&y=%20z",),
    ("mailto:me@x.com",),
    ("/rel/path?q=1",),
    ("",),
    (None,),
    ("http://[::1]:80/x",),
    ("http://h/é?q=ü#frag",),
    ("http://h:abc/x",),
    ("http://h:/x",),
    ("HTTP://H/x#",),
    ("ftp://a.b-c.d/~x/y;z",),
]
PARTS = ["HOST", "PATH", "QUERY", "REF", "PROTOCOL", "FILE", "AUTHORITY", "USERINFO", "host", "PORT"]


def urls(s):
    return s.createDataFrame(URLS, "u string")


def test_parse_url_parts(diff):
    diff(lambda s: urls(s).select("u", *[F.parse_url("u", F.lit(p)).alias(p.lower() + "_") for p in PARTS]))


def test_parse_url_query_keys(diff):
    diff(lambda s: urls(s).select("u", F.parse_url("u", F.lit("QUERY"), F.lit("x")),
                                  F.parse_url("u", F.lit("QUERY"), F.lit("b")),
                                  F.parse_url("u", F.lit("QUERY"), F.lit("y")),
                                  F.parse_url("u", F.lit("HOST"), F.lit("x"))))
    diff(lambda s: s.sql("""select parse_url('http://h/x?a=1', 'QUERY', 'a.') as a,
                                   parse_url('http://h/x?ab=1', 'QUERY', 'a.') as b,
                                   parse_url('http://h/x?a.b=1', 'QUERY', 'a.b') as c"""))


BAD = [("http://spark.apache.org/a b",), ("inva lid://x",), ("http://h/%zz",), ("http:",), ("http://",),
       ("http://h/x#a#b",), ("http://h/x",)]


def test_try_parse_url(diff):
    diff(lambda s: s.createDataFrame(BAD, "u string").select(
        "u", F.try_parse_url("u", F.lit("HOST")), F.try_parse_url("u", F.lit("PATH")),
        F.try_parse_url("u", F.lit("QUERY"), F.lit("k"))))


def test_parse_url_invalid(diff, diff_error, ember, oracle):
    diff_error(lambda s: s.sql("select parse_url('http://spark.apache.org/a b', 'HOST')"), "INVALID_URL")
    diff_error(lambda s: s.sql("select parse_url('http://h/%zz', 'PATH')"), "INVALID_URL")
    with session_conf(ember, oracle, spark_sql_ansi_enabled="false"):
        diff(lambda s: s.createDataFrame(BAD, "u string").select("u", F.parse_url("u", F.lit("HOST"))))


def test_url_encode_decode(diff):
    rows = [("https://spark.apache.org/a b?c=d&e=é~*",), ("",), ("a+b !'()*-._~",), (None,), ("日本",)]
    diff(lambda s: s.createDataFrame(rows, "s string").select(
        "s", F.url_encode("s"), F.url_decode(F.url_encode("s"))))
    dec = [("https%3A%2F%2Fspark.apache.org%2Fa+b",), ("%e9",), ("%C3%A9x",), ("a%20b",), ("plain",), (None,),
           ("%zz",), ("%",), ("%C3%A9%2",), ("%+1",)]
    diff(lambda s: s.createDataFrame(dec, "s string").select("s", F.try_url_decode("s")))
    diff(lambda s: s.createDataFrame(dec[:6], "s string").select("s", F.url_decode("s")))


def test_url_decode_invalid(ember, oracle):
    for ansi in ("true", "false"):
        with session_conf(ember, oracle, spark_sql_ansi_enabled=ansi):
            for engine in (oracle, ember):
                with session_mode(engine), pytest.raises(Exception, match="CANNOT_DECODE_URL"):
                    engine.sql("select url_decode('%zz')").collect()
    with session_mode(ember), pytest.raises(Exception) as info:
        ember.sql("select url_decode('a%2')").collect()
    assert info.value.getCondition() == "CANNOT_DECODE_URL"


def test_str_to_map(diff):
    rows = [("a:1,b:2,c:3",), ("a",), ("",), ("a:1:2,b",), ("a:1,,b:2",), (None,), ("é:ü,x:",)]
    diff(lambda s: s.createDataFrame(rows, "s string").select("s", F.str_to_map("s")))
    diff(lambda s: s.sql("""select str_to_map('a=1;b=2', ';', '=') as a, str_to_map('a1b2c', '[0-9]', '') as b,
                                   str_to_map('k1 = v1 , k2 = v2', ' *, *', ' *= *') as c,
                                   str_to_map('a:1', null) as d, str_to_map('x') as e"""))


def test_str_to_map_duplicates(diff, diff_error, ember, oracle):
    diff_error(lambda s: s.sql("select str_to_map('a:1,a:2')"), "DUPLICATED_MAP_KEY")
    diff_error(lambda s: s.sql("select str_to_map('a.1|b.2', '|', '.')"), "DUPLICATED_MAP_KEY")
    with session_conf(ember, oracle, spark_sql_mapKeyDedupPolicy="LAST_WIN"):
        diff(lambda s: s.sql("select str_to_map('a:1,b:2,a:3') as m"))
