-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Mark/pricing' OR '1'='1"
-- p5 = "Qx7Markadmin' OR '1'='1"
SELECT count(DISTINCT vkey) AS visitors, sum(s_pageviews) AS pageviews, 100 * (CAST(count_if(bounce) AS DOUBLE) / NULLIF(count(*), 0)) AS bounce_rate
FROM (
  SELECT skey, vkey, start_ts, bounce, duration, pageviews AS s_pageviews, engaged_ms AS s_engaged
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
  AND skey NOT IN (
    SELECT skey
    FROM session_pages
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
    AND path = CAST($p4 AS VARCHAR)
  )
  AND skey NOT IN (
    SELECT skey
    FROM session_pages
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
    AND contains(lower(path), lower(CAST($p5 AS VARCHAR)))
  )
) AS r0
LIMIT 1
