-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Markgoogle' OR '1'='1"
-- p5 = "Qx7Markbing' OR '1'='1"
-- p6 = "Qx7Markspam' OR '1'='1"
SELECT count(DISTINCT vkey) AS visitors
FROM (
  SELECT skey, vkey, start_ts
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p2 AS TIMESTAMP) AND start_ts < CAST($p3 AS TIMESTAMP))
  AND (contains(lower(referrer), lower(CAST($p4 AS VARCHAR))) OR contains(lower(referrer), lower(CAST($p5 AS VARCHAR))))
  AND NOT (contains(lower(utm_campaign), lower(CAST($p6 AS VARCHAR))))
) AS r0
LIMIT 1
