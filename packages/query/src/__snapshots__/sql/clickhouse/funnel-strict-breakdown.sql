-- p1 = "Qx7MarkProp"
-- p2 = "pageview"
-- p3 = "signup"
-- p4 = "2024-03-27 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "engagement"
-- p7 = "pageleave"
-- p8 = "identify"
SELECT arrayStringConcat(groupArray(evs), ';') AS evs
FROM (
  SELECT cityHash64(k) % 32 AS part, arrayStringConcat(groupArray(concat(toString(t), ':', toString(m), ':', toString(0), ':', hex(bv))), ',') AS evs
  FROM (
    SELECT cityHash64(visitor_id) AS k, (toInt64(toUInt32(ts)) * 1000 + ts_ms) AS t, CASE WHEN (name = {p2:String}) THEN 1 ELSE 0 END + CASE WHEN (name = {p3:String}) THEN 2 ELSE 0 END AS m, 0 AS x, channel AS bv
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p4:String}, 'UTC')
    AND ts < toDateTime({p5:String}, 'UTC')
    AND name NOT IN ({p6:String}, {p7:String}, {p8:String})
  ) AS f
  ANY INNER JOIN (
    SELECT k, min(t) AS f1, max(t) AS l1
    FROM (
      SELECT cityHash64(visitor_id) AS k, (toInt64(toUInt32(ts)) * 1000 + ts_ms) AS t, CASE WHEN (name = {p2:String}) THEN 1 ELSE 0 END + CASE WHEN (name = {p3:String}) THEN 2 ELSE 0 END AS m, 0 AS x, channel AS bv
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p4:String}, 'UTC')
      AND ts < toDateTime({p5:String}, 'UTC')
      AND name NOT IN ({p6:String}, {p7:String}, {p8:String})
    ) AS g
    WHERE m % 2 = 1
    GROUP BY k
  ) AS b USING (k)
  WHERE t >= f1
  AND t <= l1 + 1800000
  GROUP BY k
  LIMIT 0, 5000000
) AS pv
GROUP BY part
LIMIT 0, 32

-- the visitors' statement (a step's visitors)
SELECT arrayStringConcat(groupArray(concat(hex(mcid), '|', evs)), ';') AS evs
FROM (
  SELECT cityHash64(k) % 32 AS part, max(cid) AS mcid, arrayStringConcat(groupArrayIf(concat(toString(t), ':', toString(m), ':', toString(0), ':', hex(bv)), t >= f1 AND t <= l1 + 1800000), ',') AS evs
  FROM (
    SELECT cityHash64(visitor_id) AS k, client_id AS cid, (toInt64(toUInt32(ts)) * 1000 + ts_ms) AS t, CASE WHEN (name = {p2:String}) THEN 1 ELSE 0 END + CASE WHEN (name = {p3:String}) THEN 2 ELSE 0 END AS m, 0 AS x, channel AS bv
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p4:String}, 'UTC')
    AND ts < toDateTime({p5:String}, 'UTC')
    AND name NOT IN ({p6:String}, {p7:String}, {p8:String})
  ) AS f
  ANY INNER JOIN (
    SELECT k, min(t) AS f1, max(t) AS l1
    FROM (
      SELECT cityHash64(visitor_id) AS k, client_id AS cid, (toInt64(toUInt32(ts)) * 1000 + ts_ms) AS t, CASE WHEN (name = {p2:String}) THEN 1 ELSE 0 END + CASE WHEN (name = {p3:String}) THEN 2 ELSE 0 END AS m, 0 AS x, channel AS bv
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p4:String}, 'UTC')
      AND ts < toDateTime({p5:String}, 'UTC')
      AND name NOT IN ({p6:String}, {p7:String}, {p8:String})
    ) AS g
    WHERE m % 2 = 1
    GROUP BY k
  ) AS b USING (k)
  GROUP BY k
  LIMIT 0, 5000000
) AS pv
GROUP BY part
LIMIT 0, 32
