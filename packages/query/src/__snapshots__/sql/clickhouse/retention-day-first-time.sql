-- p1 = "Qx7MarkProp"
-- p2 = "2024-04-03 22:00:00"
-- p3 = "signup"
-- p4 = "pageview"
-- p5 = "/app"
-- p6 = "2024-03-04 23:00:00"
-- p7 = "2024-04-10 22:00:00"
-- p8 = "2024-03-31 01:00:00"
SELECT kind, c, n, visitors
FROM (
  SELECT 0 AS kind, c, 0 AS n, count() AS visitors
  FROM (
    SELECT visitor, min(i) AS c
    FROM (
      SELECT cityHash64(visitor_id) AS visitor, toInt64(toRelativeDayNum(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')) - toInt64(toRelativeDayNum(toStartOfDay(addMinutes(toDateTime({p6:String}, 'UTC'), CASE WHEN toDateTime({p6:String}, 'UTC') < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')) AS i, countIf((name = {p3:String} AND ts < toDateTime({p2:String}, 'UTC'))) AS st, countIf((name = {p4:String} AND (path = {p5:String}))) AS rt
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p6:String}, 'UTC')
      AND ts < toDateTime({p7:String}, 'UTC')
      AND ((name = {p3:String} AND ts < toDateTime({p2:String}, 'UTC')) OR (name = {p4:String} AND (path = {p5:String})))
      GROUP BY visitor, i
    )
    WHERE st > 0
    AND i >= 0
    AND i < 30
    GROUP BY visitor
  ) AS co
  GROUP BY c
  UNION ALL SELECT 1 AS kind, c, n, count() AS visitors
  FROM (
    SELECT visitor, c, r - c AS n
    FROM (
      SELECT visitor, min(i) AS c
      FROM (
        SELECT cityHash64(visitor_id) AS visitor, toInt64(toRelativeDayNum(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')) - toInt64(toRelativeDayNum(toStartOfDay(addMinutes(toDateTime({p6:String}, 'UTC'), CASE WHEN toDateTime({p6:String}, 'UTC') < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')) AS i, countIf((name = {p3:String} AND ts < toDateTime({p2:String}, 'UTC'))) AS st, countIf((name = {p4:String} AND (path = {p5:String}))) AS rt
        FROM events
        WHERE property = {p1:String}
        AND ts >= toDateTime({p6:String}, 'UTC')
        AND ts < toDateTime({p7:String}, 'UTC')
        AND ((name = {p3:String} AND ts < toDateTime({p2:String}, 'UTC')) OR (name = {p4:String} AND (path = {p5:String})))
        GROUP BY visitor, i
      )
      WHERE st > 0
      AND i >= 0
      AND i < 30
      GROUP BY visitor
    ) ALL INNER JOIN (
      SELECT visitor, i AS r
      FROM (
        SELECT cityHash64(visitor_id) AS visitor, toInt64(toRelativeDayNum(toStartOfDay(addMinutes(ts, CASE WHEN ts < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')) - toInt64(toRelativeDayNum(toStartOfDay(addMinutes(toDateTime({p6:String}, 'UTC'), CASE WHEN toDateTime({p6:String}, 'UTC') < toDateTime({p8:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC')) AS i, countIf((name = {p3:String} AND ts < toDateTime({p2:String}, 'UTC'))) AS st, countIf((name = {p4:String} AND (path = {p5:String}))) AS rt
        FROM events
        WHERE property = {p1:String}
        AND ts >= toDateTime({p6:String}, 'UTC')
        AND ts < toDateTime({p7:String}, 'UTC')
        AND ((name = {p3:String} AND ts < toDateTime({p2:String}, 'UTC')) OR (name = {p4:String} AND (path = {p5:String})))
        GROUP BY visitor, i
      )
      WHERE rt > 0
    ) USING visitor
    WHERE r - c >= 1
    AND r - c <= 7
  ) AS pr
  GROUP BY c, n
) AS t
LIMIT 0, 10000
