-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "signup"
-- p3 = "2023-12-24 23:00:00"
-- p4 = "2024-04-03 22:00:00"
-- p5 = "2024-03-31 01:00:00"
SELECT *
FROM (
  SELECT vkey AS visitor, strftime(make_timestamp((((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p5 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) * 7 - 3) * 86400000000), '%Y-%m-%d') AS bucket, min(epoch_ms(ts)) AS first_ms
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p3 AS TIMESTAMP)
  AND ts < CAST($p4 AS TIMESTAMP)
  AND name = CAST($p2 AS VARCHAR)
  GROUP BY vkey, (((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p5 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)
  UNION ALL SELECT vkey AS visitor, '' AS bucket, min(epoch_ms(ts)) AS first_ms
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts < CAST($p4 AS TIMESTAMP)
  AND vkey IN (
    SELECT vkey
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p3 AS TIMESTAMP)
    AND ts < CAST($p4 AS TIMESTAMP)
    AND name = CAST($p2 AS VARCHAR)
  )
  GROUP BY vkey
) AS t
LIMIT 5000000
