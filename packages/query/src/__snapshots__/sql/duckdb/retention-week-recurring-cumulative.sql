-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "DE"
-- p3 = "FR"
-- p4 = "2024-04-03 22:00:00"
-- p5 = "pageview"
-- p6 = "plan"
-- p7 = "pro"
-- p8 = "2024-01-04 23:00:00"
-- p9 = "2024-06-02 22:00:00"
-- p10 = "2024-03-31 01:00:00"
SELECT visitor_id AS visitor, strftime(make_timestamp((((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p10 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) * 7 - 3) * 86400000000), '%Y-%m-%d') AS bucket, count_if((name = CAST($p5 AS VARCHAR) AND ts < CAST($p4 AS TIMESTAMP) AND (map_contains(props, CAST($p6 AS VARCHAR)) AND coalesce(props[CAST($p6 AS VARCHAR)], '') = CAST($p7 AS VARCHAR)))) AS starts, count_if((name = CAST($p5 AS VARCHAR))) AS returns
FROM events
WHERE pkey = CAST($p1 AS BIGINT)
AND ts >= CAST($p8 AS TIMESTAMP)
AND ts < CAST($p9 AS TIMESTAMP)
AND (country IN (CAST($p2 AS VARCHAR), CAST($p3 AS VARCHAR)))
AND ((name = CAST($p5 AS VARCHAR) AND ts < CAST($p4 AS TIMESTAMP) AND (map_contains(props, CAST($p6 AS VARCHAR)) AND coalesce(props[CAST($p6 AS VARCHAR)], '') = CAST($p7 AS VARCHAR))) OR (name = CAST($p5 AS VARCHAR)))
GROUP BY visitor_id, (((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p10 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)
LIMIT 5000000
