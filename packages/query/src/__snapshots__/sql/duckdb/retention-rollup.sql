-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-04-03 22:00:00"
-- p3 = "pageview"
-- p4 = "signup"
-- p5 = "2024-03-04 23:00:00"
-- p6 = "2024-04-21 22:00:00"
-- p7 = "2024-03-31 01:00:00"
-- p8 = "Europe/Berlin"
-- p9 = "2024-04-01 22:00:00"
WITH marks AS MATERIALIZED (
  SELECT visitor, i, max(st) AS st, max(rt) AS rt
  FROM (
    SELECT vkey AS visitor, unnest(list_distinct(list_transform(list_filter(days, x -> x >= 19787 AND x < 19815), x -> ((x + 3) // 7)))) - ((((epoch_ms(CAST($p5 AS TIMESTAMP)) + 60000 * (CASE WHEN CAST($p5 AS TIMESTAMP) < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) AS i, 1 AS st, 0 AS rt
    FROM visitor_activity
    WHERE pkey = CAST($p1 AS BIGINT)
    AND tz = CAST($p8 AS VARCHAR)
    AND name = CAST($p3 AS VARCHAR)
    UNION ALL SELECT vkey AS visitor, unnest(list_distinct(list_transform(list_filter(days, x -> x >= 19787 AND x < 19815), x -> ((x + 3) // 7)))) - ((((epoch_ms(CAST($p5 AS TIMESTAMP)) + 60000 * (CASE WHEN CAST($p5 AS TIMESTAMP) < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) AS i, 0 AS st, 1 AS rt
    FROM visitor_activity
    WHERE pkey = CAST($p1 AS BIGINT)
    AND tz = CAST($p8 AS VARCHAR)
    AND name = CAST($p4 AS VARCHAR)
    UNION ALL SELECT vkey AS visitor, ((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) - ((((epoch_ms(CAST($p5 AS TIMESTAMP)) + 60000 * (CASE WHEN CAST($p5 AS TIMESTAMP) < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) AS i, count_if((name = CAST($p3 AS VARCHAR) AND ts < CAST($p2 AS TIMESTAMP))) AS st, count_if((name = CAST($p4 AS VARCHAR))) AS rt
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p9 AS TIMESTAMP)
    AND ts < CAST($p6 AS TIMESTAMP)
    AND ((name = CAST($p3 AS VARCHAR) AND ts < CAST($p2 AS TIMESTAMP)) OR (name = CAST($p4 AS VARCHAR)))
    GROUP BY visitor, i
  ) AS u
  GROUP BY visitor, i
) SELECT kind, c, n, visitors
FROM (
  SELECT 0 AS kind, c, 0 AS n, count() AS visitors
  FROM (
    SELECT visitor, min(i) AS c
    FROM marks
    WHERE st > 0
    AND i >= 0
    AND i < 5
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
      AND i < 5
      GROUP BY visitor
    )
    JOIN (
      SELECT visitor, i AS r
      FROM marks
      WHERE rt > 0
    ) USING (visitor)
    WHERE r - c >= 1
    AND r - c <= 2
  ) AS pr
  GROUP BY c, n
) AS t
LIMIT 10000
