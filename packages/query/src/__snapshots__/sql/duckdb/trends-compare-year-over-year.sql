-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-02-29 23:00:00"
-- p3 = "2024-03-31 22:00:00"
-- p4 = "purchase"
-- p5 = "amount"
-- p6 = "2023-03-26 01:00:00"
-- p7 = "2023-10-29 01:00:00"
-- p8 = "2024-03-31 01:00:00"
-- p9 = "2023-02-28 23:00:00"
-- p10 = "2023-03-31 22:00:00"
SELECT *
FROM (
  SELECT 0 AS series, 0 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT '' AS bv, strftime(make_timestamp((((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 WHEN ts < CAST($p7 AS TIMESTAMP) THEN 120 WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) * 7 - 3) * 86400000000), '%Y-%m-%d') AS bucket, CAST(sum(TRY_CAST(coalesce(props[CAST($p5 AS VARCHAR)], '') AS DOUBLE)) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY bv, (((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 WHEN ts < CAST($p7 AS TIMESTAMP) THEN 120 WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)
  ) AS s0b
  UNION ALL SELECT 0 AS series, 0 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT '' AS bv, CAST(sum(TRY_CAST(coalesce(props[CAST($p5 AS VARCHAR)], '') AS DOUBLE)) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY bv
  ) AS s0t
  UNION ALL SELECT 0 AS series, 1 AS period, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT '' AS bv, strftime(make_timestamp((((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 WHEN ts < CAST($p7 AS TIMESTAMP) THEN 120 WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) * 7 - 3) * 86400000000), '%Y-%m-%d') AS bucket, CAST(sum(TRY_CAST(coalesce(props[CAST($p5 AS VARCHAR)], '') AS DOUBLE)) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p9 AS TIMESTAMP)
    AND ts < CAST($p10 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY bv, (((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p6 AS TIMESTAMP) THEN 60 WHEN ts < CAST($p7 AS TIMESTAMP) THEN 120 WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)
  ) AS s0pb
  UNION ALL SELECT 0 AS series, 1 AS period, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT '' AS bv, CAST(sum(TRY_CAST(coalesce(props[CAST($p5 AS VARCHAR)], '') AS DOUBLE)) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p9 AS TIMESTAMP)
    AND ts < CAST($p10 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY bv
  ) AS s0pt
) AS t
ORDER BY series, period, is_total, bv, bucket
LIMIT 132
