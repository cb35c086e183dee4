-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "2024-04-02 00:00:00"
-- p5 = "Europe/Berlin"
-- p6 = "2024-03-06 23:00:00"
SELECT r.1 AS kind, r.2 AS step, r.3 AS source, r.4 AS target, r.5 AS visitors
FROM (
  SELECT arrayReverseSort(arrayMap(e -> e.4, edges))[50] AS th, arraySlice(arraySort(e -> (-toInt64(e.4), e.1, e.2, e.3), arrayFilter((e, t) -> e.4 >= t, edges, arrayResize([th], length(edges), th))), 1, 50) AS top, arrayConcat(arrayMap(e -> e.2, top), arrayMap(e -> e.3, top)) AS items, arrayConcat(arrayMap(e -> (toUInt8(0), e.1, e.2, e.3, e.4), top), arrayMap(x -> (toUInt8(1), x.1, x.2, '', x.3), arrayFilter(x -> has(items, x.2), nodes)), [(toUInt8(2), toInt64(0), '', '', pc)]) AS rs
  FROM (
    SELECT groupArrayIf((toInt64(step), source, target, t), kind = 0) AS edges, groupArrayIf((toInt64(step), source, t), kind = 1) AS nodes, sumIf(t, kind = 2) AS pc
    FROM (
      SELECT kind, step, source, target, sum(v) AS t
      FROM (
        SELECT kind, step, source, target, toInt64(visitors) AS v
        FROM visit_paths
        WHERE property = {p1:String}
        AND tz = {p5:String}
        AND batch IN (478566, 0)
        AND lday >= 19787
        AND lday <= 19815
        AND prev_lday < 19787
        AND ((kind = 0 AND step < 5) OR (kind = 1 AND step <= 5) OR kind = 2)
        UNION ALL SELECT kind, step, if(kind = 2, '', src) AS source, tgt AS target, sum(sg) AS v
        FROM (
          SELECT w_vkey, x.1 AS kind, x.2 AS step, x.3 AS src, x.4 AS tgt, max(w_p) - max(w_m) AS sg
          FROM (
            SELECT w_skey, w_vkey, w_path, w_p, w_m
            FROM (
              SELECT skey AS w_skey, vkey AS w_vkey, arraySlice(path, 1, 5) AS w_path, toInt8(end_ms < 1712181600000) AS w_p, toInt8(1) AS w_m
              FROM visit_path_visits
              WHERE property = {p1:String}
              AND tz = {p5:String}
              AND batch IN (478566, 0)
              AND vkey IN (
                SELECT cityHash64(visitor_id) AS sv
                FROM events
                WHERE property = {p1:String}
                AND ts >= toDateTime({p4:String}, 'UTC')
                AND ts < toDateTime({p3:String}, 'UTC')
                AND name = 'pageview'
                UNION ALL SELECT vkey AS sv
                FROM (
                  SELECT vkey
                  FROM visits_done
                  WHERE property = {p1:String}
                  AND day >= toDate(toDateTime({p2:String}, 'UTC')) - 2
                  AND day <= toDate(toDateTime({p2:String}, 'UTC'))
                  AND batch IN (478566, 0)
                  AND start_ts < toDateTime({p2:String}, 'UTC')
                  AND end_ts >= toDateTime({p2:String}, 'UTC')
                )
                UNION ALL SELECT vkey AS sv
                FROM (
                  SELECT vkey
                  FROM visits_done
                  WHERE property = {p1:String}
                  AND day >= toDate(toDateTime({p4:String}, 'UTC')) - 2
                  AND day <= toDate(toDateTime({p4:String}, 'UTC'))
                  AND batch IN (478566, 0)
                  AND start_ts < toDateTime({p4:String}, 'UTC')
                  AND end_ts >= toDateTime({p4:String}, 'UTC')
                )
              )
              AND start_ms >= 1709593200000
              AND start_ms < 1712016000000
              UNION ALL SELECT e_skey AS w_skey, e_vkey AS w_vkey, arraySlice(arrayFilter((x, i) -> i = 1 OR x != e_items[i - 1], e_items, arrayEnumerate(e_items)), 1, 5) AS w_path, toInt8(1) AS w_p, toInt8(0) AS w_m
              FROM (
                SELECT cityHash64(session_id) AS e_skey, any(cityHash64(visitor_id)) AS e_vkey, arrayMap(x -> x.2, arraySort(groupArrayIf((toUInt64(ts) * 1000 + ts_ms, path), name = 'pageview'))) AS e_items
                FROM events
                WHERE property = {p1:String}
                AND ts >= toDateTime({p2:String}, 'UTC')
                AND ts < toDateTime({p3:String}, 'UTC')
                AND (ts < toDateTime({p6:String}, 'UTC') OR ts >= toDateTime({p4:String}, 'UTC'))
                AND cityHash64(visitor_id) IN (
                  SELECT cityHash64(visitor_id) AS sv
                  FROM events
                  WHERE property = {p1:String}
                  AND ts >= toDateTime({p4:String}, 'UTC')
                  AND ts < toDateTime({p3:String}, 'UTC')
                  AND name = 'pageview'
                  UNION ALL SELECT vkey AS sv
                  FROM (
                    SELECT vkey
                    FROM visits_done
                    WHERE property = {p1:String}
                    AND day >= toDate(toDateTime({p2:String}, 'UTC')) - 2
                    AND day <= toDate(toDateTime({p2:String}, 'UTC'))
                    AND batch IN (478566, 0)
                    AND start_ts < toDateTime({p2:String}, 'UTC')
                    AND end_ts >= toDateTime({p2:String}, 'UTC')
                  )
                  UNION ALL SELECT vkey AS sv
                  FROM (
                    SELECT vkey
                    FROM visits_done
                    WHERE property = {p1:String}
                    AND day >= toDate(toDateTime({p4:String}, 'UTC')) - 2
                    AND day <= toDate(toDateTime({p4:String}, 'UTC'))
                    AND batch IN (478566, 0)
                    AND start_ts < toDateTime({p4:String}, 'UTC')
                    AND end_ts >= toDateTime({p4:String}, 'UTC')
                  )
                )
                GROUP BY e_skey
                HAVING e_skey NOT IN (
                  SELECT skey
                  FROM visit_path_visits
                  WHERE property = {p1:String}
                  AND tz = {p5:String}
                  AND batch IN (478566, 0)
                  AND vkey IN (
                    SELECT cityHash64(visitor_id) AS sv
                    FROM events
                    WHERE property = {p1:String}
                    AND ts >= toDateTime({p4:String}, 'UTC')
                    AND ts < toDateTime({p3:String}, 'UTC')
                    AND name = 'pageview'
                    UNION ALL SELECT vkey AS sv
                    FROM (
                      SELECT vkey
                      FROM visits_done
                      WHERE property = {p1:String}
                      AND day >= toDate(toDateTime({p2:String}, 'UTC')) - 2
                      AND day <= toDate(toDateTime({p2:String}, 'UTC'))
                      AND batch IN (478566, 0)
                      AND start_ts < toDateTime({p2:String}, 'UTC')
                      AND end_ts >= toDateTime({p2:String}, 'UTC')
                    )
                    UNION ALL SELECT vkey AS sv
                    FROM (
                      SELECT vkey
                      FROM visits_done
                      WHERE property = {p1:String}
                      AND day >= toDate(toDateTime({p4:String}, 'UTC')) - 2
                      AND day <= toDate(toDateTime({p4:String}, 'UTC'))
                      AND batch IN (478566, 0)
                      AND start_ts < toDateTime({p4:String}, 'UTC')
                      AND end_ts >= toDateTime({p4:String}, 'UTC')
                    )
                  )
                  AND start_ms >= 1709593200000
                  AND start_ms < 1712016000000
                  AND end_ms < 1712181600000
                  AND (start_ms < 1709766000000 OR start_ms >= 1711843200000)
                )
              )
            )
          ) ARRAY
          JOIN arrayConcat(arrayMap(k -> (toUInt8(1), toUInt8(k), w_path[k], ''), arrayEnumerate(w_path)), arrayMap(k -> (toUInt8(0), toUInt8(k), w_path[k], w_path[k + 1]), arraySlice(arrayEnumerate(w_path), 1, length(w_path) - 1)), arrayFilter(x -> length(w_path) > 0, [(toUInt8(2), toUInt8(0), toString(w_skey), '')])) AS x
          GROUP BY w_vkey, kind, step, src, tgt
          HAVING sg != 0
        )
        GROUP BY kind, step, source, target
      )
      GROUP BY kind, step, source, target
      HAVING t > 0
      OR kind = 2
    )
  )
) ARRAY
JOIN rs AS r
LIMIT 0, 1051
