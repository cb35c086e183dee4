-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "purchase"
SELECT r.1 AS kind, r.2 AS step, r.3 AS source, r.4 AS target, r.5 AS visitors
FROM (
  SELECT arrayReverseSort(arrayMap(e -> e.4, edges))[50] AS th, arraySlice(arraySort(e -> (-toInt64(e.4), e.1, e.2, e.3), arrayFilter((e, t) -> e.4 >= t, edges, arrayResize([th], length(edges), th))), 1, 50) AS top, arrayConcat(arrayMap(e -> e.2, top), arrayMap(e -> e.3, top)) AS items, arrayConcat(arrayMap(e -> (0, e.1, e.2, e.3, e.4), top), arrayMap(x -> (1, x.1, x.2, '', x.3), arrayFilter(x -> has(items, x.2), nodes)), [(2, toInt64(0), '', '', paths)]) AS rs
  FROM (
    SELECT groupArrayArray(arrayMap(o -> (k, source, o.1, o.2), outs)) AS edges, groupArray((k, source, nv)) AS nodes, sum(pc) AS paths
    FROM (
      SELECT k, source, uniqExactMerge(st) AS nv, arrayMap(o -> (o.1, finalizeAggregation(o.3)), arrayFilter(o -> NOT o.2, groupArray((target, last, st)))) AS outs, sumIf(c, k = 1) AS pc
      FROM (
        SELECT k, source, target, last, uniqExactState(v) AS st, count() AS c
        FROM (
          SELECT v, k, path[k] AS source, if(k < n, path[k + 1], '') AS target, k = n AS last
          FROM (
            SELECT v, path, n, toInt64(arrayJoin(arrayEnumerate(path))) AS k
            FROM (
              SELECT v, path, toInt64(length(path)) AS n
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
            )
          ) AS ps
        ) AS s1
        GROUP BY k, source, target, last
      ) AS g1
      GROUP BY k, source
    ) AS g2
  ) AS g3
) AS g4 ARRAY
JOIN rs AS r
LIMIT 0, 1051
