"""session_window(ts, gap) as a grouping expression: sessions of each group's rows that overlap
or touch merge; static gaps and per-row gap expressions; rows without a timestamp or with a gap
that is not positive are in no session."""

from __future__ import annotations

from pyspark.sql import functions as F

EVENTS = [("2016-03-11 09:00:00", 1, "a"), ("2016-03-11 09:00:05", 2, "a"), ("2016-03-11 09:00:11", 3, "a"),
          ("2016-03-11 09:00:12", 4, "b"), ("2016-03-11 09:00:13", 6, "b"), (None, 5, "a"),
          ("2016-03-11 09:01:00", 7, "a")]


def events(s):
    return s.createDataFrame(EVENTS, ["dt", "v", "k"])


def test_static_gap(diff):
    diff(lambda s: events(s).groupBy(F.session_window("dt", "5 seconds")).agg(F.sum("v"), F.count("*")))
    diff(lambda s: events(s).groupBy("k", F.session_window("dt", "5 seconds")).agg(F.sum("v")))
    diff(lambda s: events(s).groupBy(F.session_window(F.col("dt").cast("timestamp"), "1 minute"), "k")
         .agg(F.max("v")).orderBy("k", "session_window"))


def test_touching_sessions_merge(diff):
    # 09:00:00 + 5 s ends at 09:00:05, where the next session starts: one session.
    diff(lambda s: events(s).filter("v <= 2").groupBy(F.session_window("dt", "5 seconds")).agg(F.sum("v")))


def test_per_row_gap(diff):
    diff(lambda s: events(s).groupBy(F.session_window("dt", F.when(F.col("k") == "a", "6 seconds")
                                                      .otherwise("1 second"))).agg(F.sum("v")))
    # Rows whose gap is not positive are dropped.
    diff(lambda s: events(s).groupBy(F.session_window("dt", F.when(F.col("v") > 3, "-1 second")
                                                      .otherwise("10 seconds"))).agg(F.sum("v")))


def test_schema_and_show(diff, diff_show):
    diff(lambda s: events(s).groupBy(F.session_window("dt", "5 seconds")).agg(F.sum("v"))
         .select("session_window.start", "session_window.end", "sum(v)"))
    diff_show(lambda s: s.createDataFrame([("2016-03-11 09:00:07", 1)], ["dt", "v"])
              .groupBy(F.session_window("dt", "5 seconds")).agg(F.sum("v")), truncate=False)
