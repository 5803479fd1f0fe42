"""Differential tests of the JSON `locale` option: month and day names in date and timestamp
patterns (read and written) and the decimal symbols of DECIMAL values written as JSON strings
(en-US, the default, drops grouping commas; other locales read their own separators)."""

from __future__ import annotations

import pytest

ROWS = [
    '{"d": "3 janvier 2024", "t": "3 janv. 2024 10:11:12", "n": "1 234,5", "m": "1.234,5", "k": 7.5}',
    '{"d": "15 août 2023", "t": "15 août 2023 01:02:03", "n": "-7,25", "m": "bad", "k": "1,234.5"}',
    '{"d": "3 January 2024", "t": "3 Jan 2024 10:11:12", "n": "1,234.5", "m": "12", "k": "-0,5"}',
    '{"d": "1 Januar 2024", "t": "1 Jan. 2024 00:00:00", "n": "1.234,5", "m": "1e3", "k": null}',
]


@pytest.fixture
def lines(tmp_path) -> str:
    path = tmp_path / "locale.json"
    path.write_text("\n".join(ROWS) + "\n")
    return str(path)


@pytest.mark.parametrize("locale", [None, "en-US", "fr-FR", "de-DE", "en-GB"])
def test_read_with_locale(diff, lines, locale):
    def read(s):
        r = s.read.schema("d DATE, t TIMESTAMP, n DECIMAL(10, 2), m DECIMAL(10, 2), k DECIMAL(6, 1)") \
            .option("dateFormat", "d MMMM yyyy").option("timestampFormat", "d MMM yyyy HH:mm:ss")
        if locale:
            r = r.option("locale", locale)
        return r.json(lines)
    diff(read)


@pytest.mark.parametrize("locale", ["fr-FR", "de-DE", "ja-JP"])
def test_write_with_locale(diff, tmp_path, locale):
    out = str(tmp_path / "out")

    def written(s):
        s.sql("SELECT DATE'2024-01-03' + CAST(id * 40 AS INT) AS d, "
              "TIMESTAMP'2024-08-15 10:11:12' + MAKE_INTERVAL(0, id) AS t FROM range(12)") \
            .coalesce(1).write.mode("overwrite").option("locale", locale) \
            .option("dateFormat", "EEEE d MMMM yyyy").option("timestampFormat", "EEE d MMM yyyy hh:mm a") \
            .json(out)
        return s.read.text(out)
    diff(written)
