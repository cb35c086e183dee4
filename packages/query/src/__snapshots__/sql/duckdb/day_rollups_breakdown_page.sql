-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Europe/Berlin"
-- p3 = "path"
-- p4 = "2024-03-30 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-01-04 23:00:00"
SELECT dim, sum(i_visitors) AS visitors, sum(i_pageviews) AS pageviews, (CAST(sum(i_engagedMs) AS DOUBLE) / NULLIF(sum(i_pageviews), 0)) / 1000 AS time_on_page
FROM (
  SELECT value AS dim, coalesce(sum(visits) FILTER (WHERE prev_lday < 19727), 0) AS i_visitors, sum(pageviews) AS i_pageviews, sum(engaged_ms) AS i_engagedMs
  FROM day_rollup
  WHERE pkey = CAST($p1 AS BIGINT)
  AND tz = CAST($p2 AS VARCHAR)
  AND dim = CAST($p3 AS VARCHAR)
  AND lday >= 19727
  AND lday < 19813
  GROUP BY value
  UNION ALL SELECT path AS dim, count_if(prev_path < CAST($p6 AS TIMESTAMP)) AS i_visitors, sum(p_pageviews) AS i_pageviews, sum(p_engaged) AS i_engagedMs
  FROM (
    SELECT skey, vkey, start_ts, path, pageviews AS p_pageviews, engaged_ms AS p_engaged, prev_path
    FROM session_pages
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
  ) AS r0
  GROUP BY dim
)
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 100
