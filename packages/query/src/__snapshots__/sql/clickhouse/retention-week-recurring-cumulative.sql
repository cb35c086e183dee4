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
SELECT CASE WHEN x = 0 THEN 0 ELSE 1 END AS kind, c, x AS n, count() AS visitors
FROM (
  SELECT c, arrayJoin(arrayConcat([toInt64(0)], arrayFilter(x -> x >= 1, [arrayReverseSort(arrayFilter(y -> y >= 1 AND y <= 8, arrayMap(r -> r - c, rs)))[1]]))) AS x
  FROM (
    SELECT visitor, arrayJoin(arrayDistinct(cs)) AS c, rs
    FROM (
      SELECT visitor, groupArrayIf(i, st > 0 AND i >= 0 AND i < 14) AS cs, groupArrayIf(i, rt > 0) AS rs
      FROM (
        SELECT cityHash64(visitor_id) AS visitor, toInt64(toRelativeWeekNum(toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p10:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), 'UTC')) - toInt64(toRelativeWeekNum(toDateTime(toMonday(addMinutes(toDateTime({p8:String}, 'UTC'), CASE WHEN toDateTime({p8:String}, 'UTC') < toDateTime({p10:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), 'UTC')) AS i, countIf((name = {p5:String} AND ts < toDateTime({p4:String}, 'UTC') AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String}))) AS st, countIf((name = {p5:String})) AS rt
        FROM events
        WHERE property = {p1:String}
        AND ts >= toDateTime({p8:String}, 'UTC')
        AND ts < toDateTime({p9:String}, 'UTC')
        AND (country IN ({p2:String}, {p3:String}))
        AND ((name = {p5:String} AND ts < toDateTime({p4:String}, 'UTC') AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String})) OR (name = {p5:String}))
        GROUP BY visitor, i
      ) AS mk
      GROUP BY visitor
    ) AS pv
    WHERE notEmpty(cs)
  ) AS co
) AS pt
GROUP BY c, x
LIMIT 0, 10000
