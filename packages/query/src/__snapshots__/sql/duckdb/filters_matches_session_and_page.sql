-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "^Qx7Mark(Chrome|Edge)$"
-- p5 = "^/Qx7Markdocs/.*"
SELECT count(DISTINCT vkey) AS visitors, sum(pf_pageviews) AS pageviews, (CAST(sum(pf_engaged) AS DOUBLE) / NULLIF(sum(pf_pageviews), 0)) / 1000 AS time_on_page
FROM (
  SELECT skey, vkey, start_ts
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
  AND regexp_matches(browser, CAST($p4 AS VARCHAR))
  AND skey IN (
    SELECT skey
    FROM session_pages
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
    AND regexp_matches(path, CAST($p5 AS VARCHAR))
  )
) AS r0
JOIN (
  SELECT skey, sum(pageviews) AS pf_pageviews, sum(engaged_ms) AS pf_engaged
  FROM session_pages
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
  AND regexp_matches(path, CAST($p5 AS VARCHAR))
  GROUP BY skey
) AS r1 USING (skey)
LIMIT 1
