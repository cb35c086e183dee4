-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Qx7MarkA' OR '1'='1"
-- p3 = "Qx7Marka' OR '1'='1"
-- p4 = "2024-03-27 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "Qx7MarkB' OR '1'='1"
-- p7 = "^/Qx7Markb/.*$"
SELECT dim, g_visitors AS visitors, g_events AS events
FROM (
  SELECT CAST($p2 AS VARCHAR) AS dim, count(DISTINCT vkey) AS g_visitors, coalesce(sum(g_n), 0) AS g_events
  FROM (
    SELECT vkey, events AS g_n
    FROM session_events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
    AND name = CAST($p3 AS VARCHAR)
  ) AS r0
  UNION ALL SELECT CAST($p6 AS VARCHAR) AS dim, count(DISTINCT vkey) AS g_visitors, coalesce(sum(g_n), 0) AS g_events
  FROM (
    SELECT vkey, pageviews AS g_n
    FROM session_pages
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
    AND regexp_matches(path, CAST($p7 AS VARCHAR))
  ) AS r1
)
ORDER BY dim ASC
LIMIT 1 OFFSET 1
