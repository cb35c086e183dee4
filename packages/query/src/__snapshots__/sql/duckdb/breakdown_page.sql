-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
SELECT path AS dim, count_if(prev_path < CAST($p2 AS TIMESTAMP)) AS visitors, sum(p_pageviews) AS pageviews, (CAST(sum(p_engaged) AS DOUBLE) / NULLIF(sum(p_pageviews), 0)) / 1000 AS time_on_page, 100 * (CAST(count_if(bounce) AS DOUBLE) / NULLIF(count(*), 0)) AS bounce_rate, sum(s_events) AS events
FROM (
  SELECT skey, vkey, start_ts, path, pageviews AS p_pageviews, engaged_ms AS p_engaged, prev_path
  FROM session_pages
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
) AS r0
JOIN (
  SELECT skey, bounce, duration, events AS s_events
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
) AS r1 USING (skey)
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 100
