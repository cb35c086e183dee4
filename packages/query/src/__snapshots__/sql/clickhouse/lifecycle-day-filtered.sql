-- p1 = "Qx7MarkProp"
-- p2 = "pageview"
-- p3 = "DE"
-- p4 = "/app"
-- p5 = "2024-03-03 23:00:00"
-- p6 = "2024-04-03 22:00:00"
-- p7 = "2024-03-31 01:00:00"
SELECT *
FROM (
  SELECT visitor_id AS visitor, formatDateTime(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p7:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, min((toUInt64(ts) * 1000 + ts_ms)) AS first_ms
  FROM events
  WHERE property = {p1:String}
  AND ts >= toDateTime({p5:String}, 'UTC')
  AND ts < toDateTime({p6:String}, 'UTC')
  AND name = {p2:String}
  AND (country = {p3:String})
  AND (path = {p4:String})
  GROUP BY visitor_id, toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p7:String}, 'UTC') THEN 60 ELSE 120 END))
  UNION ALL SELECT visitor_id AS visitor, '' AS bucket, min((toUInt64(ts) * 1000 + ts_ms)) AS first_ms
  FROM events
  WHERE property = {p1:String}
  AND ts < toDateTime({p6:String}, 'UTC')
  AND visitor_id IN (
    SELECT visitor_id
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p5:String}, 'UTC')
    AND ts < toDateTime({p6:String}, 'UTC')
    AND name = {p2:String}
    AND (country = {p3:String})
    AND (path = {p4:String})
  )
  GROUP BY visitor_id
) AS t
LIMIT 0, 5000000
