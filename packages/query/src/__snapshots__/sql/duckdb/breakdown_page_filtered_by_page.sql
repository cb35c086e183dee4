-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Markblog' OR '1'='1"
-- p5 = "Qx7Mark/admin' OR '1'='1"
SELECT path AS dim, count(DISTINCT vkey) AS visitors, sum(p_pageviews) AS pageviews
FROM (
  SELECT skey, vkey, start_ts, path, pageviews AS p_pageviews, engaged_ms AS p_engaged
  FROM session_pages
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
  AND contains(lower(path), lower(CAST($p4 AS VARCHAR)))
  AND skey NOT IN (
    SELECT skey
    FROM session_pages
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
    AND path = CAST($p5 AS VARCHAR)
  )
) AS r0
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 100
