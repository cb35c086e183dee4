-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "purchase"
SELECT kind, step, source, target, visitors
FROM (
  SELECT 0 AS kind, step, source, target, visitors
  FROM (
    SELECT k AS step, source, target, uniqExact(v) AS visitors
    FROM (
      SELECT v, k, n, path[k] AS source, path[k + 1] AS target
      FROM (
        SELECT v, path, toInt64(length(path)) AS n, toInt64(arrayJoin(arrayEnumerate(path))) AS k
        FROM (
          SELECT v, arraySlice(cl, st, fr + rl - st) AS path
          FROM (
            SELECT v, cl, fr, rl, greatest(fr, fr + rl - 4) AS st
            FROM (
              SELECT v, cl, fr, toInt64(indexOf(arraySlice(cl, fr, toInt64(length(cl)) - fr + 1), {p4:String})) AS rl
              FROM (
                SELECT v, cl, 1 AS fr
                FROM (
                  SELECT v, arrayFilter((x, i) -> i = 1 OR x != items[i - 1], items, arrayEnumerate(items)) AS cl
                  FROM (
                    SELECT any(e_v) AS v, any(e_c) AS c, arrayMap(x -> x.2, arraySort(groupArray((e_t, e_i)))) AS items
                    FROM (
                      SELECT cityHash64(session_id) AS e_s, cityHash64(visitor_id) AS e_v, client_id AS e_c, toUInt64(ts) * 1000 + ts_ms AS e_t, name AS e_i
                      FROM events
                      WHERE property = {p1:String}
                      AND ts >= toDateTime({p2:String}, 'UTC')
                      AND ts < toDateTime({p3:String}, 'UTC')
                      AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
                    ) AS pv
                    GROUP BY e_s
                    HAVING countIf(e_i = {p4:String}) > 0
                  ) AS vs
                ) AS l1
              ) AS l2
              WHERE fr > 0
            ) AS l3
            WHERE rl > 0
          ) AS l4
        ) AS pp
      ) AS ps
    ) AS s1
    WHERE k < n
    GROUP BY step, source, target
    ORDER BY visitors DESC, step, source, target
    LIMIT 0, 50
  ) AS e0
  UNION ALL SELECT 1 AS kind, k AS step, source, '' AS target, uniqExact(v) AS visitors
  FROM (
    SELECT v, k, n, path[k] AS source, path[k + 1] AS target
    FROM (
      SELECT v, path, toInt64(length(path)) AS n, toInt64(arrayJoin(arrayEnumerate(path))) AS k
      FROM (
        SELECT v, arraySlice(cl, st, fr + rl - st) AS path
        FROM (
          SELECT v, cl, fr, rl, greatest(fr, fr + rl - 4) AS st
          FROM (
            SELECT v, cl, fr, toInt64(indexOf(arraySlice(cl, fr, toInt64(length(cl)) - fr + 1), {p4:String})) AS rl
            FROM (
              SELECT v, cl, 1 AS fr
              FROM (
                SELECT v, arrayFilter((x, i) -> i = 1 OR x != items[i - 1], items, arrayEnumerate(items)) AS cl
                FROM (
                  SELECT any(e_v) AS v, any(e_c) AS c, arrayMap(x -> x.2, arraySort(groupArray((e_t, e_i)))) AS items
                  FROM (
                    SELECT cityHash64(session_id) AS e_s, cityHash64(visitor_id) AS e_v, client_id AS e_c, toUInt64(ts) * 1000 + ts_ms AS e_t, name AS e_i
                    FROM events
                    WHERE property = {p1:String}
                    AND ts >= toDateTime({p2:String}, 'UTC')
                    AND ts < toDateTime({p3:String}, 'UTC')
                    AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
                  ) AS pv
                  GROUP BY e_s
                  HAVING countIf(e_i = {p4:String}) > 0
                ) AS vs
              ) AS l1
            ) AS l2
            WHERE fr > 0
          ) AS l3
          WHERE rl > 0
        ) AS l4
      ) AS pp
    ) AS ps
  ) AS s2
  WHERE source IN (
    SELECT arrayJoin([source, target]) AS item
    FROM (
      SELECT k AS step, source, target, uniqExact(v) AS visitors
      FROM (
        SELECT v, k, n, path[k] AS source, path[k + 1] AS target
        FROM (
          SELECT v, path, toInt64(length(path)) AS n, toInt64(arrayJoin(arrayEnumerate(path))) AS k
          FROM (
            SELECT v, arraySlice(cl, st, fr + rl - st) AS path
            FROM (
              SELECT v, cl, fr, rl, greatest(fr, fr + rl - 4) AS st
              FROM (
                SELECT v, cl, fr, toInt64(indexOf(arraySlice(cl, fr, toInt64(length(cl)) - fr + 1), {p4:String})) AS rl
                FROM (
                  SELECT v, cl, 1 AS fr
                  FROM (
                    SELECT v, arrayFilter((x, i) -> i = 1 OR x != items[i - 1], items, arrayEnumerate(items)) AS cl
                    FROM (
                      SELECT any(e_v) AS v, any(e_c) AS c, arrayMap(x -> x.2, arraySort(groupArray((e_t, e_i)))) AS items
                      FROM (
                        SELECT cityHash64(session_id) AS e_s, cityHash64(visitor_id) AS e_v, client_id AS e_c, toUInt64(ts) * 1000 + ts_ms AS e_t, name AS e_i
                        FROM events
                        WHERE property = {p1:String}
                        AND ts >= toDateTime({p2:String}, 'UTC')
                        AND ts < toDateTime({p3:String}, 'UTC')
                        AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
                      ) AS pv
                      GROUP BY e_s
                      HAVING countIf(e_i = {p4:String}) > 0
                    ) AS vs
                  ) AS l1
                ) AS l2
                WHERE fr > 0
              ) AS l3
              WHERE rl > 0
            ) AS l4
          ) AS pp
        ) AS ps
      ) AS s1
      WHERE k < n
      GROUP BY step, source, target
      ORDER BY visitors DESC, step, source, target
      LIMIT 0, 50
    ) AS e1
  )
  GROUP BY step, source
  UNION ALL SELECT 2 AS kind, 0 AS step, '' AS source, '' AS target, count() AS visitors
  FROM (
    SELECT v, k, n, path[k] AS source, path[k + 1] AS target
    FROM (
      SELECT v, path, toInt64(length(path)) AS n, toInt64(arrayJoin(arrayEnumerate(path))) AS k
      FROM (
        SELECT v, arraySlice(cl, st, fr + rl - st) AS path
        FROM (
          SELECT v, cl, fr, rl, greatest(fr, fr + rl - 4) AS st
          FROM (
            SELECT v, cl, fr, toInt64(indexOf(arraySlice(cl, fr, toInt64(length(cl)) - fr + 1), {p4:String})) AS rl
            FROM (
              SELECT v, cl, 1 AS fr
              FROM (
                SELECT v, arrayFilter((x, i) -> i = 1 OR x != items[i - 1], items, arrayEnumerate(items)) AS cl
                FROM (
                  SELECT any(e_v) AS v, any(e_c) AS c, arrayMap(x -> x.2, arraySort(groupArray((e_t, e_i)))) AS items
                  FROM (
                    SELECT cityHash64(session_id) AS e_s, cityHash64(visitor_id) AS e_v, client_id AS e_c, toUInt64(ts) * 1000 + ts_ms AS e_t, name AS e_i
                    FROM events
                    WHERE property = {p1:String}
                    AND ts >= toDateTime({p2:String}, 'UTC')
                    AND ts < toDateTime({p3:String}, 'UTC')
                    AND name NOT IN ('pageview', 'engagement', 'pageleave', 'identify')
                  ) AS pv
                  GROUP BY e_s
                  HAVING countIf(e_i = {p4:String}) > 0
                ) AS vs
              ) AS l1
            ) AS l2
            WHERE fr > 0
          ) AS l3
          WHERE rl > 0
        ) AS l4
      ) AS pp
    ) AS ps
  ) AS p0
  WHERE k = 1
) AS t
LIMIT 0, 1051
