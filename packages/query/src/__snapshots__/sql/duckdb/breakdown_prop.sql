-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Qx7Markplan"
-- p3 = "2024-03-27 23:00:00"
-- p4 = "2024-04-04 22:00:00"
-- p5 = "2024-04-03 22:00:00"
SELECT dim_value AS dim, count(DISTINCT vkey) AS visitors, sum(x_events) AS events, sum(s_pageviews) AS pageviews, 100 * (CAST(count_if(bounce) AS DOUBLE) / NULLIF(count(*), 0)) AS bounce_rate
FROM (
  SELECT skey AS skey, any_value(vkey) AS vkey, coalesce(props[CAST($p2 AS VARCHAR)], '') AS dim_value, count(*) AS x_events
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p3 AS TIMESTAMP)
  AND ts < CAST($p4 AS TIMESTAMP)
  AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
  AND map_contains(props, CAST($p2 AS VARCHAR))
  GROUP BY skey, dim_value
) AS r0
JOIN (
  SELECT skey, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, start_ts
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p3 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
) AS r1 USING (skey)
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 100
