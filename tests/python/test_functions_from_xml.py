"""from_xml: one XML record into a struct of a given schema (DDL text, a StructType, or
schema_of_xml's result), its options, PERMISSIVE (the corrupt record column) and FAILFAST
modes, and the schema errors."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, LongType, StringType, StructType


def xml_rows(s, *docs):
    return s.createDataFrame([(d,) for d in docs], "x string")


def test_schema_forms(diff):
    diff(lambda s: xml_rows(s, "<p><a>1</a></p>", "<p><a>2</a><b>x</b></p>")
         .select(F.from_xml("x", "a BIGINT, b STRING").alias("r")))
    diff(lambda s: xml_rows(s, "<p><a>1</a></p>")
         .select(F.from_xml("x", StructType().add("a", LongType()))))
    diff(lambda s: xml_rows(s, "<p><a>1</a><a>2</a></p>")
         .select(F.from_xml("x", "STRUCT<a: ARRAY<BIGINT>>").alias("r")))
    diff(lambda s: xml_rows(s, "<p><a>1</a><a>2</a></p>")
         .select(F.from_xml("x", F.schema_of_xml(F.lit("<p><a>1</a><a>2</a></p>"))).alias("r")))
    diff(lambda s: s.sql("SELECT from_xml('<p><a>1</a></p>', concat('a ', 'INT')) AS r"))


def test_fields(diff):
    diff(lambda s: xml_rows(s, '<p id="5"><a k="v">1</a><a>2</a><n><x>3</x></n></p>')
         .select(F.from_xml("x", "_id INT, a ARRAY<STRUCT<_VALUE: BIGINT, _k: STRING>>, "
                                 "n STRUCT<x: DOUBLE>, missing INT").alias("r")))
    diff(lambda s: xml_rows(s, "<p><a>1</a></p>", "<p><a>1</a><a>2</a></p>")
         .select(F.from_xml("x", "a ARRAY<INT>").alias("arr"), F.from_xml("x", "a INT").alias("last")))
    diff(lambda s: xml_rows(s, "<p>hello<a>1</a></p>").select(F.from_xml("x", "a INT, _VALUE STRING").alias("r")))
    diff(lambda s: xml_rows(s, "<p><a><b>1</b><b>2</b></a><a><b>3</b></a></p>")
         .select(F.from_xml("x", "a ARRAY<STRUCT<b: ARRAY<INT>>>").alias("r")))
    diff(lambda s: xml_rows(s, "<p><m><x>1</x><y>2</y></m></p>").select(F.from_xml("x", "m MAP<STRING, INT>").alias("r")))


def test_values(diff):
    diff(lambda s: xml_rows(s, "<p><a> 1 </a><b>  t </b><c></c><d/></p>")
         .select(F.from_xml("x", "a INT, b STRING, c STRING, d STRING, e INT").alias("r")))
    diff(lambda s: xml_rows(s, "<p><a>true</a><b>1.5</b><c>2020-01-02</c><d>2020-01-02T03:04:05</d>"
                               "<e>1.25</e><f>1d</f><g>yes</g><h>FALSE</h></p>")
         .select(F.from_xml("x", "a BOOLEAN, b DOUBLE, c DATE, d TIMESTAMP, e DECIMAL(5,2), f DOUBLE, "
                                 "g BOOLEAN, h BOOLEAN").alias("r")))
    diff(lambda s: xml_rows(s, "<p><a>&lt;x&gt;</a><b><![CDATA[<y>]]></b></p>")
         .select(F.from_xml("x", "a STRING, b STRING").alias("r")))


def test_options(diff):
    diff(lambda s: xml_rows(s, "<p><a>NA</a><b>2</b></p>")
         .select(F.from_xml("x", "a INT, b INT", {"nullValue": "NA"}).alias("r")))
    diff(lambda s: xml_rows(s, '<p x="1"><a>2</a></p>')
         .select(F.from_xml("x", "ax INT, a INT", {"attributePrefix": "a"}).alias("r")))
    diff(lambda s: xml_rows(s, '<p><a k="1">hi</a></p>')
         .select(F.from_xml("x", "a STRUCT<v: STRING, _k: INT>", {"valueTag": "v"}).alias("r")))
    diff(lambda s: xml_rows(s, '<p x="1"><a>2</a></p>')
         .select(F.from_xml("x", "_x INT, a INT", {"excludeAttribute": "true"}).alias("r")))


def test_malformed_records(diff):
    # A value that does not convert, or a document that does not parse: every field NULL, the
    # record in the corrupt record column; NULL input stays NULL.
    diff(lambda s: xml_rows(s, "<p><a>x</a><b>y</b></p>", "<p><a>1</a>", "", "<p><a>99999999999</a></p>", None)
         .select(F.from_xml("x", "a INT, b STRING").alias("r"),
                 F.from_xml("x", "a INT, b STRING, _corrupt_record STRING").alias("c")))
    diff(lambda s: xml_rows(s, "<p><a>x</a></p>")
         .select(F.from_xml("x", "a INT, bad STRING", {"columnNameOfCorruptRecord": "bad"}).alias("r")))
    # Fields read before the value that fails stay.
    diff(lambda s: xml_rows(s, "<p><a>1</a><n><x>2</x><y>z</y><w>3</w></n><b>x</b><c>2</c></p>")
         .select(F.from_xml("x", "a INT, n STRUCT<x: INT, y: INT, w: INT>, b INT, c INT, "
                                 "_corrupt_record STRING").alias("r")))


@pytest.mark.parametrize("doc", ["<p><a>x</a></p>", "<p><a>1</a>"])
def test_failfast(connect_differ, doc):
    connect_differ.diff_error(lambda s: xml_rows(s, doc).select(F.from_xml("x", "a BIGINT", {"mode": "FAILFAST"})),
                      "MALFORMED_RECORD_IN_PARSING")


def test_schema_errors(diff_error):
    diff_error(lambda s: s.sql("SELECT from_xml('<p>1</p>', 'INT')"), "DATATYPE_MISMATCH.INVALID_XML_SCHEMA")
    diff_error(lambda s: s.sql("SELECT from_xml('<p>1</p>', 'ARRAY<INT>')"), "DATATYPE_MISMATCH.INVALID_XML_SCHEMA")
    diff_error(lambda s: xml_rows(s, "<p/>").select(F.from_xml("x", F.col("x"))), "INVALID_SCHEMA.NON_STRING_LITERAL")


def test_column_names(diff):
    diff(lambda s: xml_rows(s, "<p><a>1</a></p>").select(
        F.from_xml("x", StructType().add("a", StringType())), F.from_xml("x", "a ARRAY<BIGINT>")))
    diff(lambda s: s.sql("SELECT from_xml('<p><a>1</a></p>', 'a INT')"))


def test_schema_nullability(diff):
    diff(lambda s: xml_rows(s, "<p><a>1</a></p>")
         .select(F.from_xml("x", StructType().add("a", ArrayType(LongType(), False), False)).alias("r")))
