"""Differential tests of the CSV `locale` option: month and day names and AM/PM markers in date
and timestamp patterns (read, inferred and written), and the decimal symbols of DECIMAL values
(en-US drops grouping commas; other locales read their own grouping and decimal separators)."""

from __future__ import annotations

import datetime

import pytest

LOCALES = ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "it-IT", "pt-BR", "nl-NL", "ja-JP",
           "zh-CN", "ko-KR", "ru-RU", "pl-PL", "sv-SE", "de"]
DATE_PATTERN = "EEEE d MMMM yyyy|EEE d MMM yyyy|LLLL LLL"
TIMESTAMP_PATTERN = "EEE, d MMM yyyy hh:mm:ss a"
TIMESTAMP_READ_PATTERN = "d MMMM yyyy hh:mm:ss a"  # Spark parses no day names


def _frame(s):
    # Every month and every day of the week, mornings and afternoons.
    base = datetime.datetime(2024, 1, 3, 9, 5, 7)
    rows = [(base + datetime.timedelta(days=32 * i, hours=7 * i),) for i in range(12)]
    return s.createDataFrame(rows, "t timestamp").selectExpr("cast(t as date) d", "t")


@pytest.mark.parametrize("locale", LOCALES)
def test_names_written_and_read(diff, tmp_path, locale):
    out = str(tmp_path / "names")

    def written(s):
        _frame(s).write.mode("overwrite").option("locale", locale).option("dateFormat", DATE_PATTERN) \
            .option("timestampFormat", TIMESTAMP_PATTERN).csv(out)
        return s.read.schema("d string, t string").csv(out)

    diff(written, ordered=False)

    def read_back(s):
        _frame(s).write.mode("overwrite").option("locale", locale) \
            .option("timestampFormat", TIMESTAMP_READ_PATTERN).csv(out)
        return s.read.schema("d date, t timestamp").option("locale", locale) \
            .option("timestampFormat", TIMESTAMP_READ_PATTERN).csv(out)

    diff(read_back, ordered=False)


@pytest.mark.parametrize("locale,text,pattern", [
    ("de-DE", "15 März 2024\n3 Mai 2023\n1 Dez. 2022\n", "d MMMM yyyy"),
    ("de-DE", "1 Dez. 2022\n7 Mai 2021\n9 März 2020\n", "d MMM yyyy"),
    ("fr-FR", "janv. 2024\nfévr. 2024\naoût 2023\nDÉC. 2020\n", "MMM yyyy"),
    ("ja-JP", "1月 2024\n12月 2023\n", "MMM yyyy"),
    ("en-GB", "4 Sept 2024\n", "d MMM yyyy"),
    ("en-US", "4 Sept 2024\n4 Sep 2024\n", "d MMM yyyy"),
])
def test_read_dates_with_names(diff, tmp_path, locale, text, pattern):
    path = tmp_path / "dates.csv"
    path.write_text(text, encoding="utf-8")
    diff(lambda s: s.read.schema("d date").option("locale", locale).option("dateFormat", pattern)
         .csv(str(path)), ordered=True)
    # Inferred: values matching the pattern are dates, others strings.
    diff(lambda s: s.read.option("inferSchema", "true").option("locale", locale)
         .option("dateFormat", pattern).csv(str(path)), ordered=True)


def test_read_am_pm_markers(diff, tmp_path):
    path = tmp_path / "ts.csv"
    path.write_text("2024-03-15 01:05 午後\n2024-03-15 11:05 午前\n", encoding="utf-8")
    diff(lambda s: s.read.schema("t timestamp").option("locale", "ja-JP")
         .option("timestampFormat", "yyyy-MM-dd hh:mm a").csv(str(path)), ordered=True)


@pytest.mark.parametrize("locale,text", [
    ("de-DE", "1.234,5;x\n-12;x\n1.234.567,891;x\n1,5E2;x\n12,;x\n1,2,3;x\n1.234.5;x\n,5;x\n+1;x\n"),
    ("fr-FR", "1\u202f234,5;x\n1 234,5;x\n-0,25;x\n"),
    ("en-US", "1,234.5;x\n\"1,2,3\";x\n-0.5;x\n1.5E2;x\n"),
    ("ja-JP", "1,234.5;x\n-0.5;x\n"),
    ("sv-SE", "1\u00a0234,5;x\n\u22125;x\n-5;x\n"),
])
def test_read_decimals(diff, tmp_path, locale, text):
    path = tmp_path / "decimals.csv"
    path.write_text(text, encoding="utf-8")
    diff(lambda s: s.read.schema("x decimal(12,3), s string").option("sep", ";").option("locale", locale)
         .csv(str(path)), ordered=True)
    # Doubles do not read locale symbols.
    diff(lambda s: s.read.schema("x double, s string").option("sep", ";").option("locale", locale)
         .csv(str(path)), ordered=True)


def test_inferred_decimals(diff, tmp_path):
    path = tmp_path / "infer.csv"
    path.write_text("1.000;2,5;3\n2.000;1,0;4\n", encoding="utf-8")
    diff(lambda s: s.read.option("inferSchema", "true").option("sep", ";").option("locale", "de-DE")
         .csv(str(path)), ordered=True)
    diff(lambda s: s.read.option("inferSchema", "true").option("sep", ";").csv(str(path)), ordered=True)
