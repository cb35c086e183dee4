-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "DE"
-- p3 = "FR"
-- p4 = "2024-04-03 22:00:00"
-- p5 = "pageview"
-- p6 = "plan"
-- p7 = "pro"
-- p8 = "2024-01-04 23:00:00"
-- p9 = "2024-06-02 22:00:00"
-- p10 = "2024-03-31 01:00:00"
SELECT CASE WHEN x = 0 THEN 0 ELSE 1 END AS kind, c, x AS n, count() AS visitors
FROM (
  SELECT c, unnest(list_concat([0], list_filter([list_max(list_filter(list_transform(rs, r -> r - c), y -> y >= 1 AND y <= 8))], x -> x >= 1))) AS x
  FROM (
    SELECT visitor, unnest(list_distinct(cs)) AS c, rs
    FROM (
      SELECT visitor, coalesce(list(i) FILTER (WHERE st > 0 AND i >= 0 AND i < 14), []) AS cs, coalesce(list(i) FILTER (WHERE rt > 0), []) AS rs
      FROM (
        SELECT vkey AS visitor, ((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p10 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) - ((((epoch_ms(CAST($p8 AS TIMESTAMP)) + 60000 * (CASE WHEN CAST($p8 AS TIMESTAMP) < CAST($p10 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) AS i, count_if((name = CAST($p5 AS VARCHAR) AND ts < CAST($p4 AS TIMESTAMP) AND (map_contains(props, CAST($p6 AS VARCHAR)) AND coalesce(props[CAST($p6 AS VARCHAR)], '') = CAST($p7 AS VARCHAR)))) AS st, count_if((name = CAST($p5 AS VARCHAR))) AS rt
        FROM events
        WHERE pkey = CAST($p1 AS BIGINT)
        AND ts >= CAST($p8 AS TIMESTAMP)
        AND ts < CAST($p9 AS TIMESTAMP)
        AND (country IN (CAST($p2 AS VARCHAR), CAST($p3 AS VARCHAR)))
        AND ((name = CAST($p5 AS VARCHAR) AND ts < CAST($p4 AS TIMESTAMP) AND (map_contains(props, CAST($p6 AS VARCHAR)) AND coalesce(props[CAST($p6 AS VARCHAR)], '') = CAST($p7 AS VARCHAR))) OR (name = CAST($p5 AS VARCHAR)))
        GROUP BY visitor, i
      ) AS mk
      GROUP BY visitor
    ) AS pv
    WHERE len(cs) > 0
  ) AS co
) AS pt
GROUP BY c, x
LIMIT 10000
