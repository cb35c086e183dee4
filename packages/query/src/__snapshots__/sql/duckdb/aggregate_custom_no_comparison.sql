-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2023-12-31 23:00:00"
-- p3 = "2024-01-31 23:00:00"
SELECT count_if(prev_any < CAST($p2 AS TIMESTAMP)) AS visitors, 100 * (CAST(count_if(bounce) AS DOUBLE) / NULLIF(count(*), 0)) AS bounce_rate, (CAST(sum(duration) AS DOUBLE) / NULLIF(count(*), 0)) AS visit_duration
FROM (
  SELECT skey, vkey, start_ts, bounce, duration, prev_any
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
) AS r0
LIMIT 1
