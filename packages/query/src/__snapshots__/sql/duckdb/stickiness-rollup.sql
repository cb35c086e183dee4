-- p1 = "Qx7MarkProp"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "signup"
-- p5 = "Europe/Berlin"
-- p6 = "2024-04-02 22:00:00"
-- p7 = "2024-03-31 01:00:00"
SELECT n AS intervals, count(*) AS visitors
FROM (
  SELECT len(list_distinct(list_concat(coalesce(r.b, []), coalesce(t.b, [])))) AS n
  FROM (
    SELECT vkey, list_transform(CASE WHEN days[1] >= 19787 AND days[len(days)] < 19816 THEN days ELSE list_filter(days, x -> x >= 19787 AND x < 19816) END, x -> ((x + 3) // 7)) AS b
    FROM visitor_activity
    WHERE pkey = CAST($p1 AS BIGINT)
    AND tz = CAST($p5 AS VARCHAR)
    AND name = CAST($p4 AS VARCHAR)
  ) AS r FULL OUTER
  JOIN (
    SELECT vkey, list(DISTINCT ((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000) + 3) // 7)) AS b
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p6 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY vkey
  ) AS t ON r.vkey = t.vkey
) AS v
WHERE n > 0
GROUP BY n
ORDER BY n
LIMIT 6
