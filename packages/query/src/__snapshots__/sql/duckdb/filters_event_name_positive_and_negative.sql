-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Qx7Marksignup' OR '1'='1"
-- p3 = "2024-03-27 23:00:00"
-- p4 = "2024-04-03 22:00:00"
-- p5 = "Qx7Markrefund' OR '1'='1"
SELECT count(DISTINCT vkey) AS visitors, sum(ef_events) AS events
FROM (
  SELECT skey, vkey, start_ts
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p3 AS TIMESTAMP) AND start_ts < CAST($p4 AS TIMESTAMP))
  AND skey IN (
    SELECT skey
    FROM session_events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p3 AS TIMESTAMP) AND start_ts < CAST($p4 AS TIMESTAMP))
    AND name = CAST($p2 AS VARCHAR)
  )
  AND skey NOT IN (
    SELECT skey
    FROM session_events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND (start_ts >= CAST($p3 AS TIMESTAMP) AND start_ts < CAST($p4 AS TIMESTAMP))
    AND name = CAST($p5 AS VARCHAR)
  )
) AS r0
JOIN (
  SELECT skey, sum(events) AS ef_events
  FROM session_events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND (start_ts >= CAST($p3 AS TIMESTAMP) AND start_ts < CAST($p4 AS TIMESTAMP))
  AND name = CAST($p2 AS VARCHAR)
  GROUP BY skey
) AS r1 USING (skey)
LIMIT 1
