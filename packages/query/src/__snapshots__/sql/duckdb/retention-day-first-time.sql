-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-04-03 22:00:00"
-- p3 = "signup"
-- p4 = "pageview"
-- p5 = "/app"
-- p6 = "2024-03-04 23:00:00"
-- p7 = "2024-04-10 22:00:00"
-- p8 = "2024-03-31 01:00:00"
WITH marks AS MATERIALIZED (
  SELECT vkey AS visitor, (((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) - (((epoch_ms(CAST($p6 AS TIMESTAMP)) + 60000 * (CASE WHEN CAST($p6 AS TIMESTAMP) < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) AS i, count_if((name = CAST($p3 AS VARCHAR) AND ts < CAST($p2 AS TIMESTAMP))) AS st, count_if((name = CAST($p4 AS VARCHAR) AND (path = CAST($p5 AS VARCHAR)))) AS rt
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p6 AS TIMESTAMP)
  AND ts < CAST($p7 AS TIMESTAMP)
  AND ((name = CAST($p3 AS VARCHAR) AND ts < CAST($p2 AS TIMESTAMP)) OR (name = CAST($p4 AS VARCHAR) AND (path = CAST($p5 AS VARCHAR))))
  GROUP BY visitor, i
) SELECT kind, c, n, visitors
FROM (
  SELECT 0 AS kind, c, 0 AS n, count() AS visitors
  FROM (
    SELECT visitor, min(i) AS c
    FROM marks
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
      FROM marks
      WHERE st > 0
      AND i >= 0
      AND i < 30
      GROUP BY visitor
    )
    JOIN (
      SELECT visitor, i AS r
      FROM marks
      WHERE rt > 0
    ) USING (visitor)
    WHERE r - c >= 1
    AND r - c <= 7
  ) AS pr
  GROUP BY c, n
) AS t
LIMIT 10000
