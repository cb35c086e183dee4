-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Europe/Berlin"
-- p3 = "any"
-- p4 = "2024-03-30 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "2024-01-04 23:00:00"
-- p7 = "2024-01-03 23:00:00"
-- p8 = "2024-01-04 11:30:00"
-- p9 = "2023-10-06 22:00:00"
SELECT *
FROM (
  SELECT 0 AS period, sum(i_visitors) AS visitors, sum(i_visits) AS visits, sum(i_pageviews) AS pageviews, (CAST(sum(i_pageviews) AS DOUBLE) / NULLIF(sum(i_visits), 0)) AS views_per_visit, 100 * (CAST(sum(i_bounces) AS DOUBLE) / NULLIF(sum(i_visits), 0)) AS bounce_rate, (CAST(sum(i_durationSum) AS DOUBLE) / NULLIF(sum(i_visits), 0)) AS visit_duration
  FROM (
    SELECT coalesce(sum(visits) FILTER (WHERE prev_lday < 19727), 0) AS i_visitors, sum(visits) AS i_visits, sum(pageviews) AS i_pageviews, sum(bounces) AS i_bounces, sum(duration) AS i_durationSum
    FROM day_rollup
    WHERE pkey = CAST($p1 AS BIGINT)
    AND tz = CAST($p2 AS VARCHAR)
    AND dim = CAST($p3 AS VARCHAR)
    AND lday >= 19727
    AND lday < 19813
    UNION ALL SELECT count_if(prev_any < CAST($p6 AS TIMESTAMP)) AS i_visitors, count(*) AS i_visits, sum(s_pageviews) AS i_pageviews, count_if(bounce) AS i_bounces, sum(duration) AS i_durationSum
    FROM (
      SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
      FROM sessions
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
    ) AS r0
  )
  UNION ALL SELECT 1 AS period, sum(i_visitors) AS visitors, sum(i_visits) AS visits, sum(i_pageviews) AS pageviews, (CAST(sum(i_pageviews) AS DOUBLE) / NULLIF(sum(i_visits), 0)) AS views_per_visit, 100 * (CAST(sum(i_bounces) AS DOUBLE) / NULLIF(sum(i_visits), 0)) AS bounce_rate, (CAST(sum(i_durationSum) AS DOUBLE) / NULLIF(sum(i_visits), 0)) AS visit_duration
  FROM (
    SELECT coalesce(sum(visits) FILTER (WHERE prev_lday < 19637), 0) AS i_visitors, sum(visits) AS i_visits, sum(pageviews) AS i_pageviews, sum(bounces) AS i_bounces, sum(duration) AS i_durationSum
    FROM day_rollup
    WHERE pkey = CAST($p1 AS BIGINT)
    AND tz = CAST($p2 AS VARCHAR)
    AND dim = CAST($p3 AS VARCHAR)
    AND lday >= 19637
    AND lday < 19726
    UNION ALL SELECT count_if(prev_any < CAST($p9 AS TIMESTAMP)) AS i_visitors, count(*) AS i_visits, sum(s_pageviews) AS i_pageviews, count_if(bounce) AS i_bounces, sum(duration) AS i_durationSum
    FROM (
      SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged, prev_any
      FROM sessions
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p7 AS TIMESTAMP) AND start_ts < CAST($p8 AS TIMESTAMP))
    ) AS r0
  )
)
ORDER BY period
LIMIT 2
