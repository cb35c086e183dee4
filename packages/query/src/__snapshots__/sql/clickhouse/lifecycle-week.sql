-- p1 = "Qx7MarkProp"
-- p2 = "signup"
-- p3 = "2023-12-24 23:00:00"
-- p4 = "2024-04-03 22:00:00"
-- p5 = "2024-03-31 01:00:00"
SELECT k - toInt64(toRelativeWeekNum(toDateTime(toMonday(addMinutes(toDateTime({p3:String}, 'UTC'), CASE WHEN toDateTime({p3:String}, 'UTC') < toDateTime({p5:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), 'UTC')) AS idx, countIf(m_act = 1 AND m_fst = 1) AS new, countIf(m_act = 1 AND m_fst = 0 AND m_was = 1) AS returning, countIf(m_act = 1 AND m_fst = 0 AND m_was = 0) AS resurrecting, countIf(m_act = 0 AND m_was = 1) AS dormant
FROM (
  SELECT k, max(act) AS m_act, max(was) AS m_was, max(fst) AS m_fst
  FROM (
    SELECT visitor, k, CASE WHEN k = i THEN 1 ELSE 0 END AS act, CASE WHEN k = i THEN 0 ELSE 1 END AS was, 0 AS fst
    FROM (
      SELECT visitor, i, arrayJoin([i, i + 1]) AS k
      FROM (
        SELECT cityHash64(visitor_id) AS visitor, toInt64(toRelativeWeekNum(toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p5:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), 'UTC')) AS i
        FROM events
        WHERE property = {p1:String}
        AND ts >= toDateTime({p3:String}, 'UTC')
        AND ts < toDateTime({p4:String}, 'UTC')
        AND name = {p2:String}
        GROUP BY visitor, i
      ) AS a
    ) AS ab
    UNION ALL SELECT visitor, i AS k, 0 AS act, 0 AS was, 1 AS fst
    FROM (
      SELECT visitor, toInt64(toRelativeWeekNum(toDateTime(toMonday(addMinutes(first_ts, CASE WHEN first_ts < toDateTime({p5:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), 'UTC')) AS i
      FROM (
        SELECT cityHash64(visitor_id) AS visitor, min(ts) AS first_ts
        FROM events
        WHERE property = {p1:String}
        AND ts < toDateTime({p4:String}, 'UTC')
        AND cityHash64(visitor_id) IN (
          SELECT visitor
          FROM (
            SELECT cityHash64(visitor_id) AS visitor, toInt64(toRelativeWeekNum(toDateTime(toMonday(addMinutes(ts, CASE WHEN ts < toDateTime({p5:String}, 'UTC') THEN 60 ELSE 120 END)), 'UTC'), 'UTC')) AS i
            FROM events
            WHERE property = {p1:String}
            AND ts >= toDateTime({p3:String}, 'UTC')
            AND ts < toDateTime({p4:String}, 'UTC')
            AND name = {p2:String}
            GROUP BY visitor, i
          ) AS aw
        )
        GROUP BY visitor
      ) AS f
      WHERE first_ts >= toDateTime({p3:String}, 'UTC')
    ) AS c
  ) AS m
  GROUP BY visitor, k
) AS t
GROUP BY k
ORDER BY idx
LIMIT 0, 2000
