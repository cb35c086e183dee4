-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "pageview"
-- p3 = "/pricing"
-- p4 = "signup"
-- p5 = "purchase"
-- p6 = "plan"
-- p7 = "pro"
-- p8 = "cancel"
-- p9 = "2024-03-04 23:00:00"
-- p10 = "2024-04-03 22:00:00"
-- p11 = "DE"
-- p12 = "FR"
WITH fe AS MATERIALIZED (
  SELECT vkey AS k, epoch_ms(ts) AS t, CASE WHEN (name = CAST($p2 AS VARCHAR) AND (path = CAST($p3 AS VARCHAR))) THEN 1 ELSE 0 END + CASE WHEN (name = CAST($p4 AS VARCHAR)) THEN 2 ELSE 0 END + CASE WHEN (name = CAST($p5 AS VARCHAR) AND (map_contains(props, CAST($p6 AS VARCHAR)) AND coalesce(props[CAST($p6 AS VARCHAR)], '') = CAST($p7 AS VARCHAR))) THEN 4 ELSE 0 END AS m, CASE WHEN (name = CAST($p8 AS VARCHAR)) THEN 1 ELSE 0 END AS x, '' AS bv
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p9 AS TIMESTAMP)
  AND ts < CAST($p10 AS TIMESTAMP)
  AND (name IN (CAST($p4 AS VARCHAR), CAST($p8 AS VARCHAR)) OR (name = CAST($p2 AS VARCHAR) AND (path = CAST($p3 AS VARCHAR))) OR (name = CAST($p5 AS VARCHAR) AND (map_contains(props, CAST($p6 AS VARCHAR)) AND coalesce(props[CAST($p6 AS VARCHAR)], '') = CAST($p7 AS VARCHAR))))
  AND (country IN (CAST($p11 AS VARCHAR), CAST($p12 AS VARCHAR)))
) SELECT string_agg(evs, ';') AS evs
FROM (
  SELECT hash(k) % 32 AS part, string_agg(concat(CAST(t AS VARCHAR), ':', CAST(m AS VARCHAR), ':', CAST(x AS VARCHAR), ':', hex('')), ',') AS evs
  FROM fe AS f
  JOIN (
    SELECT k, min(t) AS f1, max(t) AS l1
    FROM fe AS g
    WHERE m % 2 = 1
    GROUP BY k
  ) AS b USING (k)
  WHERE t >= f1
  AND t <= l1 + 1209600000
  GROUP BY k
  LIMIT 5000000
) AS pv
GROUP BY part
LIMIT 32

-- the visitors' statement (a step's visitors)
WITH fe AS MATERIALIZED (
  SELECT vkey AS k, client_id AS cid, epoch_ms(ts) AS t, CASE WHEN (name = CAST($p2 AS VARCHAR) AND (path = CAST($p3 AS VARCHAR))) THEN 1 ELSE 0 END + CASE WHEN (name = CAST($p4 AS VARCHAR)) THEN 2 ELSE 0 END + CASE WHEN (name = CAST($p5 AS VARCHAR) AND (map_contains(props, CAST($p6 AS VARCHAR)) AND coalesce(props[CAST($p6 AS VARCHAR)], '') = CAST($p7 AS VARCHAR))) THEN 4 ELSE 0 END AS m, CASE WHEN (name = CAST($p8 AS VARCHAR)) THEN 1 ELSE 0 END AS x, '' AS bv
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p9 AS TIMESTAMP)
  AND ts < CAST($p10 AS TIMESTAMP)
  AND (name IN (CAST($p4 AS VARCHAR), CAST($p8 AS VARCHAR)) OR (name = CAST($p2 AS VARCHAR) AND (path = CAST($p3 AS VARCHAR))) OR (name = CAST($p5 AS VARCHAR) AND (map_contains(props, CAST($p6 AS VARCHAR)) AND coalesce(props[CAST($p6 AS VARCHAR)], '') = CAST($p7 AS VARCHAR))))
  AND (country IN (CAST($p11 AS VARCHAR), CAST($p12 AS VARCHAR)))
) SELECT string_agg(concat(hex(mcid), '|', evs), ';') AS evs
FROM (
  SELECT hash(k) % 32 AS part, max(cid) AS mcid, string_agg(concat(CAST(t AS VARCHAR), ':', CAST(m AS VARCHAR), ':', CAST(x AS VARCHAR), ':', hex('')), ',') FILTER (WHERE t >= f1 AND t <= l1 + 1209600000) AS evs
  FROM fe AS f
  JOIN (
    SELECT k, min(t) AS f1, max(t) AS l1
    FROM fe AS g
    WHERE m % 2 = 1
    GROUP BY k
  ) AS b USING (k)
  GROUP BY k
  LIMIT 5000000
) AS pv
GROUP BY part
LIMIT 32
