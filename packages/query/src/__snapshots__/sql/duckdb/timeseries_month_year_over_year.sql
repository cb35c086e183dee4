-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2023-04-30 22:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Markgoal' OR '1'='1"
-- p5 = "2023-10-29 01:00:00"
-- p6 = "2024-03-31 01:00:00"
-- p7 = "2022-04-30 22:00:00"
-- p8 = "2023-04-03 22:00:00"
-- p9 = "2022-10-30 01:00:00"
-- p10 = "2023-03-26 01:00:00"
SELECT *
FROM (
  SELECT 0 AS period, strftime(date_trunc('month', make_timestamp((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p5 AS TIMESTAMP) THEN 120 WHEN start_ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) * 1000)), '%Y-%m-%d') AS bucket, count_if(CASE WHEN prev_any < CAST($p2 AS TIMESTAMP) THEN true ELSE date_trunc('month', make_timestamp((epoch_ms(prev_any) + 60000 * (CASE WHEN prev_any < CAST($p5 AS TIMESTAMP) THEN 120 WHEN prev_any < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) * 1000)) < date_trunc('month', make_timestamp((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p5 AS TIMESTAMP) THEN 120 WHEN start_ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) * 1000)) END) AS visitors, count(DISTINCT CASE WHEN coalesce(cv_converted, 0) = 1 THEN vkey END) AS conversions
  FROM (
    SELECT skey, vkey, start_ts, prev_any
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
  GROUP BY date_trunc('month', make_timestamp((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p5 AS TIMESTAMP) THEN 120 WHEN start_ts < CAST($p6 AS TIMESTAMP) THEN 60 ELSE 120 END)) * 1000))
  UNION ALL SELECT 1 AS period, strftime(date_trunc('month', make_timestamp((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p9 AS TIMESTAMP) THEN 120 WHEN start_ts < CAST($p10 AS TIMESTAMP) THEN 60 ELSE 120 END)) * 1000)), '%Y-%m-%d') AS bucket, count_if(CASE WHEN prev_any < CAST($p7 AS TIMESTAMP) THEN true ELSE date_trunc('month', make_timestamp((epoch_ms(prev_any) + 60000 * (CASE WHEN prev_any < CAST($p9 AS TIMESTAMP) THEN 120 WHEN prev_any < CAST($p10 AS TIMESTAMP) THEN 60 ELSE 120 END)) * 1000)) < date_trunc('month', make_timestamp((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p9 AS TIMESTAMP) THEN 120 WHEN start_ts < CAST($p10 AS TIMESTAMP) THEN 60 ELSE 120 END)) * 1000)) END) AS visitors, count(DISTINCT CASE WHEN coalesce(cv_converted, 0) = 1 THEN vkey END) AS conversions
  FROM (
    SELECT skey, vkey, start_ts, prev_any
    FROM sessions
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p7 AS TIMESTAMP) AND start_ts < CAST($p8 AS TIMESTAMP))
  ) AS r0
  LEFT JOIN (
    SELECT skey, 1 AS cv_converted
    FROM session_events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p7 AS TIMESTAMP) AND start_ts < CAST($p8 AS TIMESTAMP))
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY skey
  ) AS r1 USING (skey)
  GROUP BY date_trunc('month', make_timestamp((epoch_ms(start_ts) + 60000 * (CASE WHEN start_ts < CAST($p9 AS TIMESTAMP) THEN 120 WHEN start_ts < CAST($p10 AS TIMESTAMP) THEN 60 ELSE 120 END)) * 1000))
)
ORDER BY period, bucket
LIMIT 24
