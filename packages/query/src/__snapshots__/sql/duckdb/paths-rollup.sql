-- p1 = "Qx7MarkProp" (bound as the property's key)
-- p2 = "2024-03-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-04-02 22:00:00"
-- p5 = "Europe/Berlin"
WITH p_over AS MATERIALIZED (
  SELECT skey, vkey, start_ts < CAST($p2 AS TIMESTAMP) AS before
  FROM sessions
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ((start_ts < CAST($p2 AS TIMESTAMP) AND end_ts >= CAST($p2 AS TIMESTAMP)) OR (start_ts < CAST($p4 AS TIMESTAMP) AND end_ts >= CAST($p4 AS TIMESTAMP)))
), p_s AS MATERIALIZED (
  SELECT vkey
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND name = 'pageview'
  AND ts >= CAST($p4 AS TIMESTAMP)
  AND ts < CAST($p3 AS TIMESTAMP) UNION SELECT vkey
  FROM p_over AS o0
), p_ev AS MATERIALIZED (
  SELECT skey, vkey, ts, CASE WHEN name = 'pageview' THEN path END AS path
  FROM events
  WHERE pkey = CAST($p1 AS BIGINT)
  AND ts >= CAST($p2 AS TIMESTAMP)
  AND vkey IN (
    SELECT vkey
    FROM p_s AS s0
  )
), p_ids AS MATERIALIZED (
  SELECT page, id
  FROM paths_pages
  WHERE pkey = CAST($p1 AS BIGINT)
  UNION ALL SELECT page, -CAST(row_number() OVER (ORDER BY page) AS INTEGER)
  FROM (
    SELECT DISTINCT path AS page
    FROM p_ev AS n0
    WHERE path IS NOT NULL
    AND path NOT IN (
      SELECT page
      FROM paths_pages
      WHERE pkey = CAST($p1 AS BIGINT)
    )
  ) AS np
), p_evn AS MATERIALIZED (
  SELECT e.skey, e.vkey, e.ts, e.path, i.id AS pid
  FROM p_ev AS e
  LEFT JOIN p_ids AS i ON i.page = e.path
), p_cut AS MATERIALIZED (
  SELECT vkey, list_slice(list_filter(items, (x, i) -> i = 1 OR x <> items[i - 1]), 1, 5) AS path
  FROM (
    SELECT any_value(vkey) AS vkey, list_transform(list_filter(list_sort(list(struct_pack(t := epoch_ms(ts), i := path, d := pid))), x -> x.i IS NOT NULL), x -> x.d) AS items
    FROM p_evn AS c0
    WHERE ts < CAST($p3 AS TIMESTAMP)
    GROUP BY skey
    HAVING count(path) > 0
  ) AS it
), p_whole AS MATERIALIZED (
  SELECT vkey, list_slice(list_filter(items, (x, i) -> i = 1 OR x <> items[i - 1]), 1, 5) AS path
  FROM (
    SELECT any_value(vkey) AS vkey, list_transform(list_filter(list_sort(list(struct_pack(t := epoch_ms(ts), i := path, d := pid))), x -> x.i IS NOT NULL), x -> x.d) AS items
    FROM p_evn AS w0
    GROUP BY skey
    HAVING count(path) > 0
    AND skey NOT IN (
      SELECT skey
      FROM p_over AS o1
      WHERE before
    )
    AND (skey IN (
      SELECT skey
      FROM p_over AS o2
    ) OR min(ts) < CAST($p4 AS TIMESTAMP))
  ) AS it
), p_swap AS MATERIALIZED (
  SELECT kind, step, source, target, sum(sign) AS visitors
  FROM (
    SELECT kind, step, source, target, 1 AS sign
    FROM (
      SELECT DISTINCT *
      FROM (
        SELECT vkey, 1 AS kind, k AS step, path[k] AS source, 0 AS target
        FROM (
          SELECT vkey, path, unnest(generate_series(1, len(path))) AS k
          FROM (
            SELECT *
            FROM p_cut
          ) AS pp
        ) AS n1
        UNION ALL SELECT vkey, 0 AS kind, k AS step, path[k] AS source, path[k + 1] AS target
        FROM (
          SELECT vkey, path, unnest(generate_series(1, len(path))) AS k
          FROM (
            SELECT *
            FROM p_cut
          ) AS pp
        ) AS e1
        WHERE k < len(path)
      ) AS u
    ) AS c1
    UNION ALL SELECT kind, step, source, target, -1 AS sign
    FROM (
      SELECT DISTINCT *
      FROM (
        SELECT vkey, 1 AS kind, k AS step, path[k] AS source, 0 AS target
        FROM (
          SELECT vkey, path, unnest(generate_series(1, len(path))) AS k
          FROM (
            SELECT *
            FROM p_whole
          ) AS pp
        ) AS n1
        UNION ALL SELECT vkey, 0 AS kind, k AS step, path[k] AS source, path[k + 1] AS target
        FROM (
          SELECT vkey, path, unnest(generate_series(1, len(path))) AS k
          FROM (
            SELECT *
            FROM p_whole
          ) AS pp
        ) AS e1
        WHERE k < len(path)
      ) AS u
    ) AS w1
    UNION ALL SELECT 2, 0, 0, 0, 1
    FROM p_cut AS c2
    UNION ALL SELECT 2, 0, 0, 0, -1
    FROM p_whole AS w2
  ) AS sw
  GROUP BY ALL
), p_edges AS MATERIALIZED (
  SELECT g.step, a.page AS source, b.page AS target, g.visitors, g.source AS sid, g.target AS tid
  FROM (
    SELECT step, source, target, sum(visitors) AS visitors
    FROM (
      SELECT step, source, target, visitors
      FROM paths_rollup
      WHERE pkey = CAST($p1 AS BIGINT)
      AND tz = CAST($p5 AS VARCHAR)
      AND lday >= 19787
      AND lday < 19816
      AND kind = 0
      AND prev_lday < 19787
      AND step < 5
      UNION ALL SELECT step, source, target, visitors
      FROM p_swap AS sw0
      WHERE kind = 0
    ) AS t0
    GROUP BY ALL
    HAVING sum(visitors) > 0
  ) AS g
  JOIN p_ids AS a ON a.id = g.source
  JOIN p_ids AS b ON b.id = g.target
  ORDER BY g.visitors DESC, g.step, a.page, b.page
  LIMIT 50
) SELECT 0 AS kind, step, source, target, visitors
FROM p_edges AS e0
UNION ALL SELECT 1, step, source, '', visitors
FROM (
  SELECT g.step, a.page AS source, g.visitors
  FROM (
    SELECT step, source, target, sum(visitors) AS visitors
    FROM (
      SELECT step, source, target, visitors
      FROM paths_rollup
      WHERE pkey = CAST($p1 AS BIGINT)
      AND tz = CAST($p5 AS VARCHAR)
      AND lday >= 19787
      AND lday < 19816
      AND kind = 1
      AND prev_lday < 19787
      AND step <= 5
      AND (source IN (
        SELECT sid
        FROM p_edges AS m1
      ) OR source IN (
        SELECT tid
        FROM p_edges AS m2
      ))
      UNION ALL SELECT step, source, target, visitors
      FROM p_swap AS sw0
      WHERE kind = 1
      AND (source IN (
        SELECT sid
        FROM p_edges AS k1
      ) OR source IN (
        SELECT tid
        FROM p_edges AS k2
      ))
    ) AS t0
    GROUP BY ALL
    HAVING sum(visitors) > 0
  ) AS g
  JOIN p_ids AS a ON a.id = g.source
) AS n0
UNION ALL SELECT 2, 0, '', '', coalesce(sum(visitors), 0)
FROM (
  SELECT step, source, target, sum(visitors) AS visitors
  FROM (
    SELECT step, source, target, visitors
    FROM paths_rollup
    WHERE pkey = CAST($p1 AS BIGINT)
    AND tz = CAST($p5 AS VARCHAR)
    AND lday >= 19787
    AND lday < 19816
    AND kind = 2
    UNION ALL SELECT step, source, target, visitors
    FROM p_swap AS sw0
    WHERE kind = 2
  ) AS t0
  GROUP BY ALL
  HAVING sum(visitors) > 0
) AS c0
LIMIT 1051
