-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "DE"
-- p5 = "/"
WITH p_items AS MATERIALIZED (
  SELECT i, CAST(row_number() OVER (ORDER BY i) AS INTEGER) AS id
  FROM (
    SELECT DISTINCT path AS i
    FROM events
    WHERE pkey = CAST($p1 AS BIGINT)
    AND ts >= CAST($p2 AS TIMESTAMP)
    AND ts < CAST($p3 AS TIMESTAMP)
    AND name = 'pageview'
    AND (country = CAST($p4 AS VARCHAR))
  ) AS di
), p_steps AS MATERIALIZED (
  SELECT v, k, n, path[k] AS source, path[k + 1] AS target
  FROM (
    SELECT v, path, len(path) AS n, unnest(generate_series(1, len(path))) AS k
    FROM (
      SELECT v, list_slice(cl, fr, fr + 5 - 1) AS path
      FROM (
        SELECT v, cl, fr
        FROM (
          SELECT v, cl, coalesce(list_position(cl, (
            SELECT id
            FROM p_items AS da
            WHERE i = CAST($p5 AS VARCHAR)
          )), 0) AS fr
          FROM (
            SELECT v, list_filter(items, (x, i) -> i = 1 OR x <> items[i - 1]) AS cl
            FROM (
              SELECT any_value(e_v) AS v, any_value(e_c) AS c, list_transform(list_sort(list(struct_pack(t := e_t, i := e_i))), x -> x.i) AS items
              FROM (
                SELECT e_s, e_v, e_c, e_t, di.id AS e_i
                FROM (
                  SELECT skey AS e_s, vkey AS e_v, client_id AS e_c, epoch_ms(ts) AS e_t, path AS e_i
                  FROM events
                  WHERE pkey = CAST($p1 AS BIGINT)
                  AND ts >= CAST($p2 AS TIMESTAMP)
                  AND ts < CAST($p3 AS TIMESTAMP)
                  AND name = 'pageview'
                  AND (country = CAST($p4 AS VARCHAR))
                ) AS ev
                JOIN p_items AS di ON ev.e_i = di.i
              ) AS pv
              GROUP BY e_s
              HAVING count_if(e_i = (
                SELECT id
                FROM p_items AS da
                WHERE i = CAST($p5 AS VARCHAR)
              )) > 0
            ) AS vs
          ) AS l1
        ) AS l2
        WHERE fr > 0
      ) AS l3
    ) AS pp
  ) AS ps
), p_edges AS MATERIALIZED (
  SELECT k AS step, source, target, count(DISTINCT v) AS visitors
  FROM p_steps AS s1
  WHERE k < n
  GROUP BY step, source, target
  ORDER BY visitors DESC, step, source, target
  LIMIT 50
) SELECT kind, step, coalesce((
  SELECT i
  FROM p_items AS dn
  WHERE id = t.source
), '') AS source, coalesce((
  SELECT i
  FROM p_items AS dn
  WHERE id = t.target
), '') AS target, visitors
FROM (
  SELECT 0 AS kind, step, source, target, visitors
  FROM p_edges AS e0
  UNION ALL SELECT 1 AS kind, k AS step, source, NULL AS target, count(DISTINCT v) AS visitors
  FROM p_steps AS s2
  WHERE source IN (
    SELECT unnest([source, target]) AS item
    FROM p_edges AS e1
  )
  GROUP BY step, source
  UNION ALL SELECT 2 AS kind, 0 AS step, NULL AS source, NULL AS target, count() AS visitors
  FROM p_steps AS p0
  WHERE k = 1
) AS t
LIMIT 1051
