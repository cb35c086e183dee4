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
  SELECT 0 AS series, 0 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM (
        SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p4:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 3
      ) AS tv
    ) THEN country ELSE {p5:String} END AS bv, formatDateTime(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, toNullable(toFloat64(uniqExact(cityHash64(visitor_id)))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p2:String}, 'UTC')
    AND ts < toDateTime({p3:String}, 'UTC')
    AND name = {p4:String}
    GROUP BY bv, toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END))
  ) AS s0b
  UNION ALL SELECT 0 AS series, 0 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM (
        SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p4:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 3
      ) AS tv
    ) THEN country ELSE {p5:String} END AS bv, toNullable(toFloat64(uniqExact(cityHash64(visitor_id)))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p2:String}, 'UTC')
    AND ts < toDateTime({p3:String}, 'UTC')
    AND name = {p4:String}
    GROUP BY bv
  ) AS s0t
  UNION ALL SELECT 0 AS series, 1 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM (
        SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p4:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 3
      ) AS tv
    ) THEN country ELSE {p5:String} END AS bv, formatDateTime(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, toNullable(toFloat64(uniqExact(cityHash64(visitor_id)))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p7:String}, 'UTC')
    AND ts < toDateTime({p2:String}, 'UTC')
    AND name = {p4:String}
    GROUP BY bv, toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END))
  ) AS s0pb
  UNION ALL SELECT 0 AS series, 1 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM (
        SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p4:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 3
      ) AS tv
    ) THEN country ELSE {p5:String} END AS bv, toNullable(toFloat64(uniqExact(cityHash64(visitor_id)))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p7:String}, 'UTC')
    AND ts < toDateTime({p8:String}, 'UTC')
    AND name = {p4:String}
    GROUP BY bv
  ) AS s0pt
  UNION ALL SELECT 1 AS series, 0 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM (
        SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p9:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 3
      ) AS tv
    ) THEN country ELSE {p5:String} END AS bv, formatDateTime(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, toNullable(toFloat64(count(*))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p2:String}, 'UTC')
    AND ts < toDateTime({p3:String}, 'UTC')
    AND name = {p9:String}
    GROUP BY bv, toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END))
  ) AS s1b
  UNION ALL SELECT 1 AS series, 0 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM (
        SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p9:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 3
      ) AS tv
    ) THEN country ELSE {p5:String} END AS bv, toNullable(toFloat64(count(*))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p2:String}, 'UTC')
    AND ts < toDateTime({p3:String}, 'UTC')
    AND name = {p9:String}
    GROUP BY bv
  ) AS s1t
  UNION ALL SELECT 1 AS series, 1 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM (
        SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p9:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 3
      ) AS tv
    ) THEN country ELSE {p5:String} END AS bv, formatDateTime(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, toNullable(toFloat64(count(*))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p7:String}, 'UTC')
    AND ts < toDateTime({p2:String}, 'UTC')
    AND name = {p9:String}
    GROUP BY bv, toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END))
  ) AS s1pb
  UNION ALL SELECT 1 AS series, 1 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM (
        SELECT country AS v FROM events WHERE property = {p1:String} AND ts >= toDateTime({p2:String}, 'UTC') AND ts < toDateTime({p3:String}, 'UTC') AND name = {p9:String} GROUP BY v ORDER BY count(*) DESC, v LIMIT 0, 3
      ) AS tv
    ) THEN country ELSE {p5:String} END AS bv, toNullable(toFloat64(count(*))) AS value
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p7:String}, 'UTC')
    AND ts < toDateTime({p8:String}, 'UTC')
    AND name = {p9:String}
    GROUP BY bv
  ) AS s1pt
) AS t
ORDER BY series, period, is_total, bv, bucket
LIMIT 0, 128
