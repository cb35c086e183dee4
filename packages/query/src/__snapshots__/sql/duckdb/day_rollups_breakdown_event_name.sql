-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Europe/Berlin"
-- p3 = "name"
-- p4 = "2024-03-30 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-03-04 23:00:00"
SELECT dim, sum(i_visitors) AS visitors, sum(i_events) AS events
FROM (
  SELECT value AS dim, coalesce(sum(visits) FILTER (WHERE prev_lday < 19787), 0) AS i_visitors, sum(events) AS i_events
  FROM day_rollup
  WHERE pkey = CAST($p1 AS BIGINT)
  AND tz = CAST($p2 AS VARCHAR)
  AND dim = CAST($p3 AS VARCHAR)
  AND lday >= 19787
  AND lday < 19813
  GROUP BY value
  UNION ALL SELECT name AS dim, count_if(prev_name < CAST($p6 AS TIMESTAMP)) AS i_visitors, sum(x_events) AS i_events
  FROM (
    SELECT skey, vkey, start_ts, name, events AS x_events, prev_name
    FROM session_events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
  ) AS r0
  GROUP BY dim
)
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 100
