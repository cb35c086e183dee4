-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Europe/Berlin"
-- p3 = "any"
-- p4 = "2024-03-30 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-01-04 23:00:00"
-- p7 = "2024-03-31 01:00:00"
SELECT strftime(make_timestamp((k) * 86400000000), '%Y-%m-%d') AS bucket, sum(i_visitors) AS visitors, sum(i_pageviews) AS pageviews
FROM (
  SELECT lday AS k, coalesce(sum(visits) FILTER (WHERE prev_lday < lday), 0) AS i_visitors, sum(pageviews) AS i_pageviews
  FROM day_rollup
  WHERE pkey = CAST($p1 AS BIGINT)
  AND tz = CAST($p2 AS VARCHAR)
  AND dim = CAST($p3 AS VARCHAR)
  AND lday >= 19727
  AND lday < 19813
  GROUP BY lday
  UNION ALL SELECT ((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000) AS k, count_if(CASE WHEN prev_any < CAST($p6 AS TIMESTAMP) THEN true ELSE ((epoch_ms(prev_any) + 60000 * (CASE WHEN prev_any < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000) < ((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000) END) AS i_visitors, sum(s_pageviews) AS i_pageviews
  FROM (
    SELECT skey, vkey, start_ts, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
    FROM sessions
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
  ) AS r0
  GROUP BY k
)
GROUP BY k
ORDER BY bucket
LIMIT 90
