-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
SELECT entry_page AS dim, count_if(prev_entry_page < CAST($p2 AS TIMESTAMP)) AS visitors, 100 * (CAST(count_if(bounce) AS DOUBLE) / NULLIF(count(*), 0)) AS bounce_rate
FROM (
  SELECT skey, vkey, start_ts, entry_page, bounce, duration, prev_entry_page
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
) AS r0
GROUP BY dim
ORDER BY bounce_rate ASC, dim ASC
LIMIT 100
