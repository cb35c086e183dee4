-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-03-31 01:00:00"
-- p5 = "2024-02-03 23:00:00"
SELECT *
FROM (
  SELECT 0 AS period, strftime(make_timestamp((((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) * 86400000000), '%Y-%m-%d') AS bucket, count_if(CASE WHEN prev_any < CAST($p2 AS TIMESTAMP) THEN true ELSE ((epoch_ms(prev_any) + 60000 * (CASE WHEN prev_any < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000) < ((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000) END) AS visitors, sum(s_pageviews) AS pageviews, 100 * (CAST(count_if(bounce) AS DOUBLE) / NULLIF(count(*), 0)) AS bounce_rate
  FROM (
    SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
    FROM sessions
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
  ) AS r0
  GROUP BY ((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)
  UNION ALL SELECT 1 AS period, strftime(make_timestamp((((epoch_ms(start_ts) + 60000 * (60)) // 86400000)) * 86400000000), '%Y-%m-%d') AS bucket, count_if(CASE WHEN prev_any < CAST($p5 AS TIMESTAMP) THEN true ELSE ((epoch_ms(prev_any) + 60000 * (60)) // 86400000) < ((epoch_ms(start_ts) + 60000 * (60)) // 86400000) END) AS visitors, sum(s_pageviews) AS pageviews, 100 * (CAST(count_if(bounce) AS DOUBLE) / NULLIF(count(*), 0)) AS bounce_rate
  FROM (
    SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
    FROM sessions
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p5 AS TIMESTAMP) AND start_ts < CAST($p2 AS TIMESTAMP))
  ) AS r0
  GROUP BY ((epoch_ms(start_ts) + 60000 * (60)) // 86400000)
)
ORDER BY period, bucket
LIMIT 60
