-- p1 = "Qx7MarkProp"
-- p2 = "2024-02-29 23:00:00"
-- p3 = "2024-03-31 22:00:00"
-- p4 = "purchase"
-- p5 = "amount"
-- p6 = "2023-03-26 01:00:00"
-- p7 = "2023-10-29 01:00:00"
-- p8 = "2024-03-31 01:00:00"
-- p9 = "2023-02-28 23:00:00"
-- p10 = "2023-03-31 22:00:00"
SELECT *
FROM (
  SELECT 0 AS series, pd AS period, bv, r.1 AS is_total, r.2 AS bucket, r.3 AS value
  FROM (
    SELECT pd, bv, arrayPushBack(arrayMap((b, x0) -> (0, b, toNullable(toFloat64(finalizeAggregation(x0)))), groupArray(bucket), groupArray(st0)), (1, '', toNullable(toFloat64(sumMerge(st0))))) AS rs
    FROM (
      SELECT if(ts >= toDateTime({p2:String}, 'UTC'), 0, 1) AS pd, '' AS bv, formatDateTime(toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 WHEN ts < toDateTime({p7:String}, 'UTC') THEN 120 WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), '%Y-%m-%d', 'UTC') AS bucket, sumState(toFloat64OrNull(props.value[indexOf(props.key, {p5:String})])) AS st0
      FROM events
      WHERE property = {p1:String}
      AND ((ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC')) OR (ts >= toDateTime({p9:String}, 'UTC') AND ts < toDateTime({p10:String}, 'UTC')))
      AND name = {p4:String}
      GROUP BY pd, bv, toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 WHEN ts < toDateTime({p7:String}, 'UTC') THEN 120 WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')
    ) AS s0s
    GROUP BY pd, bv
  ) AS s0 ARRAY
  JOIN rs AS r
) AS t
ORDER BY series, period, is_total, bv, bucket
LIMIT 0, 132
