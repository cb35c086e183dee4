-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-04 22:00:00"
-- p4 = "Qx7Markplan"
-- p5 = "Qx7Markpro' OR '1'='1"
-- p6 = "2024-04-03 22:00:00"
SELECT dim_value AS dim, count(DISTINCT vkey) AS visitors, sum(x_events) AS events
FROM (
  SELECT skey AS skey, any_value(vkey) AS vkey, name AS dim_value, count(*) AS x_events
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p2 AS TIMESTAMP)
  AND ts < CAST($p3 AS TIMESTAMP)
  AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
  AND map_contains(props, CAST($p4 AS VARCHAR))
  AND coalesce(props[CAST($p4 AS VARCHAR)], '') = CAST($p5 AS VARCHAR)
  GROUP BY skey, dim_value
) AS r0
JOIN (
  SELECT skey, start_ts
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p6 AS TIMESTAMP))
) AS r1 USING (skey)
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 100
