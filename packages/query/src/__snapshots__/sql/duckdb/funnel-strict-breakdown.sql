-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "pageview"
-- p3 = "signup"
-- p4 = "2024-03-27 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "engagement"
-- p7 = "pageleave"
-- p8 = "identify"
WITH fe AS MATERIALIZED (
  SELECT vkey AS k, epoch_ms(ts) AS t, CASE WHEN (name = CAST($p2 AS VARCHAR)) THEN 1 ELSE 0 END + CASE WHEN (name = CAST($p3 AS VARCHAR)) THEN 2 ELSE 0 END AS m, 0 AS x, channel AS bv
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p4 AS TIMESTAMP)
  AND ts < CAST($p5 AS TIMESTAMP)
  AND name NOT IN (CAST($p6 AS VARCHAR), CAST($p7 AS VARCHAR), CAST($p8 AS VARCHAR))
) SELECT string_agg(evs, ';') AS evs
FROM (
  SELECT hash(k) % 32 AS part, string_agg(concat(CAST(t AS VARCHAR), ':', CAST(m AS VARCHAR), ':', CAST(0 AS VARCHAR), ':', hex(bv)), ',') AS evs
  FROM fe AS f
  JOIN (
    SELECT k, min(t) AS f1, max(t) AS l1
    FROM fe AS g
    WHERE m % 2 = 1
    GROUP BY k
  ) AS b USING (k)
  WHERE t >= f1
  AND t <= l1 + 1800000
  GROUP BY k
  LIMIT 5000000
) AS pv
GROUP BY part
LIMIT 32

-- the visitors' statement (a step's visitors)
WITH fe AS MATERIALIZED (
  SELECT vkey AS k, client_id AS cid, epoch_ms(ts) AS t, CASE WHEN (name = CAST($p2 AS VARCHAR)) THEN 1 ELSE 0 END + CASE WHEN (name = CAST($p3 AS VARCHAR)) THEN 2 ELSE 0 END AS m, 0 AS x, channel AS bv
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p4 AS TIMESTAMP)
  AND ts < CAST($p5 AS TIMESTAMP)
  AND name NOT IN (CAST($p6 AS VARCHAR), CAST($p7 AS VARCHAR), CAST($p8 AS VARCHAR))
) SELECT string_agg(concat(hex(mcid), '|', evs), ';') AS evs
FROM (
  SELECT hash(k) % 32 AS part, max(cid) AS mcid, string_agg(concat(CAST(t AS VARCHAR), ':', CAST(m AS VARCHAR), ':', CAST(0 AS VARCHAR), ':', hex(bv)), ',') FILTER (WHERE t >= f1 AND t <= l1 + 1800000) AS evs
  FROM fe AS f
  JOIN (
    SELECT k, min(t) AS f1, max(t) AS l1
    FROM fe AS g
    WHERE m % 2 = 1
    GROUP BY k
  ) AS b USING (k)
  GROUP BY k
  LIMIT 5000000
) AS pv
GROUP BY part
LIMIT 32
