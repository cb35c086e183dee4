-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "pageview"
-- p3 = "signup"
-- p4 = "2024-03-27 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "engagement"
-- p7 = "pageleave"
-- p8 = "identify"
SELECT v, max(cid) AS mcid, string_agg(concat(CAST(t AS VARCHAR), ':', CAST(m AS VARCHAR), ':', CAST(x AS VARCHAR), ':', hex(bv)), ',') AS evs
FROM (
  SELECT CAST(vkey AS VARCHAR) AS v, client_id AS cid, epoch_ms(ts) AS t, CASE WHEN (name = CAST($p2 AS VARCHAR)) THEN 1 ELSE 0 END + CASE WHEN (name = CAST($p3 AS VARCHAR)) THEN 2 ELSE 0 END AS m, 0 AS x, channel AS bv
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p4 AS TIMESTAMP)
  AND ts < CAST($p5 AS TIMESTAMP)
  AND name NOT IN (CAST($p6 AS VARCHAR), CAST($p7 AS VARCHAR), CAST($p8 AS VARCHAR))
) AS f
GROUP BY v
ORDER BY v
LIMIT 5000000
