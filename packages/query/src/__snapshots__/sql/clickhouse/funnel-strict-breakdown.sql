-- p1 = "Qx7MarkProp"
-- p2 = "pageview"
-- p3 = "signup"
-- p4 = "2024-03-27 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "engagement"
-- p7 = "pageleave"
-- p8 = "identify"
SELECT toString(k) AS v, any(mcid) AS mcid, arrayStringConcat(groupArray(concat(toString(t), ':', toString(m), ':', toString(x), ':', hex(bv))), ',') AS evs
FROM (
  SELECT k, mcid, t, m, x, bv
  FROM (
    SELECT visitor_id AS k, client_id AS cid, (toInt64(toUInt32(ts)) * 1000 + ts_ms) AS t, CASE WHEN (name = {p2:String}) THEN 1 ELSE 0 END + CASE WHEN (name = {p3:String}) THEN 2 ELSE 0 END AS m, 0 AS x, channel AS bv
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p4:String}, 'UTC')
    AND ts < toDateTime({p5:String}, 'UTC')
    AND name NOT IN ({p6:String}, {p7:String}, {p8:String})
  ) AS f
  ANY INNER JOIN (
    SELECT k, max(cid) AS mcid, minIf(t, m % 2 = 1) AS f1, maxIf(t, m % 2 = 1) AS l1
    FROM (
      SELECT visitor_id AS k, client_id AS cid, (toInt64(toUInt32(ts)) * 1000 + ts_ms) AS t, CASE WHEN (name = {p2:String}) THEN 1 ELSE 0 END + CASE WHEN (name = {p3:String}) THEN 2 ELSE 0 END AS m, 0 AS x, channel AS bv
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p4:String}, 'UTC')
      AND ts < toDateTime({p5:String}, 'UTC')
      AND name NOT IN ({p6:String}, {p7:String}, {p8:String})
    ) AS g
    GROUP BY k
    HAVING countIf(m % 2 = 1) > 0
  ) AS b USING (k)
  WHERE t >= f1
  AND t <= l1 + 1800000
) AS j
GROUP BY k
ORDER BY v
LIMIT 0, 5000000
