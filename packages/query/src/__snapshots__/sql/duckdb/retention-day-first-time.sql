-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-04-03 22:00:00"
-- p3 = "signup"
-- p4 = "pageview"
-- p5 = "/app"
-- p6 = "2024-03-04 23:00:00"
-- p7 = "2024-04-10 22:00:00"
-- p8 = "2024-03-31 01:00:00"
SELECT visitor_id AS visitor, strftime(make_timestamp((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) * 86400000000), '%Y-%m-%d') AS bucket, count_if((name = CAST($p3 AS VARCHAR) AND ts < CAST($p2 AS TIMESTAMP))) AS starts, count_if((name = CAST($p4 AS VARCHAR) AND (path = CAST($p5 AS VARCHAR)))) AS returns
FROM events
WHERE pkey = CAST($p1 AS BIGINT)
AND ts >= CAST($p6 AS TIMESTAMP)
AND ts < CAST($p7 AS TIMESTAMP)
AND ((name = CAST($p3 AS VARCHAR) AND ts < CAST($p2 AS TIMESTAMP)) OR (name = CAST($p4 AS VARCHAR) AND (path = CAST($p5 AS VARCHAR))))
GROUP BY visitor_id, ((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p8 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)
LIMIT 5000000
