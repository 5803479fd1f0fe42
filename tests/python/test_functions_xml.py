"""schema_of_xml against Apache Spark: type inference of values (BIGINT, DOUBLE, BOOLEAN, DATE,
TIMESTAMP, STRING), attributes and the value tag, repeated elements, type merging, mixed
content, comments and processing instructions, namespaces kept as written, options, malformed
records and argument errors."""

from __future__ import annotations

import pytest
from harness import run_for_error, session_mode

from pyspark.sql import functions as F

SAMPLES = [
    "<p><a>1</a></p>",
    "<p><a>1</a><a>2</a></p>",
    "<p><a attr=\"2\">1</a></p>",
    "<p x=\"1\"><a>1.5</a><b>true</b><c>x</c><d></d><e/><f>2021-01-01</f><g>2021-01-01 10:00:00</g>"
    "<h>2021-01-01T10:00:00</h><i>99999999999999999999</i><j> 12 </j><k>1e5</k><l>NaN</l><m>+3</m><n>0x1</n>"
    "<o>1.0</o><q>TRUE</q><r>-0</r><s>1d</s><t>1L</t></p>",
    "<p><a>2021-01</a><b>2021-1-1</b><c>2021-01-01T10:00</c><d>2021-01-01 10:00:00.123456</d>"
    "<e>2021-01-01T10:00:00Z</e><f>2021-01-01T10:00:00+01:00</f><g>10:00:00</g><h>2021</h><i>2021-02-30</i>"
    "<j> 2021-01-01 </j><k>2021-01-01T</k><l>20210101</l><m>2021-01-01 10</m><n>T10:00</n>"
    "<o>2021-01-01 10:00:00 UTC</o></p>",
    "<p><a>2021-01-01T</a><b>2021-13-01</b><c>2021-01-01 25:00</c><d>0001-01-01</d><e>99999-01-01</e>"
    "<f>2021-01-01 10:00:00.1234567</f></p>",
    "<p><a>-9223372036854775808</a><b>9223372036854775808</b><c>00012</c><d>-</d><e>.5</e><f>5.</f>"
    "<g>1,000</g><h>Infinity</h><i>-Infinity</i><j>1.5f</j><k>9223372036854775807</k><l>1.7976931348623157E309</l></p>",
    "<p><a>True</a><b>yes</b><c>false</c><d>FALSE</d><e>tRuE</e></p>",
    "<p><a>1</a><a>x</a></p>", "<p><a>1</a><a>1.5</a></p>", "<p><a><b>1</b></a><a>2</a></p>",
    "<p><a>1</a><a>2021-01-01</a><b>2021-01-01</b><b>2021-01-01 10:00:00</b><c>true</c><c>1</c><d>1.5</d>"
    "<d>2021-01-01</d></p>",
    "<p><a><b>1</b></a><a><c>x</c></a></p>", "<p><a><b>1</b></a><a><b>2</b><b>3</b></a></p>",
    "<p><a></a><a>1</a></p>", "<p><a/><a><b>1</b></a></p>", "<p><a x=\"1\">t</a><a>2</a></p>",
    "<p><a x=\"1\">2</a><a>2</a></p>", "<p><a x=\"1\"></a><a>3</a></p>", "<p><a>1</a><a><b>1</b></a><a>2</a></p>",
    "<p><a>1</a><a><_VALUE>1</_VALUE></a></p>", "<p><a x=\"1\">t</a><a><b>2</b></a></p>",
    "<p><a>t</a><a x=\"1\"><b>2</b></a></p>", "<p><a><b>1</b></a><a x=\"1\">t</a></p>",
    "<p><a>true</a><a>2021-01-01</a></p>", "<p><a>2021-01-01 10:00:00</a><a>1</a></p>",
    "<p>text</p>", "<p x=\"1\">text</p>", "<p>text<a>1</a>more</p>", "<p/>", "<p>1</p>",
    "<p><B>1</B><a>2</a><_c>3</_c></p>", "<p><a x=\"1\"/></p>", "<p><a><!-- c --></a></p>",
    "<p><a>1<!--c-->2</a></p>", "<p><a>1<?pi?>2</a></p>", "<p><a><?pi x?>1</a></p>", "<p><a>1<b/>2</a></p>",
    "<p><a>x<![CDATA[y]]>z</a></p>", "<p><a><![CDATA[1]]></a></p>", "<p><a>&#49;</a></p>",
    "<p><x:a xmlns:x=\"u\">1</x:a></p>", "<p xmlns=\"u\"><a x=\"\">1</a></p>", "<p a=\"1\"><a>2</a></p>",
    "<p _a=\"1\"><_a>2</_a></p>", "<p><_VALUE>2</_VALUE>x</p>", "<p><a><b>1</b>x</a></p>",
    "<p><a>   </a><a>1</a></p>", "<p><a>1</a><b><a>2</a></b><a>3</a></p>", "<p><a b=\"1\" b2=\"\"/></p>",
    "<p><a><b/></a></p>", "<p><a><b x=\"1\"/><b>2</b></a></p>", "<p><a>é</a><日本>1</日本></p>",
    "<?xml version=\"1.0\"?><p><a>1</a></p>", "<p><a>1</a></p><q/>", "  <p><a>1</a></p>",
    "<!DOCTYPE p><p><a>1</a></p>",
    # Malformed records.
    "not xml", "", "<p><a>1</a>", "<p><a>&foo;</a></p>", "<!DOCTYPE p [<!ENTITY e \"1\">]><p><a>&e;</a></p>",
]


@pytest.mark.parametrize("start", range(0, len(SAMPLES), 16))
def test_schema_of_xml_inference(diff, start):
    chunk = SAMPLES[start:start + 16]
    diff(lambda s: s.range(1).select(*[F.schema_of_xml(F.lit(x)).alias(f"s{i}") for i, x in enumerate(chunk)]))


OPTION_CASES = [
    ("<p><a attr=\"2\">1</a></p>", {"excludeAttribute": "true"}),
    ("<p v=\"1\"><a>1</a></p>", {"attributePrefix": "@"}),
    ("<p attr=\"1\"><a>x</a></p>", {"attributePrefix": ""}),
    ("<p>t<a x=\"1\">2</a></p>", {"valueTag": "#v"}),
    ("<p><a>1</a><b>true</b></p>", {"inferSchema": "false"}),
    ("<p><a>1</a></p>", {"rowTag": "q", "foo": "bar", "mode": "FAILFAST"}),
    ("<p><a> 1 </a><b>1 </b><c>  </c></p>", {"ignoreSurroundingSpaces": "false"}),
    ("<p>  <a>1</a>  </p>", {"ignoreSurroundingSpaces": "false"}),
    ("<p><a>1</a><b> </b></p>", {"nullValue": ""}),
    ("<p><a>x</a><a>1</a></p>", {"nullValue": "x"}),
    ("bad", {"columnNameOfCorruptRecord": "bad"}),
    ("<p><a>x</a></p>", {"mode": "bogus"}),
]


def test_schema_of_xml_options(diff):
    diff(lambda s: s.range(1).select(
        *[F.schema_of_xml(F.lit(x), o).alias(f"s{i}") for i, (x, o) in enumerate(OPTION_CASES)]))


def test_schema_of_xml_sql_and_names(diff):
    diff(lambda s: s.sql("select schema_of_xml('<p><a>1</a></p>'), "
                         "schema_of_xml('<p><a>1</a></p>', map('excludeAttribute', 'true'))"))
    diff(lambda s: s.range(3).select("id", F.schema_of_xml("<p><a>1</a></p>")))


def test_schema_of_xml_errors(diff_error, ember, oracle):
    diff_error(lambda s: s.sql("select schema_of_xml(x) from values ('<p/>') t(x)"),
               "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT")
    diff_error(lambda s: s.sql("select schema_of_xml(null)"), "DATATYPE_MISMATCH.UNEXPECTED_NULL")
    diff_error(lambda s: s.sql("select schema_of_xml(1)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    diff_error(lambda s: s.range(1).select(F.schema_of_xml(F.lit("<p/>"), {"mode": "DROPMALFORMED"})),
               "PARSE_MODE_UNSUPPORTED")
    # Raised while the query runs: Spark reports them inside a failed job, without an error class
    # of their own, so the messages are compared.
    both_fail(ember, oracle, lambda s: s.range(1).select(F.schema_of_xml(F.lit("bad"), {"mode": "FAILFAST"})),
              "Malformed records are detected in record parsing: _corrupt_record")
    for key in ("excludeAttribute", "inferSchema"):
        both_fail(ember, oracle, lambda s: s.range(1).select(F.schema_of_xml(F.lit("<p/>"), {key: "x"})),
                  f"{key} flag can be true or false")


def both_fail(ember, oracle, program, phrase):
    with session_mode(oracle):
        expected = run_for_error("spark", program, oracle)
    with session_mode(ember):
        actual = run_for_error("ember", program, ember)
    assert phrase in str(expected), str(expected)
    assert phrase in str(actual), str(actual)


def test_schema_of_xml_unsupported_options(ember):
    with session_mode(ember):
        for key, value in (("timestampFormat", "yyyy"), ("dateFormat", "yyyy"), ("prefersDecimal", "true")):
            with pytest.raises(Exception, match="not supported"):
                ember.range(1).select(F.schema_of_xml(F.lit("<p><a>1</a></p>"), {key: value})).collect()


TO_XML_EXPRS = [
    "named_struct('a', 1, 'b', 'x')",
    "named_struct('a', 1, 'b', cast(null as string))",
    "named_struct('_a', 1, 'b', 'x', '_VALUE', 'v')",
    "named_struct('a', array(1, 2), 'b', named_struct('c', 1.5D, '_d', true))",
    "named_struct('a', '<&>\"''', 'b', date'2021-01-01', 'c', timestamp'2021-01-01 10:00:00', 'd', 1.5BD, "
    "'e', cast(1.5 as float), 'f', 1e20D, 'g', 1e-5D)",
    "named_struct('a', array(named_struct('b', 1), named_struct('b', 2)))",
    "named_struct('a', array(array(1, 2), array(3)))",
    "named_struct('a', map('k', 1))",
    "named_struct('a', map('k', cast(null as int), 'j', 2))",
    "named_struct('a', array(1, null, 3))",
    "named_struct('a', array())",
    "named_struct('a', named_struct('b', cast(null as int)))",
    "named_struct('a', timestamp_ntz'2021-01-01 10:00:00', 'b', timestamp'2021-01-01 10:00:00.123')",
    "named_struct('_VALUE', 1)",
    "named_struct('a', named_struct('_VALUE', 1, '_x', 2))",
    "named_struct('a', 'é日本')",
    "named_struct('a', 1L, 'b', 2S, 'c', 3Y, 'd', -0.0D, 'e', cast('NaN' as double), 'f', 100000000D, 'g', 0.001D)",
    "named_struct('_a', '<&>\"''x', 'b', '<&>\"''x')",
    "named_struct('_VALUE', 'v', 'b', 'x')",
    "named_struct('b', 'x', '_VALUE', 'v', 'c', 'y')",
    "named_struct('_VALUE', cast(null as string), 'b', 'x')",
    "named_struct('a', named_struct('b', named_struct('c', 1), 'd', 2))",
    "named_struct('a', array(named_struct('_x', 1, '_VALUE', 'v')))",
    "named_struct('a', 1.0D, 'b', 123456789.0D, 'c', 1e7D, 'd', cast(1e7 as float), 'e', cast(0.1 as float), "
    "'f', 1e-3D, 'g', 9.99e-4D)",
    "named_struct('a', 0.000000001BD, 'b', cast(1 as decimal(20,10)), 'c', cast(-12.5 as decimal(5,2)), "
    "'d', cast(0.0000001 as decimal(10,8)), 'e', cast(0.000001 as decimal(10,8)), 'f', -0.00000012BD)",
    "named_struct('a', timestamp'1960-01-01 00:00:00.999999', 'b', date'0001-01-01', "
    "'c', timestamp'2021-06-01 10:00:00')",
    "named_struct('a', '', 'b', ' x ')",
    "named_struct('日本', 1)",
    "named_struct('a', array(array(), array(1)), 'b', map(), 'c', array(cast(null as array<int>)))",
    "named_struct('a', array(array(cast(null as int), 2)), 'b', map('k', 'v<'))",
    "named_struct('a', named_struct('_x', cast(null as int), '_VALUE', cast(null as string)))",
    "named_struct('a', array(named_struct('b', cast(null as int))))",
    "named_struct('a', cast(9.99999e-7 as decimal(10,9)), 'b', cast(-123456789.123 as decimal(15,3)))",
]


def test_to_xml_values(diff):
    diff(lambda s: s.sql("select " + ", ".join(f"to_xml({e}) as x{i}" for i, e in enumerate(TO_XML_EXPRS))))


def test_to_xml_options(diff):
    diff(lambda s: s.sql("""select
        to_xml(named_struct('a', 1), map('rowTag', 'person')) as a,
        to_xml(named_struct('a', 1), map('rootTag', 'x', 'compression', 'gzip', 'declaration', 'x')) as b,
        to_xml(named_struct('a', cast(null as int)), map('nullValue', 'NULL')) as c,
        to_xml(named_struct('a', array(cast(null as int))), map('nullValue', 'N')) as d,
        to_xml(named_struct('@a', 1, '#v', 'x', '_b', 2), map('attributePrefix', '@', 'valueTag', '#v')) as e,
        to_xml(named_struct('a', array(array(1, 2))), map('arrayElementName', 'e')) as f,
        to_xml(named_struct('a', named_struct('b', 1)), map('indent', '  ')) as g,
        to_xml(named_struct('a', named_struct('b', 1)), map('indent', '')) as h,
        to_xml(named_struct('a', 1, 'b', 'x'), map('nullValue', 'N', 'rowTag', 'r')) as i"""))


def test_to_xml_columns_and_time_zone(diff, ember, oracle):
    def program(s):
        df = s.createDataFrame([(1, "x", None), (None, None, [1, 2]), (3, "<y>", [])], "a int, b string, c array<int>")
        return df.select(F.to_xml(F.struct("a", "b", "c")), F.to_xml(F.struct(F.col("a").alias("_a"), "b")),
                         F.to_xml(F.when(F.col("a").isNull(), None).otherwise(F.struct("a"))).alias("n"))
    diff(program)
    for s in (ember, oracle):
        s.conf.set("spark.sql.session.timeZone", "America/Los_Angeles")
    try:
        diff(lambda s: s.sql("select to_xml(named_struct('t', timestamp'2021-06-01 10:00:00', "
                             "'u', timestamp'2021-01-01 10:00:00')) as x"))
    finally:
        for s in (ember, oracle):
            s.conf.set("spark.sql.session.timeZone", "UTC")


def test_to_xml_errors(diff_error, ember, oracle):
    diff_error(lambda s: s.sql("select to_xml(1)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE")
    both_fail(ember, oracle, lambda s: s.sql("select to_xml(named_struct('1a', 1))"), "Illegal")
    both_fail(ember, oracle, lambda s: s.sql("select to_xml(named_struct('x:y', 1))"), "Illegal")
