-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "Europe/Berlin"
-- p3 = "pageview"
-- p4 = "city"
-- p5 = "2024-04-02 22:00:00"
-- p6 = "2024-04-03 22:00:00"
-- p7 = "2024-03-31 01:00:00"
-- p8 = "2024-03-04 23:00:00"
-- p9 = "$other"
-- p10 = "signup"
-- p11 = "/pricing"
WITH brr0 AS MATERIALIZED (
  SELECT value, lday, prev_lday, visitors, events
  FROM breakdown_rollup
  WHERE pkey = CAST($p1 AS BIGINT)
  AND tz = CAST($p2 AS VARCHAR)
  AND name = CAST($p3 AS VARCHAR)
  AND dim = CAST($p4 AS VARCHAR)
  AND lday >= 19787
  AND lday < 19816
), brt0 AS MATERIALIZED (
  SELECT v
  FROM (
    SELECT value AS v, sum(events) AS n
    FROM brr0 AS r
    GROUP BY v
    UNION ALL SELECT city AS v, count(*) AS n
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p5 AS TIMESTAMP)
    AND ts < CAST($p6 AS TIMESTAMP)
    AND name = CAST($p3 AS VARCHAR)
    GROUP BY v
  ) AS c
  GROUP BY v
  ORDER BY sum(n) DESC, v
  LIMIT 3
), bre0 AS MATERIALIZED (
  SELECT vkey, city AS value, ((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000) AS k, ts < CAST($p5 AS TIMESTAMP) AS pre
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p8 AS TIMESTAMP)
  AND ts < CAST($p6 AS TIMESTAMP)
  AND name = CAST($p3 AS VARCHAR)
  AND vkey IN (
    SELECT vkey
    FROM breakdown_multi
    WHERE pkey = CAST($p1 AS BIGINT)
    AND tz = CAST($p2 AS VARCHAR)
    AND name = CAST($p3 AS VARCHAR)
    AND dim = CAST($p4 AS VARCHAR)
    UNION ALL SELECT vkey
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p5 AS TIMESTAMP)
    AND ts < CAST($p6 AS TIMESTAMP)
    AND name = CAST($p3 AS VARCHAR)
  )
), brc0 AS MATERIALIZED (
  SELECT bv, k, coalesce(sum(u), 0) AS u, sum(n) AS n
  FROM (
    SELECT CASE WHEN value IN (
      SELECT v FROM brt0 AS tv
    ) THEN value ELSE CAST($p9 AS VARCHAR) END AS bv, lday AS k, sum(visitors) FILTER (WHERE prev_lday < 19787 OR prev_lday < lday) AS u, sum(events) AS n
    FROM brr0 AS r
    GROUP BY ALL
    UNION ALL SELECT CASE WHEN value IN (
      SELECT v FROM brt0 AS tv
    ) THEN value ELSE CAST($p9 AS VARCHAR) END AS bv, k, count(DISTINCT vkey) - count(DISTINCT struct_pack(v := vkey, x := value)) FILTER (WHERE pre) AS u, count(*) FILTER (WHERE NOT pre) AS n
    FROM bre0 AS e
    GROUP BY ALL
  ) AS a
  GROUP BY bv, k
), brs0 AS MATERIALIZED (
  SELECT bv, coalesce(sum(ut), 0) AS ut, sum(n) AS n
  FROM (
    SELECT CASE WHEN value IN (
      SELECT v FROM brt0 AS tv
    ) THEN value ELSE CAST($p9 AS VARCHAR) END AS bv, sum(visitors) FILTER (WHERE prev_lday < 19787) AS ut, sum(events) AS n
    FROM brr0 AS r
    GROUP BY ALL
    UNION ALL SELECT CASE WHEN value IN (
      SELECT v FROM brt0 AS tv
    ) THEN value ELSE CAST($p9 AS VARCHAR) END AS bv, count(DISTINCT vkey) - count(DISTINCT struct_pack(v := vkey, x := value)) FILTER (WHERE pre) AS ut, count(*) FILTER (WHERE NOT pre) AS n
    FROM bre0 AS e
    GROUP BY ALL
  ) AS a
  GROUP BY bv
), top1 AS MATERIALIZED (
  SELECT city AS v
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p8 AS TIMESTAMP)
  AND ts < CAST($p6 AS TIMESTAMP)
  AND name = CAST($p10 AS VARCHAR)
  AND (path = CAST($p11 AS VARCHAR))
  GROUP BY v
  ORDER BY count(*) DESC, v
  LIMIT 3
) SELECT *
FROM (
  SELECT 0 AS series, bv, 0 AS is_total, strftime(make_timestamp((k) * 86400000000), '%Y-%m-%d') AS bucket, CAST(u AS DOUBLE) AS value
  FROM brc0 AS sb
  UNION ALL SELECT 0 AS series, bv, 1 AS is_total, '' AS bucket, CAST(ut AS DOUBLE) AS value
  FROM brs0 AS st
  UNION ALL SELECT 1 AS series, bv, 0 AS is_total, bucket, value
  FROM (
    SELECT CASE WHEN city IN (
      SELECT v FROM top1 AS tv
    ) THEN city ELSE CAST($p9 AS VARCHAR) END AS bv, strftime(make_timestamp((((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)) * 86400000000), '%Y-%m-%d') AS bucket, CAST(count(*) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p8 AS TIMESTAMP)
    AND ts < CAST($p6 AS TIMESTAMP)
    AND name = CAST($p10 AS VARCHAR)
    AND (path = CAST($p11 AS VARCHAR))
    GROUP BY bv, ((epoch_ms(ts) + 60000 * (CASE WHEN ts < CAST($p7 AS TIMESTAMP) THEN 60 ELSE 120 END)) // 86400000)
  ) AS s1b
  UNION ALL SELECT 1 AS series, bv, 1 AS is_total, '' AS bucket, value
  FROM (
    SELECT CASE WHEN city IN (
      SELECT v FROM top1 AS tv
    ) THEN city ELSE CAST($p9 AS VARCHAR) END AS bv, CAST(count(*) AS DOUBLE) AS value
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p8 AS TIMESTAMP)
    AND ts < CAST($p6 AS TIMESTAMP)
    AND name = CAST($p10 AS VARCHAR)
    AND (path = CAST($p11 AS VARCHAR))
    GROUP BY bv
  ) AS s1t
) AS t
ORDER BY series, is_total, bv, bucket
LIMIT 248
