-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-01-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-03-31 01:00:00"
SELECT strftime(make_timestamp((((((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) * 7 - 3) * 86400000000), '%Y-%m-%d') AS bucket, count_if(CASE WHEN prev_any < CAST($p2 AS TIMESTAMP) THEN true ELSE (((epoch_ms(prev_any) + 60000 * (CASE WHEN prev_any < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7) < (((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7) END) AS visitors
FROM (
  SELECT skey, vkey, start_ts, prev_any
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
) AS r0
GROUP BY (((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)
ORDER BY bucket
LIMIT 14
