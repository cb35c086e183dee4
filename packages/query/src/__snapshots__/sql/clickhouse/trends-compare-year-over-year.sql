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
  SELECT 0 AS series, 0 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT '' AS bv, formatDateTime(toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 WHEN ts < toDateTime({p7:String}, 'UTC') THEN 120 WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), '%Y-%m-%d', 'UTC') AS bucket, toNullable(toFloat64(sum(toFloat64OrNull(props.value[indexOf(props.key, {p5:String})])))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p2:String}, 'UTC')
    AND ts < toDateTime({p3:String}, 'UTC')
    AND name = {p4:String}
    GROUP BY bv, toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 WHEN ts < toDateTime({p7:String}, 'UTC') THEN 120 WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')
  ) AS s0b
  UNION ALL SELECT 0 AS series, 0 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT '' AS bv, toNullable(toFloat64(sum(toFloat64OrNull(props.value[indexOf(props.key, {p5:String})])))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p2:String}, 'UTC')
    AND ts < toDateTime({p3:String}, 'UTC')
    AND name = {p4:String}
    GROUP BY bv
  ) AS s0t
  UNION ALL SELECT 0 AS series, 1 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT '' AS bv, formatDateTime(toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 WHEN ts < toDateTime({p7:String}, 'UTC') THEN 120 WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), '%Y-%m-%d', 'UTC') AS bucket, toNullable(toFloat64(sum(toFloat64OrNull(props.value[indexOf(props.key, {p5:String})])))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p9:String}, 'UTC')
    AND ts < toDateTime({p10:String}, 'UTC')
    AND name = {p4:String}
    GROUP BY bv, toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 WHEN ts < toDateTime({p7:String}, 'UTC') THEN 120 WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')
  ) AS s0pb
  UNION ALL SELECT 0 AS series, 1 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT '' AS bv, toNullable(toFloat64(sum(toFloat64OrNull(props.value[indexOf(props.key, {p5:String})])))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p9:String}, 'UTC')
    AND ts < toDateTime({p10:String}, 'UTC')
    AND name = {p4:String}
    GROUP BY bv
  ) AS s0pt
) AS t
ORDER BY series, period, is_total, bv, bucket
LIMIT 0, 132
