-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-04-01 22:00:00"
-- p3 = "2024-04-02 22:00:00"
SELECT strftime(make_timestamp((((epoch_ms(start_ts) + 60000 * (120)) // 3600000)) * 3600000000), '%Y-%m-%d %H:%M:%S') AS bucket, count_if(CASE WHEN prev_any < CAST($p2 AS TIMESTAMP) THEN true ELSE ((epoch_ms(prev_any) + 60000 * (120)) // 3600000) < ((epoch_ms(start_ts) + 60000 * (120)) // 3600000) END) AS visitors, count(*) AS visits
FROM (
  SELECT skey, vkey, start_ts, prev_any
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
) AS r0
GROUP BY ((epoch_ms(start_ts) + 60000 * (120)) // 3600000)
ORDER BY bucket
LIMIT 24
