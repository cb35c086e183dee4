-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Europe/Berlin"
-- p3 = "pageview"
-- p4 = "2024-03-31 01:00:00"
-- p5 = "2024-04-02 22:00:00"
-- p6 = "2024-04-03 22:00:00"
-- p7 = "2024-03-04 23:00:00"
-- p8 = "signup"
-- p9 = "DE"
WITH tail0 AS MATERIALIZED (
  SELECT vkey, (((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7) AS k, count(*) AS n
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p5 AS TIMESTAMP)
  AND ts < CAST($p6 AS TIMESTAMP)
  AND name = CAST($p3 AS VARCHAR)
  GROUP BY vkey, k
), sums0 AS MATERIALIZED (
  SELECT k, sum(u) AS u, sum(n) AS n, sum(ut) AS ut
  FROM (
    SELECT ((lday + 3) // 7) AS k, sum(visitors) FILTER (WHERE prev_lday < 19787 OR ((prev_lday + 3) // 7) < ((lday + 3) // 7)) AS u, sum(events) AS n, sum(visitors) FILTER (WHERE prev_lday < 19787) AS ut
    FROM activity_rollup
    WHERE pkey = CAST($p1 AS BIGINT)
    AND tz = CAST($p2 AS VARCHAR)
    AND name = CAST($p3 AS VARCHAR)
    AND lday >= 19787
    AND lday < 19816
    GROUP BY k
    UNION ALL SELECT k, count(*) FILTER (WHERE lb IS NULL OR lb < 19787 OR ((lb + 3) // 7) < k) AS u, sum(n) AS n, count(*) FILTER (WHERE (lb IS NULL OR lb < 19787) AND first_k) AS ut
    FROM (
      SELECT t.vkey, t.k, t.n, l.lb, t.k = min(t.k) OVER (PARTITION BY t.vkey) AS first_k
      FROM tail0 AS t
      LEFT JOIN (
        SELECT vkey, list_max(list_filter(days, x -> x < 19816)) AS lb
        FROM visitor_activity
        WHERE pkey = CAST($p1 AS BIGINT)
        AND tz = CAST($p2 AS VARCHAR)
        AND name = CAST($p3 AS VARCHAR)
        AND vkey IN (
          SELECT vkey
          FROM tail0 AS tv
        )
      ) AS l ON l.vkey = t.vkey
    ) AS tl
    GROUP BY k
  ) AS a
  GROUP BY k
) SELECT *
FROM (
  SELECT 0 AS series, '' AS bv, 0 AS is_total, strftime(make_timestamp(((k) * 7 - 3) * 86400000000), '%Y-%m-%d') AS bucket, CAST(u AS DOUBLE) AS value
  FROM sums0 AS sb
  UNION ALL SELECT 0 AS series, '' AS bv, 1 AS is_total, '' AS bucket, CAST(coalesce(sum(ut), 0) AS DOUBLE) AS value
  FROM sums0 AS st
  HAVING sum(n) > 0
  UNION ALL SELECT 1 AS series, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT '' AS bv, strftime(make_timestamp((((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)) * 7 - 3) * 86400000000), '%Y-%m-%d') AS bucket, CAST(count(*) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p7 AS TIMESTAMP)
    AND ts < CAST($p6 AS TIMESTAMP)
    AND name = CAST($p8 AS VARCHAR)
    AND (country = CAST($p9 AS VARCHAR))
    GROUP BY bv, (((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p4 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000 + 3) // 7)
  ) AS s1b
  UNION ALL SELECT 1 AS series, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT '' AS bv, CAST(count(*) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p7 AS TIMESTAMP)
    AND ts < CAST($p6 AS TIMESTAMP)
    AND name = CAST($p8 AS VARCHAR)
    AND (country = CAST($p9 AS VARCHAR))
    GROUP BY bv
  ) AS s1t
) AS t
ORDER BY series, is_total, bv, bucket
LIMIT 132
