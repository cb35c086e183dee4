-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-04-03 22:00:00"
-- p3 = "signup"
-- p4 = "pageview"
-- p5 = "/app"
-- p6 = "2024-03-04 23:00:00"
-- p7 = "2024-04-10 22:00:00"
-- p8 = "2024-03-31 01:00:00"
SELECT CASE WHEN x = 0 THEN 0 ELSE 1 END AS kind, c, x AS n, count() AS visitors
FROM (
  SELECT c, unnest(list_concat([0], list_distinct(list_filter(list_transform(rs, r -> r - c), y -> y >= 1 AND y <= 7)))) AS x
  FROM (
    SELECT visitor, list_min(cs) AS c, rs
    FROM (
      SELECT visitor, coalesce(list(i) FILTER (WHERE st > 0 AND i >= 0 AND i < 30), []) AS cs, coalesce(list(i) FILTER (WHERE rt > 0), []) AS rs
      FROM (
        SELECT vkey AS visitor, (((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) - (((epoch_ms(CAST($p6 AS TIMESTAMP)) + 60000 * (CASE WHEN CAST($p6 AS TIMESTAMP) < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) AS i, count_if((name = CAST($p3 AS VARCHAR) AND ts < CAST($p2 AS TIMESTAMP))) AS st, count_if((name = CAST($p4 AS VARCHAR) AND (path = CAST($p5 AS VARCHAR)))) AS rt
        FROM events
        WHERE pkey = CAST($p1 AS BIGINT)
        AND ts >= CAST($p6 AS TIMESTAMP)
        AND ts < CAST($p7 AS TIMESTAMP)
        AND ((name = CAST($p3 AS VARCHAR) AND ts < CAST($p2 AS TIMESTAMP)) OR (name = CAST($p4 AS VARCHAR) AND (path = CAST($p5 AS VARCHAR))))
        GROUP BY visitor, i
      ) AS mk
      GROUP BY visitor
    ) AS pv
    WHERE len(cs) > 0
  ) AS co
) AS pt
GROUP BY c, x
LIMIT 10000
