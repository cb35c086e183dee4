-- p1 = "Qx7MarkProp"
-- p2 = "2024-01-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "purchase"
-- p5 = "coupon"
-- p6 = "FREE"
-- p7 = "$other"
-- p8 = "2024-03-31 01:00:00"
SELECT *
FROM (
  SELECT 0 AS series, bv, r.1 AS is_total, r.2 AS bucket, r.3 AS value
  FROM (
    SELECT bv, arrayPushBack(arrayMap((b, x0) -> (0, b, toNullable(toFloat64(coalesce(finalizeAggregation(x0), 0)))), groupArray(bucket), groupArray(st0)), (1, '', toNullable(toFloat64(coalesce(sumMerge(st0), 0))))) AS rs
    FROM (
      SELECT CASE WHEN country IN (
        SELECT v FROM (
          SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p4:String} AND NOT (has(props.key, {p5:String}) AND props.value[indexOf(props.key, {p5:String})] = {p6:String}) GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 10
        ) AS tv
      ) THEN country ELSE {p7:String} END AS bv, formatDateTime(toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), '%Y-%m-%d', 'UTC') AS bucket, sumState(revenue) AS st0
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p2:String}, 'UTC')
      AND ts < toDateTime({p3:String}, 'UTC')
      AND name = {p4:String}
      AND NOT (has(props.key, {p5:String}) AND props.value[indexOf(props.key, {p5:String})] = {p6:String})
      GROUP BY bv, toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')
    ) AS s0s
    GROUP BY bv
  ) AS s0 ARRAY
  JOIN rs AS r
) AS t
ORDER BY series, is_total, bv, bucket
LIMIT 0, 165
