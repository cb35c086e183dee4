-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p3 = "pageview"
-- p4 = "2024-03-04 23:00:00"
-- p5 = "2024-04-21 22:00:00"
-- p6 = "2024-03-31 01:00:00"
-- p7 = "Europe/Berlin"
-- p8 = "2024-04-01 22:00:00"
WITH members AS MATERIALIZED (
  SELECT vkey, ((d[1] + 3) // 7) - ((((epoch_ms(CAST($p4 AS TIMESTAMP)) + 60000 * (CASE WHEN CAST($p4 AS TIMESTAMP) < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) AS c, d
  FROM (
    SELECT coalesce(r.vkey, t.vkey) AS vkey, list_concat(coalesce(r.d, []), coalesce(t.d, [])) AS d
    FROM (
      SELECT vkey, CASE WHEN days[1] >= 19787 AND days[len(days)] < 19815 THEN days ELSE list_filter(days, x -> x >= 19787 AND x < 19815) END AS d
      FROM visitor_activity
      WHERE pkey = CAST($p1 AS BIGINT)
      AND tz = CAST($p7 AS VARCHAR)
      AND name = CAST($p3 AS VARCHAR)
    ) AS r FULL OUTER
    JOIN (
      SELECT vkey, list_sort(list(DISTINCT ((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000))) AS d
      FROM events
      WHERE pkey = CAST($p1 AS BIGINT)
      AND ts >= CAST($p8 AS TIMESTAMP)
      AND ts < CAST($p5 AS TIMESTAMP)
      AND name = CAST($p3 AS VARCHAR)
      GROUP BY vkey
    ) AS t ON r.vkey = t.vkey
  ) AS vd
  WHERE len(d) > 0
  AND d[1] < 19817
) SELECT kind, c, n, visitors
FROM (
  SELECT 0 AS kind, c, 0 AS n, count() AS visitors
  FROM members AS co
  GROUP BY c
  UNION ALL SELECT 1 AS kind, c, mx AS n, count() AS visitors
  FROM (
    SELECT vkey, c, max(n) AS mx
    FROM (
      SELECT vkey, c, n
      FROM (
        SELECT vkey, c, ((x + 3) // 7) - ((((epoch_ms(CAST($p4 AS TIMESTAMP)) + 60000 * (CASE WHEN CAST($p4 AS TIMESTAMP) < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) - c AS n
        FROM (
          SELECT vkey, c, unnest(d) AS x
          FROM members AS mr
          WHERE len(d) > 1
        ) AS ux
      ) AS rn
      WHERE n >= 1
      AND n <= 2
    ) AS k1
    GROUP BY vkey, c
  ) AS lr
  GROUP BY c, mx
) AS t
LIMIT 10000
