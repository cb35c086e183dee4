-- p1 = "Qx7MarkProp"
-- p2 = "pageview"
-- p3 = "country"
-- p4 = "2024-03-20 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-03-27 23:00:00"
-- p7 = "$other"
-- p8 = "2024-03-31 01:00:00"
-- p9 = "2024-03-27 11:30:00"
-- p10 = "signup"
SELECT *
FROM (
  SELECT 0 AS series, pd AS period, bv, r.1 AS is_total, r.2 AS bucket, r.3 AS value
  FROM (
    SELECT pd, bv, arrayPushBack(arrayMap((b, x0) -> (0, b, toNullable(toFloat64(finalizeAggregation(x0)))), groupArray(bucket), groupArray(st0)), (1, '', if(pd = 1, toNullable(toFloat64(uniqExactMergeIfMerge(tst0))), toNullable(toFloat64(uniqExactMerge(st0)))))) AS rs
    FROM (
      SELECT if(slot >= toDateTime({p6:String}, 'UTC'), 0, 1) AS pd, if(value IN (
        SELECT value AS v
        FROM (
          SELECT value, slot, events, visitors
          FROM event_slots
          WHERE property = {p1:String}
          AND name = {p2:String}
          AND dim = {p3:String}
          AND ((slot >= toDateTime({p6:String}, 'UTC') AND slot < toDateTime({p5:String}, 'UTC')))
        ) AS tv
        GROUP BY v
        ORDER BY countMerge(events) DESC, v
        LIMIT 0, 3
      ), value, {p7:String}) AS bv, formatDateTime(toStartOfDay(addMinutes(slot, CASE WHEN slot < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, uniqExactMergeState(visitors) AS st0, uniqExactMergeIfState(visitors, slot < toDateTime({p9:String}, 'UTC')) AS tst0
      FROM (
        SELECT value, slot, events, visitors
        FROM event_slots
        WHERE property = {p1:String}
        AND name = {p2:String}
        AND dim = {p3:String}
        AND ((slot >= toDateTime({p4:String}, 'UTC') AND slot < toDateTime({p5:String}, 'UTC')))
      ) AS sr0
      GROUP BY pd, bv, toStartOfDay(addMinutes(slot, CASE WHEN slot < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END))
    ) AS s0s
    GROUP BY pd, bv
  ) AS s0 ARRAY
  JOIN rs AS r
  UNION ALL SELECT 1 AS series, pd AS period, bv, r.1 AS is_total, r.2 AS bucket, r.3 AS value
  FROM (
    SELECT pd, bv, arrayPushBack(arrayMap((b, x0) -> (0, b, toNullable(toFloat64(finalizeAggregation(x0)))), groupArray(bucket), groupArray(st0)), (1, '', if(pd = 1, toNullable(toFloat64(countMergeIfMerge(tst0))), toNullable(toFloat64(countMerge(st0)))))) AS rs
    FROM (
      SELECT if(slot >= toDateTime({p6:String}, 'UTC'), 0, 1) AS pd, if(value IN (
        SELECT value AS v
        FROM (
          SELECT value, slot, events, visitors
          FROM event_slots
          WHERE property = {p1:String}
          AND name = {p10:String}
          AND dim = {p3:String}
          AND ((slot >= toDateTime({p6:String}, 'UTC') AND slot < toDateTime({p5:String}, 'UTC')))
        ) AS tv
        GROUP BY v
        ORDER BY countMerge(events) DESC, v
        LIMIT 0, 3
      ), value, {p7:String}) AS bv, formatDateTime(toStartOfDay(addMinutes(slot, CASE WHEN slot < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, countMergeState(events) AS st0, countMergeIfState(events, slot < toDateTime({p9:String}, 'UTC')) AS tst0
      FROM (
        SELECT value, slot, events, visitors
        FROM event_slots
        WHERE property = {p1:String}
        AND name = {p10:String}
        AND dim = {p3:String}
        AND ((slot >= toDateTime({p4:String}, 'UTC') AND slot < toDateTime({p5:String}, 'UTC')))
      ) AS sr1
      GROUP BY pd, bv, toStartOfDay(addMinutes(slot, CASE WHEN slot < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END))
    ) AS s1s
    GROUP BY pd, bv
  ) AS s1 ARRAY
  JOIN rs AS r
) AS t
ORDER BY series, period, is_total, bv, bucket
LIMIT 0, 128
