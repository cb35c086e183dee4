-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Markgoal' OR '1'='1"
-- p5 = "2024-03-20 23:00:00"
-- p6 = "2024-03-27 11:30:00"
SELECT *
FROM (
  SELECT 0 AS period, count_if(prev_any < CAST($p2 AS TIMESTAMP)) AS visitors, count(*) AS visits, sum(s_pageviews) AS pageviews, (CAST(sum(s_pageviews) AS DOUBLE) / NULLIF(count(*), 0)) AS views_per_visit, 100 * (CAST(count_if(bounce) AS DOUBLE) / NULLIF(count(*), 0)) AS bounce_rate, (CAST(sum(duration) AS DOUBLE) / NULLIF(count(*), 0)) AS visit_duration, sum(s_events) AS events, count(DISTINCT CASE WHEN coalesce(cv_converted, 0) = 1 THEN vkey END) AS conversions, 100 * (CAST(count(DISTINCT CASE WHEN coalesce(cv_converted, 0) = 1 THEN vkey END) AS DOUBLE) / NULLIF(count_if(prev_any < CAST($p2 AS TIMESTAMP)), 0)) AS conversion_rate, (CAST(sum(s_engaged) AS DOUBLE) / NULLIF(sum(s_pageviews), 0)) / 1000 AS time_on_page
  FROM (
    SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, events AS s_events, prev_any
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
  UNION ALL SELECT 1 AS period, count_if(prev_any < CAST($p5 AS TIMESTAMP)) AS visitors, count(*) AS visits, sum(s_pageviews) AS pageviews, (CAST(sum(s_pageviews) AS DOUBLE) / NULLIF(count(*), 0)) AS views_per_visit, 100 * (CAST(count_if(bounce) AS DOUBLE) / NULLIF(count(*), 0)) AS bounce_rate, (CAST(sum(duration) AS DOUBLE) / NULLIF(count(*), 0)) AS visit_duration, sum(s_events) AS events, count(DISTINCT CASE WHEN coalesce(cv_converted, 0) = 1 THEN vkey END) AS conversions, 100 * (CAST(count(DISTINCT CASE WHEN coalesce(cv_converted, 0) = 1 THEN vkey END) AS DOUBLE) / NULLIF(count_if(prev_any < CAST($p5 AS TIMESTAMP)), 0)) AS conversion_rate, (CAST(sum(s_engaged) AS DOUBLE) / NULLIF(sum(s_pageviews), 0)) / 1000 AS time_on_page
  FROM (
    SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, events AS s_events, prev_any
    FROM sessions
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p5 AS TIMESTAMP) AND start_ts < CAST($p6 AS TIMESTAMP))
  ) AS r0
  LEFT JOIN (
    SELECT skey, 1 AS cv_converted
    FROM session_events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p5 AS TIMESTAMP) AND start_ts < CAST($p6 AS TIMESTAMP))
    AND name = CAST($p4 AS VARCHAR)
    GROUP BY skey
  ) AS r1 USING (skey)
)
ORDER BY period
LIMIT 2
