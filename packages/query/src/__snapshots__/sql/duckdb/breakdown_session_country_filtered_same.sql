-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Markcountry' OR '1'='1"
SELECT country AS dim, count_if(prev_country < CAST($p2 AS TIMESTAMP)) AS visitors
FROM (
  SELECT skey, vkey, start_ts, country, prev_country
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
  AND country = CAST($p4 AS VARCHAR)
) AS r0
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 100
