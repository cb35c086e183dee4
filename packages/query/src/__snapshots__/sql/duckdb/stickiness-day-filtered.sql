-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "signup"
-- p5 = "DE"
-- p6 = "2024-03-31 01:00:00"
SELECT n AS intervals, count(*) AS visitors
FROM (
  SELECT vkey AS visitor, count(DISTINCT ((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) AS n
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p2 AS TIMESTAMP)
  AND ts < CAST($p3 AS TIMESTAMP)
  AND name = CAST($p4 AS VARCHAR)
  AND (country = CAST($p5 AS VARCHAR))
  GROUP BY vkey
) AS v
GROUP BY n
ORDER BY n
LIMIT 31
