-- p1 = "Qx7MarkProp"
-- p2 = "signup"
-- p3 = "2023-12-24 23:00:00"
-- p4 = "2024-04-03 22:00:00"
-- p5 = "2024-03-31 01:00:00"
SELECT *
FROM (
  SELECT visitor_id AS visitor, formatDateTime(toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p5:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), '%Y-%m-%d', 'UTC') AS bucket, min((toUInt64(ts) * 1000 + ts_ms)) AS first_ms
  FROM events
  WHERE property = {p1:String}
  AND ts >= toDateTime({p3:String}, 'UTC')
  AND ts < toDateTime({p4:String}, 'UTC')
  AND name = {p2:String}
  GROUP BY visitor_id, toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p5:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')
  UNION ALL SELECT visitor_id AS visitor, '' AS bucket, min((toUInt64(ts) * 1000 + ts_ms)) AS first_ms
  FROM events
  WHERE property = {p1:String}
  AND ts < toDateTime({p4:String}, 'UTC')
  AND visitor_id IN (
    SELECT visitor_id
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p3:String}, 'UTC')
    AND ts < toDateTime({p4:String}, 'UTC')
    AND name = {p2:String}
  )
  GROUP BY visitor_id
) AS t
LIMIT 0, 5000000
