-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "pageview"
-- p5 = "$other"
-- p6 = "2024-03-31 01:00:00"
-- p7 = "2024-03-20 23:00:00"
-- p8 = "2024-03-27 11:30:00"
-- p9 = "signup"
SELECT *
FROM (
  SELECT 0 AS series, pd AS period, bv, r.1 AS is_total, r.2 AS bucket, r.3 AS value
  FROM (
    SELECT pd, bv, arrayPushBack(arrayMap((b, x0) -> (0, b, toNullable(toFloat64(finalizeAggregation(x0)))), groupArray(bucket), groupArray(st0)), (1, '', if(pd = 1, toNullable(toFloat64(uniqExactIfMerge(tst0))), toNullable(toFloat64(uniqExactMerge(st0)))))) AS rs
    FROM (
      SELECT if(ts >= toDateTime({p2:String}, 'UTC'), 0, 1) AS pd, CASE WHEN country IN (
        SELECT v FROM (
          SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p4:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 3
        ) AS tv
      ) THEN country ELSE {p5:String} END AS bv, formatDateTime(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, uniqExactState(cityHash64(visitor_id)) AS st0, uniqExactIfState(cityHash64(visitor_id), ts < toDateTime({p8:String}, 'UTC')) AS tst0
      FROM events
      WHERE property = {p1:String}
      AND ((ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC')) OR (ts >= toDateTime({p7:String}, 'UTC') AND ts < toDateTime({p2:String}, 'UTC')))
      AND name = {p4:String}
      GROUP BY pd, bv, toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END))
    ) AS s0s
    GROUP BY pd, bv
  ) AS s0 ARRAY
  JOIN rs AS r
  UNION ALL SELECT 1 AS series, pd AS period, bv, r.1 AS is_total, r.2 AS bucket, r.3 AS value
  FROM (
    SELECT pd, bv, arrayPushBack(arrayMap((b, x0) -> (0, b, toNullable(toFloat64(finalizeAggregation(x0)))), groupArray(bucket), groupArray(st0)), (1, '', if(pd = 1, toNullable(toFloat64(countIfMerge(tst0))), toNullable(toFloat64(countMerge(st0)))))) AS rs
    FROM (
      SELECT if(ts >= toDateTime({p2:String}, 'UTC'), 0, 1) AS pd, CASE WHEN country IN (
        SELECT v FROM (
          SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p9:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 3
        ) AS tv
      ) THEN country ELSE {p5:String} END AS bv, formatDateTime(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, countState() AS st0, countIfState(ts < toDateTime({p8:String}, 'UTC')) AS tst0
      FROM events
      WHERE property = {p1:String}
      AND ((ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC')) OR (ts >= toDateTime({p7:String}, 'UTC') AND ts < toDateTime({p2:String}, 'UTC')))
      AND name = {p9:String}
      GROUP BY pd, bv, toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END))
    ) AS s1s
    GROUP BY pd, bv
  ) AS s1 ARRAY
  JOIN rs AS r
) AS t
ORDER BY series, period, is_total, bv, bucket
LIMIT 0, 128
