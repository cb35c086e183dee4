-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "pageview"
-- p5 = "DE"
-- p6 = "FR"
-- p7 = "/pricing"
-- p8 = "2024-03-31 01:00:00"
-- p9 = "signup"
-- p10 = "country"
SELECT *
FROM (
  SELECT 0 AS series, bv, r.1 AS is_total, r.2 AS bucket, r.3 AS value
  FROM (
    SELECT bv, arrayPushBack(arrayMap((b, x0) -> (0, b, toNullable(toFloat64(finalizeAggregation(x0)))), groupArray(bucket), groupArray(st0)), (1, '', toNullable(toFloat64(uniqExactMerge(st0))))) AS rs
    FROM (
      SELECT '' AS bv, formatDateTime(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, uniqExactState(cityHash64(visitor_id)) AS st0
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p2:String}, 'UTC')
      AND ts < toDateTime({p3:String}, 'UTC')
      AND name = {p4:String}
      AND (country IN ({p5:String}, {p6:String}))
      AND (path = {p7:String})
      GROUP BY bv, toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END))
    ) AS s0s
    GROUP BY bv
  ) AS s0 ARRAY
  JOIN rs AS r
  UNION ALL SELECT 1 AS series, bv, r.1 AS is_total, r.2 AS bucket, r.3 AS value
  FROM (
    SELECT bv, arrayPushBack(arrayMap((b, x0) -> (0, b, toNullable(toFloat64(finalizeAggregation(x0)))), groupArray(bucket), groupArray(st0)), (1, '', toNullable(toFloat64(countMerge(st0))))) AS rs
    FROM (
      SELECT '' AS bv, formatDateTime(toStartOfDay(addMinutes(slot, CASE WHEN slot < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, countMergeState(events) AS st0
      FROM (
        SELECT value, slot, events, visitors
        FROM event_slots
        WHERE property = {p1:String}
        AND name = {p9:String}
        AND dim = {p10:String}
        AND ((slot >= toDateTime({p2:String}, 'UTC') AND slot < toDateTime({p3:String}, 'UTC')))
        AND value IN ({p5:String}, {p6:String})
      ) AS sr1
      GROUP BY bv, toStartOfDay(addMinutes(slot, CASE WHEN slot < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END))
    ) AS s1s
    GROUP BY bv
  ) AS s1 ARRAY
  JOIN rs AS r
) AS t
ORDER BY series, is_total, bv, bucket
LIMIT 0, 682
