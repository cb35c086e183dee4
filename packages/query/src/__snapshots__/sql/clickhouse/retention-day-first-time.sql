-- p1 = "Qx7MarkProp"
-- p2 = "2024-04-03 22:00:00"
-- p3 = "signup"
-- p4 = "pageview"
-- p5 = "/app"
-- p6 = "2024-03-04 23:00:00"
-- p7 = "2024-04-10 22:00:00"
-- p8 = "2024-03-31 01:00:00"
SELECT CASE WHEN x = 0 THEN 0 ELSE 1 END AS kind, c, x AS n, count() AS visitors
FROM (
  SELECT c, arrayJoin(arrayConcat([toInt64(0)], arrayDistinct(arrayFilter(y -> y >= 1 AND y <= 7, arrayMap(r -> r - c, rs))))) AS x
  FROM (
    SELECT visitor, arraySort(cs)[1] AS c, rs
    FROM (
      SELECT visitor, groupArrayIf(i, st > 0 AND i >= 0 AND i < 30) AS cs, groupArrayIf(i, rt > 0) AS rs
      FROM (
        SELECT cityHash64(visitor_id) AS visitor, toInt64(toRelativeDayNum(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')) - toInt64(toRelativeDayNum(toStartOfDay(addMinutes(toDateTime({p6:String}, 'UTC'), CASE WHEN toDateTime({p6:String}, 'UTC') < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')) AS i, countIf((name = {p3:String} AND ts < toDateTime({p2:String}, 'UTC'))) AS st, countIf((name = {p4:String} AND (path = {p5:String}))) AS rt
        FROM events
        WHERE property = {p1:String}
        AND ts >= toDateTime({p6:String}, 'UTC')
        AND ts < toDateTime({p7:String}, 'UTC')
        AND ((name = {p3:String} AND ts < toDateTime({p2:String}, 'UTC')) OR (name = {p4:String} AND (path = {p5:String})))
        GROUP BY visitor, i
      ) AS mk
      GROUP BY visitor
    ) AS pv
    WHERE notEmpty(cs)
  ) AS co
) AS pt
GROUP BY c, x
LIMIT 0, 10000
