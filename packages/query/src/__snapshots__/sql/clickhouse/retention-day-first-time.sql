-- p1 = "Qx7MarkProp"
-- p2 = "2024-04-03 22:00:00"
-- p3 = "signup"
-- p4 = "pageview"
-- p5 = "/app"
-- p6 = "2024-03-04 23:00:00"
-- p7 = "2024-04-10 22:00:00"
-- p8 = "2024-03-31 01:00:00"
SELECT visitor_id AS visitor, formatDateTime(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), '%Y-%m-%d', 'UTC') AS bucket, countIf((name = {p3:String} AND ts < toDateTime({p2:String}, 'UTC'))) AS starts, countIf((name = {p4:String} AND (path = {p5:String}))) AS returns
FROM events
WHERE property = {p1:String}
AND ts >= toDateTime({p6:String}, 'UTC')
AND ts < toDateTime({p7:String}, 'UTC')
AND ((name = {p3:String} AND ts < toDateTime({p2:String}, 'UTC')) OR (name = {p4:String} AND (path = {p5:String})))
GROUP BY visitor_id, toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END))
LIMIT 0, 5000000
