-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "signup"
-- p5 = "DE"
-- p6 = "2024-03-31 01:00:00"
SELECT n AS intervals, count(*) AS visitors
FROM (
  SELECT cityHash64(visitor_id) AS visitor, uniqExact(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p6:String}, 'UTC') THEN 60 ELSE 120 END))) AS n
  FROM events
  WHERE property = {p1:String}
  AND ts >= toDateTime({p2:String}, 'UTC')
  AND ts < toDateTime({p3:String}, 'UTC')
  AND name = {p4:String}
  AND (country = {p5:String})
  GROUP BY cityHash64(visitor_id)
) AS v
GROUP BY n
ORDER BY n
LIMIT 0, 31
