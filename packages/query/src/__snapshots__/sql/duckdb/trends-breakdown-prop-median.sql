-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "purchase"
-- p5 = "plan"
-- p6 = "$other"
-- p7 = "amount"
-- p8 = "2024-03-31 01:00:00"
WITH top0 AS MATERIALIZED (
  SELECT coalesce(props[CAST($p5 AS VARCHAR)], '') AS v
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p2 AS TIMESTAMP)
  AND ts < CAST($p3 AS TIMESTAMP)
  AND name = CAST($p4 AS VARCHAR)
  GROUP BY v
  ORDER BY count(*) DESC, v
  LIMIT 5
) SELECT *
FROM (
  SELECT 0 AS series, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN coalesce(props[CAST($p5 AS VARCHAR)], '') IN (
      SELECT v FROM top0 AS tv
    ) THEN coalesce(props[CAST($p5 AS VARCHAR)], '') ELSE CAST($p6 AS VARCHAR) END AS bv, strftime(make_timestamp((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 3600000)) * 3600000000), '%Y-%m-%d %H:%M:%S') AS bucket, CAST(median(TRY_CAST(coalesce(props[CAST($p7 AS VARCHAR)], '') AS DOUBLE)) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY bv, ((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 3600000)
  ) AS s0b
  UNION ALL SELECT 0 AS series, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN coalesce(props[CAST($p5 AS VARCHAR)], '') IN (
      SELECT v FROM top0 AS tv
    ) THEN coalesce(props[CAST($p5 AS VARCHAR)], '') ELSE CAST($p6 AS VARCHAR) END AS bv, CAST(median(TRY_CAST(coalesce(props[CAST($p7 AS VARCHAR)], '') AS DOUBLE)) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY bv
  ) AS s0t
) AS t
ORDER BY series, is_total, bv, bucket
LIMIT 1008
