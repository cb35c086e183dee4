-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "signup"
-- p3 = "2023-12-24 23:00:00"
-- p4 = "2024-04-03 22:00:00"
-- p5 = "2024-03-31 01:00:00"
WITH active AS MATERIALIZED (
  SELECT vkey AS visitor, ((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p5 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) AS i
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p3 AS TIMESTAMP)
  AND ts < CAST($p4 AS TIMESTAMP)
  AND name = CAST($p2 AS VARCHAR)
  GROUP BY visitor, i
) SELECT k - ((((epoch_ms(CAST($p3 AS TIMESTAMP)) + 60000 * (CASE WHEN CAST($p3 AS TIMESTAMP) < CAST($p5 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) AS idx, count_if(m_act = 1 AND m_fst = 1) AS new, count_if(m_act = 1 AND m_fst = 0 AND m_was = 1) AS returning, count_if(m_act = 1 AND m_fst = 0 AND m_was = 0) AS resurrecting, count_if(m_act = 0 AND m_was = 1) AS dormant
FROM (
  SELECT k, max(act) AS m_act, max(was) AS m_was, max(fst) AS m_fst
  FROM (
    SELECT visitor, k, CASE WHEN k = i THEN 1 ELSE 0 END AS act, CASE WHEN k = i THEN 0 ELSE 1 END AS was, 0 AS fst
    FROM (
      SELECT visitor, i, unnest([i, i + 1]) AS k
      FROM active AS a
    ) AS ab
    UNION ALL SELECT visitor, i AS k, 0 AS act, 0 AS was, 1 AS fst
    FROM (
      SELECT visitor, ((((epoch_ms(first_ts) + 60000 * (CASE WHEN first_ts < CAST($p5 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) AS i
      FROM (
        SELECT vkey AS visitor, min(ts) AS first_ts
        FROM events
        WHERE pkey = CAST($p1 AS BIGINT)
        AND ts < CAST($p4 AS TIMESTAMP)
        AND vkey IN (
          SELECT visitor
          FROM active AS aw
        )
        GROUP BY visitor
      ) AS f
      WHERE first_ts >= CAST($p3 AS TIMESTAMP)
    ) AS c
  ) AS m
  GROUP BY visitor, k
) AS t
GROUP BY k
ORDER BY idx
LIMIT 2000
