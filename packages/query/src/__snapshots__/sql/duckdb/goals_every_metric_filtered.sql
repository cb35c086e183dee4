-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Qx7MarkSigned up' OR '1'='1"
-- p3 = "Qx7Marksignup' OR '1'='1"
-- p4 = "2024-03-27 23:00:00"
-- p5 = "2024-04-03 22:00:00"
-- p6 = "Qx7Markdocs' OR '1'='1"
-- p7 = "Qx7Markrefund' OR '1'='1"
-- p8 = "Qx7MarkDE' OR '1'='1"
-- p9 = "Qx7MarkPricing' OR '1'='1"
-- p10 = "/Qx7Markpricing'OR'1'='1"
-- p11 = "Qx7MarkBlog' OR '1'='1"
-- p12 = "^/Qx7Markblog/[^/]*/c\\.\\(x\\)\\+/.*$"
SELECT dim, g_visitors AS visitors, g_events AS events, g_visitors AS conversions, 100 * (CAST(g_visitors AS DOUBLE) / NULLIF((
  SELECT count(DISTINCT vkey)
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
  AND country = CAST($p8 AS VARCHAR)
  AND skey IN (
    SELECT skey
    FROM session_pages
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
    AND contains(lower(path), lower(CAST($p6 AS VARCHAR)))
  )
  AND skey NOT IN (
    SELECT skey
    FROM session_events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
    AND name = CAST($p7 AS VARCHAR)
  )
), 0)) AS conversion_rate
FROM (
  SELECT CAST($p2 AS VARCHAR) AS dim, count(DISTINCT vkey) AS g_visitors, coalesce(sum(g_n), 0) AS g_events
  FROM (
    SELECT vkey, events AS g_n
    FROM session_events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
    AND name = CAST($p3 AS VARCHAR)
    AND skey IN (
      SELECT skey
      FROM session_pages
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
      AND contains(lower(path), lower(CAST($p6 AS VARCHAR)))
    )
    AND skey NOT IN (
      SELECT skey
      FROM session_events
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
      AND name = CAST($p7 AS VARCHAR)
    )
    AND skey IN (
      SELECT skey
      FROM sessions
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
      AND country = CAST($p8 AS VARCHAR)
    )
  ) AS r0
  UNION ALL SELECT CAST($p9 AS VARCHAR) AS dim, count(DISTINCT vkey) AS g_visitors, coalesce(sum(g_n), 0) AS g_events
  FROM (
    SELECT vkey, pageviews AS g_n
    FROM session_pages
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
    AND path = CAST($p10 AS VARCHAR)
    AND skey IN (
      SELECT skey
      FROM session_pages
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
      AND contains(lower(path), lower(CAST($p6 AS VARCHAR)))
    )
    AND skey NOT IN (
      SELECT skey
      FROM session_events
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
      AND name = CAST($p7 AS VARCHAR)
    )
    AND skey IN (
      SELECT skey
      FROM sessions
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
      AND country = CAST($p8 AS VARCHAR)
    )
  ) AS r1
  UNION ALL SELECT CAST($p11 AS VARCHAR) AS dim, count(DISTINCT vkey) AS g_visitors, coalesce(sum(g_n), 0) AS g_events
  FROM (
    SELECT vkey, pageviews AS g_n
    FROM session_pages
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
    AND regexp_matches(path, CAST($p12 AS VARCHAR))
    AND skey IN (
      SELECT skey
      FROM session_pages
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
      AND contains(lower(path), lower(CAST($p6 AS VARCHAR)))
    )
    AND skey NOT IN (
      SELECT skey
      FROM session_events
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
      AND name = CAST($p7 AS VARCHAR)
    )
    AND skey IN (
      SELECT skey
      FROM sessions
      WHERE pkey = CAST($p1 AS BIGINT)
      AND (start_ts >= CAST($p4 AS TIMESTAMP) AND start_ts < CAST($p5 AS TIMESTAMP))
      AND country = CAST($p8 AS VARCHAR)
    )
  ) AS r2
)
ORDER BY visitors DESC, dim ASC
LIMIT 100
