-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-31 22:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2023-03-31 22:00:00"
-- p5 = "2023-04-03 10:30:00"
SELECT *
FROM (
  SELECT 0 AS period, count_if(prev_any < CAST($p2 AS TIMESTAMP)) AS visitors, count(*) AS visits, sum(s_pageviews) AS pageviews
  FROM (
    SELECT skey, vkey, start_ts, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
    FROM sessions
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
  ) AS r0
  UNION ALL SELECT 1 AS period, count_if(prev_any < CAST($p4 AS TIMESTAMP)) AS visitors, count(*) AS visits, sum(s_pageviews) AS pageviews
  FROM (
    SELECT skey, vkey, start_ts, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
    FROM sessions
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
  ) AS r0
)
ORDER BY period
LIMIT 2
