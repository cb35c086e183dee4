-- p1 = "Qx7MarkProp"
-- p2 = "pageview"
-- p3 = "/pricing"
-- p4 = "signup"
-- p5 = "purchase"
-- p6 = "plan"
-- p7 = "pro"
-- p8 = "cancel"
-- p9 = "2024-03-04 23:00:00"
-- p10 = "2024-04-03 22:00:00"
-- p11 = "DE"
-- p12 = "FR"
SELECT arrayStringConcat(groupArray(evs), ';') AS evs
FROM (
  SELECT cityHash64(k) % 32 AS part, arrayStringConcat(groupArray(concat(toString(t), ':', toString(m), ':', toString(x), ':', hex(''))), ',') AS evs
  FROM (
    SELECT cityHash64(visitor_id) AS k, (toInt64(toUInt32(ts)) * 1000 + ts_ms) AS t, CASE WHEN (name = {p2:String} AND (path = {p3:String})) THEN 1 ELSE 0 END + CASE WHEN (name = {p4:String}) THEN 2 ELSE 0 END + CASE WHEN (name = {p5:String} AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String})) THEN 4 ELSE 0 END AS m, CASE WHEN (name = {p8:String}) THEN 1 ELSE 0 END AS x, '' AS bv
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p9:String}, 'UTC')
    AND ts < toDateTime({p10:String}, 'UTC')
    AND (name IN ({p4:String}, {p8:String}) OR (name = {p2:String} AND (path = {p3:String})) OR (name = {p5:String} AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String})))
    AND (country IN ({p11:String}, {p12:String}))
  ) AS f
  ANY INNER JOIN (
    SELECT k, min(t) AS f1, max(t) AS l1
    FROM (
      SELECT cityHash64(visitor_id) AS k, (toInt64(toUInt32(ts)) * 1000 + ts_ms) AS t, CASE WHEN (name = {p2:String} AND (path = {p3:String})) THEN 1 ELSE 0 END + CASE WHEN (name = {p4:String}) THEN 2 ELSE 0 END + CASE WHEN (name = {p5:String} AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String})) THEN 4 ELSE 0 END AS m, CASE WHEN (name = {p8:String}) THEN 1 ELSE 0 END AS x, '' AS bv
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p9:String}, 'UTC')
      AND ts < toDateTime({p10:String}, 'UTC')
      AND (name IN ({p4:String}, {p8:String}) OR (name = {p2:String} AND (path = {p3:String})) OR (name = {p5:String} AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String})))
      AND (country IN ({p11:String}, {p12:String}))
    ) AS g
    WHERE m % 2 = 1
    GROUP BY k
  ) AS b USING (k)
  WHERE t >= f1
  AND t <= l1 + 1209600000
  GROUP BY k
  LIMIT 0, 5000000
) AS pv
GROUP BY part
LIMIT 0, 32

-- the visitors' statement (a step's visitors)
SELECT arrayStringConcat(groupArray(concat(hex(mcid), '|', evs)), ';') AS evs
FROM (
  SELECT cityHash64(k) % 32 AS part, max(cid) AS mcid, arrayStringConcat(groupArrayIf(concat(toString(t), ':', toString(m), ':', toString(x), ':', hex('')), t >= f1 AND t <= l1 + 1209600000), ',') AS evs
  FROM (
    SELECT cityHash64(visitor_id) AS k, client_id AS cid, (toInt64(toUInt32(ts)) * 1000 + ts_ms) AS t, CASE WHEN (name = {p2:String} AND (path = {p3:String})) THEN 1 ELSE 0 END + CASE WHEN (name = {p4:String}) THEN 2 ELSE 0 END + CASE WHEN (name = {p5:String} AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String})) THEN 4 ELSE 0 END AS m, CASE WHEN (name = {p8:String}) THEN 1 ELSE 0 END AS x, '' AS bv
    FROM events
    WHERE property = {p1:String}
    AND ts >= toDateTime({p9:String}, 'UTC')
    AND ts < toDateTime({p10:String}, 'UTC')
    AND (name IN ({p4:String}, {p8:String}) OR (name = {p2:String} AND (path = {p3:String})) OR (name = {p5:String} AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String})))
    AND (country IN ({p11:String}, {p12:String}))
  ) AS f
  ANY INNER JOIN (
    SELECT k, min(t) AS f1, max(t) AS l1
    FROM (
      SELECT cityHash64(visitor_id) AS k, client_id AS cid, (toInt64(toUInt32(ts)) * 1000 + ts_ms) AS t, CASE WHEN (name = {p2:String} AND (path = {p3:String})) THEN 1 ELSE 0 END + CASE WHEN (name = {p4:String}) THEN 2 ELSE 0 END + CASE WHEN (name = {p5:String} AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String})) THEN 4 ELSE 0 END AS m, CASE WHEN (name = {p8:String}) THEN 1 ELSE 0 END AS x, '' AS bv
      FROM events
      WHERE property = {p1:String}
      AND ts >= toDateTime({p9:String}, 'UTC')
      AND ts < toDateTime({p10:String}, 'UTC')
      AND (name IN ({p4:String}, {p8:String}) OR (name = {p2:String} AND (path = {p3:String})) OR (name = {p5:String} AND (has(props.key, {p6:String}) AND props.value[indexOf(props.key, {p6:String})] = {p7:String})))
      AND (country IN ({p11:String}, {p12:String}))
    ) AS g
    WHERE m % 2 = 1
    GROUP BY k
  ) AS b USING (k)
  GROUP BY k
  LIMIT 0, 5000000
) AS pv
GROUP BY part
LIMIT 0, 32
