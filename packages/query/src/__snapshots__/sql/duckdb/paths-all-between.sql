-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-01-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "/pricing"
-- p5 = "signup"
SELECT any_value(e_v) AS v, any_value(e_c) AS c, list(e_i ORDER BY e_t, e_i) AS items
FROM (
  SELECT skey AS e_s, vkey AS e_v, client_id AS e_c, epoch_ms(ts) AS e_t, CASE WHEN name = 'pageview' THEN path ELSE name END AS e_i
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p2 AS TIMESTAMP)
  AND ts < CAST($p3 AS TIMESTAMP)
  AND name NOT IN ('engagement', 'pageleave', 'identify')
) AS pv
GROUP BY e_s
HAVING count_if(e_i = CAST($p4 AS VARCHAR)) > 0
AND count_if(e_i = CAST($p5 AS VARCHAR)) > 0
LIMIT 5000000
