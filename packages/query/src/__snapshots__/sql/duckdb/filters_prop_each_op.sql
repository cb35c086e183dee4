-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Qx7Markplan"
-- p3 = "Qx7Markpro' OR '1'='1"
-- p4 = "Qx7Marksrc"
-- p5 = "Qx7Markform' OR '1'='1"
-- p6 = "Qx7Markab"
-- p7 = "^Qx7Markv[0-9]+$"
-- p8 = "2024-03-27 23:00:00"
-- p9 = "2024-04-03 22:00:00"
-- p10 = "2024-04-04 22:00:00"
-- p11 = "Qx7Markfree' OR '1'='1"
-- p12 = "Qx7Markapi' OR '1'='1"
SELECT count(DISTINCT vkey) AS visitors, sum(ef_events) AS events
FROM (
  SELECT skey, vkey, start_ts
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p8 AS TIMESTAMP) AND start_ts < CAST($p9 AS TIMESTAMP))
  AND skey IN (
    SELECT skey
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p8 AS TIMESTAMP)
    AND ts < CAST($p10 AS TIMESTAMP)
    AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
    AND map_contains(props, CAST($p2 AS VARCHAR))
    AND coalesce(props[CAST($p2 AS VARCHAR)], '') = CAST($p3 AS VARCHAR)
    AND map_contains(props, CAST($p4 AS VARCHAR))
    AND contains(lower(coalesce(props[CAST($p4 AS VARCHAR)], '')), lower(CAST($p5 AS VARCHAR)))
    AND map_contains(props, CAST($p6 AS VARCHAR))
    AND regexp_matches(coalesce(props[CAST($p6 AS VARCHAR)], ''), CAST($p7 AS VARCHAR))
  )
  AND skey NOT IN (
    SELECT skey
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p8 AS TIMESTAMP)
    AND ts < CAST($p10 AS TIMESTAMP)
    AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
    AND map_contains(props, CAST($p2 AS VARCHAR))
    AND coalesce(props[CAST($p2 AS VARCHAR)], '') = CAST($p11 AS VARCHAR)
  )
  AND skey NOT IN (
    SELECT skey
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p8 AS TIMESTAMP)
    AND ts < CAST($p10 AS TIMESTAMP)
    AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
    AND map_contains(props, CAST($p4 AS VARCHAR))
    AND contains(lower(coalesce(props[CAST($p4 AS VARCHAR)], '')), lower(CAST($p12 AS VARCHAR)))
  )
) AS r0
JOIN (
  SELECT skey AS skey, count(*) AS ef_events
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p8 AS TIMESTAMP)
  AND ts < CAST($p10 AS TIMESTAMP)
  AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
  AND map_contains(props, CAST($p2 AS VARCHAR))
  AND coalesce(props[CAST($p2 AS VARCHAR)], '') = CAST($p3 AS VARCHAR)
  AND map_contains(props, CAST($p4 AS VARCHAR))
  AND contains(lower(coalesce(props[CAST($p4 AS VARCHAR)], '')), lower(CAST($p5 AS VARCHAR)))
  AND map_contains(props, CAST($p6 AS VARCHAR))
  AND regexp_matches(coalesce(props[CAST($p6 AS VARCHAR)], ''), CAST($p7 AS VARCHAR))
  GROUP BY skey
) AS r1 USING (skey)
LIMIT 1
