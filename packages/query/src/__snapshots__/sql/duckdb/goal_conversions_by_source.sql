-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Markpurchase' OR '1'='1"
SELECT referrer_source AS dim, count_if(prev_referrer_source < CAST($p2 AS TIMESTAMP)) AS visitors, count(DISTINCT CASE WHEN coalesce(cv_converted, 0) = 1 THEN vkey END) AS conversions, 100 * (CAST(count(DISTINCT CASE WHEN coalesce(cv_converted, 0) = 1 THEN vkey END) AS DOUBLE) / NULLIF(count_if(prev_referrer_source < CAST($p2 AS TIMESTAMP)), 0)) AS conversion_rate
FROM (
  SELECT skey, vkey, start_ts, referrer_source, prev_referrer_source
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
) AS r0
LEFT JOIN (
  SELECT skey, 1 AS cv_converted
  FROM session_events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
  AND name = CAST($p4 AS VARCHAR)
  GROUP BY skey
) AS r1 USING (skey)
GROUP BY dim
ORDER BY conversions DESC, dim ASC
LIMIT 100
