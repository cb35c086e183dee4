-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-01-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "purchase"
-- p5 = "coupon"
-- p6 = "FREE"
-- p7 = "$other"
-- p8 = "2024-03-31 01:00:00"
WITH top0 AS MATERIALIZED (
  SELECT country AS v
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p2 AS TIMESTAMP)
  AND ts < CAST($p3 AS TIMESTAMP)
  AND name = CAST($p4 AS VARCHAR)
  AND NOT (map_contains(props, CAST($p5 AS VARCHAR)) AND coalesce(props[CAST($p5 AS VARCHAR)], '') = CAST($p6 AS VARCHAR))
  GROUP BY v
  ORDER BY count(*) DESC, v
  LIMIT 10
) SELECT *
FROM (
  SELECT 0 AS series, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM top0 AS tv
    ) THEN country ELSE CAST($p7 AS VARCHAR) END AS bv, strftime(make_timestamp((((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) * 7 - 3) * 86400000000), '%Y-%m-%d') AS bucket, CAST(coalesce(sum(revenue), 0) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    AND NOT (map_contains(props, CAST($p5 AS VARCHAR)) AND coalesce(props[CAST($p5 AS VARCHAR)], '') = CAST($p6 AS VARCHAR))
    GROUP BY bv, (((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)
  ) AS s0b
  UNION ALL SELECT 0 AS series, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM top0 AS tv
    ) THEN country ELSE CAST($p7 AS VARCHAR) END AS bv, CAST(coalesce(sum(revenue), 0) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    AND NOT (map_contains(props, CAST($p5 AS VARCHAR)) AND coalesce(props[CAST($p5 AS VARCHAR)], '') = CAST($p6 AS VARCHAR))
    GROUP BY bv
  ) AS s0t
) AS t
ORDER BY series, is_total, bv, bucket
LIMIT 165
