-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
SELECT referrer_source AS dim, count_if(prev_referrer_source < CAST($p2 AS TIMESTAMP)) AS visitors, count(*) AS visits, 100 * (CAST(count_if(bounce) AS DOUBLE) / NULLIF(count(*), 0)) AS bounce_rate, (CAST(sum(duration) AS DOUBLE) / NULLIF(count(*), 0)) AS visit_duration
FROM (
  SELECT skey, vkey, start_ts, referrer_source, bounce, duration, prev_referrer_source
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
) AS r0
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 10 OFFSET 20
