-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "pageview"
-- p5 = "$other"
-- p6 = "2024-03-31 01:00:00"
-- p7 = "2024-03-20 23:00:00"
-- p8 = "2024-03-27 11:30:00"
-- p9 = "signup"
WITH top0 AS MATERIALIZED (
  SELECT country AS v
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p2 AS TIMESTAMP)
  AND ts < CAST($p3 AS TIMESTAMP)
  AND name = CAST($p4 AS VARCHAR)
  GROUP BY v
  ORDER BY count(*) DESC, v
  LIMIT 3
), top1 AS MATERIALIZED (
  SELECT country AS v
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p2 AS TIMESTAMP)
  AND ts < CAST($p3 AS TIMESTAMP)
  AND name = CAST($p9 AS VARCHAR)
  GROUP BY v
  ORDER BY count(*) DESC, v
  LIMIT 3
) SELECT *
FROM (
  SELECT 0 AS series, 0 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM top0 AS tv
    ) THEN country ELSE CAST($p5 AS VARCHAR) END AS bv, strftime(make_timestamp((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) * 86400000000), '%Y-%m-%d') AS bucket, CAST(count(DISTINCT vkey) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY bv, ((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)
  ) AS s0b
  UNION ALL SELECT 0 AS series, 0 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM top0 AS tv
    ) THEN country ELSE CAST($p5 AS VARCHAR) END AS bv, CAST(count(DISTINCT vkey) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY bv
  ) AS s0t
  UNION ALL SELECT 0 AS series, 1 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM top0 AS tv
    ) THEN country ELSE CAST($p5 AS VARCHAR) END AS bv, strftime(make_timestamp((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) * 86400000000), '%Y-%m-%d') AS bucket, CAST(count(DISTINCT vkey) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p7 AS TIMESTAMP)
    AND ts < CAST($p2 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY bv, ((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)
  ) AS s0pb
  UNION ALL SELECT 0 AS series, 1 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM top0 AS tv
    ) THEN country ELSE CAST($p5 AS VARCHAR) END AS bv, CAST(count(DISTINCT vkey) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p7 AS TIMESTAMP)
    AND ts < CAST($p8 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY bv
  ) AS s0pt
  UNION ALL SELECT 1 AS series, 0 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM top1 AS tv
    ) THEN country ELSE CAST($p5 AS VARCHAR) END AS bv, strftime(make_timestamp((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) * 86400000000), '%Y-%m-%d') AS bucket, CAST(count(*) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p9 AS VARCHAR)
    GROUP BY bv, ((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)
  ) AS s1b
  UNION ALL SELECT 1 AS series, 0 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM top1 AS tv
    ) THEN country ELSE CAST($p5 AS VARCHAR) END AS bv, CAST(count(*) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p9 AS VARCHAR)
    GROUP BY bv
  ) AS s1t
  UNION ALL SELECT 1 AS series, 1 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM top1 AS tv
    ) THEN country ELSE CAST($p5 AS VARCHAR) END AS bv, strftime(make_timestamp((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) * 86400000000), '%Y-%m-%d') AS bucket, CAST(count(*) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p7 AS TIMESTAMP)
    AND ts < CAST($p2 AS TIMESTAMP)
    AND name = CAST($p9 AS VARCHAR)
    GROUP BY bv, ((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)
  ) AS s1pb
  UNION ALL SELECT 1 AS series, 1 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN country IN (
      SELECT v FROM top1 AS tv
    ) THEN country ELSE CAST($p5 AS VARCHAR) END AS bv, CAST(count(*) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p7 AS TIMESTAMP)
    AND ts < CAST($p8 AS TIMESTAMP)
    AND name = CAST($p9 AS VARCHAR)
    GROUP BY bv
  ) AS s1pt
) AS t
ORDER BY series, period, is_total, bv, bucket
LIMIT 128
