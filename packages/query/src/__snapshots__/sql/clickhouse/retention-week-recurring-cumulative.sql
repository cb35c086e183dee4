-- p1 = "Qx7MarkProp"
-- p2 = "DE"
-- p3 = "FR"
-- p4 = "2024-04-03 22:00:00"
-- p5 = "pageview"
-- p6 = "plan"
-- p7 = "pro"
-- p8 = "2024-01-04 23:00:00"
-- p9 = "2024-06-02 22:00:00"
-- p10 = "2024-03-31 01:00:00"
SELECT visitor_id AS visitor, formatDateTime(toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p10:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), '%Y-%m-%d', 'UTC') AS bucket, countIf((name = {p5:String} AND ts < toDateTime({p4:String}, 'UTC') AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String}))) AS starts, countIf((name = {p5:String})) AS returns
FROM events
WHERE property = {p1:String}
AND ts >= toDateTime({p8:String}, 'UTC')
AND ts < toDateTime({p9:String}, 'UTC')
AND (country IN ({p2:String}, {p3:String}))
AND ((name = {p5:String} AND ts < toDateTime({p4:String}, 'UTC') AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String})) OR (name = {p5:String}))
GROUP BY visitor_id, toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p10:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')
LIMIT 0, 5000000
